from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The table's phones: who sits where, and the auction in progress."""

    name = "scorekeeper.games"
    label = "games"
    default_auto_field = "django.db.models.BigAutoField"
