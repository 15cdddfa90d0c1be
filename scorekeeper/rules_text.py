"""What a rules page says: each preset's ladder and its rules with their
sources, a game's house rules beside the preset's own reading, worked
examples scored by the engine itself, and where the seeds disagree. Plain
data for the templates of ``rules_pages``."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.house_rules import SETTINGS, written
from scorekeeper.rules.engine import replay
from scorekeeper.rules.events import Call, HandRecorded
from scorekeeper.rules.explain import explain_hand
from scorekeeper.rules.variants import PRESETS, BidRule, Variant, with_overrides
from scorekeeper.tablewords import bid_label

# Where the five seeds disagree, and the setting that chooses (if a house may).
DISAGREEMENTS = [
    (
        "A set costs",
        "6 (8 with 2-3 players) whatever the bid (seeds 000, 003, 004); "
        "the number bid (seed 002); the bid's value (seed 001)",
        "the preset",
    ),
    (
        "Both sides reach the target in one hand",
        "the higher wins (seeds 000, 001, 004); the bidding side wins (seed 002)",
        "both_reach",
    ),
    (
        "An exact tie at or above the target",
        "all tied win (seed 004); play on, or a new "
        "pepper round (seed 001, two options)",
        "exact_tie",
    ),
    (
        "The target",
        "30 (seeds 000, 003, 004), 42 (seed 001), 50 (seed 002)",
        "target_score",
    ),
    (
        "A pepper round",
        "the first 4 hands (seed 001); none elsewhere",
        "pepper_round_hands",
    ),
    (
        "Defenders with no trick",
        "lose the bid's value (seed 001); lose nothing elsewhere",
        "the preset",
    ),
    (
        "Negotiation",
        "a conceded hand, never with clubs (seed 001); every hand is played elsewhere",
        "the preset",
    ),
]
# The cards and the play, for /rules/: (topic, the rule, where it comes from).
CARD_RULES = [
    (
        "Card ranks",
        "24 cards, 9 10 J Q K A of each suit; in a side suit A K Q J 10 9",
        "seed 000 'Cards Rank'",
    ),
    (
        "The bowers",
        "with a trump suit its jack is the highest card (the right bower) and "
        "the other jack of the same colour the next (the left bower); the left "
        "bower is a trump, not a card of its printed suit; with no trump there "
        "are no bowers",
        "seed 000 'Cards Rank'; seed 001 §4.1",
    ),
    (
        "Following suit",
        "you must follow the suit led if you can (a left bower counts as a "
        "trump); if you cannot, you may play any card",
        "seed 000 'The Rules'",
    ),
    (
        "Identical cards",
        "bid-euchre deals a J Q K A deck per pair of players: of two identical "
        "cards in a trick, the one played first wins",
        "seed 002 'Trick Play'",
    ),
    (
        "A hand nobody bids",
        "is thrown in, and the deal passes to the next player",
        "seed 001 §3.1, thrown in",
    ),
    (
        "Pepper is played alone",
        "in bid-euchre the player who bids pepper or double pepper plays alone; "
        "the partners sit out the hand",
        "seed 002 'Trick Play', alone",
    ),
    (
        "Two players",
        "a third hand of eight cards is dealt face down as a dummy and is not played",
        "seed 000 'Variations', dummy",
    ),
]
# How teams sit where the seeds say otherwise than "partners opposite".
SEATING = {"bid-euchre": "two teams, seated alternately: each beside two opponents"}
EXACT_TIE_WORDS = {
    "co-winners": "the game ends and every side tied at the top wins",
    "play-on": "play on until one side is at or above the target and strictly ahead",
    "pepper-round": "play on, and the next hands are a pepper round",
}


@dataclass(frozen=True)
class Rung:
    bid: str
    needed: int
    made: str
    set: str
    defenders: str
    free: str


@dataclass(frozen=True)
class Line:
    topic: str
    rule: str
    source: str
    house: bool = False
    rules_reading: str = ""  # beside a house rule: what the preset says, and where


def rung(variant: Variant, rule: BidRule) -> Rung:
    defenders = (
        "1 a trick"
        if rule.defender_points is None
        else f"{rule.defender_points} for any trick"
    )
    if variant.defenders_shut_out_lose:
        defenders += f"; −{rule.set_points} if none"
    return Rung(
        bid_label(rule.call),
        rule.tricks_needed,
        "1 a trick" if rule.made_points is None else f"+{rule.made_points}",
        f"−{rule.set_points}",
        defenders,
        _free_tricks(rule.max_free_tricks),
    )


def rule_lines(variant: Variant, house: dict[str, object]) -> list[Line]:
    sides = (
        SEATING.get(variant.preset, "two teams, partners opposite")
        if variant.teams
        else "each plays alone"
    )
    pepper = (
        f"the first {variant.pepper_round_hands} hands: the seat after the dealer must "
        f"bid {bid_label(variant.lowest_bid)}, and the hand cannot be passed out"
        if variant.pepper_round_hands
        else "none"
    )
    both = (
        "the higher wins" if variant.both_reach == "higher" else "the bidding side wins"
    )
    return [
        Line(
            "Players",
            f"{variant.seats}: {sides}; {variant.tricks_per_hand} tricks a hand",
            variant.cite("deal"),
        ),
        Line(
            "Negotiation",
            (
                "the defenders may concede; with clubs trump they must play"
                if variant.clubs_must_play
                else "the defenders may concede"
            )
            if variant.negotiation
            else "none: every hand is played",
            variant.cite("negotiation")
            + (f"; {variant.cite('clubs')}" if variant.clubs_must_play else ""),
        ),
        Line(
            "Pepper round",
            pepper,
            variant.cite("pepper_round"),
            "pepper_round_hands" in house,
            _reading(variant, "pepper_round_hands", "pepper_round"),
        ),
        Line(
            "Target",
            f"first to {variant.target_score}",
            variant.cite("target"),
            "target_score" in house,
            _reading(variant, "target_score", "target"),
        ),
        Line(
            "Both reach it in one hand",
            both,
            variant.cite("both_reach"),
            "both_reach" in house,
            _reading(variant, "both_reach", "both_reach"),
        ),
        Line(
            "Exact tie at or above it",
            EXACT_TIE_WORDS[variant.exact_tie],
            variant.cite("exact_tie"),
            "exact_tie" in house,
            _reading(variant, "exact_tie", "exact_tie"),
        ),
        *_house_lines(variant, house),
    ]


def _reading(variant: Variant, key: str, topic: str) -> str:
    """The preset's own value and its seed, when the house changed it."""
    preset = PRESETS[variant.preset][variant.seats]
    if getattr(variant, key) == getattr(preset, key):
        return ""
    return f"{written(getattr(preset, key))} ({preset.cite(topic)})"


def _house_lines(variant: Variant, house: dict[str, object]) -> list[Line]:
    """A line for each other house setting this game changed: the house's
    value, and beside it the preset's own reading and where it comes from."""
    preset = PRESETS[variant.preset][variant.seats]
    shown = {"target_score", "exact_tie", "pepper_round_hands", "both_reach"}
    lines = []
    for setting in SETTINGS:
        if setting.key in shown or setting.key not in house:
            continue
        ours, theirs = getattr(variant, setting.key), getattr(preset, setting.key)
        lines.append(
            Line(
                setting.label,
                f"{written(ours) or 'none'}: {setting.meaning[0].lower()}{setting.meaning[1:]}",
                "house rule",
                True,
                f"{written(theirs) or 'none'} ({SETTING_SOURCES.get(setting.key, 'contract §2')})",
            )
        )
    return lines


# Where the preset's own value of each other setting comes from.
SETTING_SOURCES = {
    "one_call_each": "contract §4",
    "mercy": "contract §5",
    "hand_limit": "contract §5",
}


def examples(variant: Variant) -> list[tuple[str, str]]:
    """A made bid, a set, and what each preset has of its own, scored by the
    engine (so the page can never disagree with the score)."""
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")[: variant.seats]
    plain = variant if not variant.pepper_round_hands else _without_pepper(variant)
    top = plain.tricks_per_hand
    low = plain.ladder[0]
    hands = [
        (
            "A bid made",
            _played(plain, 1, low.call, min(top - 1, low.tricks_needed + 1)),
        ),
        ("A bid set", _played(plain, 1, low.call, low.tricks_needed - 1)),
        ("The top of the ladder", _played(plain, 1, plain.ladder[-1].call, top)),
    ]
    if plain.defenders_shut_out_lose:
        hands.append(("Defenders shut out", _played(plain, 1, low.call, top)))
    if plain.negotiation:
        hands.append(
            (
                "A conceded hand",
                HandRecorded(1, plain.ladder[0].call, "spades", None, 2),
            )
        )
    scored = []
    for title, hand in hands:
        board = replay(plain, names, 0, [hand])
        scored.append((title, explain_hand(board, board.hands[0])))
    return scored


def _without_pepper(variant: Variant) -> Variant:
    return with_overrides(variant, {"pepper_round_hands": 0})


def _played(variant: Variant, bidder: int, call: Call, won: int) -> HandRecorded:
    tricks = [0] * variant.sides
    bidder_side = variant.side_of(bidder)
    tricks[bidder_side] = won
    rest = variant.tricks_per_hand - won
    for side in range(variant.sides):
        if side != bidder_side and rest:
            tricks[side], rest = rest, 0
    return HandRecorded(bidder, call, "hearts", tuple(tricks))


def _free_tricks(most: int | None) -> str:
    """What the defenders may be granted on a bid: "no concession" (the
    hand must be played), "none" (they may only throw it in), "up to 2"."""
    if most is None:
        return "no concession"
    return "none (throw in only)" if most == 0 else f"up to {most}"
