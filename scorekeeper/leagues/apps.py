from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    default_auto_field = "django.db.models.BigAutoField"
