from __future__ import annotations

from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scorekeeper import converters

        converters.register()
