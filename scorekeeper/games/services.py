"""What the app does to a game, as plainly named functions.

Each takes keyword arguments only, including the time (``now``), and
changes a game only by appending one event through ``recording.event_append``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.crypto import constant_time_compare

from scorekeeper import eventstore
from scorekeeper.gamelog import (
    GameLog,
    LogEntry,
    LogError,
    log_document,
    read_and_replay,
    read_log,
)
from scorekeeper.house_rules import game_setup
from scorekeeper.models import Game, new_token
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.projections.game_rows import summary
from scorekeeper.recording import Appended, event_append
from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import (
    AuctionCall,
    Call,
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.series import SeriesRule, next_first_dealer
from scorekeeper.rules.variants import overrides_of

from .models import LiveTable, Series
from .series import SeriesState, series_of
from .series_words import winner_line


class SetupError(Exception):
    """A new game that cannot be set up: the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def game_create(
    *,
    preset: str,
    seats: Sequence[str],
    first_dealer: int,
    overrides: Mapping[str, object] | None = None,
    name: str = "",
    series: SeriesRule | None = None,
    game_id: uuid.UUID | None = None,
    edit_token: str | None = None,
    now: datetime,
) -> Game:
    """A new game (``series``: the first game of a series of that rule).
    ``game_id`` and ``edit_token``: chosen by the form that asks for it (or
    a phone that started it offline); sent again, the same choice answers
    the game it made (``_create_once``)."""
    try:
        names, variant = game_setup(
            preset=preset,
            seats=list(seats),
            first_dealer=first_dealer,
            overrides=overrides or {},
            name=name,
        )
    except LogError as error:
        raise SetupError(error.message) from None
    fields: dict[str, object] = {
        "name": name.strip(),
        "preset": variant.preset,
        "overrides": dict(overrides or {}),
        "seats": list(names),
        "first_dealer": first_dealer,
        "created_at": now,
        "updated_at": now,
        "totals": [0] * variant.sides,
    }
    if series is None:
        return _create_once(game_id, edit_token, fields, lambda game: None)
    series_id = fields["series_id"] = uuid.uuid4()

    def start_series(game: Game) -> None:
        Series.objects.create(
            pk=series_id, rule=series.code, created_at=now, games=[game.pk.hex]
        )

    return _create_once(game_id, edit_token, fields, start_series)


class _NextGameTaken(Exception):
    """Another phone started the series' next game a moment ago."""


def series_next(
    *,
    game: Game,
    game_id: uuid.UUID | None = None,
    edit_token: str | None = None,
    now: datetime,
) -> Game:
    """The next game of ``game``'s series, started once: the same players,
    seats, rules and name, first dealt by the seat after ``game``'s last
    dealer (``rules.series.next_first_dealer``). If it was started already
    (this form sent twice, or another phone's tap), that game is the
    answer. Refused (``SetupError``) while ``game`` is being played, or
    once the series is over."""
    state = series_of(game)
    if state is None:
        raise SetupError("this game is not part of a series")
    following = state.after(game.pk)
    if following is not None:
        return following
    if state.standing.over:
        raise SetupError(
            f"the series is over ({winner_line(state.names, state.standing)})"
        )
    if not game.finished:
        number = state.number_of(game.pk)
        raise SetupError(
            f"game {number} is still being played: the next game starts once it is won"
        )
    try:
        return _create_once(game_id, edit_token, *_next_game(state, game, now))
    except _NextGameTaken:
        found = series_of(game)
        assert found is not None  # a series is never deleted while it is played
        following = found.after(game.pk)
        assert following is not None  # what took its place
        return following


def _next_game(
    state: SeriesState, game: Game, now: datetime
) -> tuple[dict[str, object], Callable[[Game], None]]:
    """The next game's fields, and what adds it to the series (against the
    number of games the series held when it was read)."""
    board = scoreboard(game.pk, game_log(game))
    fields: dict[str, object] = {
        "name": game.name,
        "preset": game.preset,
        "overrides": dict(game.overrides),
        "seats": list(game.seats),
        "first_dealer": next_first_dealer(
            board.variant, board.first_dealer, len(board.rows)
        ),
        "created_at": now,
        "updated_at": now,
        "totals": [0] * board.variant.sides,
        "series_id": state.series.pk,
    }
    count, listed = state.series.game_count, list(state.series.games)

    def add_to_series(new: Game) -> None:
        added = Series.objects.filter(pk=state.series.pk, game_count=count).update(
            games=[*listed, new.pk.hex], game_count=count + 1
        )
        if not added:
            raise _NextGameTaken()
        # The players stay in their seats on their own phones: who sat
        # where at the last game sits there at this one (no auction yet).
        seated = LiveTable.objects.filter(pk=game.pk).values_list("phones", flat=True)
        for phones in seated:
            LiveTable.objects.create(pk=new.pk, phones=phones, version=1)

    return fields, add_to_series


def _create_once(
    game_id: uuid.UUID | None,
    edit_token: str | None,
    fields: Mapping[str, object],
    then: Callable[[Game], None],
) -> Game:
    """Create the game of ``fields`` (and ``then`` store what goes with it,
    in the same transaction) under the id and edit token its form chose:
    a second request with the same choice (a double tap; two at once wait
    for each other on the id's unique key) finds the game made and answers
    it, unchanged. Another game under that id, or a different edit token,
    is refused: nothing is made twice or taken over."""
    chosen = {} if game_id is None else {"id": game_id, "edit_token": edit_token}
    try:
        with transaction.atomic():
            game = Game.objects.create(**chosen, **fields)
            then(game)
            return game
    except IntegrityError:
        if game_id is None:
            raise
    found = Game.objects.filter(pk=game_id).first()
    same = found is not None and all(
        getattr(found, key) == fields[key] for key in ("preset", "seats", "overrides")
    )
    if (
        found is None
        or not same
        or not constant_time_compare(found.edit_token, edit_token or "")
    ):
        raise SetupError(
            "this form was sent already and made another game: "
            "open the new-game page again to start one"
        )
    return found


def hand_record(
    *,
    game: Game,
    expected_seq: int,
    bidder: int,
    bid: Call,
    trump: str,
    tricks: Sequence[int] | None = None,
    free_tricks: int | None = None,
    auction: Sequence[AuctionCall] | None = None,
    by: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """Record a bid hand: played (``tricks``) or conceded (``free_tricks``)."""
    hand = _hand(bidder, bid, trump, tricks, free_tricks, auction)
    return _append(game, expected_seq, hand, by=by, event_id=event_id, now=now)


def hand_pass_out(
    *,
    game: Game,
    expected_seq: int,
    auction: Sequence[AuctionCall] | None = None,
    by: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    hand = HandPassedOut(None if auction is None else tuple(auction))
    return _append(game, expected_seq, hand, by=by, event_id=event_id, now=now)


def hand_void(
    *,
    game: Game,
    expected_seq: int,
    target: int,
    reason: str = "",
    by: str = "",
    note: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """The hand event at log position ``target`` never happened."""
    event = HandVoided(target, reason.strip())
    return _append(
        game, expected_seq, event, by=by, note=note, event_id=event_id, now=now
    )


def hand_correct(
    *,
    game: Game,
    expected_seq: int,
    target: int,
    hand: Hand,
    by: str = "",
    note: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """The hand event at log position ``target`` is replaced by ``hand``
    (``note``: why, e.g. an organizer's reason after a night closed)."""
    event = HandCorrected(target, hand)
    return _append(
        game, expected_seq, event, by=by, note=note, event_id=event_id, now=now
    )


def log_digest(document: str | bytes) -> str:
    """What identifies a log's content: the SHA-256 of its canonical form
    (so spacing and key order do not matter)."""
    return digest_of(read_log(document))


def digest_of(log: GameLog) -> str:
    """The ``import_digest`` of a log read: its canonical form's SHA-256."""
    canonical = json.dumps(log_document(log), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "backslashreplace")).hexdigest()


def game_end(
    *,
    game: Game,
    expected_seq: int,
    reason: str = "",
    by: str = "",
    event_id: str | None = None,
    now: datetime,
) -> Appended:
    """End the game as it stands (contract §6): the highest total wins."""
    event = GameEnded(reason.strip())
    return _append(game, expected_seq, event, by=by, event_id=event_id, now=now)


def game_import(
    *,
    document: str | bytes,
    by: str = "",
    game_id: uuid.UUID | None = None,
    edit_token: str | None = None,
    now: datetime,
) -> Game:
    """A new game from a pepper-log v1 document, refused whole if any event
    is illegal (``LogError``: ``event N: ...`` or ``log: ...``); made once
    under the id and edit token its form chose (``_create_once``)."""
    log, board = read_and_replay(document)
    return game_store(
        log=log, board=board, by=by, game_id=game_id, edit_token=edit_token, now=now
    )


def game_store(
    *,
    log: GameLog,
    board: Scoreboard,
    digest: str = "",
    by: str = "",
    game_id: uuid.UUID | None = None,
    edit_token: str | None = None,
    now: datetime,
) -> Game:
    """A new game of a log already read and refereed (``board`` is its
    replay; ``digest`` its ``digest_of``, when known): stored whole, as
    ``game_import`` stores a document."""
    fields = {
        "import_digest": digest or digest_of(log),
        "preset": log.variant.preset,
        "overrides": overrides_of(log.variant),
        "seats": list(log.seats),
        "first_dealer": log.first_dealer,
        "created_at": now,
        "updated_at": now,
        **summary(board, len(log.entries)),
    }
    entries = [_completed(entry, by=by, now=now) for entry in log.entries]
    return _create_once(
        game_id, edit_token, fields, lambda game: eventstore.append_all(game, entries)
    )


def game_links_replace(
    *, game: Game, held: str, edit_token: str, view_token: str
) -> bool:
    """Give the game new links (the old ones stop working at once), if its
    edit link is still ``held`` (the one the asking phone opened it with):
    True when replaced. False when another phone replaced them first (or
    this very form did, sent twice): then nothing changes.

    A game of a series takes the series' other games along, each with new
    links of its own: a phone holding an earlier game's link would
    otherwise still void its hands (and so change the series), and open
    the new game through it. The table reaches them from the game's page
    ("Go to game 2"), with the right it has in this one."""
    with transaction.atomic():
        others: list[Game] = []
        if game.series_id is not None:  # locked in one order: two phones at
            # once replacing two games of the series cannot deadlock
            series = Game.objects.select_for_update().filter(series_id=game.series_id)
            others = [g for g in series.order_by("pk").only("pk") if g.pk != game.pk]
        replaced = Game.objects.filter(pk=game.pk, edit_token=held).update(
            edit_token=edit_token, view_token=view_token
        )
        if replaced and others:
            for other in others:
                other.edit_token, other.view_token = new_token(), new_token()
            Game.objects.bulk_update(others, ["edit_token", "view_token"])
    if replaced:
        game.edit_token, game.view_token = edit_token, view_token
    return bool(replaced)


def game_export(*, game: Game) -> dict[str, object]:
    """The game's pepper-log v1 document: its stored log."""
    return log_document(eventstore.load(game))


def _hand(
    bidder: int,
    bid: Call,
    trump: str,
    tricks: Sequence[int] | None,
    free_tricks: int | None,
    auction: Sequence[AuctionCall] | None,
) -> HandRecorded:
    return HandRecorded(
        bidder,
        bid,
        trump,
        None if tricks is None else tuple(tricks),
        free_tricks,
        None if auction is None else tuple(auction),
    )


def _append(
    game: Game,
    expected_seq: int,
    event: Event,
    *,
    by: str,
    note: str = "",
    event_id: str | None,
    now: datetime,
) -> Appended:
    entry = LogEntry(
        event,
        id=event_id or uuid.uuid4().hex,
        at=now.isoformat(),
        by=by.strip()[:60] or None,
        note=note.strip() or None,
    )
    return event_append(game=game, expected_seq=expected_seq, entry=entry)


def _completed(entry: LogEntry, *, by: str, now: datetime) -> LogEntry:
    """An imported event as it is stored: one without an id, a time or an
    author gets them."""
    return replace(
        entry,
        id=entry.id or uuid.uuid4().hex,
        at=entry.at or now.isoformat(),
        by=entry.by or (by or None),
    )
