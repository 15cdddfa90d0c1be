"""A game's row in plain SQL: the same Game as the ORM reads, and the
append's guarded move."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from scorekeeper.gamerows import game_row, move_row
from scorekeeper.models import Game
from tests.records import new_game, record_hands


def _fields(game: Game) -> dict[str, object]:
    return {
        field.attname: getattr(game, field.attname)
        for field in Game._meta.concrete_fields
    }


def test_a_game_read_in_plain_sql_is_the_game_the_orm_reads(
    db: None, now: datetime
) -> None:
    game = new_game("moon-42", target_score=21)
    record_hands(game, now, (1, 4, "hearts", [2, 4]))
    Game.objects.filter(pk=game.pk).update(
        name="Thursday at Ann's", locked=True, seat_notes=["Bob → Eve from hand 2"]
    )
    read = game_row(game.pk)
    assert read is not None and not read._state.adding
    assert _fields(read) == _fields(Game.objects.get(pk=game.pk))
    assert game_row(uuid.uuid4()) is None


def test_a_row_moves_only_from_the_seq_it_stands_at(db: None, now: datetime) -> None:
    game = new_game("classic")
    later = now + timedelta(minutes=5)
    moved = {"last_seq": 1, "totals": [3, -6], "updated_at": later}
    assert not move_row(game.pk, 1, moved)  # it stands at 0
    assert move_row(game.pk, 0, moved)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.last_seq, stored.totals, stored.updated_at) == (1, [3, -6], later)
