"""Seating a night's next round from the database: the rounds played as
the scheduler sees them, who is here, and the seats ``schedule`` draws
(its refusals are ``schedule.ScheduleError``, in words)."""

from __future__ import annotations

import random
from collections import Counter

from scorekeeper.leagues import schedule
from scorekeeper.leagues.models import Movement, Night
from scorekeeper.leagues.movement import TableResult, winners_move_up


def played_rounds(night: Night) -> list[schedule.Round]:
    """The night's rounds so far, as the scheduler sees them."""
    played = []
    for past in night.rounds.prefetch_related("tables__seats", "sitting_out"):
        tables = []
        for table in past.tables.all():
            ids = [str(seat.player_id) for seat in table.seats.all()]
            teams = (
                tuple((pk,) for pk in ids)  # 3-handed: each for himself
                if len(ids) == 3
                else (tuple(ids[0::2]), tuple(ids[1::2]))
            )
            tables.append(schedule.Table(teams))
        out = tuple(str(player.pk) for player in past.sitting_out.all())
        played.append(schedule.Round(tuple(tables), out))
    return played


def three_handed_offered(night: Night) -> bool:
    """Whether a round of this night may seat 3-handed ``classic`` tables
    instead of sit-outs: only where partners rotate (a fixed team plays
    whole)."""
    return night.format == Night.PROGRESSIVE


def last_results(night: Night) -> list[TableResult]:
    """The night's last round as the movement reads it: each table (head
    first) and the side that won it (None: a tie, or nothing recorded)."""
    last = night.rounds.prefetch_related("tables__seats", "tables__game").last()
    if last is None:
        return []
    results = []
    for table in last.tables.all():
        ids = [str(seat.player_id) for seat in table.seats.all()]
        teams = (
            tuple((pk,) for pk in ids)
            if len(ids) == 3
            else (tuple(ids[0::2]), tuple(ids[1::2]))
        )
        winners = table.game.winners
        won = winners[0] if len(winners) == 1 else None
        results.append(TableResult(schedule.Table(teams), won))
    return results


def next_seating(
    night: Night,
    rng: random.Random,
    *,
    three_handed: bool = False,
    movement: str = Movement.CIRCLE,
) -> schedule.Round:
    """The next round's seats for the players here (a fixed-teams night
    draws its teams first, once). ``movement`` (progressive nights): the
    round-robin circle, or winners moving up from the last round's
    results (a first round is seated as the circle's)."""
    if three_handed and not three_handed_offered(night):
        raise schedule.ScheduleError("a fixed team plays whole: no 3-handed tables")
    present = [
        str(pk)
        for pk in night.checkins.filter(present=True).values_list("player", flat=True)
    ]
    played = played_rounds(night)
    if night.format == Night.PROGRESSIVE and movement == Movement.WINNERS_UP and played:
        if three_handed:
            raise schedule.ScheduleError(
                "when winners move up every table seats 4: start it without "
                "3-handed tables"
            )
        sat_out = Counter(p for each in played for p in each.sitting_out)
        return winners_move_up(last_results(night), present, sat_out)
    if night.format == Night.PROGRESSIVE:
        return schedule.progressive_round(present, played, three_handed=three_handed)
    if not night.teams:
        teams = schedule.draw_teams(present, night.season.seats // 2, rng)
        night.teams = [list(team) for team in teams]
        night.save(update_fields=["teams"])
    return schedule.fixed_round([tuple(team) for team in night.teams], played)
