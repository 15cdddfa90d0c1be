"""Seasons as an outside club's program might write them (pepper-league
v1), made from a seed: games of every preset and seat count (2 to 8),
each with its own house rules, repeated names (and names equal but for
case or spacing), voided and corrected hands, games ended early and games
left unfinished. Every hand is refereed as it is made, so each season is
valid."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from scorekeeper.gamelog import LogEntry as Entry
from scorekeeper.gamelog import LogError, event_document, game_variant
from scorekeeper.leagues.season import MEASURES
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.events import (
    Event,
    GameEnded,
    Hand,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.variants import PRESETS, Variant

SEATINGS = [(name, seats) for name, by_seats in PRESETS.items() for seats in by_seats]
NAMES = ["Ann", "ann", "Bob", "Émile", "ÉMILE", "Cat  Lee", "Cat Lee", "Dan", "Eve"]
HOUSE: dict[str, list[Any]] = {
    "target_score": [6, 10, 15, 25],
    "exact_tie": ["co-winners", "play-on", "pepper-round"],
    "pepper_round_hands": [0, 1, 2],
    "both_reach": ["higher", "bidder"],
    "stick_the_dealer": [True, False],
    "set_penalty": ["bid", 2, 5],
    "top_bid_points": [5, 10],
    "negotiation": [True, False],
    "clubs_must_play": [True, False],
    "one_call_each": [True, False],
    "must_bid_to_win": [True, False],
    "mercy": [None, -10],
    "hand_limit": [0, 3, 6],
}


def house_rules(rng: random.Random, preset: str, seats: int) -> dict[str, Any]:
    """A few house settings the preset takes at that many seats."""
    chosen: dict[str, Any] = {}
    for key in rng.sample(sorted(HOUSE), rng.randrange(4)):
        tried = {**chosen, key: rng.choice(HOUSE[key])}
        try:
            game_variant(preset, seats, tried)
        except LogError:
            continue
        chosen = tried
    return chosen


def _split(rng: random.Random, total: int, parts: int) -> tuple[int, ...]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    edges = [0, *cuts, total]
    return tuple(edges[i + 1] - edges[i] for i in range(parts))


def _hand(rng: random.Random, variant: Variant, board: Scoreboard) -> Hand:
    turn = board.next
    assert turn is not None
    if not turn.pepper_round and rng.random() < 0.1:
        return HandPassedOut()
    bidder = turn.first_bidder if turn.pepper_round else rng.randrange(variant.seats)
    rule = rng.choice(variant.legal_ladder)
    if turn.forced_bid is not None:
        forced = variant.bid_rule(turn.forced_bid)
        assert forced is not None
        rule = forced
    trump = rng.choice(["hearts", "spades", "clubs", "diamonds", "no-trump"])
    if rule.max_free_tricks is not None and rng.random() < 0.3:
        free = rng.randint(0, rule.max_free_tricks)
        return HandRecorded(bidder, rule.call, trump, None, free)
    tricks = _split(rng, variant.tricks_per_hand, variant.sides)
    return HandRecorded(bidder, rule.call, trump, tricks)


def _legal(
    variant: Variant, seats: tuple[str, ...], dealer: int, events: list[Event]
) -> Scoreboard | None:
    try:
        return replay(variant, seats, dealer, events)
    except RulesError:
        return None


def _next_event(
    rng: random.Random, variant: Variant, board: Scoreboard, hands: int
) -> Event:
    """A hand, now and then a void or a correction of an earlier one."""
    roll = rng.random()
    if hands and roll < 0.08:
        return HandVoided(rng.randint(1, hands), "wrong hand")
    if hands and roll < 0.16:
        return HandCorrected(rng.randint(1, hands), _hand(rng, variant, board))
    return _hand(rng, variant, board)


def game_log(rng: random.Random, preset: str, seats: int) -> dict[str, Any]:
    house = house_rules(rng, preset, seats)
    variant = game_variant(preset, seats, house)
    names = tuple(f"S{n}" for n in range(seats))
    dealer = rng.randrange(seats)
    events: list[Event] = []
    board = replay(variant, names, dealer, events)
    for _ in range(rng.randint(0, 14)):
        if board.next is None:
            break
        for _ in range(20):  # a random event the referee refuses: another
            tried = [*events, _next_event(rng, variant, board, len(board.hands))]
            found = _legal(variant, names, dealer, tried)
            if found is not None:
                events, board = tried, found
                break
    if board.next is not None and board.hands and rng.random() < 0.4:
        events.append(GameEnded("time"))  # a round called
        if rng.random() < 0.5:  # and fixed after it (contract §6)
            target = rng.randint(1, len(board.hands))
            fix: Event = HandVoided(target, "wrong hand")
            if rng.random() < 0.5:
                fix = HandCorrected(target, _hand(rng, variant, board))
            if _legal(variant, names, dealer, [*events, fix]) is not None:
                events.append(fix)
    return {
        "format": "pepper-log",
        "version": 1,
        "variant": {"preset": preset, **house},
        "seats": list(names),
        "first_dealer": dealer,
        "events": [event_document(Entry(event)) for event in events],
    }


def random_season(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = [
        {"id": f"id-{n}", "name": rng.choice(NAMES)} for n in range(rng.randint(8, 14))
    ]
    day = date(2026, 1, 1) + timedelta(days=rng.randrange(300))
    nights = []
    for _ in range(rng.randint(1, 4)):
        games = []
        for number in range(rng.randint(1, 4)):
            preset, seats = rng.choice(SEATINGS)
            seated = rng.sample([p["id"] for p in players], seats)
            log = game_log(rng, preset, seats)
            games.append(
                {
                    "table": number % 2 + 1,
                    "round": number // 2 + 1,
                    "players": seated,
                    "log": log,
                }
            )
        nights.append({"date": day.isoformat(), "games": games})
        day += timedelta(days=rng.randint(1, 14))
    order = rng.sample(MEASURES, rng.randint(1, 4))
    settings = {
        "order": order,
        "best_nights": rng.randint(0, 2),
        "min_nights": rng.randint(0, 2),
    }
    return {
        "format": "pepper-league",
        "version": 1,
        "name": f"Outside season {seed}",
        "players": players,
        "standings": settings,
        "nights": nights,
    }
