"""Seating a league night: who plays with and against whom, round by round.
Pure: player ids in, tables out; no Django, no clock, no hidden randomness
(a draw takes its ``random.Random``).

- *Progressive* (4-seat tables, partners rotate): the round-robin circle
  method over the players present gives n-1 rounds in which every two
  players partner exactly once. Each round takes the circle round, not yet
  played, that sits out the right players (nobody sits out twice before
  everyone has sat out once), repeats the fewest partnerships, then spreads
  opponents; a late arrival or a leaver only changes the circle the next
  round is taken from.
  When the players present do not divide into fours, the organizer may
  seat everyone instead, some at 3-handed tables (each for himself): as
  few as seat everyone, and nobody plays 3-handed twice before everyone
  has once.
- *Fixed teams* (2, 3 or 4 a side: 4-, 6- and 8-seat tables): the teams
  are drawn once; the circle method over the teams draws the tables, so
  every two teams meet once before any meet twice.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from scorekeeper.gamelog import LogError, game_variant
from scorekeeper.rules.errors import RulesError

Team = tuple[str, ...]


class ScheduleError(RulesError):
    """A round that cannot be seated; the message says why, in words."""


@dataclass(frozen=True)
class Table:
    """Teams facing each other, seats alternating between them: two teams,
    or three players each for himself at a 3-handed table."""

    teams: tuple[Team, ...]

    @property
    def seats(self) -> tuple[str, ...]:
        """Clockwise: A1, B1, A2, B2, ... (side of seat i is i % 2); at a
        3-handed table A, B, C (each seat its own side)."""
        return tuple(
            player for group in zip(*self.teams, strict=True) for player in group
        )

    @property
    def three_handed(self) -> bool:
        return len(self.teams) == 3


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fairness:
    """What a schedule did: partnerships repeated, how evenly opponents
    met, and how many times each player sat out."""

    partner_repeats: int
    opponents_least: int
    opponents_most: int
    sit_outs: dict[str, int]
    three_handed: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        lines = [
            f"partners repeated: {self.partner_repeats}",
            "opponents: every two players met "
            f"{self.opponents_least}–{self.opponents_most} times",
            f"sit-outs: each player {_spread(self.sit_outs)}",
        ]
        if any(self.three_handed.values()):
            lines.append(f"3-handed: each player {_spread(self.three_handed)}")
        return lines


def _spread(counts: dict[str, int]) -> str:
    return f"{min(counts.values(), default=0)}–{max(counts.values(), default=0)}"


def circle_rounds[T](entrants: Sequence[T]) -> list[list[tuple[T | None, T | None]]]:
    """The round-robin circle method: one entrant stays put, the others
    turn one place a round; over n-1 rounds (n even; an odd count gets a
    bye, None) every two entrants are paired exactly once."""
    items: list[T | None] = [*entrants, *([None] if len(entrants) % 2 else [])]
    n = len(items)
    rounds = []
    for turn in range(n - 1):
        rest = items[1:]
        circle = [items[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
        rounds.append([(circle[i], circle[n - 1 - i]) for i in range(n // 2)])
    return rounds


class _History:
    """Who partnered, faced and sat out whom, over the rounds played."""

    def __init__(self, rounds: Iterable[Round]) -> None:
        self.partners: Counter[frozenset[str]] = Counter()
        self.opponents: Counter[frozenset[str]] = Counter()
        self.sat_out: Counter[str] = Counter()
        self.alone: Counter[str] = Counter()  # seats at 3-handed tables
        for played in rounds:
            for table in played.tables:
                for team in table.teams:
                    self.partners.update(frozenset(p) for p in combinations(team, 2))
                for first, second in combinations(table.teams, 2):
                    self.opponents.update(
                        frozenset((a, b)) for a in first for b in second
                    )
                if table.three_handed:
                    self.alone.update(table.seats)
            self.sat_out.update(played.sitting_out)

    def unfair(self, out: Iterable[str], playing: Iterable[str]) -> int:
        """Players sitting out while someone playing has sat out less."""
        fewest = min((self.sat_out[p] for p in playing), default=0)
        return sum(1 for player in out if self.sat_out[player] > fewest)

    def met(self, first: Team, second: Team) -> int:
        return sum(self.opponents[frozenset((a, b))] for a in first for b in second)

    def met_at(self, table: Table) -> int:
        """How often the table's opponents have met before."""
        return sum(self.met(a, b) for a, b in combinations(table.teams, 2))


def three_handed_tables(count: int) -> int | None:
    """How many 3-handed tables seat ``count`` players with nobody sitting
    out (the others at tables of 4): the fewest that do; None when no
    mix of 4s and 3s makes ``count`` (1, 2 or 5 players)."""
    tables = (-count) % 4  # each 3-handed table takes one seat fewer
    return tables if 3 * tables <= count else None


def progressive_round(
    players: Sequence[str], played: Sequence[Round], *, three_handed: bool = False
) -> Round:
    """The next round of partners rotating at 4-seat tables; with
    ``three_handed``, nobody sits out: the players left over from the
    fours sit at 3-handed tables (``three_handed_tables``)."""
    if len(set(players)) != len(players):
        raise ScheduleError("a player is checked in twice")
    triads = three_handed_tables(len(players)) if three_handed else 0
    if triads is None:
        raise ScheduleError(
            f"{len(players)} players cannot all sit at tables of 4 and 3: one sits out"
        )
    if len(players) < (3 if triads else 4):
        raise ScheduleError("a round needs at least 4 players present")
    history = _History(played)
    candidates = circle_rounds(players)
    start = len(played) % len(candidates)
    options = [  # each scored (partners repeated, opponents met before)
        _progressive_option(
            candidates[(start + i) % len(candidates)], len(players), history, triads
        )
        for i in range(len(candidates))
    ]
    return min(options, key=lambda option: option[0])[1]


def _progressive_option(
    pairs: list[tuple[str | None, str | None]],
    count: int,
    history: _History,
    triads: int = 0,
) -> tuple[tuple[int, int], Round]:
    if triads:
        alone, fours = _fair_out(pairs, 3 * triads, history.alone)
        return _scored(fours, _threes(alone, history), (), history)
    out = [p for pair in pairs for p in pair if p is not None and None in pair]
    teams: list[Team] = [(a, b) for a, b in pairs if a is not None and b is not None]
    # Whole pairs sit out too when two or three players are left over:
    # those who sat out least; of those, a pair that has partnered before.
    extra = (count % 4 - len(out)) // 2
    teams.sort(
        key=lambda t: (
            max(history.sat_out[p] for p in t),
            -history.partners[frozenset(t)],
        )
    )
    out.extend(p for team in teams[:extra] for p in team)
    teams = teams[extra:]
    if history.unfair(out, [p for team in teams for p in team]):
        out, teams = _fair_out(pairs, count % 4, history.sat_out)
    return _scored(teams, [], out, history)


def _scored(
    teams: list[Team], extra: list[Table], out: Sequence[str], history: _History
) -> tuple[tuple[int, int], Round]:
    """The round of these partnerships (and any 3-handed tables), scored
    (partners repeated, opponents met before)."""
    repeats = sum(1 for team in teams if history.partners[frozenset(team)])
    tables = _face_off(teams, history) + extra
    spread = sum(history.met_at(table) for table in tables)
    return (repeats, spread), Round(tuple(tables), tuple(sorted(out)))


def _fair_out(
    pairs: list[tuple[str | None, str | None]], need: int, turns: Counter[str]
) -> tuple[list[str], list[Team]]:
    """``need`` players taken out of the circle round's pairs, those who
    had the fewest ``turns`` (at sitting out, or at 3-handed tables) first;
    the partners they leave pair up."""
    order = [p for pair in pairs for p in pair if p is not None]
    out = sorted(order, key=lambda p: turns[p])[:need]
    teams: list[Team] = [
        (a, b) for a, b in pairs if a and b and a not in out and b not in out
    ]
    kept = {p for team in teams for p in team}
    widows = [p for p in order if p not in kept and p not in out]
    teams += [(widows[i], widows[i + 1]) for i in range(0, len(widows), 2)]
    return out, teams


def _threes(players: list[str], history: _History) -> list[Table]:
    """3-handed tables of these players, each with the two it met least."""
    left = list(players)
    tables = []
    while left:
        first = left.pop(0)
        second = min(left, key=lambda other: history.met((first,), (other,)))
        left.remove(second)
        third = min(left, key=lambda other: history.met((first, second), (other,)))
        left.remove(third)
        tables.append(Table(((first,), (second,), (third,))))
    return tables


def _face_off(teams: list[Team], history: _History) -> list[Table]:
    """Teams two by two, each facing the remaining team it met least."""
    left = list(teams)
    tables = []
    while left:
        first = left.pop(0)
        second = min(left, key=lambda other: history.met(first, other))
        left.remove(second)
        tables.append(Table((first, second)))
    return tables


THREE_HANDED = "classic"  # what a night's 3-handed tables play


def three_handed_rules(
    preset: str, overrides: Mapping[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The rules of a 3-handed table of a season playing ``preset`` with
    ``overrides``: ``classic`` (each for himself), with the season's house
    rules when it plays classic too and they hold for 3 players, else
    with only its hand limit, which sets the pace of the night."""
    if preset == THREE_HANDED:
        try:
            game_variant(THREE_HANDED, 3, overrides)
        except LogError:
            pass
        else:
            return THREE_HANDED, dict(overrides)
    limit = overrides.get("hand_limit")
    return THREE_HANDED, {"hand_limit": limit} if limit else {}


def draw_teams(players: Sequence[str], size: int, rng: random.Random) -> list[Team]:
    """Fixed partnerships of ``size`` drawn at random from the players."""
    if len(set(players)) != len(players):
        raise ScheduleError("a player is checked in twice")
    if len(players) % size:
        raise ScheduleError(
            f"{len(players)} players cannot make teams of {size}: "
            f"check in {size - len(players) % size} more, or fewer"
        )
    drawn = list(players)
    rng.shuffle(drawn)
    return [tuple(drawn[i : i + size]) for i in range(0, len(drawn), size)]


def fixed_round(teams: Sequence[Team], played: Sequence[Round]) -> Round:
    """The next round of fixed teams: the circle method over the teams,
    each round the unplayed one that sits out fairly and meets least."""
    if len(teams) < 2:
        raise ScheduleError("a round needs at least two teams")
    history = _History(played)
    candidates = circle_rounds(list(teams))
    start = len(played) % len(candidates)
    options = [
        _fixed_option(candidates[(start + i) % len(candidates)], history)
        for i in range(len(candidates))
    ]
    return min(options, key=lambda option: option[0])[1]


def _fixed_option(
    pairs: list[tuple[Team | None, Team | None]], history: _History
) -> tuple[tuple[int, int], Round]:
    tables = [Table((a, b)) for a, b in pairs if a is not None and b is not None]
    out = [p for a, b in pairs if a is None or b is None for p in (a or b or ())]
    playing = [p for table in tables for team in table.teams for p in team]
    spread = sum(history.met_at(table) for table in tables)
    return (history.unfair(out, playing), spread), Round(
        tuple(tables), tuple(sorted(out))
    )


def fairness(rounds: Sequence[Round], players: Iterable[str]) -> Fairness:
    """The schedule's fairness over the night's rounds so far."""
    history = _History(rounds)
    everyone = sorted(set(players) | set(history.sat_out) | set(history.alone))
    met = [history.opponents[frozenset(pair)] for pair in combinations(everyone, 2)]
    return Fairness(
        partner_repeats=sum(n - 1 for n in history.partners.values() if n > 1),
        opponents_least=min(met, default=0),
        opponents_most=max(met, default=0),
        sit_outs={player: history.sat_out[player] for player in everyone},
        three_handed={player: history.alone[player] for player in everyone},
    )
