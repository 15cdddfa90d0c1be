"""The round's controls, on the night's page and on the desk: start the
next round (and how the players here would sit, 3-handed tables
offered), call the round still being played, close the night, undo the
last call or the close; and, when the next round cannot start yet, why."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.leagues import schedule
from scorekeeper.leagues.models import Movement, Night, Round
from scorekeeper.leagues.seating import three_handed_offered


@dataclass(frozen=True)
class Controls:
    """The round's buttons, on the night's page and on the desk."""

    number: int  # of the round the start button starts
    waiting: str  # why it cannot start yet ("": it can)
    seating: str  # how the players here would sit
    three_handed: int  # 3-handed tables that would seat everyone (0: none)
    fours: int  # the tables of 4 beside them
    call: Round | None  # the round still being played, to call
    closed: bool
    # The next round's movement (offered on progressive nights) and clock,
    # as the last round had them.
    movements: list[tuple[str, str]]
    movement: str
    minutes: int | None
    auto_call: bool
    undo_call: Round | None = None  # the last round, called: its call undone


def round_controls(
    night: Night, played: Round | None, tables: int, unfinished: int, here: int
) -> Controls:
    """What the organizer may do next, and, when the next round cannot
    start yet, why (the service refuses it too): ``played`` is the last
    round, with ``unfinished`` of its ``tables`` not finished."""
    number = played.number + 1 if played else 1
    playing = played is not None and played.called_at is None and unfinished > 0
    called = played is not None and played.called_at is not None
    waiting = ""
    if playing:
        waiting = (
            f"Round {number - 1} is still being played ({unfinished} of {tables} "
            f"table{'s' if tables != 1 else ''} unfinished): call it, or wait "
            "until every game is finished."
        )
    elif night.format == Night.PROGRESSIVE and here < 4:
        waiting = f"A round needs at least 4 players here ({here} now)."
    triads = 0
    if night.format == Night.PROGRESSIVE and here % 4 and three_handed_offered(night):
        triads = schedule.three_handed_tables(here) or 0
    return Controls(
        number=number,
        waiting=waiting,
        seating=_seating(night, here),
        three_handed=triads,
        fours=(here - 3 * triads) // 4,
        call=played if playing else None,
        closed=night.closed_at is not None,
        undo_call=played if called and night.closed_at is None else None,
        movements=Movement.choices if night.format == Night.PROGRESSIVE else [],
        movement=played.movement if played else Movement.CIRCLE,
        minutes=_minutes(played),
        auto_call=bool(played and played.auto_call and _minutes(played)),
    )


def _minutes(played: Round | None) -> int | None:
    """The last round's length in minutes (none: it had no clock)."""
    if played is None or played.ends_at is None:
        return None
    minutes = round((played.ends_at - played.started_at).total_seconds() / 60)
    return minutes if minutes > 0 else None


def last_round(night: Night) -> tuple[Round | None, int, int]:
    """The night's last round, its tables and how many are unfinished."""
    played = night.rounds.last()
    if played is None:
        return None, 0, 0
    finished = list(played.tables.values_list("game__finished", flat=True))
    return played, len(finished), finished.count(False)


def _seating(night: Night, here: int) -> str:
    if night.format != Night.PROGRESSIVE:
        return f"{here} here."
    tables, out = divmod(here, 4)
    sentence = f"{here} here: {tables} table{'s' if tables != 1 else ''} of 4"
    if out:
        sentence += f", {out} sit{'s' if out == 1 else ''} out"
    return sentence + "."
