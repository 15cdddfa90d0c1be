"""Capability tokens for games: added empty, filled one by one (a callable
default would give every existing game the same token), then made unique."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import scorekeeper.models


def fill_tokens(apps: Any, schema_editor: Any) -> None:
    game_model = apps.get_model("scorekeeper", "Game")
    for game in game_model.objects.all():
        game.edit_token = scorekeeper.models.new_token()
        game.view_token = scorekeeper.models.new_token()
        game.save(update_fields=["edit_token", "view_token"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0001_initial")]

    operations = [
        migrations.AddField(
            "game", "edit_token", models.CharField(max_length=64, null=True)
        ),
        migrations.AddField(
            "game", "view_token", models.CharField(max_length=64, null=True)
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            "game",
            "edit_token",
            models.CharField(
                default=scorekeeper.models.new_token, max_length=64, unique=True
            ),
        ),
        migrations.AlterField(
            "game",
            "view_token",
            models.CharField(
                default=scorekeeper.models.new_token, max_length=64, unique=True
            ),
        ),
    ]
