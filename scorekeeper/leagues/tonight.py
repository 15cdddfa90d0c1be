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
from scorekeeper.leagues.my_night import Sitting, company, sitting_now
from scorekeeper.leagues.prizes import ordinal
from scorekeeper.leagues.results import season_nights, season_settings
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.standings import Tally, night_rows_from


class Outcome(StrEnum):
    WON = "won"
    LOST = "lost"
    TIED = "tied"  # co-winners: a win for each side (contract §2)
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
    counts_for: str = ""  # a substitution credited it to this other player
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
    standing: Standing | None  # None until a game that counts for them ends


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
    seated: dict[int, Sitting] = {t.pk: {} for t in tables}
    seats = Seat.objects.filter(table__in=tables).values_list(
        "table", "position", "player", "player__name"
    )
    for table, position, player, name in seats:
        seated[table][position] = (player, name)
    subs = list(
        Substitution.objects.filter(table__in=tables).select_related(
            "started", "substitute", "credited"
        )
    )
    games = tuple(
        game
        for table in tables
        if (game := _game(table, seated[table.pk], subs, me)) is not None
    )
    return SoFar(games, _standing(checkin))


def _game(
    table: Table, seated: Sitting, subs: list[Substitution], me: int
) -> Game | None:
    """The game at ``table`` from ``me``'s seat: who sat where last (a
    substitute in the seat they took), whether ``me`` started it, left it
    or came in, and whom it counts for when a substitution credited it to
    the other player."""
    game = table.game
    if not (game.hands_played or game.finished):
        return None  # not begun
    mine, joined, left, credited = None, 0, 0, None
    for sub in subs:
        if sub.table_id == table.pk and me in (sub.substitute_id, sub.started_id):
            mine, credited = sub.position, sub.credited
            joined = sub.from_hand if sub.substitute_id == me else 0
            left = sub.from_hand if sub.started_id == me else 0
    if mine is None:
        mine = next((pos for pos, (pk, _) in seated.items() if pk == me), None)
    if mine is None:
        return None
    variant = game_variant(game.preset, len(game.seats), game.overrides)
    partners, opponents = company(variant, sitting_now(table.pk, seated, subs), mine)
    side = variant.side_of(mine)
    totals = list(game.totals) or [0] * variant.sides
    return Game(
        round=table.round.number,
        table=table.number,
        partners=partners,
        opponents=opponents,
        ours=totals[side],
        theirs=max(total for other, total in enumerate(totals) if other != side),
        outcome=_outcome(game.finished, side, game.winners),
        counts_for=credited.name if credited and credited.pk != me else "",
        joined_from=joined,
        left_from=left,
    )


def _outcome(finished: bool, side: int, winners: list[int]) -> Outcome:
    if not finished:
        return Outcome.IN_PLAY
    if not winners:
        return Outcome.DRAWN
    if side not in winners:
        return Outcome.LOST
    return Outcome.TIED if len(winners) > 1 else Outcome.WON


def _standing(checkin: CheckIn) -> Standing | None:
    """The player's rank among the night's players with a finished game,
    as the night's standings rank them (``night_rows_from``: the season's
    order; ties share a rank)."""
    night = checkin.night
    [(_, summary)] = season_nights(night.season, night)
    me = str(checkin.player_id)
    mine = summary.tallies.get(me)
    if mine is None:
        return None
    people = {pid: Person(pid, pid) for pid in summary.tallies}  # ranks only
    rows = night_rows_from(summary.tallies, people, season_settings(night.season).order)
    rank = next(row["rank"] for row in rows if row["player"] == me)
    assert isinstance(rank, int)
    tied = sum(1 for row in rows if row["rank"] == rank) > 1
    return Standing(rank, tied, len(rows), mine)
