"""A night's movement cards: each player's table and seat, round by
round, for the rounds that can be known in advance. Played rounds are as
they were seated; a round-robin's next rounds follow from who is here
now (the circle does not depend on results); a progressive round
(winners move up) is known only once the round before it is over, so its
card shows just the next round (round 1, before the night starts)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.leagues import schedule
from scorekeeper.leagues.collation import sort_key
from scorekeeper.leagues.models import Movement, Night
from scorekeeper.leagues.movement import winners_move_up
from scorekeeper.leagues.results import cached
from scorekeeper.leagues.seating import last_results, played_rounds

# Rounds a card lists at most (a round-robin of 80 has 79): a club night
# plays fewer, and each is a full seating to work out (80 players' 12
# rounds: some 2 s, once: the rounds are kept under what they follow from).
MOST_ROUNDS = 12
KEPT_SECONDS = 3600


@dataclass(frozen=True)
class Place:
    """Where a player sits in a round: table and seat (1-based) and
    partners; no table when sitting out, or not here then."""

    round: int
    table: int | None = None
    seat: int | None = None
    partners: str = ""  # "" at a 3-handed table (each for himself)
    ahead: bool = False  # a round not yet started
    out: bool = False  # here, sitting out


def movement_cards(night: Night, movement: str) -> dict[str, Any]:
    """Every player's card (by name) for the rounds known: those played,
    then those ``movement`` lets be known now."""
    played = played_rounds(night)
    present = [
        str(pk)
        for pk in night.checkins.filter(present=True).values_list("player", flat=True)
    ]
    ahead = _ahead(night, played, present, movement)
    rounds = [*played, *ahead]
    names = dict(night.season.league.players.values_list("pk", "name"))
    people = set(present) | {p for r in rounds for p in _everyone(r)}
    cards = [
        {"name": names[int(pk)], "places": _places(pk, rounds, len(played), names)}
        for pk in sorted(people, key=lambda pk: sort_key(names[int(pk)]))
    ]
    return {
        "cards": cards,
        "played": len(played),
        "ahead": len(ahead),
        "here": len(present),
        "movement": movement,
        "winners_up": movement == Movement.WINNERS_UP,
        "movements": Movement.choices if night.format == Night.PROGRESSIVE else [],
    }


def _ahead(
    night: Night, played: list[schedule.Round], present: list[str], movement: str
) -> list[schedule.Round]:
    """The rounds not yet started that can be known now."""
    last = night.rounds.last()
    try:
        if night.format == Night.FIXED:
            teams = [tuple(team) for team in night.teams]
            return _circle_ahead(
                played, len(teams), lambda known: schedule.fixed_round(teams, known)
            )
        if movement == Movement.WINNERS_UP:
            if last is None:
                return [schedule.progressive_round(present, [])]
            if last.called_at is None and last.tables.filter(game__finished=False):
                return []  # its results are not known yet
            sat_out = Counter(p for each in played for p in each.sitting_out)
            return [winners_move_up(last_results(night), present, sat_out)]
        return cached(
            _key(night, played, present),
            lambda: _circle_ahead(
                played,
                len(present),
                lambda known: schedule.progressive_round(present, known),
            ),
            timeout=KEPT_SECONDS,
        )
    except schedule.ScheduleError:
        return []  # too few here (or no teams drawn yet): nothing ahead


def _key(night: Night, played: list[schedule.Round], present: list[str]) -> str:
    """The round-robin's rounds ahead follow only from the rounds played
    and who is here: the cache's key names both."""
    digest = hashlib.sha256(repr((played, present)).encode()).hexdigest()[:24]
    return f"movement-ahead:{night.pk}:{digest}"


def _circle_ahead(
    played: list[schedule.Round],
    entrants: int,
    next_round: Callable[[list[schedule.Round]], schedule.Round],
) -> list[schedule.Round]:
    """The rounds after those played, up to a whole circle of ``entrants``
    (n-1 rounds; n with an odd count's bye), at most ``MOST_ROUNDS``."""
    whole = entrants - 1 + entrants % 2
    known = list(played)
    while len(known) < min(whole, MOST_ROUNDS):
        known.append(next_round(known))
    return known[len(played) :]


def _everyone(seated: schedule.Round) -> list[str]:
    return [p for t in seated.tables for p in t.seats] + list(seated.sitting_out)


def _places(
    player: str, rounds: list[schedule.Round], played: int, names: dict[int, str]
) -> list[Place]:
    """The player's place in each round: table, seat and partners, or
    sitting out, or not here then."""
    places = []
    for index, seated in enumerate(rounds):
        place = Place(
            index + 1, ahead=index >= played, out=player in seated.sitting_out
        )
        for number, table in enumerate(seated.tables, start=1):
            if player in table.seats:
                team = next(team for team in table.teams if player in team)
                partners = " & ".join(names[int(p)] for p in team if p != player)
                place = Place(
                    index + 1,
                    table=number,
                    seat=table.seats.index(player) + 1,
                    partners=partners,
                    ahead=index >= played,
                )
        places.append(place)
    return places
