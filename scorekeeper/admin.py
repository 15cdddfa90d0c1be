"""The admin shows games and their events; events are read-only there."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from scorekeeper.models import Game, GameEvent


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ["id", "preset", "hands_played", "finished", "updated_at"]
    readonly_fields = [field.name for field in Game._meta.fields]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin[GameEvent]):
    list_display = ["game", "seq", "type", "recorded_at", "recorded_by"]
    list_filter = ["type"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
