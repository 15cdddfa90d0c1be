"""Players' names up to 60 characters, compared by a stored key (NFKC,
case-folded) unique in a league instead of ``lower(name)``, which SQLite
folds only in ASCII. Existing players get their key; of two players of a
league whose names now share a key (possible on SQLite: "Émile" and
"émile"), the later one is renamed "émile (2)"."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from django.db import migrations, models


def fill_name_keys(apps: Any, schema_editor: Any) -> None:
    # The live naming code: the key must be the one the services compare.
    from scorekeeper.leagues.names import distinct_names, name_key

    player_model = apps.get_model("leagues", "Player")
    players = player_model.objects.order_by("league", "pk")
    for _, listed in groupby(players.iterator(), key=lambda p: p.league_id):
        league_players = list(listed)
        names = distinct_names([p.name for p in league_players])
        for player, name in zip(league_players, names, strict=True):
            player.name, player.name_key = name, name_key(name)
        player_model.objects.bulk_update(league_players, ["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0004_rating_order"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(max_length=60),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", max_length=255),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_name_once_per_league",
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("league", "name_key"), name="player_name_once_per_league"
            ),
        ),
    ]
