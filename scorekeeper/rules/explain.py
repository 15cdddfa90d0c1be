"""Why a hand scored what it did, in one sentence that cites the rule."""

from __future__ import annotations

from .events import HandRecorded
from .scoreboard import HandResult, Scoreboard, Snapshot
from .variants import BidRule, Variant


def _points(delta: int) -> str:
    return f"+{delta}" if delta >= 0 else str(delta)


def explain_hand(board: Scoreboard | Snapshot, result: HandResult) -> str:
    """E.g. "Bob & Dan bid 4 and took 5: made, +4. Ann & Cat took 1: +1."."""
    hand = result.hand
    if not isinstance(hand, HandRecorded):
        return "Nobody bid; the deal passes."
    variant = board.variant
    rule = variant.bid_rule(hand.bid)
    assert rule is not None  # the engine only keeps legal hands
    names = board.side_names
    bidder_side = hand.bidder % variant.sides
    bidder = names[bidder_side]
    deltas = result.deltas
    if hand.tricks is None:
        concession = _explain_concession(variant, rule, hand, names, deltas)
        return concession + _forced(variant, result)
    won = hand.tricks[bidder_side]
    verdict = "made" if won >= rule.tricks_needed else "set"
    text = (
        f"{bidder} bid {rule.label} and took {won}: {verdict}, "
        f"{_points(deltas[bidder_side])}{_bidder_why(variant, rule, won)}."
    )
    for side, name in enumerate(names):
        if side != bidder_side:
            text += f" {name}{_defender_why(variant, rule, hand.tricks[side])}: "
            text += f"{_points(deltas[side])}."
    return f"{text[:-1]} ({variant.cite('scoring')}).{_forced(variant, result)}"


def _forced(variant: Variant, result: HandResult) -> str:
    """A pepper-round hand's bid was forced: say so."""
    if not result.pepper_round:
        return ""
    return f" The bid was forced: a pepper-round hand ({variant.cite('pepper_round')})."


def _bidder_why(variant: Variant, rule: BidRule, won: int) -> str:
    if won < rule.tricks_needed:
        return f" ({_set_costs(variant, rule)})"
    if rule.made_points is None:
        return " (a point a trick)"
    return " (the bid's value)" if rule.made_points != won else ""


def _set_costs(variant: Variant, rule: BidRule) -> str:
    """What a set costs, as the rule book says it: classic's fixed penalty,
    bid-euchre's number bid (seed 002 'Scoring'), a top bid's points."""
    kind = dict(variant.rungs)[rule.call]
    if kind in ("top", "double-top"):
        return f"a set costs the bid's {rule.set_points}"
    if variant.set_penalty != "bid":
        return f"a set costs {rule.set_points} whatever the bid"
    if kind == "little":
        return f"a set costs the {rule.set_points} tricks it needed"
    return f"a set costs the number bid, {rule.set_points}"


def _defender_why(variant: Variant, rule: BidRule, won: int) -> str:
    if won == 0:
        penalty = variant.defenders_shut_out_lose
        return " took no trick" + (": a side shut out loses the bid" if penalty else "")
    if rule.defender_points is not None:
        return (
            f" took {won}, and any trick on a {rule.label} pays {rule.defender_points}"
        )
    return f" took {won}"


def _explain_concession(
    variant: Variant,
    rule: BidRule,
    hand: HandRecorded,
    names: tuple[str, ...],
    deltas: tuple[int, ...],
) -> str:
    bidder_side = hand.bidder % variant.sides
    free = hand.free_tricks or 0
    gift = "threw the hand in" if free == 0 else f"were granted {free} free trick"
    gift += "s" if free > 1 else ""
    others = [side for side in range(variant.sides) if side != bidder_side]
    defenders = " and ".join(names[side] for side in others)
    scores = ", ".join(f"{names[side]} {_points(deltas[side])}" for side in others)
    return (
        f"{names[bidder_side]} bid {rule.label}; {defenders} {gift}: "
        f"{names[bidder_side]} {_points(deltas[bidder_side])}, {scores} "
        f"({variant.cite('negotiation')})."
    )


def explain_status(board: Scoreboard) -> str:
    """Who won with what, and the rule that decided it, in players' words
    (the seed is ``status_rule``); or what the next hand needs."""
    variant = board.variant
    names = board.side_names
    if board.winners:
        return _explain_win(board)
    if board.tied:
        level = " and ".join(names[side] for side in board.tied)
        how = (
            "play on until one side is ahead"
            if variant.exact_tie == "play-on"
            else "a new pepper round is played"
        )
        return f"{level} are tied at {max(board.totals)}: {how}."
    turn = board.next
    assert turn is not None
    seats = board.seats
    forced = (
        f" and must bid {turn.forced_bid} (pepper round)" if turn.pepper_round else ""
    )
    return (
        f"Hand {turn.number}: {seats[turn.dealer]} deals, "
        f"{seats[turn.first_bidder]} bids first{forced}. "
        f"First to {variant.target_score} wins."
    )


def _explain_win(board: Scoreboard) -> str:
    names, totals, variant = board.side_names, board.totals, board.variant
    target, winners = variant.target_score, board.winners
    why = _why_it_ended(board)
    if len(winners) > 1:
        tied = " and ".join(names[side] for side in winners)
        return f"{tied} win, tied at {totals[winners[0]]}: {why}."
    side = winners[0]
    name = names[side]
    verb = "win" if " & " in name else "wins"
    text = f"{name} {verb} with {totals[side]}"
    others = [other for other in range(len(totals)) if other != side]
    also = " and ".join(names[other] for other in others if totals[other] >= target)
    if board.decided == "bidder":
        return (
            f"{text}: {also} reached {target} in the same hand, and the bidding "
            f"side wins when both reach {target}."
        )
    if board.decided == "higher":
        return (
            f"{text}: {also} reached {target} in the same hand, and the higher "
            "total wins."
        )
    return f"{text}: {why}."


def _why_it_ended(board: Scoreboard) -> str:
    """The rule that ended the game, in players' words (contract §5, §6)."""
    variant = board.variant
    if board.decided == "co-winners":
        return "an exact tie at the top of the target, and all tied win"
    if board.decided == "must-bid":
        return (
            f"they made their bid and stand at {variant.target_score} or more, "
            "and only the bidding side can win"
        )
    if board.decided == "mercy":
        return (
            f"a side fell to {variant.mercy} or below, so the mercy rule ends "
            "the game and the highest total wins"
        )
    if board.decided == "hand-limit":
        hands = variant.hand_limit
        return (
            f"the game ends after {hands} hand{'' if hands == 1 else 's'}, and "
            "the highest total wins"
        )
    if board.decided == "ended":
        reason = f" ({board.end_reason})" if board.end_reason else ""
        return f"the game was ended as it stood{reason}, and the highest total wins"
    return f"first to reach {variant.target_score}"


STATUS_TOPICS = {
    "bidder": "both_reach",
    "higher": "both_reach",
    "co-winners": "exact_tie",
    "must-bid": "target",
}
STATUS_SOURCES = {
    "mercy": "house rule",
    "hand-limit": "house rule",
    "ended": "contract §6",
}


def status_rule(board: Scoreboard) -> str:
    """Where the rule behind ``explain_status`` comes from (a seed)."""
    if board.decided in STATUS_SOURCES:
        return STATUS_SOURCES[board.decided]
    if board.winners:
        return board.variant.cite(STATUS_TOPICS.get(board.decided, "target"))
    if board.tied:
        return board.variant.cite("exact_tie")
    return board.variant.cite("target")
