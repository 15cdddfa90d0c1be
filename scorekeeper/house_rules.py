"""The house settings of contract §5 as a form shows them: a label, a
one-line meaning, and how the value is written. Pure (no Django): the
new-game form reads them here, on the server and on a phone that starts
a game offline (``phone.new_game``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scorekeeper.gamelog import LogError, clean_text, game_variant, parse_seats
from scorekeeper.rules.variants import PRESETS, Variant, json_call
from scorekeeper.tablewords import call_of


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    meaning: str
    kind: str  # "number", "choice", "yes-no", "bid", "penalty", "mercy"
    choices: tuple[tuple[str, str], ...] = ()


SETTINGS = (
    Setting("target_score", "Points to win", "The total that wins the game.", "number"),
    Setting(
        "exact_tie",
        "An exact tie at the target",
        "What happens when the top sides tie at or above the target.",
        "choice",
        (
            ("co-winners", "all tied win"),
            ("play-on", "play on"),
            ("pepper-round", "a new pepper round"),
        ),
    ),
    Setting(
        "both_reach",
        "Both sides reach the target in one hand",
        "Who wins when several sides pass the target together.",
        "choice",
        (("higher", "the higher total"), ("bidder", "the bidding side")),
    ),
    Setting(
        "pepper_round_hands",
        "Pepper-round hands",
        "The first hands where the player after the dealer must bid the lowest bid.",
        "number",
    ),
    Setting(
        "minimum_bid",
        "Lowest bid",
        "No bid below it, in a hand or an auction; a pepper round forces it.",
        "bid",
    ),
    Setting(
        "stick_the_dealer",
        "Stick the dealer",
        "Nobody passes a hand out: if all others pass, the dealer must bid.",
        "yes-no",
    ),
    Setting(
        "set_penalty",
        "A set costs",
        "On a number bid or little pepper: the tricks the bid needed, or a fixed number of points.",
        "penalty",
    ),
    Setting(
        "top_bid_points",
        "Top bid's points",
        "What big pepper, pepper or moon scores, made or set; the doubled bids twice it.",
        "number",
    ),
    Setting(
        "defenders_shut_out_lose",
        "A side shut out loses the bid",
        "A side that is not the bidder's and takes no trick loses the bid's value.",
        "yes-no",
    ),
    Setting(
        "negotiation",
        "Defenders may concede",
        "The defenders may throw the hand in, or be granted free tricks (two sides only).",
        "yes-no",
    ),
    Setting(
        "clubs_must_play",
        "Clubs must be played",
        "With clubs trump a hand cannot be conceded.",
        "yes-no",
    ),
    Setting("no_trump", "No-trump allowed", "A bidder may call no trump.", "yes-no"),
    Setting(
        "one_call_each",
        "One call each in the auction",
        "Every player calls once, ending with the dealer.",
        "yes-no",
    ),
    Setting(
        "must_bid_to_win",
        "Only the bidders can win",
        "The game ends when the bidding side makes its bid at or above the target.",
        "yes-no",
    ),
    Setting(
        "mercy",
        "Mercy rule",
        "A side at or below this (negative) total ends the game; the highest total wins. Blank: none.",
        "mercy",
    ),
    Setting(
        "hand_limit",
        "Hand limit",
        "After this many hands the highest total wins (league rounds). 0: none.",
        "number",
    ),
)


def written(value: object) -> str:
    """A setting's value as a form field holds it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def preset_values(key: str) -> dict[str, dict[str, str]]:
    """Each preset's own value of a setting, by preset and player count
    (classic's set penalty is 6 with four players and 8 with three)."""
    return {
        name: {
            str(seats): written(getattr(rules, key))
            for seats, rules in by_seats.items()
        }
        for name, by_seats in PRESETS.items()
    }


def _typical(name: str) -> Variant:
    by_seats = PRESETS[name]
    return by_seats.get(4) or next(iter(by_seats.values()))


def bid_choices() -> list[tuple[str, str, str]]:
    """(value, label, presets whose ladder has it) for the lowest-bid list."""
    found: dict[str, tuple[str, list[str]]] = {}
    for name in PRESETS:
        for call, _ in _typical(name).rungs:
            value = str(call)
            label, owners = found.setdefault(value, (value.replace("-", " "), []))
            owners.append(name)
    return [
        (value, label, " ".join(owners)) for value, (label, owners) in found.items()
    ]


def parsed(setting: Setting, text: str) -> object:
    """The value a field's text stands for, as contract §5 writes it (the
    variant then checks it); the text itself when it is not readable."""
    text = text.strip()
    if setting.kind == "yes-no":
        return {"yes": True, "no": False}.get(text, text)
    if setting.kind == "mercy" and text == "":
        return None
    if setting.kind in ("number", "mercy", "penalty", "bid"):
        sign = -1 if text.startswith(("-", "−")) else 1
        digits = text.lstrip("-−")
        if digits.isascii() and digits.isdigit():
            return sign * int(digits)
    return text


def house_overrides(
    preset: str, seats: int, texts: Mapping[str, object]
) -> dict[str, object]:
    """The house settings a new-game form's fields (``texts``, by setting
    key) hold that differ from the preset's own for ``seats`` players: a
    field left blank, or holding the preset's own value, is no house rule.
    The variant checks the values (``gamelog.game_variant``)."""
    by_seats = PRESETS[preset]
    default = by_seats.get(seats) or next(iter(by_seats.values()))
    changed: dict[str, object] = {}
    for setting in SETTINGS:
        text = str(texts.get(setting.key) or "")
        if not text.strip():
            continue
        value = parsed(setting, text)
        if setting.key == "minimum_bid" and isinstance(value, str):
            value = call_of(value)
        own = getattr(default, setting.key)
        if value != own or type(value) is not type(own):
            changed[setting.key] = value
    return changed


def game_setup(
    *,
    preset: str,
    seats: list[str],
    first_dealer: int,
    overrides: Mapping[str, object],
    name: str,
) -> tuple[tuple[str, ...], Variant]:
    """The players and the variant of a new game, checked as the server
    checks them and as a phone starting one offline does; ``LogError``
    says what is wrong."""
    names = parse_seats(seats)
    variant = game_variant(preset, len(names), overrides)
    if not 0 <= first_dealer < len(names):
        raise LogError("the first dealer must be one of the players")
    problem = clean_text(name.strip(), limit=60)
    if problem:
        raise LogError(f"the game's name {problem}")
    return names, variant


__all__ = [
    "SETTINGS",
    "Setting",
    "bid_choices",
    "game_setup",
    "house_overrides",
    "json_call",
    "parsed",
    "preset_values",
    "written",
]
