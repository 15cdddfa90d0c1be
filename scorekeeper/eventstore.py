"""The append-only event store: ``append`` an event to a game's log, and
``load`` the log. Nothing else: the rules are the referee's
(``recording.py``), and what the log implies is the read model's
(``projections/``).

An event is validated once, on its way in (the form, the API's
``parse_entry``, the import's ``read_log``, the text check in
``recording``); what the store gives back it wrote itself, so it is read
back as written, not checked again.

An event's place is its game and seq, both unique with its id: ``append``
writes event ``expected_seq + 1`` only while the log ends at
``expected_seq`` (``Conflict`` otherwise), and an id already stored is
answered by ``repeat_of``: the same event, or ``IdTaken``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from scorekeeper.gamelog import GameLog, LogEntry, event_document, game_variant
from scorekeeper.models import Game, GameEvent
from scorekeeper.rules.events import (
    AuctionCall,
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)


class Conflict(Exception):
    """The log moved on since the client read it (another phone saved)."""

    def __init__(self, current_seq: int) -> None:
        super().__init__(f"the game is at event {current_seq}")
        self.current_seq = current_seq


class IdTaken(Exception):
    """The event id is stored already, for a different event: a client
    reusing an id, not retrying one. Nothing was written."""

    def __init__(self, event_id: str, seq: int) -> None:
        super().__init__(f"id {event_id!r} is already used by event {seq}")
        self.event_id = event_id
        self.seq = seq


class Busy(Exception):
    """The database could not take the write (locked by other writers past
    the timeout, or a fault: disk full, read-only, connection lost):
    nothing was written; the same request may simply be sent again."""


# What ``load`` reads of a game's row.
LOG_FIELDS = ("pk", "preset", "seats", "first_dealer", "overrides", "last_seq")


def load(game: Game, up_to: int | None = None) -> GameLog:
    """The game's log (up to event ``up_to``), as pepper-log v1 reads it."""
    return GameLog(
        game_variant(game.preset, len(game.seats), game.overrides),
        tuple(game.seats),
        game.first_dealer,
        entries_after(game, 0, up_to),
    )


def entries_after(
    game: Game, seq: int, up_to: int | None = None
) -> tuple[LogEntry, ...]:
    """The game's stored entries after event ``seq`` (up to ``up_to``).
    Plain SQL: through the ORM, building the query and converting each
    row's JSON took three times as long as reading and parsing them."""
    connection = connections[DEFAULT_DB_ALIAS]
    key = _GAME.get_db_prep_value(game.pk, connection)
    last = _LAST_SEQ if up_to is None else up_to
    with connection.cursor() as cursor:
        cursor.execute(_reading(connection.vendor), [key, seq, last])
        rows = cursor.fetchall()
    return tuple(stored_entry(_document(payload)) for (payload,) in rows)


def _document(payload: str | dict[str, Any]) -> dict[str, Any]:
    """A stored event's JSON as the database gives it back (text, or
    already decoded by the driver)."""
    if isinstance(payload, str):
        decoded: dict[str, Any] = json.loads(payload)
        return decoded
    return payload


def append(game: Game, expected_seq: int, entry: LogEntry) -> int:
    """Write ``entry`` as event ``expected_seq + 1`` of ``game`` if its log
    ends at ``expected_seq``; its seq. ``Conflict`` when the log ends
    elsewhere; ``IntegrityError`` when another append took the place or the
    id first (the caller's transaction is then spoilt: see ``repeat_of``)."""
    connection = connections[DEFAULT_DB_ALIAS]
    row = _stored_row(game, expected_seq + 1, entry)
    params = [
        field.get_db_prep_save(row[field.attname], connection)
        for field in _EVENT_FIELDS
    ]
    key = _GAME.get_db_prep_value(game.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(_appending(connection.vendor), [*params, key, expected_seq])
        if cursor.rowcount == 1:
            return expected_seq + 1
    raise Conflict(head_of(game))


def append_all(game: Game, entries: Sequence[LogEntry]) -> None:
    """A new game's whole log at once: an import, refereed whole before."""
    rows = (_stored_row(game, n, entry) for n, entry in enumerate(entries, start=1))
    GameEvent.objects.bulk_create(GameEvent(**row) for row in rows)


def head_of(game: Game) -> int:
    """The seq of the game's last stored event (0: none)."""
    last = GameEvent.objects.filter(game=game).order_by("-seq")
    return last.values_list("seq", flat=True).first() or 0


def repeat_of(game: Game, entry: LogEntry) -> int | None:
    """The seq under which ``entry``'s id is stored, if it is stored as
    this same event (who entered it and when may differ on a retry); None
    if the id is not stored; ``IdTaken`` if it holds another event."""
    events = GameEvent.objects.filter(game=game, event_id=entry.id)
    found = events.values_list("seq", "payload").first()
    if found is None:
        return None
    seq, payload = found
    if stored_entry(payload).event != entry.event:
        raise IdTaken(str(entry.id), seq)
    return int(seq)


_EVENT_FIELDS = tuple(
    field for field in GameEvent._meta.concrete_fields if not field.primary_key
)


_GAME = GameEvent._meta.get_field("game")
_LAST_SEQ = 2**31 - 1  # the highest seq a column holds


@cache
def _reading(vendor: str) -> str:
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    return (
        f"SELECT {quote('payload')} FROM {quote(GameEvent._meta.db_table)}"
        f" WHERE {quote('game_id')} = %s AND {quote('seq')} > %s"
        f" AND {quote('seq')} <= %s ORDER BY {quote('seq')}"
    )


@cache
def _appending(vendor: str) -> str:
    """The INSERT of one event that writes nothing unless the game's log
    ends at the seq given last (the unique keys on (game, seq) and (game,
    event id) settle two appends racing past that check)."""
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    table = quote(GameEvent._meta.db_table)
    columns = ", ".join(quote(str(field.column)) for field in _EVENT_FIELDS)
    marks = ", ".join("%s" for _ in _EVENT_FIELDS)
    game, seq = quote("game_id"), quote("seq")
    last = f"SELECT MAX({seq}) FROM {table} WHERE {game} = %s"
    return (
        f"INSERT INTO {table} ({columns}) SELECT {marks}"
        f" WHERE COALESCE(({last}), 0) = %s"
    )


def _stored_row(game: Game, seq: int, entry: LogEntry) -> dict[str, Any]:
    """Event ``seq`` as it is stored, by column: its pepper-log v1 form, and
    a time without a zone read as UTC."""
    assert entry.id is not None and entry.at is not None, "given before storing"
    payload = event_document(entry)
    at = datetime.fromisoformat(entry.at)
    return {
        "game_id": game.pk,
        "seq": seq,
        "event_id": entry.id,
        "type": str(payload["type"]),
        "payload": payload,
        "recorded_at": at if at.tzinfo else at.replace(tzinfo=UTC),
        "recorded_by": entry.by or "",
    }


# Reading back what ``event_document`` wrote -----------------------------------


def stored_entry(stored: Mapping[str, Any]) -> LogEntry:
    """An entry as this store wrote it (``event_document``), trusted: it
    was validated on its way in (``tests/test_eventstore.py`` reads each
    kind back as the entry it was)."""
    get = stored.get
    return LogEntry(_event(stored), get("id"), get("at"), get("by"), get("note"))


def _event(stored: Mapping[str, Any]) -> Event:
    kind = stored["type"]
    if kind == "hand":
        return _hand(stored)
    if kind == "void":
        return HandVoided(stored["target"], stored.get("reason", ""))
    if kind == "correct":
        return HandCorrected(stored["target"], _hand(stored["hand"]))
    return GameEnded(stored.get("reason", ""))


def _hand(stored: Mapping[str, Any]) -> Hand:
    calls = stored.get("auction")
    auction = None if calls is None else tuple(_call(call) for call in calls)
    if "passed_out" in stored:
        return HandPassedOut(auction)
    bidder, bid, trump = stored["bidder"], stored["bid"], stored["trump"]
    tricks = stored.get("tricks")
    if tricks is not None:
        return HandRecorded(bidder, bid, trump, tuple(tricks), None, auction)
    free = stored["conceded"]["free_tricks"]
    return HandRecorded(bidder, bid, trump, None, free, auction)


def _call(call: list[Any]) -> AuctionCall:
    return (call[0], call[1])
