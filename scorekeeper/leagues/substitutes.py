"""Substitutes: a player who leaves in the middle of a game is replaced by
another, from hand N on; the seat keeps its scores.

What counts for whom (the measures of pepper-league v1 §2): a game counts,
whole, for one player a seat: played, won, points, margin, bids and made
all go to the player the organizer credits when making the substitution
(the player who started, or the substitute). The hands are not split
between them, not even bids and made: the season's export names one
player a seat (``players``), and the ``standings`` command must rank that
export exactly as the league's pages do. So ``Seat.player`` is always the
credited player, and every reader of seats (standings, ratings, player
pages, CSVs, the export) needs nothing else. Who played which hands is
kept beside it (``Substitution``) and shown on the game's page, the night's
page and both players' pages.

A substitution is refused in words, changing nothing, unless the night is
open, the game is still being played, the substitute is a player of the
league checked in tonight and not seated at another table of the round
(nor at this one), and the hand is one already played or the next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from scorekeeper.leagues.models import (
    CheckIn,
    League,
    Night,
    Player,
    Seat,
    Substitution,
    Table,
)
from scorekeeper.leagues.night_rows import project_nights
from scorekeeper.leagues.services import LeagueError, check_out, newcomer_check_in
from scorekeeper.leagues.tasks import ratings_ask
from scorekeeper.models import Game

Credit = Literal["started", "substitute"]
CREDITS: tuple[Credit, ...] = ("started", "substitute")


def seat_substitute(
    *,
    table: Table,
    position: int,
    substitute: Player,
    from_hand: int,
    credit: str,
    now: datetime,
) -> Substitution:
    """``substitute`` takes over seat ``position`` of ``table`` from hand
    ``from_hand``; the game counts for the player who started
    (``credit="started"``) or for the substitute (``"substitute"``)."""
    night, game = table.round.night, table.game
    seat = _check_seat(table, position, credit)
    started = seat.player
    _check_substitute(table, night, substitute)
    _check_hand(game, from_hand)
    credited = substitute if credit == "substitute" else started
    try:
        with transaction.atomic():
            # The game's row as it is now, locked: two substitutes at one
            # table at once each keep their seat's change (PostgreSQL; on
            # SQLite the write transaction is taken at its start).
            game = Game.objects.select_for_update().get(pk=game.pk)
            made = Substitution.objects.create(
                table=table,
                position=position,
                started=started,
                substitute=substitute,
                credited=credited,
                from_hand=from_hand,
                at=now,
            )
            _credit(seat, credited, night.season.league_id)
            note = seat_note(started.name, substitute.name, from_hand, credited.name)
            Game.objects.filter(pk=game.pk).update(
                seat_notes=[*game.seat_notes, note],
                takeovers=[*game.takeovers, [position, substitute.name, from_hand]],
            )
            project_nights([night.pk])  # the game counts for the credited one
    except IntegrityError:  # another organizer's substitute came first
        raise LeagueError(
            f"{started.name}'s seat already has a substitute: one a seat"
        ) from None
    return made


def substitute_seat(
    *,
    table: Table,
    position: int,
    substitute: Player | None,
    newcomer: str,
    from_hand: int,
    credit: str,
    leaver_goes: bool,
    now: datetime,
) -> Substitution:
    """The organizer's substitute form, done whole or not at all: the
    substitute is a player here tonight or a ``newcomer`` added and
    checked in on the spot; with ``leaver_goes`` the player who left is
    checked out (not seated in the next rounds). A refusal (the
    newcomer's name taken, the hand, the seat) leaves everything as it
    was: no newcomer, no check-out."""
    named = newcomer.strip()
    if named and substitute is not None:
        raise LeagueError(
            "choose a player here tonight or type a newcomer's name, not both"
        )
    night = table.round.night
    with transaction.atomic():
        if named:
            substitute = newcomer_check_in(night=night, name=named, now=now)
        if substitute is None:
            raise LeagueError("choose who takes the seat, or type a newcomer's name")
        made = seat_substitute(
            table=table,
            position=position,
            substitute=substitute,
            from_hand=from_hand,
            credit=credit,
            now=now,
        )
        if leaver_goes and night.format != Night.FIXED:
            check_out(night=night, player=made.started)
    return made


def _check_seat(table: Table, position: int, credit: str) -> Seat:
    """The seat, if a substitute may take it now, crediting ``credit``."""
    night = table.round.night
    if night.closed_at is not None:
        raise LeagueError("this night is closed")
    if table.game.finished or table.round.called_at is not None:
        raise LeagueError(
            f"table {table.number}'s game is over: "
            "a substitute joins a game still being played"
        )
    seat = table.seats.select_related("player").filter(position=position).first()
    if seat is None:
        raise LeagueError(f"choose a seat of table {table.number}")
    if table.substitutions.filter(position=position).exists():
        raise LeagueError(
            f"{seat.player.name}'s seat already has a substitute: one a seat"
        )
    if credit not in CREDITS:
        raise LeagueError(
            "say whom the game counts for: the player who started or the substitute"
        )
    if credit == "substitute" and night.format == Night.FIXED:
        raise LeagueError(
            "on a fixed-teams night a game counts for the team's own player"
        )
    return seat


def _check_substitute(table: Table, night: Night, substitute: Player) -> None:
    name = substitute.name
    if substitute.league_id != night.season.league_id:
        raise LeagueError("that player is not in this league")
    here = CheckIn.objects.filter(night=night, player=substitute, present=True)
    if not here.exists():
        raise LeagueError(f"{name} is not checked in tonight: check them in first")
    elsewhere = (
        Table.objects.filter(round=table.round_id)
        .filter(
            Q(seats__player=substitute)
            | Q(substitutions__started=substitute)
            | Q(substitutions__substitute=substitute)
        )
        .values_list("number", flat=True)
        .first()
    )
    if elsewhere == table.number:
        raise LeagueError(f"{name} is already at table {table.number}")
    if elsewhere is not None:
        raise LeagueError(
            f"{name} plays at table {elsewhere} in this round: "
            "a substitute is someone not seated"
        )


def _check_hand(game: Game, from_hand: int) -> None:
    following = game.hands_played + 1
    if not 1 <= from_hand <= following:
        raise LeagueError(
            f"a substitute takes over at hand 1 to {following} "
            f"(hand {following} is the next one)"
        )


def _credit(seat: Seat, credited: Player, league_id: int) -> None:
    """The seat's player becomes the credited one; that moves a game
    between players without touching a log, so the league's roster
    version moves too (the standings and ratings cached under it are
    computed again), as after a merge."""
    if seat.player_id == credited.pk:
        return
    seat.player = credited
    seat.save(update_fields=["player"])
    League.objects.filter(pk=league_id).update(roster_version=F("roster_version") + 1)
    ratings_ask(league_id=league_id)  # in the worker, once committed


def seat_note(started: str, substitute: str, from_hand: int, credited: str) -> str:
    """The line the game's page shows under the score."""
    return f"{started} → {substitute} from hand {from_hand} (the game counts for {credited})"


@dataclass(frozen=True)
class Substituted:
    """A substitution as the league's pages show it (names, not ids)."""

    night: date
    round: int
    table: int
    table_id: int
    position: int
    started: str
    substitute: str
    credited: str
    from_hand: int

    @property
    def label(self) -> str:
        """The seat, on the night's tables: "Ann → Eve from hand 5"."""
        return f"{self.started} → {self.substitute} from hand {self.from_hand}"

    @property
    def line(self) -> str:
        """Who played which hands, and whom the game counts for."""
        where = f"Round {self.round}, table {self.table}"
        before = (
            f" ({self.started} played hands 1–{self.from_hand - 1})"
            if self.from_hand > 1
            else ""
        )
        return (
            f"{where}: {self.substitute} played {self.started}'s seat from hand "
            f"{self.from_hand}{before}; the game counts for {self.credited}."
        )


def _shown(rows: Any) -> list[Substituted]:
    related = rows.select_related(
        "table__round__night", "started", "substitute", "credited"
    ).order_by("table__round__night__date", "table__round__number", "table__number")
    return [
        Substituted(
            night=row.table.round.night.date,
            round=row.table.round.number,
            table=row.table.number,
            table_id=row.table_id,
            position=row.position,
            started=row.started.name,
            substitute=row.substitute.name,
            credited=row.credited.name,
            from_hand=row.from_hand,
        )
        for row in related
    ]


def night_substitutions(night: Night) -> list[Substituted]:
    return _shown(Substitution.objects.filter(table__round__night=night))


def night_substitution(night: Night, pk: int) -> Substituted | None:
    """One substitution of ``night`` (the one just seated), or None."""
    found = Substitution.objects.filter(table__round__night=night, pk=pk)
    return next(iter(_shown(found)), None)


def player_substitutions(player: Player) -> list[Substituted]:
    """The games ``player`` left or joined in the middle (one query)."""
    return _shown(Substitution.objects.filter(Q(started=player) | Q(substitute=player)))


# The season's export and import (pepper-league v1 allows optional fields).


def exported(table: Table, name: Mapping[int, str]) -> list[dict[str, object]]:
    """A game's ``substitutes`` field: the seat (0-based, as the log counts
    seats), who started, who took over and from which hand. The game's
    ``players`` holds the credited one at that seat."""
    return [
        {
            "seat": row.position,
            "started": name[row.started_id],
            "substitute": name[row.substitute_id],
            "from_hand": row.from_hand,
        }
        for row in table.substitutions.all()
    ]


def check_document(document: Mapping[str, Any], hands: Sequence[Sequence[int]]) -> None:
    """Every game's optional ``substitutes`` field, read before anything is
    stored: ``LeagueError`` naming where (``night N game M: ...``).
    ``hands``: per night, each game's number of hands played."""
    ids = {entry["id"] for entry in document["players"]}
    for n, night in enumerate(document["nights"], start=1):
        for m, game in enumerate(night["games"], start=1):
            if "substitutes" in game:
                where = f"night {n} game {m}"
                _check_game(game, ids, hands[n - 1][m - 1], where)


def _check_game(game: Mapping[str, Any], ids: set[str], hands: int, where: str) -> None:
    listed = game["substitutes"]
    if not isinstance(listed, list):
        raise LeagueError(f'{where}: "substitutes" must be a list')
    seated: list[str] = game["players"]
    seen: set[int] = set()
    for k, entry in enumerate(listed, start=1):
        here = f"{where} substitute {k}"
        if not isinstance(entry, dict):
            raise LeagueError(f"{here}: must be an object")
        seat, started = entry.get("seat"), entry.get("started")
        substitute = entry.get("substitute")
        if type(seat) is not int or not 0 <= seat < len(seated) or seat in seen:
            raise LeagueError(f'{here}: "seat" must be a seat of the game, once')
        seen.add(seat)
        if not (isinstance(started, str) and isinstance(substitute, str)) or (
            started not in ids or substitute not in ids or started == substitute
        ):
            raise LeagueError(
                f'{here}: "started" and "substitute" must be two of the players'
            )
        if seated[seat] not in (started, substitute):
            raise LeagueError(
                f'{here}: "players" must name "started" or "substitute" at seat {seat}'
            )
        other = substitute if seated[seat] == started else started
        if other in seated:
            raise LeagueError(f"{here}: {other!r} sits elsewhere in the game")
        first = entry.get("from_hand")
        if type(first) is not int or not 1 <= first <= hands + 1:
            raise LeagueError(
                f'{here}: "from_hand" must be a hand of the game (1 to {hands + 1})'
            )


def imported(
    table: Table,
    listed: Sequence[Mapping[str, Any]],
    players: Mapping[str, Player],
    now: datetime,
) -> None:
    """The substitutions of an imported game (checked by ``check_document``):
    the seat's player (the game's ``players``) is the credited one."""
    seats = {seat.position: seat.player for seat in table.seats.all()}
    notes = []
    changes = []
    for entry in listed:
        started, substitute = players[entry["started"]], players[entry["substitute"]]
        credited = seats[entry["seat"]]
        Substitution.objects.create(
            table=table,
            position=entry["seat"],
            started=started,
            substitute=substitute,
            credited=credited,
            from_hand=entry["from_hand"],
            at=now,
        )
        notes.append(
            seat_note(started.name, substitute.name, entry["from_hand"], credited.name)
        )
        changes.append([entry["seat"], substitute.name, entry["from_hand"]])
    Game.objects.filter(pk=table.game_id).update(seat_notes=notes, takeovers=changes)
