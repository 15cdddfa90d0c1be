"""A player's night so far, on their own page (``my_night``): each game
they sat at tonight (round, table, partner, the score and how it ended)
and their place in the night's standings.

One night and one player, never the league: three queries for the games
(the player's tables with their rounds and game rows, those tables'
seats, their substitutes) and one for the night's version, whose
standings are the night's kept tallies (``results.season_nights``), read
from the cache once a process."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db.models import Q

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.models import CheckIn, Seat, Substitution, Table
from scorekeeper.leagues.prizes import ordinal
from scorekeeper.leagues.results import season_nights, season_settings
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.standings import Row, Tally, ranked


class Outcome(StrEnum):
    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    IN_PLAY = "in play"


@dataclass(frozen=True)
class Game:
    """One game the player sat at tonight, as their side saw it."""

    round: int
    table: int
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    ours: int  # our side's total
    theirs: int  # the best other side's
    outcome: Outcome
    called: bool  # ended when its round was called
    joined_from: int = 0  # came in as a substitute from this hand
    left_from: int = 0  # a substitute took the seat from this hand


@dataclass(frozen=True)
class Standing:
    rank: int
    tied: bool
    of: int  # players with a finished game tonight
    tally: Tally

    @property
    def place(self) -> str:
        """ "3rd", or "joint 3rd" when others have the same measures."""
        return ("joint " if self.tied else "") + ordinal(self.rank)


@dataclass(frozen=True)
class SoFar:
    games: tuple[Game, ...]
    standing: Standing | None  # None until a game of theirs is finished


def night_so_far(checkin: CheckIn) -> SoFar:
    """The games ``checkin``'s player sat at tonight that have begun, in
    round order, and their place in the night's standings."""
    me = checkin.player_id
    tables = list(
        Table.objects.filter(round__night=checkin.night_id)
        .filter(
            Q(seats__player=me)
            | Q(substitutions__started=me)
            | Q(substitutions__substitute=me)
        )
        .distinct()
        .select_related("round", "game")
        .order_by("round__number")
    )
    sitting: dict[int, dict[int, tuple[int, str]]] = {t.pk: {} for t in tables}
    seats = Seat.objects.filter(table__in=tables).values_list(
        "table", "position", "player", "player__name"
    )
    for table, position, player, name in seats:
        sitting[table][position] = (player, name)
    subs = list(
        Substitution.objects.filter(table__in=tables).select_related(
            "started", "substitute"
        )
    )
    games = tuple(
        game
        for table in tables
        if (game := _game(table, sitting[table.pk], subs, me)) is not None
    )
    return SoFar(games, _standing(checkin))


def _game(
    table: Table,
    seated: dict[int, tuple[int, str]],
    subs: list[Substitution],
    me: int,
) -> Game | None:
    """The game at ``table`` from ``me``'s seat: who sat where last (a
    substitute in the seat they took), and whether ``me`` started it,
    left it or came in."""
    now = dict(seated)
    mine, joined, left = None, 0, 0
    for sub in subs:
        if sub.table_id != table.pk:
            continue
        now[sub.position] = (sub.substitute_id, sub.substitute.name)
        if sub.substitute_id == me:
            mine, joined = sub.position, sub.from_hand
        elif sub.started_id == me:
            mine, left = sub.position, sub.from_hand
    if mine is None:
        mine = next((pos for pos, (pk, _) in seated.items() if pk == me), None)
    game = table.game
    if mine is None or not (game.hands_played or game.finished):
        return None  # not theirs (credited only), or not begun
    variant = game_variant(game.preset, len(game.seats), game.overrides)
    side = variant.side_of(mine)
    others = [(pos, name) for pos, (_, name) in sorted(now.items()) if pos != mine]
    totals = list(game.totals) or [0] * variant.sides
    theirs = max(total for other, total in enumerate(totals) if other != side)
    return Game(
        round=table.round.number,
        table=table.number,
        partners=tuple(n for pos, n in others if variant.side_of(pos) == side),
        opponents=tuple(n for pos, n in others if variant.side_of(pos) != side),
        ours=totals[side],
        theirs=theirs,
        outcome=_outcome(game.finished, side, game.winners),
        called=game.finished and table.round.called_at is not None,
        joined_from=joined,
        left_from=left,
    )


def _outcome(finished: bool, side: int, winners: list[int]) -> Outcome:
    if not finished:
        return Outcome.IN_PLAY
    if not winners:
        return Outcome.DRAWN
    return Outcome.WON if side in winners else Outcome.LOST


def _standing(checkin: CheckIn) -> Standing | None:
    """The player's rank among the night's players with a finished game,
    by the season's order (ties share a rank, as the standings say)."""
    night = checkin.night
    [(_, summary)] = season_nights(night.season, night)
    mine = summary.tallies.get(str(checkin.player_id))
    if mine is None:
        return None
    rows = [Row(Person(pid, pid), tally) for pid, tally in summary.tallies.items()]
    order = season_settings(night.season).order
    listed = ranked(rows, order)
    found = next(row for row in listed if row.player.id == str(checkin.player_id))
    rank = found.rank or 0
    tied = sum(1 for row in listed if row.rank == rank) > 1
    return Standing(rank, tied, len(listed), mine)
