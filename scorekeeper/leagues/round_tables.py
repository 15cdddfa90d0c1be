"""A night's tables as its page, the desk, the TV and the printable sheet
show them, from the games' rows (no replay): who sits where, the score,
who deals next, and whether the game finished, was called as it stood,
or is quiet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Prefetch
from django.urls import reverse

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.live import Attention, attention
from scorekeeper.leagues.models import Night, Round, Seat, Table
from scorekeeper.leagues.substitutes import Substituted
from scorekeeper.models import GameEvent
from scorekeeper.rules.referee import turn_of
from scorekeeper.tablewords import signed, totals_words
from scorekeeper.web.qr import qr_code


@dataclass(frozen=True)
class TableView:
    table: Table
    names: list[str]  # clockwise
    sides: list[str]  # each side's players, "Ann & Cat"
    hands: int
    score: str
    finished: bool
    called: bool  # ended as it stood when its round was called
    winners: str
    dealer: str
    link: str
    last_change: datetime
    attention: Attention
    recorded: bool  # anything in its log
    side_players: list[list[str]] = field(default_factory=list)  # one a line

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def teams(self) -> str:
        return " v ".join(self.sides)

    @property
    def side_views(self) -> list[dict[str, Any]]:
        """Each side's players, its total ("−6") and whether it won (the TV
        and desk mark it)."""
        won, totals = set(self.winners_sides), self.table.game.totals
        return [
            {
                "names": s,
                "players": self.side_players[i] if self.side_players else [s],
                "won": i in won,
                "score": signed(totals[i] if totals else 0),
            }
            for i, s in enumerate(self.sides)
        ]

    @property
    def winners_sides(self) -> list[int]:
        return sorted(self.table.game.winners) if self.finished else []

    @property
    def result(self) -> str:
        """Who won, in words: "Ann & Cat won", or a tie shared by all."""
        if len(self.winners_sides) == len(self.sides):
            return "level: every side shares the win"
        return f"{self.winners} won"

    @property
    def three_handed(self) -> bool:
        return len(self.names) == 3

    @property
    def quiet(self) -> bool:
        return self.attention == Attention.QUIET

    @property
    def unplayed(self) -> bool:
        """Its round is over and it recorded nothing: it counts for nobody."""
        return not self.finished and self.attention == Attention.DONE

    @property
    def takes_substitute(self) -> bool:
        """Whether its pages offer *Substitute…*: while its game goes on, its
        round is not called and the night not closed, as the service allows
        one (substitutes.py, ``_check_seat``)."""
        return self.attention != Attention.DONE

    @property
    def version(self) -> str:
        """What the desk's poll compares, table by table: anything this
        row shows changes it (its log's length, its lock, its attention)."""
        game = self.table.game
        return row_version(game.last_seq, game.locked, self.attention)

    @property
    def qr(self) -> str:
        """Drawn only where a page shows it (an open table, the sheet)."""
        return qr_code(self.link)


def round_in_play(played: Round) -> bool:
    """Its tables are still waited for: the round is not called and the
    night not closed (a table's *Substitute…* follows from it)."""
    return played.called_at is None and played.night.closed_at is None


def row_version(last_seq: int, locked: bool, mood: Attention) -> str:
    """A table's version as the desk's poll compares it."""
    return f"{last_seq}.{int(locked)}.{int(mood)}"


def table_view(
    table: Table,
    names: list[str],
    base: str,
    *,
    now: datetime,
    called: bool = False,
    in_play: bool = True,
) -> TableView:
    """A table from its game's row: the next dealer follows from the hands
    played; ``now`` tells a quiet table."""
    game = table.game
    variant = game_variant(game.preset, len(game.seats), game.overrides)
    turn = turn_of(variant, game.first_dealer, game.hands_played + 1, pepper=False)
    players = [
        [n for seat, n in enumerate(names) if variant.side_of(seat) == side]
        for side in range(variant.sides)
    ]
    sides = [" & ".join(side) for side in players]
    return TableView(
        table=table,
        names=names,
        sides=sides,
        side_players=players,
        hands=game.hands_played,
        score=totals_words(game.totals),
        finished=game.finished,
        called=called,
        winners=", ".join(sides[side] for side in sorted(game.winners)),
        dealer="" if game.finished else names[turn.dealer],
        link=base + reverse("join", args=[game.edit_token]),
        last_change=game.updated_at,
        attention=attention(
            finished=game.finished,
            last_change=game.updated_at,
            now=now,
            in_play=in_play,
        ),
        recorded=game.last_seq > 0,
    )


def seated(
    night: Night,
    rounds: list[Round] | None = None,
    tables: list[int] | None = None,
    substituted: Sequence[Substituted] = (),
) -> dict[int, list[str]]:
    """Each table's players, clockwise (of ``rounds`` or ``tables`` only,
    if given); a seat that took a substitute says so ("Ann → Eve from
    hand 5")."""
    seats = Seat.objects.filter(table__round__night=night).select_related("player")
    if rounds is not None:
        seats = seats.filter(table__round__in=rounds)
    if tables is not None:
        seats = seats.filter(table__in=tables)
    found: dict[int, list[str]] = {}
    for seat in seats.order_by("table", "position"):
        found.setdefault(seat.table_id, []).append(seat.player.name)
    for change in substituted:
        if change.table_id in found:
            found[change.table_id][change.position] = change.label
    return found


def called_games(played: list[Round]) -> set[Any]:
    """The games of these rounds that were ended as they stood (an `end`
    in their log), only looked up in rounds that were called."""
    rounds = [each for each in played if each.called_at is not None]
    if not rounds:
        return set()
    ended = GameEvent.objects.filter(game__table__round__in=rounds, type="end")
    return set(ended.values_list("game_id", flat=True))


def round_view(
    played: Round,
    names: dict[int, list[str]],
    base: str,
    ended: set[Any],
    now: datetime,
) -> dict[str, Any]:
    """A round: its tables, who sat out, how many games are unfinished."""
    in_play = round_in_play(played)
    tables = [
        table_view(
            t,
            names[t.pk],
            base,
            called=t.game_id in ended,
            now=now,
            in_play=in_play,
        )
        for t in played.tables.all()  # fetched with their games (ROUNDS)
    ]
    return {
        "round": played,
        "tables": tables,
        "sitting_out": [p.name for p in played.sitting_out.all()],
        "unfinished": sum(1 for t in tables if not t.finished),
        "three_handed": [t for t in tables if t.three_handed],
        "seconds_left": (
            max(0, int((played.ends_at - now).total_seconds()))
            if played.ends_at
            else None
        ),
    }


# A night's rounds with what their views read, in a fixed number of queries.
ROUNDS = (
    "sitting_out",
    Prefetch("tables", queryset=Table.objects.select_related("game")),
)


def rounds_view(
    night: Night, base: str, now: datetime, substituted: Sequence[Substituted] = ()
) -> list[dict[str, Any]]:
    played = list(night.rounds.prefetch_related(*ROUNDS))
    for each in played:
        each.night = night  # known: no query per round for its night
    names = seated(night, substituted=substituted)
    ended = called_games(played)
    return [round_view(each, names, base, ended, now) for each in played]
