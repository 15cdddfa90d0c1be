"""Paper score cards: a card per table to print (names, seats, who deals
each hand to come, a grid to fill in by hand), and the night's results
entered from those cards in one sitting.

Entering a card records each typed row as a hand event through the game
services (``hand_record``, ``hand_pass_out``), in order, so the engine
referees it exactly as it referees a phone. A table's card is stored
whole or not at all: the first refused row (which hand, what rule) undoes
the rows before it. A row for a hand the game already has is compared
with it and skipped when it is the same, so sending a card again records
nothing twice; each new row's event id is made of the table, the hand's
number and the log's length, so the same card sent twice at once (two
taps) is stored once by the event store.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from django.db import transaction

from scorekeeper.eventstore import Busy, Conflict, IdTaken
from scorekeeper.gamelog import GameLog, game_variant, parse_entry, replay_log
from scorekeeper.games import services
from scorekeeper.leagues.card_rows import (
    Entry,
    RowError,
    Typed,
    hand_of,
    keys,
    read_row,
)
from scorekeeper.leagues.models import Table
from scorekeeper.leagues.rounds import night_lock
from scorekeeper.leagues.substitutes import Substituted
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections.boards import forget, game_log
from scorekeeper.recording import Appended, Refused
from scorekeeper.refusals import sentence
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import Hand, HandRecorded
from scorekeeper.rules.referee import turn_of
from scorekeeper.tablewords import bid_label, hand_summary, signed

PLANNED_HANDS = 16  # a card's hands when the season sets no hand limit
PLAY_ON = 4  # rows beyond a hand limit: a tie there may play on
MOST_ROWS = 24  # rows that fit one A4 or Letter page


# A citation of the contract is for the API and the log, not for a page.
_CONTRACT = re.compile(r" \(contract §[^)]*\)")


class CardRefused(Exception):
    """A card not recorded, nothing of it stored: ``rows`` says what is
    wrong with which hand (by number), ``message`` what is wrong with the
    card as a whole."""

    def __init__(self, message: str = "", rows: dict[int, str] | None = None) -> None:
        self.rows = rows or {}
        self.message = message or "Nothing of this card was saved: see the rows marked."
        super().__init__(self.message)


def card_record(
    *, table: Table, first: int, rows: Sequence[Typed], by: str, now: datetime
) -> int:
    """Record a table's card, whose ``rows`` are hands ``first``,
    ``first + 1``...; returns how many hands were new. A called round's
    game that the card leaves unfinished ends as it stands, as calling
    the round would have ended it.

    Everything is decided inside the transaction that writes, against the
    night and the game as they stand once locked: the same card sent twice
    at once (a double tap, a resend) waits for the first, then finds its
    rows recorded and adds nothing; a card sent after the night closed,
    or after its round's call ended the game, is answered as such."""
    subs = table.substitutions.select_related("substitute")
    also = {sub.position: sub.substitute.name for sub in subs}
    entries = _read(table.game, first, rows, also)
    game = table.game
    try:
        with transaction.atomic():
            night = table.round.night
            night_lock(night)
            if night.closed_at is not None:
                raise CardRefused(
                    "This night is closed: enter the cards before closing it."
                )
            _lock_game(game)
            table.round.refresh_from_db(fields=["called_at"])
            added = _record_all(table, entries, by, now)
            if table.round.called_at and game.last_seq and not game.finished:
                services.game_end(
                    game=game,
                    expected_seq=game.last_seq,
                    reason=f"round {table.round.number} called",
                    by=by,
                    now=now,
                )
    except Exception as error:
        # The rolled-back appends read their own uncommitted events back,
        # and moved the caller's copy of the game on.
        forget(game.pk)
        if isinstance(error, CardRefused):
            game.refresh_from_db()
        raise
    return added


def _lock_game(game: Game) -> None:
    """Lock the game's row for the rest of the transaction (PostgreSQL;
    SQLite's immediate transaction holds the whole database already) and
    read it again, so that the card is compared with the log as it stands,
    not as it stood when the request began."""
    game.refresh_from_db(from_queryset=Game.objects.select_for_update())


def _read(
    game: Game, first: int, rows: Sequence[Typed], also: dict[int, str]
) -> list[tuple[int, Entry]]:
    """Every row read before anything is recorded: each unreadable row says
    why; blank rows at the end are no hands. A bidder is typed by the
    seat's name in the game, or by its substitute's (``also``)."""
    log = game_log(game)
    variant = log.variant
    names = [
        [name, *([also[s]] if s in also else [])] for s, name in enumerate(log.seats)
    ]
    last = max((i for i, row in enumerate(rows) if not row.blank), default=-1)
    entries, problems = [], {}
    for offset, typed in enumerate(rows[: last + 1]):
        number = first + offset
        if typed.blank:
            problems[number] = "this row is blank, but a later one is filled in"
            continue
        try:
            entries.append((number, read_row(typed, variant, names)))
        except RowError as error:
            problems[number] = sentence(error.message)
    if problems:
        raise CardRefused(rows={n: sentence(p) for n, p in problems.items()})
    if not entries:
        raise CardRefused("Type the card's hands first: every row is blank.")
    return entries


def _record_all(
    table: Table, entries: list[tuple[int, Entry]], by: str, now: datetime
) -> int:
    game = table.game
    board = replay_log(game_log(game))
    added = 0
    for number, entry in entries:
        played = len(board.rows)
        if number <= played:
            _same_as_recorded(board, number, entry)
            continue
        turn = board.next
        if number > played + 1 or turn is None:
            why = (
                f"the game was over after hand {played}"
                if turn is None
                else f"hand {played + 1} comes first"
            )
            raise CardRefused(rows={number: sentence(why)})
        try:
            hand = hand_of(entry, board.variant, turn)
        except RowError as error:
            raise CardRefused(rows={number: sentence(error.message)}) from None
        event_id = f"card-{table.pk}-{number}-{game.last_seq}"
        appended = _append(game, hand, number, event_id, by, now)
        board = appended.board
        added += not appended.repeated  # the same card sent twice at once
    return added


def _same_as_recorded(board: Scoreboard, number: int, entry: Entry) -> None:
    """A row for a hand the game has already: the same hand, or a refusal."""
    result = board.hands[number - 1]
    turn = turn_of(board.variant, board.first_dealer, number, result.pepper_round)
    try:
        typed = hand_of(entry, board.variant, turn)
    except RowError as error:
        raise CardRefused(rows={number: sentence(error.message)}) from None
    if typed != replace(result.hand, auction=None):
        stored = hand_summary(board.variant, board.seats, result.hand)
        raise CardRefused(
            rows={
                number: f"Hand {number} is recorded already as “{stored}”: "
                "correct it on the game's page, or type it as recorded."
            }
        )


def _append(
    game: Game, hand: Hand, number: int, event_id: str, by: str, now: datetime
) -> Appended:
    try:
        if isinstance(hand, HandRecorded):
            return services.hand_record(
                game=game,
                expected_seq=game.last_seq,
                bidder=hand.bidder,
                bid=hand.bid,
                trump=hand.trump,
                tricks=hand.tricks,
                free_tricks=hand.free_tricks,
                by=by,
                event_id=event_id,
                now=now,
            )
        return services.hand_pass_out(
            game=game, expected_seq=game.last_seq, by=by, event_id=event_id, now=now
        )
    except Refused as refused:
        fix = f" To make it legal: {refused.remedy}." if refused.remedy else ""
        why = sentence(_CONTRACT.sub("", refused.rule_message)) + fix
        raise CardRefused(rows={number: why}) from None
    except (Conflict, IdTaken):
        raise CardRefused(
            "The table's game moved on while the card was typed (a phone "
            "recorded a hand): nothing was saved. Check the rows and send it again."
        ) from None
    except Busy:
        raise CardRefused(
            "The database was too busy to take the card: nothing was saved. "
            "Send it again."
        ) from None


# The printed card and the entry page ------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    number: int  # on the card: 1 first
    name: str  # as the night shows it ("Ann → Eve from hand 5")
    key: str  # what to type for this bidder: the shortest start of the name
    side: str


@dataclass(frozen=True)
class HandLine:
    number: int
    dealer: str
    forced: str  # a pepper round's forced bid ("Bob bids 4")


@dataclass(frozen=True)
class Card:
    table: Table
    seats: list[SeatLine]
    sides: tuple[str, ...]
    totals: list[str]  # as the game stands
    recorded: list[str]  # the hands recorded so far, as the history says them
    lines: list[HandLine]  # the hands to come
    finished: bool
    bids: str
    trumps: str

    @property
    def standing(self) -> list[tuple[str, str]]:
        """Each side and its total, as the game stands."""
        return list(zip(self.sides, self.totals, strict=True))


def cards_of(tables: Iterable[Table], substituted: Sequence[Substituted]) -> list[Card]:
    """Each table's card (``tables`` with their game loaded), its seats as
    the night shows them (``substituted``: the night's substitutes). Every
    game's log is read in one query."""
    tables = list(tables)
    logs = _logs([table.game for table in tables])
    subs: dict[int, dict[int, Substituted]] = defaultdict(dict)
    for sub in substituted:
        subs[sub.table_id][sub.position] = sub
    return [
        _card(table, replay_log(logs[table.game_id]), subs[table.pk])
        for table in tables
    ]


def _logs(games: list[Game]) -> dict[UUID, GameLog]:
    events: dict[UUID, list[object]] = defaultdict(list)
    rows = GameEvent.objects.filter(game__in=[game.pk for game in games])
    for game_id, payload in rows.order_by("game", "seq").values_list("game", "payload"):
        events[game_id].append(payload)
    return {
        game.pk: GameLog(
            game_variant(game.preset, len(game.seats), game.overrides),
            tuple(game.seats),
            game.first_dealer,
            tuple(parse_entry(p, n) for n, p in enumerate(events[game.pk], start=1)),
        )
        for game in games
    }


def _card(table: Table, board: Scoreboard, subs: dict[int, Substituted]) -> Card:
    variant, names = board.variant, board.seats
    sides = board.side_names
    return Card(
        table=table,
        seats=[
            SeatLine(
                seat + 1,
                subs[seat].label if seat in subs else names[seat],
                key,
                sides[variant.side_of(seat)],
            )
            for seat, key in enumerate(keys(list(names)))
        ],
        sides=sides,
        totals=[signed(total) for total in board.totals],
        recorded=[
            f"{result.number}. {hand_summary(variant, names, result.hand)}"
            for result in board.hands
        ],
        lines=_hands_to_come(board, subs),
        finished=board.finished,
        bids=", ".join(rule.label for rule in variant.legal_ladder),
        trumps="S H D C" + (" N" if "no-trump" in variant.trumps else ""),
    )


def _hands_to_come(board: Scoreboard, subs: dict[int, Substituted]) -> list[HandLine]:
    """Who deals each hand the card has room for (a substitute from their
    hand on), and the pepper round's forced bids that are known already."""
    variant, played = board.variant, len(board.rows)
    planned = variant.hand_limit + PLAY_ON if variant.hand_limit else PLANNED_HANDS
    count = 0 if board.finished else min(max(planned - played, 4), MOST_ROWS)

    def holder(seat: int, number: int) -> str:
        sub = subs.get(seat)
        return sub.substitute if sub and number >= sub.from_hand else board.seats[seat]

    lines = []
    for number in range(played + 1, played + 1 + count):
        pepper = number <= board.pepper_round_until
        turn = turn_of(variant, board.first_dealer, number, pepper)
        forced = (
            f"{holder(turn.first_bidder, number)} bids {bid_label(turn.forced_bid)}"
            if turn.forced_bid is not None
            else ""
        )
        lines.append(HandLine(number, holder(turn.dealer, number), forced))
    return lines
