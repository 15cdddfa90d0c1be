"""A night's side awards, read off its games' replayed hands (no database):
the moons made, the pepper-round hands made and the best comeback. What
a bid is, whether it was made and what a hand scored are the engine's
(its scoreboard) and the seat statistics' (``seatstats.made``): nothing
here scores a hand.

- A moon is a bid of the ladder's top rungs, the bids that score a fixed
  number of points (moon and double moon; big pepper at classic, pepper
  and double pepper at bid euchre): the bidder made it.
- A pepper-round hand made: a hand of a pepper round (the forced lowest
  bid of the first hands at moon-42, or of a tie-break pepper round) whose
  bidder made it.
- The best comeback: the most points a side that won a game (or shared its
  win) was behind the best other side after any hand of that game; its
  players share the figure. A side never behind made no comeback.

Each counts the player the seat counts for (after a substitute, the one
the organizer credited), as the standings do. They keep the awards' rule
(``awards.MIN_GAMES``, ``awards.SHARED_BY``), which the page states: only
players with that many finished games, and no award that more than a
quarter of the players would share (after one game each, "Best comeback"
went to every winner who was ever behind: 56 of 81 players).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.leagues.awards import Award, best_of
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import HandRecorded
from scorekeeper.seatstats import made

TOP_RUNGS = ("top", "double-top")


@dataclass(frozen=True)
class Played:
    """A game of the night: the player each seat counts for, and its board."""

    players: Sequence[str]  # player ids, by seat
    board: Scoreboard


def moons_made(games: Iterable[Played]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for game in games:
        variant = game.board.variant
        rungs = dict(variant.rungs)
        for result in game.board.hands:
            hand = result.hand
            if isinstance(hand, HandRecorded) and rungs[hand.bid] in TOP_RUNGS:
                counts[game.players[hand.bidder]] += int(made(variant, hand))
    return counts


def pepper_rounds_made(games: Iterable[Played]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for game in games:
        for result in game.board.hands:
            hand = result.hand
            if result.pepper_round and isinstance(hand, HandRecorded):
                counts[game.players[hand.bidder]] += int(made(game.board.variant, hand))
    return counts


def comeback(board: Scoreboard) -> dict[int, int]:
    """Each winning side's comeback in one game: the most points it was
    behind the best other side after any hand (0: never behind)."""
    found = {}
    for side in board.winners:
        behind = [
            max(t for other, t in enumerate(result.totals) if other != side)
            - result.totals[side]
            for result in board.hands
        ]
        found[side] = max([0, *behind])
    return found


def comebacks(games: Iterable[Played]) -> Counter[str]:
    """Each player's best comeback of the night, in points."""
    best: Counter[str] = Counter()
    for game in games:
        variant = game.board.variant
        for side, points in comeback(game.board).items():
            for seat, player in enumerate(game.players):
                if variant.side_of(seat) == side:
                    best[player] = max(best[player], points)
    return best


# (title, what was counted: for one, for more)
SIDE_AWARDS = (
    ("Most moons made", "1 moon made.", "{} moons made."),
    (
        "Most pepper rounds made",
        "1 pepper-round hand made.",
        "{} pepper-round hands made.",
    ),
    (
        "Best comeback",
        "Won a game from 1 point behind.",
        "Won a game from {} points behind.",
    ),
)


def side_awards(games: Sequence[Played], names: Mapping[str, str]) -> list[Award]:
    """The side awards of the finished games (as the standings count them),
    each to every player with the best figure (above 0) among those with
    ``MIN_GAMES`` finished games or more, unless more than a quarter of
    the night's players share it."""
    given = []
    games = [game for game in games if game.board.winners]
    played = Counter(pid for game in games for pid in set(game.players))
    measures = (moons_made(games), pepper_rounds_made(games), comebacks(games))
    for (title, one, more), counted in zip(SIDE_AWARDS, measures, strict=True):
        award = best_of(title, (one, more), counted, names, played, len(played))
        if award is not None:
            given.append(award)
    return given
