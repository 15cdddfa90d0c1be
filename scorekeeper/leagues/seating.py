"""Seating a night's next round from the database: the rounds played as
the scheduler sees them, who is here, and the seats ``schedule`` draws
(its refusals are ``schedule.ScheduleError``, in words)."""

from __future__ import annotations

import random

from scorekeeper.leagues import schedule
from scorekeeper.leagues.models import Night


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


def next_seating(
    night: Night, rng: random.Random, *, three_handed: bool = False
) -> schedule.Round:
    """The next round's seats for the players here (a fixed-teams night
    draws its teams first, once)."""
    if three_handed and not three_handed_offered(night):
        raise schedule.ScheduleError("a fixed team plays whole: no 3-handed tables")
    present = [
        str(pk)
        for pk in night.checkins.filter(present=True).values_list("player", flat=True)
    ]
    played = played_rounds(night)
    if night.format == Night.PROGRESSIVE:
        return schedule.progressive_round(present, played, three_handed=three_handed)
    if not night.teams:
        teams = schedule.draw_teams(present, night.season.seats // 2, rng)
        night.teams = [list(team) for team in teams]
        night.save(update_fields=["teams"])
    return schedule.fixed_round([tuple(team) for team in night.teams], played)
