"""The one registry of projectors: each is told of every event appended,
in the transaction that appends it, so what it keeps moves with the log
(and rolls back with it).

The game's row comes first (its guard is what a racing append trips on);
a capability adds its own when it starts (``leagues.apps``), so the log
core never imports it: ``register("name", projector)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from scorekeeper.models import Game
from scorekeeper.projections import game_rows
from scorekeeper.rules.engine import Scoreboard, Snapshot


@dataclass(frozen=True, slots=True)
class Committed:
    """Event ``seq`` of ``game``, appended and refereed: the engine's
    ``state`` after it, the whole ``board`` when the referee replayed the
    log for it, and the game's row as the append found it."""

    game: Game
    seq: int
    state: Snapshot
    board: Scoreboard | None
    at: datetime  # when the event was recorded
    row: Mapping[str, Any] = field(repr=False)
    was_finished: bool


Projector = Callable[[Committed], None]


def _game_row(change: Committed) -> None:
    made = (change.state, change.board, change.at)
    game_rows.move(change.game, made, change.row, change.seq - 1)


_PROJECTORS: dict[str, Projector] = {"game row": _game_row}


def register(name: str, projector: Projector) -> None:
    """Add ``projector`` under ``name`` (again: replaced, not added twice)."""
    _PROJECTORS[name] = projector


def project(change: Committed) -> None:
    for projector in _PROJECTORS.values():
        projector(change)
