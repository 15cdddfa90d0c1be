"""What a phone shows with no connection, computed on the phone.

Run under Pyodide by ``static/offline/engine.js`` (and by the tests under
CPython): the game's stored log (pepper-log v1, as ``log.json`` serves it)
plus the events this phone queued is replayed by ``gamelog`` and the
rules, and worded by ``tablewords`` and ``refusals``, the very code the
server's pages use. Each function takes and returns JSON text, so the
page's script needs no Python objects.

Pure: the standard library and the log core's pure modules only.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from scorekeeper.disputes import dispute as dispute
from scorekeeper.disputes import keep_ours as keep_ours
from scorekeeper.disputes import rivals, takeovers
from scorekeeper.gamelog import (
    GameLog,
    LogError,
    dumps,
    hand_fields,
    log_document,
    parse_entry,
    parse_log,
    replay_log,
)
from scorekeeper.house_rules import game_setup, house_overrides
from scorekeeper.record_form import entered_hand, form_options
from scorekeeper.refusals import hand_numbers, in_a_game, players_words, sentence
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.rules.events import HandPassedOut
from scorekeeper.rules.referee import Turn, seat_calls, turn_of
from scorekeeper.rules.variants import PRESETS
from scorekeeper.score_document import score_document
from scorekeeper.tablewords import (
    Takeover,
    auction_calls,
    board_at,
    board_now,
    corrections,
    forced_line,
    hand_row,
    hand_summary,
    score_boxes,
    status,
    turn_line,
    voided,
    whole_number,
)

# The outbox: items {"event": a pepper-log v1 event with its id,
# "expected_seq": the log length it was made against (None: after the
# item before it), "target_of": the id of the queued hand a void or a
# correction names, placed where that hand lands}.
Queued = list[dict[str, Any]]


def placed(stored: int, queued: Queued, landed: dict[str, int] | None = None) -> Queued:
    """The queued events as the log will hold them: a void or correction of
    a queued hand names the position that hand takes (``landed``: where
    each sent one was stored; the rest follow the stored log in order)."""
    where = dict(landed or {})
    events = []
    for index, item in enumerate(queued):
        event = dict(item["event"])
        if item.get("target_of"):
            event["target"] = where.get(item["target_of"], event.get("target"))
        where.setdefault(event["id"], stored + index + 1)
        events.append(event)
    return events


def view(
    log_text: str,
    queued_text: str,
    takeovers_text: str = "[]",
    decided_text: str = "[]",
) -> str:
    """The page as it stands once the queued events are in: totals, turn,
    forced bid, winner, each hand's row (queued ones marked), and the
    record form's choices, each named as the server's page names it (by
    who plays now; a hand by who played it). A queued event the rules
    refuse is not applied: ``refusal`` says why, in the page's words. A
    queued hand another phone recorded first is shown on that hand's row
    (``rival``), the table to choose, not as a hand after it."""
    log = parse_log(json.loads(log_text))
    stored = len(log.entries)
    board, refusal = replay_log(log), None
    rival, queued = rivals(log, json.loads(queued_text), set(json.loads(decided_text)))
    for index, raw in enumerate(placed(stored, queued)):
        try:
            entry = parse_entry(raw, len(log.entries) + 1)
            longer = GameLog(
                log.variant, log.seats, log.first_dealer, (*log.entries, entry)
            )
            board, log = replay_log(longer), longer
        except LogError as refused:
            name = in_a_game(log.events, hand_numbers(board))
            words = players_words(refused.message, refused.remedy, name)
            refusal = {"index": index, "text": words.text, "rule": words.rule}
            break
    page = _page(log, board, stored, takeovers(takeovers_text), rival)
    ids = [item["event"]["id"] for item in queued]
    return json.dumps(page | {"refusal": refusal, "queued_ids": ids})


def _page(
    log: GameLog,
    played: Scoreboard,
    stored: int,
    changes: tuple[Takeover, ...],
    rival: dict[int, dict[str, Any]],
) -> dict[str, Any]:
    board = board_now(played, changes)
    turn = board.next
    fixes = _corrections(log)
    return {
        "seq": len(log.entries),
        "stored": stored,
        "sides": score_boxes(board),
        "finished": board.finished,
        "status_line": status(board),
        "turn_line": turn_line(board),
        "forced_line": forced_line(board, turn),
        "rows": [
            _row(board_at(played, changes, result.number), result, stored, fixes)
            | {"rival": _rival(played, changes, result, rival.get(result.target))}
            for result in reversed(played.hands)
        ],
        "voided": _voided(log, played, stored),
        "form": None if turn is None else choices(board, turn),
    }


def _row(
    board: Scoreboard,
    result: HandResult,
    stored: int,
    fixes: dict[int, list[dict[str, str]]],
) -> dict[str, Any]:
    return {
        **hand_row(board, result),
        "changes": fixes.get(result.target, []),
        "queued": result.event > stored,
    }


def _corrections(log: GameLog) -> dict[int, list[dict[str, str]]]:
    """Each hand event's corrections, as the page's script draws them."""
    return {
        target: [
            {"by": change.by, "at": change.at, "note": change.reason}
            for change in changes
        ]
        for target, changes in corrections(log).items()
    }


def _rival(
    played: Scoreboard,
    changes: tuple[Takeover, ...],
    result: HandResult,
    ours: dict[str, Any] | None,
) -> str | None:
    """This phone's version of a hand another phone recorded first."""
    if ours is None:
        return None
    named = board_at(played, changes, result.number)
    hand = parse_entry(ours, result.target).event
    return hand_summary(named.variant, named.seats, hand)  # type: ignore[arg-type]


def _voided(log: GameLog, board: Scoreboard, stored: int) -> list[dict[str, Any]]:
    """The hands voided, as the page's script draws them (``queued``: the
    void waits on this phone)."""
    return [
        {
            "summary": hand.summary,
            "by": hand.change.by,
            "reason": hand.change.reason,
            "queued": hand.change.event > stored,
        }
        for hand in voided(board, log)
    ]


def choices(board: Scoreboard, turn: Turn) -> dict[str, Any]:
    """The bidders and bids the record form offers for ``turn`` (the
    server's form's options, as the page's script draws them)."""
    options = form_options({}, board, turn)
    return {
        "number": turn.number,
        "forced": options.forced,
        "bidders": [[option.value, option.label] for option in options.bidders],
        "bids": [
            [option.value, option.label, option.max_free] for option in options.bids
        ],
        "can_pass": options.can_pass,
        # The rest of the form, as the server's form offers it (a game
        # started on this phone has no server page to take it from).
        "trumps": [
            [option.value, option.label, option.name] for option in options.trumps
        ],
        "negotiation": board.variant.negotiation,
        "tricks": board.variant.tricks_per_hand,
        "most_free": len(options.free) - 1,
        "per_player": [[name, label] for name, label, _ in options.players]
        if options.per_player
        else [],
        "has_auction": options.has_auction,
    }


def new_game(fields_text: str) -> str:
    """A game started on this phone with no connection: the new-game form's
    fields (as the page would send them) as the game's log, empty, under
    the chosen rules (``{"log": ...}``, pepper-log v1), or why it cannot
    start in the server's words (``{"refusal": ...}``), checked as
    ``game_create`` checks them (``house_rules.game_setup``)."""
    fields: dict[str, str] = json.loads(fields_text)
    preset = fields.get("preset", "")
    seats = [fields.get(f"seat_{seat}", "").strip() for seat in range(8)]
    seats = [name for name in seats if name]
    dealer = whole_number(fields.get("first_dealer", "0"))
    try:
        overrides = (
            house_overrides(preset, len(seats), fields) if preset in PRESETS else {}
        )
        names, variant = game_setup(
            preset=preset,
            seats=seats,
            first_dealer=-1 if dealer is None else dealer,
            overrides=overrides,
            name=fields.get("name", ""),
        )
    except LogError as refused:
        return json.dumps({"refusal": sentence(refused.message)})
    log = GameLog(variant, names, dealer or 0, ())
    return json.dumps({"log": log_document(log)})


def score(log_text: str) -> str:
    """pepper-score v1 of a log, as ``manage.py replay --json`` prints it."""
    return dumps(score_document(replay_log(parse_log(json.loads(log_text)))))


def _replayed(log_text: str, queued_text: str) -> tuple[GameLog, Scoreboard]:
    """The log with the queued events in (they were each checked when queued)."""
    log = parse_log(json.loads(log_text))
    for raw in placed(len(log.entries), json.loads(queued_text)):
        entry = parse_entry(raw, len(log.entries) + 1)
        log = GameLog(log.variant, log.seats, log.first_dealer, (*log.entries, entry))
    return log, replay_log(log)


def _turn(board: Scoreboard, target: int | None) -> Turn | None:
    """The turn of the next hand, or of the hand at log position ``target``
    (a correction is entered under that hand's own turn)."""
    if target is None:
        return board.next
    result = next(result for result in board.hands if result.target == target)
    return turn_of(
        board.variant, board.first_dealer, result.number, result.pepper_round
    )


def correct_choices(log_text: str, queued_text: str, target: int) -> str:
    """The form's bidders and bids for correcting the hand at ``target``."""
    _, board = _replayed(log_text, queued_text)
    turn = _turn(board, target)
    assert turn is not None
    return json.dumps(choices(board, turn))


_WORDS = ("bid", "trump", "outcome")  # the form's fields not read as numbers


def hand_of(
    fields_text: str, log_text: str, queued_text: str, target: int | None = None
) -> str:
    """The record form's fields (as the page sends them to the server) as a
    pepper-log hand, or what is missing in the server form's words:
    ``{"hand": {...}}`` or ``{"missing": [...]}``; ``target``: a correction
    of the hand at that log position."""
    fields: dict[str, str] = json.loads(fields_text)
    _, board = _replayed(log_text, queued_text)
    variant, turn = board.variant, _turn(board, target)
    calls = auction_calls(fields.get("auction", ""))
    auction = seat_calls(variant, turn, calls) if calls and turn is not None else None
    if fields.get("action") == "pass":
        return json.dumps({"hand": hand_fields(HandPassedOut(auction))})
    entered = {
        name: value if name in _WORDS else whole_number(value)
        for name, value in fields.items()
    }
    hand, missing = entered_hand(variant, entered)
    if hand is None:
        return json.dumps({"missing": [message for _, message in missing]})
    return json.dumps({"hand": hand_fields(replace(hand, auction=auction))})
