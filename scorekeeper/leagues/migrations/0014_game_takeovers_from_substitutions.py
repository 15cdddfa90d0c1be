"""Each game's substitutions copied onto its row (``Game.takeovers``), in
the order they were made: the table reads who plays from there."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def copy_takeovers(apps: Any, schema_editor: Any) -> None:
    Substitution = apps.get_model("leagues", "Substitution")
    Game = apps.get_model("scorekeeper", "Game")
    changes: dict[Any, list[list[object]]] = {}
    rows = Substitution.objects.order_by("pk").values_list(
        "table__game_id", "position", "substitute__name", "from_hand"
    )
    for game_id, position, name, from_hand in rows:
        changes.setdefault(game_id, []).append([position, name, from_hand])
    for game_id, listed in changes.items():
        Game.objects.filter(pk=game_id).update(takeovers=listed)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0013_change_log_undo"),
        ("scorekeeper", "0009_game_takeovers"),
    ]

    operations = [migrations.RunPython(copy_takeovers, migrations.RunPython.noop)]
