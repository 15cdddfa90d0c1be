"""Each check-in's own link (a token), the "I'm at my table" round and the
door's one-time key; each night's door link and whether players may check
themselves in. The tokens of existing rows are drawn one by one (a single
default would repeat one token on every row)."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import scorekeeper.models


def _draw_tokens(apps: Any, schema_editor: Any) -> None:
    for model_name, field in (("CheckIn", "token"), ("Night", "door_token")):
        model = apps.get_model("leagues", model_name)
        for row in model.objects.filter(**{f"{field}__isnull": True}).only("pk"):
            setattr(row, field, scorekeeper.models.new_token())
            row.save(update_fields=[field])


class Migration(migrations.Migration):
    dependencies = [("leagues", "0014_game_takeovers_from_substitutions")]

    operations = [
        migrations.AddField(
            model_name="checkin",
            name="token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="night",
            name="door_token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(_draw_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="checkin",
            name="token",
            field=models.CharField(
                default=scorekeeper.models.new_token, max_length=64, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="night",
            name="door_token",
            field=models.CharField(
                default=scorekeeper.models.new_token, max_length=64, unique=True
            ),
        ),
        migrations.AddField(
            model_name="checkin",
            name="seated_round",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="checkin",
            name="door_key",
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.AddField(
            model_name="night",
            name="self_check_in",
            field=models.BooleanField(default=True),
        ),
    ]
