"""Awards of a night or a season (no database): a handful of feats each
computed from the games' seat statistics and explained in one line.

Per player, a night's ``Feats`` add up over its games in the order played,
and a season's over its nights: sums, bests, and the longest run of made
bids, which may run on from one game (or night) into the next. A run is
kept as a ``Streak`` (made bids at its start and end, the longest inside,
and whether every bid was made), so streaks join without the bids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scorekeeper.leagues.standings import GameResult


@dataclass(frozen=True)
class Streak:
    start: int = 0  # made bids before the first set
    best: int = 0
    end: int = 0  # made bids since the last set
    clean: bool = True  # no bid was set (an empty streak too)

    @classmethod
    def of(cls, run: str) -> Streak:
        """From a run of bids: "M" made, "S" set."""
        parts = run.split("S")
        return cls(len(parts[0]), max(map(len, parts)), len(parts[-1]), "S" not in run)

    def then(self, later: Streak) -> Streak:
        return Streak(
            self.start + later.start if self.clean else self.start,
            max(self.best, later.best, self.end + later.start),
            later.end + self.end if later.clean else later.end,
            self.clean and later.clean,
        )


@dataclass(frozen=True)
class Feats:
    made: int = 0  # bids made
    best: int = 0  # the most points a hand the player bid brought its side
    sets: int = 0  # bidders set while the player defended
    won: int = 0  # games won
    streak: Streak = field(default_factory=Streak)

    def then(self, later: Feats) -> Feats:
        return Feats(
            self.made + later.made,
            max(self.best, later.best),
            self.sets + later.sets,
            self.won + later.won,
            self.streak.then(later.streak),
        )


def game_feats(game: GameResult) -> dict[str, Feats]:
    """Each seated player's feats in one game (counted when finished, as
    the standings count it)."""
    if not game.finished or not game.stats:
        return {}
    return {
        pid: Feats(
            made=sum(made for _, made in stats["bids"].values()),
            best=stats["best"],
            sets=stats["sets"],
            won=int(game.sides[seat] in game.winners),
            streak=Streak.of(stats["run"]),
        )
        for seat, (pid, stats) in enumerate(zip(game.players, game.stats, strict=True))
    }


def night_feats(games: Iterable[GameResult]) -> dict[str, Feats]:
    """Each player's feats over games in the order they were played."""
    return joined(game_feats(game) for game in games)


def joined(parts: Iterable[Mapping[str, Feats]]) -> dict[str, Feats]:
    total: dict[str, Feats] = {}
    for part in parts:
        for pid, feats in part.items():
            total[pid] = total[pid].then(feats) if pid in total else feats
    return total


@dataclass(frozen=True)
class Award:
    title: str
    names: tuple[str, ...]  # all who share the best figure
    figure: int
    why: str  # one line: what was counted


# (title, measure, what was counted: for one, for more)
AWARDS = (
    (
        "Most bids made",
        "made",
        "1 bid made: bid and brought home.",
        "{} bids made: bid and brought home.",
    ),
    (
        "Biggest hand",
        "best",
        "1 point for their side in one hand they bid.",
        "{} points for their side in one hand they bid.",
    ),
    (
        "Stone wall",
        "sets",
        "1 bid set while defending.",
        "{} bids set while defending.",
    ),
    (
        "Hot streak",
        "streak",
        "1 bid made without being set.",
        "{} bids made in a row without being set.",
    ),
    ("Most games won", "won", "1 game won.", "{} games won."),
)


# An award means something: its winners played at least MIN_GAMES
# finished games, and at most a SHARED_BY part of the players share the
# best figure (after one game each, "Most games won" would name half the
# room).
MIN_GAMES = 2
SHARED_BY = 4  # a quarter of the players at most


def awards(
    feats: Mapping[str, Feats], names: Mapping[str, str], games: Mapping[str, int]
) -> list[Award]:
    """The awards, each to every player with the best figure (above 0)
    among those who played ``MIN_GAMES`` games or more (``games``: each
    player's finished games), unless more than a quarter of the players
    share it."""
    given = []
    for title, measure, one, more in AWARDS:
        figures = {pid: _figure(f, measure) for pid, f in feats.items()}
        award = best_of(title, (one, more), figures, names, games, len(feats))
        if award is not None:
            given.append(award)
    return given


def best_of(
    title: str,
    words: tuple[str, str],
    figures: Mapping[str, int],
    names: Mapping[str, str],
    games: Mapping[str, int],
    players: int,
) -> Award | None:
    """The award ``title`` to every player with the best figure (above 0)
    among those with ``MIN_GAMES`` finished games or more; none if more
    than a quarter of the ``players`` would share it. ``words``: what was
    counted, for one and for more ("{}" the figure)."""
    eligible = {pid: n for pid, n in figures.items() if games.get(pid, 0) >= MIN_GAMES}
    top = max(eligible.values(), default=0)
    winners = sorted(names[pid] for pid, n in eligible.items() if n == top)
    if top <= 0 or len(winners) * SHARED_BY > players:
        return None
    one, more = words
    return Award(title, tuple(winners), top, one if top == 1 else more.format(top))


def _figure(feats: Feats, measure: str) -> int:
    if measure == "streak":
        return feats.streak.best
    value: int = getattr(feats, measure)
    return value
