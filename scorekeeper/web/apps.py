from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    """The web platform every capability stands on: capabilities and roles,
    limits, log redaction, QR codes, the URL converters."""

    name = "scorekeeper.web"
    label = "web"

    def ready(self) -> None:
        from scorekeeper.web import converters

        converters.register()
