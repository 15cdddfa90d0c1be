"""The pepper-log v1 format (contract §1); the pepper-score v1 document is
score_document.py's (imported from here too, as it always was).

``read_log`` turns a document into a ``GameLog`` or raises ``LogError`` with
``log: ...`` (the header) or ``event N: ...`` (the N-th event), in words a
player can act on; it never lets a traceback through. ``replay_log`` then
referees and scores it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeGuard

from scorekeeper.rules.engine import (
    Scoreboard,
    Snapshot,
    fold_event,
    replay,
    verify_correction,
)
from scorekeeper.rules.errors import RulesError, Violation
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
from scorekeeper.rules.variants import Variant, find_variant, overrides_of
from scorekeeper.rules.variants import with_overrides as apply_overrides

FORMAT, VERSION = "pepper-log", 1
_HAND_FIELDS = ("bidder", "bid", "trump", "tricks", "conceded")

# What a log's free text may hold, checked here so that SQLite and
# PostgreSQL store exactly the same logs (PostgreSQL refuses NUL and lone
# surrogates in JSON; SQLite would keep them, and the export would then not
# import elsewhere). A real game has a few dozen hands: MAX_EVENTS leaves
# room for the longest evening, not for a denial of service.
TEXT_LIMITS = {"id": 64, "at": 40, "by": 60, "note": 500, "reason": 200}
NAME_LIMIT = 60
MAX_EVENTS = 2000


def printable(text: str) -> str:
    """``text`` as a page or a terminal can show it: a lone surrogate (which
    JSON may carry, and UTF-8 cannot) becomes its escape, ``\\ud800``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class LogError(Exception):
    """A log refused: the message starts with ``log:`` or ``event N:``."""

    def __init__(
        self, message: str, *, event: int | None = None, remedy: str = ""
    ) -> None:
        self.event = event
        message = printable(message)
        self.message = message
        self.remedy = remedy  # what would make the event legal, when known
        where = "log" if event is None else f"event {event}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """An event as the log carries it, with what never changes a score."""

    event: Event
    id: str | None = None
    at: str | None = None
    by: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class GameLog:
    variant: Variant
    seats: tuple[str, ...]
    first_dealer: int
    entries: tuple[LogEntry, ...]

    @property
    def events(self) -> list[Event]:
        return [entry.event for entry in self.entries]


def read_json(text: str | bytes) -> object:
    """A JSON document, or ``LogError``: never a ``RecursionError`` from a
    document nested thousands deep, nor a decode error."""
    try:
        return json.loads(text)
    except RecursionError:
        raise LogError("this JSON is nested too deeply to be a pepper log") from None
    except ValueError as error:
        raise LogError(f"this is not valid JSON ({error})") from None


def read_log(text: str | bytes) -> GameLog:
    """Parse a pepper-log v1 JSON text (structure only; see ``replay_log``)."""
    return parse_log(read_json(text))


def clean_text(value: str, *, limit: int, multiline: bool = False) -> str | None:
    """Why ``value`` cannot be stored (None: it can): too long, a control
    character (NUL included; line breaks and tabs only where ``multiline``),
    or a lone surrogate, which is no character at all."""
    if len(value) > limit:
        return f"is longer than {limit} characters"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a broken character (a lone surrogate)"
    allowed = "\n\t" if multiline else ""
    if any((ord(c) < 32 or 127 <= ord(c) < 160) and c not in allowed for c in value):
        return "holds a control character"
    return None


def parse_log(document: object) -> GameLog:
    if not isinstance(document, dict):
        raise LogError("a pepper log is a JSON object")
    if document.get("format") != FORMAT:
        raise LogError(f'"format" must be "{FORMAT}"')
    if document.get("version") != VERSION or type(document.get("version")) is not int:
        raise LogError(f"this app reads version {VERSION} of the pepper log")
    seats = parse_seats(document.get("seats"))
    variant = parse_variant(document.get("variant"), len(seats))
    first_dealer = document.get("first_dealer")
    if not _is_int(first_dealer) or not 0 <= first_dealer < len(seats):
        raise LogError(f'"first_dealer" must be a seat from 0 to {len(seats) - 1}')
    events = document.get("events")
    if not isinstance(events, list):
        raise LogError('"events" must be a list (it may be empty)')
    if len(events) > MAX_EVENTS:
        raise LogError(f"a game holds at most {MAX_EVENTS:,} events")
    entries = tuple(parse_entry(raw, n) for n, raw in enumerate(events, start=1))
    _check_ids(entries)
    return GameLog(variant, seats, first_dealer, entries)


def parse_seats(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise LogError('"seats" must be a list of player names')
    names = tuple(name.strip() for name in raw)
    if len(names) < 2 or not all(names):
        raise LogError("every seat needs a name, and there are at least 2 seats")
    for name in names:
        problem = clean_text(name, limit=NAME_LIMIT)
        if problem:
            raise LogError(f"the player name {name[:NAME_LIMIT]!r}… {problem}")
    if len({name.casefold() for name in names}) != len(names):
        raise LogError("two seats have the same name: give each player their own")
    return names


def game_variant(preset: str, seats: int, overrides: Mapping[str, object]) -> Variant:
    """The variant a game is played under; bad settings become ``log:``."""
    # Each value's type is part of the key: 30 == 30.0 and 1 == true in
    # Python, and a cached right value must not let an equal wrong one pass.
    key = tuple(sorted((name, type(value), value) for name, value in overrides.items()))
    try:
        return _variant(preset, seats, key)
    except TypeError:  # an unhashable override value: let the check word it
        return _checked_variant(preset, seats, overrides)


@functools.lru_cache(maxsize=256)
def _variant(
    preset: str, seats: int, overrides: tuple[tuple[str, type, object], ...]
) -> Variant:
    # One Variant per house setting, so its derived tables are built once.
    return _checked_variant(
        preset, seats, {name: value for name, _, value in overrides}
    )


def _checked_variant(
    preset: str, seats: int, overrides: Mapping[str, object]
) -> Variant:
    try:
        return apply_overrides(find_variant(preset, seats), overrides)
    except RulesError as error:
        raise LogError(error.message) from None


def parse_variant(raw: object, seats: int) -> Variant:
    """``"moon-42"`` or ``{"preset": "moon-42", ...overrides}``."""
    overrides: dict[str, object] = {}
    if isinstance(raw, dict):
        overrides = {key: value for key, value in raw.items() if key != "preset"}
        raw = raw.get("preset")
    if not isinstance(raw, str):
        raise LogError('"variant" must be a preset name or {"preset": NAME, ...}')
    return game_variant(raw, seats, overrides)


def _is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not a JSON true/false."""
    return type(value) is int


def parse_entry(raw: object, n: int) -> LogEntry:
    """One event of a log (position ``n``), with its id, time and author."""
    if not isinstance(raw, dict):
        raise LogError("each event must be a JSON object", event=n)
    for key, limit in TEXT_LIMITS.items():
        if raw.get(key) is None:
            continue
        if not isinstance(raw[key], str):
            raise LogError(f'"{key}" must be text', event=n)
        problem = clean_text(raw[key], limit=limit, multiline=key in ("note", "reason"))
        if problem:
            raise LogError(f'"{key}" {problem}', event=n)
    if raw.get("id") == "":
        raise LogError('"id" must not be empty', event=n)
    if raw.get("at") is not None:
        _check_time(raw["at"], n)
    kind = raw.get("type")
    event: Event
    if kind == "hand":
        event = parse_hand(raw, n)
    elif kind in ("void", "correct"):
        target = raw.get("target")
        if not _is_int(target):
            raise LogError('"target" must be the position of a hand event', event=n)
        if kind == "void":
            reason = raw.get("reason", "")
            if not isinstance(reason, str):
                raise LogError('"reason" must be text', event=n)
            event = HandVoided(target, reason)
        else:
            if not isinstance(raw.get("hand"), dict):
                raise LogError('a correction needs "hand": the hand as it was', event=n)
            event = HandCorrected(target, parse_hand(raw["hand"], n))
    elif kind == "end":
        reason = raw.get("reason", "")
        if not isinstance(reason, str):
            raise LogError('"reason" must be text', event=n)
        event = GameEnded(reason)
    else:
        raise LogError('"type" must be "hand", "void", "correct" or "end"', event=n)
    return LogEntry(event, raw.get("id"), raw.get("at"), raw.get("by"), raw.get("note"))


def check_entry_text(entry: LogEntry, n: int) -> None:
    """The free text of an entry built in the app (not parsed from a log)
    holds to the limits a parsed one does."""
    raw: dict[str, object] = {"id": entry.id, "at": entry.at, "by": entry.by}
    raw["note"] = entry.note
    if isinstance(entry.event, HandVoided | GameEnded):
        raw["reason"] = entry.event.reason
    for key, value in raw.items():
        if isinstance(value, str):
            multiline = key in ("note", "reason")
            problem = clean_text(value, limit=TEXT_LIMITS[key], multiline=multiline)
            if problem:
                raise LogError(f'"{key}" {problem}', event=n)


def _check_time(text: str, n: int) -> None:
    """An ISO 8601 time that can be stored: in UTC it must still be a date
    (``9999-12-31T23:59:59-23:59`` is not)."""
    try:
        at = datetime.fromisoformat(text)
        if at.tzinfo is not None:
            at.astimezone(UTC)
    except ValueError:
        raise LogError('"at" must be an ISO 8601 time', event=n) from None
    except OverflowError:
        raise LogError('"at" is out of the range of dates', event=n) from None


def parse_hand(raw: Mapping[str, Any], n: int) -> Hand:
    """The fields of a hand event: bid, or ``passed_out: true``."""
    if raw.get("type", "hand") != "hand":
        raise LogError('a corrected hand must be a "hand"', event=n)
    auction = _parse_auction(raw.get("auction"), n)
    passed_out = raw.get("passed_out", False)
    if not isinstance(passed_out, bool):
        raise LogError('"passed_out" must be true or false', event=n)
    if passed_out:
        if any(key in raw for key in _HAND_FIELDS):
            raise LogError("a passed-out hand has no bidder, bid or tricks", event=n)
        return HandPassedOut(auction)
    bidder, bid, trump = raw.get("bidder"), raw.get("bid"), raw.get("trump")
    if not _is_int(bidder):
        raise LogError('"bidder" must be a seat number', event=n)
    if not (_is_int(bid) or isinstance(bid, str)):
        raise LogError('"bid" must be a number of tricks or a named bid', event=n)
    if not isinstance(trump, str):
        raise LogError('"trump" must be a suit name or "no-trump"', event=n)
    if ("tricks" in raw) == ("conceded" in raw):
        raise LogError(
            'a hand has either "tricks" (played) or "conceded", not both or neither',
            event=n,
        )
    if "tricks" in raw:
        tricks = raw["tricks"]
        if not isinstance(tricks, list) or not all(_is_int(t) for t in tricks):
            raise LogError('"tricks" must be a list of whole numbers', event=n)
        return HandRecorded(bidder, bid, trump, tuple(tricks), None, auction)
    conceded = raw["conceded"]
    if not isinstance(conceded, dict) or not _is_int(conceded.get("free_tricks")):
        raise LogError('"conceded" must be {"free_tricks": a whole number}', event=n)
    return HandRecorded(bidder, bid, trump, None, conceded["free_tricks"], auction)


def _parse_auction(raw: object, n: int) -> tuple[AuctionCall, ...] | None:
    if raw is None:
        return None
    calls: list[AuctionCall] = []
    if isinstance(raw, list):
        for call in raw:
            if not (
                isinstance(call, list)
                and len(call) == 2
                and _is_int(call[0])
                and (_is_int(call[1]) or isinstance(call[1], str))
            ):
                break
            calls.append((call[0], call[1]))
        else:
            return tuple(calls)
    raise LogError(
        '"auction" must be a list of [seat, call] pairs, call "pass" or a bid', event=n
    )


def _check_ids(entries: Sequence[LogEntry]) -> None:
    seen: dict[str, int] = {}
    for n, entry in enumerate(entries, start=1):
        if entry.id is None:
            continue
        if entry.id in seen:
            raise LogError(
                f"id {entry.id!r} is already used by event {seen[entry.id]}", event=n
            )
        seen[entry.id] = n


def replay_log(log: GameLog) -> Scoreboard:
    """Referee and score a parsed log; a broken rule becomes ``event N: ...``."""
    try:
        return replay(log.variant, log.seats, log.first_dealer, log.events)
    except Violation as violation:
        raise _refused(violation) from None
    except RulesError as error:  # pragma: no cover - parse_log checks seats first
        raise LogError(error.message) from None


def fold_entry(state: Snapshot, entry: LogEntry) -> Snapshot | None:
    """``fold_event`` for one more log entry, refused as ``replay_log``
    refuses it (``event N: ...``); None for a void or a correction."""
    try:
        return fold_event(state, entry.event)
    except Violation as violation:
        raise _refused(violation) from None


def check_correction(board: Scoreboard, entry: LogEntry, seq: int) -> None:
    """Refuse, as ``replay_log`` refuses (``event N: ...``), a correction
    that would be event ``seq`` and changes nothing of the hand it names
    (``board``: the game before it); any other entry passes."""
    if isinstance(entry.event, HandCorrected):
        try:
            verify_correction(board, entry.event, seq)
        except Violation as violation:
            raise _refused(violation) from None


def _refused(violation: Violation) -> LogError:
    return LogError(
        f"{violation.message} ({violation.rule})",
        event=violation.event,
        remedy=violation.remedy,
    )


def read_and_replay(text: str | bytes) -> tuple[GameLog, Scoreboard]:
    log = read_log(text)
    return log, replay_log(log)


# Writing ---------------------------------------------------------------------


def variant_document(variant: Variant) -> str | dict[str, object]:
    overrides = overrides_of(variant)
    return {"preset": variant.preset, **overrides} if overrides else variant.preset


def hand_fields(hand: Hand) -> dict[str, object]:
    fields: dict[str, object]
    if isinstance(hand, HandPassedOut):
        fields = {"passed_out": True}
    else:
        fields = {"bidder": hand.bidder, "bid": hand.bid, "trump": hand.trump}
        if hand.tricks is not None:
            fields["tricks"] = list(hand.tricks)
        else:
            fields["conceded"] = {"free_tricks": hand.free_tricks}
    if hand.auction is not None:
        fields["auction"] = [[seat, call] for seat, call in hand.auction]
    return fields


def event_document(entry: LogEntry) -> dict[str, object]:
    event = entry.event
    document: dict[str, object]
    if isinstance(event, HandVoided):
        document = {"type": "void", "target": event.target}
        if event.reason:
            document["reason"] = event.reason
    elif isinstance(event, GameEnded):
        document = {"type": "end"}
        if event.reason:
            document["reason"] = event.reason
    elif isinstance(event, HandCorrected):
        document = {"type": "correct", "target": event.target}
        document["hand"] = hand_fields(event.hand)
    else:
        document = {"type": "hand", **hand_fields(event)}
    for key in ("id", "at", "by", "note"):
        value = getattr(entry, key)
        if value is not None:
            document[key] = value
    return document


def log_document(log: GameLog) -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": variant_document(log.variant),
        "seats": list(log.seats),
        "first_dealer": log.first_dealer,
        "events": [event_document(entry) for entry in log.entries],
    }


def dumps(document: object) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
