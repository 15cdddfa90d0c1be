"""A league night's rounds as plainly named functions: seating the next
round and creating its games, calling a round, closing the night, and an
organizer's change to a closed night's game.

Each runs in one transaction under the night's row lock, so the same
action sent twice (a double tap) or at once by two phones finds the first
one done, and a server stopped midway leaves nothing half done. Games are
made and changed only through the game services, so every table's log
stays append-only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.eventstore import Conflict
from scorekeeper.gamelog import clean_text
from scorekeeper.games import services
from scorekeeper.games.change_lines import change_words
from scorekeeper.leagues import schedule
from scorekeeper.leagues.models import Change, Movement, Night, Round, Seat, Table
from scorekeeper.leagues.night_rows import project_nights
from scorekeeper.leagues.seating import next_seating
from scorekeeper.leagues.services import LeagueError, refuse_closed
from scorekeeper.models import Game
from scorekeeper.projections import boards
from scorekeeper.recording import Appended
from scorekeeper.rules.events import HandCorrected


def round_start(
    *,
    night: Night,
    rng: random.Random,
    now: datetime,
    three_handed: bool = False,
    number: int | None = None,
    movement: str = Movement.CIRCLE,
    minutes: int | None = None,
    auto_call: bool = False,
    by: User | None = None,
) -> Round:
    """Seat the next round and create each table's game (seats bound to
    players); the previous round must be over (finished or called). With
    ``three_handed``, nobody sits out: the players left over from the fours
    play 3-handed ``classic`` (each for himself), whatever the season plays.
    ``movement``: how a progressive night seats it (``seating``).
    ``minutes``: the round's length (its clock ends then); ``auto_call``:
    the task worker calls it at the end (``round_clock``).
    ``number``: the round the organizer asked for; when it exists already
    (the same form sent twice) it is the answer, and nothing else starts;
    started by another organizer (``by``: who asks), that is refused in
    words, so the one who lost the race knows their choices were not
    used."""
    if auto_call and not minutes:
        raise LeagueError("to call the round when time is up, give its length")
    with transaction.atomic():
        night_lock(night)
        if number is not None:
            asked = night.rounds.select_related("started_by").filter(number=number)
            found = asked.first()
            if found is not None:
                _refuse_anothers(found, by)
                return found
        refuse_closed(night)
        last = night.rounds.last()
        if last is not None and last.called_at is None and _unfinished(last):
            raise LeagueError(
                f"round {last.number} is still being played: call it first"
            )
        try:
            seating = next_seating(
                night, rng, three_handed=three_handed, movement=movement
            )
        except schedule.ScheduleError as error:
            raise LeagueError(error.message) from None
        new = Round.objects.create(
            night=night,
            number=(last.number + 1) if last else 1,
            started_at=now,
            movement=movement if night.format == Night.PROGRESSIVE else Movement.CIRCLE,
            ends_at=now + timedelta(minutes=minutes) if minutes else None,
            auto_call=auto_call,
            started_by=by,
        )
        new.sitting_out.set([int(pk) for pk in seating.sitting_out])
        _seat_tables(new, seating, rng, now)
        project_nights([night.pk])  # its games' rules counted (the season's page)
    return new


def _refuse_anothers(started: Round, by: User | None) -> None:
    """Round N asked for again: the same organizer's tap sent twice is
    answered as the first; another organizer's is told who was first."""
    first = started.started_by
    if by is None or first is None or first.pk == by.pk:
        return
    raise LeagueError(
        f"round {started.number} was started by {first.get_username()}, "
        "with their choices: its tables are below"
    )


def _seat_tables(
    new: Round, seating: schedule.Round, rng: random.Random, now: datetime
) -> None:
    night = new.night
    season = night.season
    names = dict(season.league.players.values_list("pk", "name"))
    for position, table in enumerate(seating.tables, start=1):
        preset, rules = season.preset, season.overrides
        if table.three_handed:
            preset, rules = schedule.three_handed_rules(preset, rules)
        game = services.game_create(
            preset=preset,
            seats=[names[int(pk)] for pk in table.seats],
            first_dealer=rng.randrange(len(table.seats)),
            overrides=rules,
            name=f"{night.date} round {new.number} table {position}",
            now=now,
        )
        made = Table.objects.create(round=new, number=position, game=game)
        Seat.objects.bulk_create(
            Seat(table=made, position=i, player_id=int(pk))
            for i, pk in enumerate(table.seats)
        )


def night_lock(night: Night) -> None:
    """Lock the night's row for the rest of the transaction (PostgreSQL;
    SQLite's immediate transaction holds the whole database) and read it
    again: two requests acting on one night run one after the other, and
    the second sees what the first did."""
    fresh = Night.objects.select_for_update().get(pk=night.pk)
    night.closed_at, night.teams = fresh.closed_at, fresh.teams


def _unfinished(played: Round) -> list[Table]:
    return [t for t in played.tables.select_related("game") if not t.game.finished]


def round_call(*, round: Round, by: str, now: datetime) -> int:
    """End every unfinished game of the round as it stands (contract §6:
    the highest total wins), in one transaction; returns how many were
    ended. A table that never recorded a hand is left unplayed, so it
    counts for nobody (ended, it would make all four co-winners at 0). A
    round called already (the same call sent twice) is left as it is."""
    with transaction.atomic():
        night_lock(round.night)
        round.refresh_from_db(fields=["called_at"])
        if round.called_at is not None:
            return 0
        refuse_closed(round.night)
        ended = 0
        for table in _unfinished(round):
            reason = f"round {round.number} called"
            ended += _end_as_it_stands(table.game, reason=reason, by=by, now=now)
        round.called_at = now
        round.save(update_fields=["called_at"])
    return ended


def _end_as_it_stands(game: Game, *, reason: str, by: str, now: datetime) -> bool:
    """End a game that has a hand and is not finished; a hand saved at the
    table meanwhile moves its log on (a conflict): read it and try again."""
    for _ in range(5):
        if game.finished or not game.last_seq:
            return False
        try:
            _end(game, reason=reason, by=by, now=now)
        except Conflict:
            game.refresh_from_db()
        else:
            return True
    raise LeagueError("a table is saving hands right now: try again in a moment")


def _end(game: Game, *, reason: str, by: str, now: datetime) -> None:
    services.game_end(
        game=game, expected_seq=game.last_seq, reason=reason, by=by, now=now
    )


def night_close(*, night: Night, by: str, now: datetime) -> None:
    """Close the night: unfinished games end as they stand, and every
    table's edit link only reads from now on. One transaction: a crash
    midway leaves the night open as it was, to be closed again. A night
    closed already (the same close sent twice) is left as it is."""
    with transaction.atomic():
        night_lock(night)
        if night.closed_at is not None:
            return
        for played in night.rounds.all():
            if played.called_at is None and _unfinished(played):  # else: finished
                round_call(round=played, by=by, now=now)
        Game.objects.filter(table__round__night=night).update(locked=True)
        night.closed_at = now
        night.save(update_fields=["closed_at"])


def closed_game_change(
    *,
    game: Game,
    user: User,
    reason: str,
    what: str,
    append: Callable[..., Appended],
    now: datetime,
) -> Appended:
    """An organizer's void or correction of a closed night's game: the
    event is appended by ``append(by=..., note=...)`` with the organizer's name and
    the reason (the event's note, on the game's history), and the night's
    change log gets a line, in one transaction. A game the change leaves
    unfinished (a void of the hand that won it) ends as it then stands, as
    the night's close would have ended it. A game that was ended (its round
    called) takes a change too and stays ended, won by the highest totals
    once the change is in; a change that would make it won before its end
    is refused and nothing is written (contract §6)."""
    why = " ".join(reason.split())
    if not why:
        raise LeagueError("A change after the night was closed needs a reason.")
    problem = clean_text(why, limit=200)
    if problem:
        raise LeagueError(f"The reason {problem}.")
    table = Table.objects.select_related("round__night").get(game=game)
    try:
        with transaction.atomic():
            before = boards.scoreboard(game.pk, boards.game_log(game))
            appended = append(by=user.get_username(), note=why)
            if not appended.board.finished:  # a void can undo the last hand's win
                _end(game, reason="night closed", by=user.get_username(), now=now)
            if not appended.repeated:
                after = boards.scoreboard(game.pk, boards.game_log(game))
                corrected = isinstance(appended.log.entries[-1].event, HandCorrected)
                line = _change_line(what, change_words(before, after), corrected)
                Change.objects.create(
                    night=table.round.night,
                    game=game,
                    by=user,
                    at=now,
                    reason=why,
                    what=f"round {table.round.number} table {table.number}: {line}",
                )
    except LeagueError:
        boards.forget(game.pk)  # what this process kept of the undone append
        raise
    return appended


def _change_line(what: str, changed: str, corrected: bool) -> str:
    """The change log's words: what changed, before and after. A void is
    named by the game's words ("a hand voided (...)"), then its effect on
    the winner, if any. (A correction that changes nothing never gets
    here: the referee refuses it before it is written, ``recording``.)"""
    if corrected:
        return changed[:180]
    return f"{what}; {changed}"[:180] if changed else what[:180]
