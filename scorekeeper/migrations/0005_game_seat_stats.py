"""Each game row gains its seats' statistics (``seatstats``), computed from
the game's log for the games already stored."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def fill_seat_stats(apps: Any, schema_editor: Any) -> None:
    # The live code, not the historical model: the statistics are the
    # engine's replay of each log, which only the live code can do. Only
    # this migration's column is written, so that the migration still runs
    # when the row's projection gains columns later.
    from scorekeeper.eventstore import LOG_FIELDS, load
    from scorekeeper.gamelog import replay_log
    from scorekeeper.models import Game
    from scorekeeper.seatstats import seat_stats

    for game in Game.objects.filter(last_seq__gt=0).only(*LOG_FIELDS):
        stats = seat_stats(replay_log(load(game)))
        Game.objects.filter(pk=game.pk).update(seat_stats=stats)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0004_game_standings_projection"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="seat_stats",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(fill_seat_stats, migrations.RunPython.noop),
    ]
