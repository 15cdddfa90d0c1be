from __future__ import annotations

from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    """The log core: games and their append-only logs."""

    name = "scorekeeper"
    default_auto_field = "django.db.models.BigAutoField"
