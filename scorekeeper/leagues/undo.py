"""An organizer's "Call round" or "Close the night" undone, before the next
round starts. Nothing is deleted: each game the call ended as it stood
takes a void of its end event (the engine withdraws the end, contract §6)
and plays on with every hand it had; the night's change log gets a line
saying who undid what, and when. Each runs in one transaction under the
night's row lock, as the call and the close do (``rounds``)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.eventstore import Conflict
from scorekeeper.games import services
from scorekeeper.leagues.models import Change, Night, Round
from scorekeeper.leagues.rounds import night_lock
from scorekeeper.leagues.services import LeagueError
from scorekeeper.models import Game
from scorekeeper.projections import boards


def round_call_undo(*, round: Round, user: User, now: datetime) -> int:
    """Undo the call of ``round``: its games that the call ended play on,
    and the round is in play again; returns how many games play on.
    Refused, in words, once the next round has started, on a closed night
    (its close is undone first) and for a round that is not called."""
    with transaction.atomic():
        night = round.night
        night_lock(night)
        round.refresh_from_db(fields=["called_at"])
        if night.closed_at is not None:
            raise LeagueError(
                "The night is closed: undo Close the night first, then the call."
            )
        _refuse_uncallable(night, round)
        resumed = _resume(round, user.get_username(), now)
        round.called_at = None
        round.auto_call = False  # the clock, past its end, would call it again
        round.save(update_fields=["called_at", "auto_call"])
        _log(night, user, now, f"round {round.number}'s call undone{_said(resumed)}")
    return resumed


def night_close_undo(*, night: Night, user: User, now: datetime) -> int:
    """Reopen a closed night: the tables' links edit again, and a round the
    close called (its last, if still in play then) is in play again, its
    games going on as they stood; returns how many games play on."""
    with transaction.atomic():
        night_lock(night)
        closed_at = night.closed_at
        if closed_at is None:
            raise LeagueError("The night is open: there is no close to undo.")
        called = list(night.rounds.filter(called_at=closed_at))  # by the close
        resumed = 0
        for played in called:
            resumed += _resume(played, user.get_username(), now)
            played.called_at = None
            played.auto_call = False
            played.save(update_fields=["called_at", "auto_call"])
        Game.objects.filter(table__round__night=night).update(locked=False)
        night.closed_at = None
        night.save(update_fields=["closed_at"])
        words = "the night's close undone"
        if called:
            words += f" with round {called[-1].number}'s call{_said(resumed)}"
        _log(night, user, now, words)
    return resumed


def _refuse_uncallable(night: Night, played: Round) -> None:
    if played.called_at is None:
        raise LeagueError(
            f"Round {played.number} was not called: there is no call to undo."
        )
    later = night.rounds.filter(number__gt=played.number).order_by("number").first()
    if later is not None:
        raise LeagueError(
            f"Round {later.number} has started: a call can be undone only "
            "until the next round starts."
        )


def _resume(played: Round, by: str, now: datetime) -> int:
    """Withdraw the end of each game of the round that its call ended (a
    game ended at its table, or won, stays as it is)."""
    reason = f"round {played.number} called"
    resumed = 0
    for table in played.tables.select_related("game"):
        resumed += _withdraw_end(table.game, reason=reason, by=by, now=now)
    return resumed


def _withdraw_end(game: Game, *, reason: str, by: str, now: datetime) -> bool:
    """Void the game's end in force if ``reason`` ended it; a fix saved
    meanwhile moves its log on (a conflict): read it and try again."""
    for _ in range(5):
        board = boards.scoreboard(game.pk, boards.game_log(game))
        if board.decided != "ended" or board.end_reason != reason:
            return False
        try:
            services.hand_void(
                game=game,
                expected_seq=game.last_seq,
                target=board.ended,
                reason="call undone",
                by=by,
                now=now,
            )
        except Conflict:
            game.refresh_from_db()
        else:
            return True
    raise LeagueError("a table is saving a change right now: try again in a moment")


def _said(resumed: int) -> str:
    if not resumed:
        return ""
    return f": {resumed} game{'s' if resumed != 1 else ''} play{'' if resumed != 1 else 's'} on"


def _log(night: Night, user: User, now: datetime, what: str) -> None:
    Change.objects.create(night=night, game=None, by=user, at=now, reason="", what=what)
