"""Cards, bowers, trick winners and follow-suit (seed 001 §4.1, contract §4).

Ranks are 9 10 J Q K A, suits C D H S, written ``JD``, ``10H``, ``AS``.
With a trump suit its jack is the right bower, the jack of the same colour
the left bower, and the left bower belongs to the trump suit, not its
printed one (seed 001 §4.1; seed 000 "Cards Rank"). With no trump there are
no bowers. Of two identical cards (several decks, seed 002) the first
played wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CardError

RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
TRUMPS = ("clubs", "diamonds", "hearts", "spades", "no-trump")
TRUMP_NAMES = frozenset(TRUMPS)
SUIT_OF_TRUMP = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
RULE = "seed 001 §4.1"

# Strength within a suit: plain order A K Q J 10 9; in trump the right bower
# (8) and the left bower (7) rise above the ace.
_PLAIN_ORDER = {"9": 1, "10": 2, "J": 3, "Q": 4, "K": 5, "A": 6}
_RIGHT_BOWER = 8
_LEFT_BOWER = 7


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    @property
    def symbol(self) -> str:
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"


@dataclass(frozen=True, slots=True)
class TrickVerdict:
    winner: int
    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class FollowVerdict:
    must_follow: bool
    legal: tuple[Card, ...]
    reason: str


def parse_card(text: str) -> Card:
    """Read ``JD``, ``10h``, ``as``; refuse anything else with a clear message."""
    cleaned = text.strip().upper()
    rank, suit = cleaned[:-1], cleaned[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise CardError(
            f"{text.strip() or 'an empty card'!r} is not a card: write the rank "
            "(9, 10, J, Q, K, A) then the suit (C, D, H, S), e.g. JD or 10H"
        )
    return Card(rank, suit)


def parse_trump(text: str) -> str | None:
    """Read a trump: a suit name, its letter, or ``no-trump``; None for no trump."""
    cleaned = text.strip().lower()
    if cleaned in ("no-trump", "notrump", "no trump", "nt", "none"):
        return None
    if cleaned in SUIT_OF_TRUMP:
        return SUIT_OF_TRUMP[cleaned]
    if cleaned.upper() in SUITS:
        return cleaned.upper()
    raise CardError(
        f"{text.strip() or 'nothing'!r} is not a trump: choose clubs, diamonds, "
        "hearts, spades or no-trump"
    )


def check_deck(
    cards: list[Card], *, ranks: tuple[str, ...], copies: int, most: int, what: str
) -> None:
    """Refuse cards a game's deck cannot hold: a rank it does not have,
    more copies of a card than its decks hold, more than ``most`` cards
    (one per seat in a trick, a hand's size in a hand)."""
    if len(cards) > most:
        raise CardError(f"{what} holds at most {most} cards here (got {len(cards)})")
    for card in cards:
        if card.rank not in ranks:
            raise CardError(
                f"{card} is not in this game's deck: it has only {' '.join(ranks)}"
            )
        if cards.count(card) > copies:
            times = {1: "once", 2: "twice"}.get(copies, f"{copies} times")
            raise CardError(
                f"{card} is played {cards.count(card)} times, but the deck holds it "
                f"{times}"
            )


def effective_suit(card: Card, trump: str | None) -> str:
    """The suit a card belongs to in play: the left bower is a trump."""
    if trump is not None and card.rank == "J" and card.suit == SAME_COLOUR[trump]:
        return trump
    return card.suit


def _strength(card: Card, trump: str | None, led: str) -> tuple[int, int]:
    """(2 trump / 1 suit led / 0 worthless, rank within that class)."""
    suit = effective_suit(card, trump)
    if suit == trump:
        if card.rank == "J":
            return 2, _RIGHT_BOWER if card.suit == trump else _LEFT_BOWER
        return 2, _PLAIN_ORDER[card.rank]
    return (1 if suit == led else 0), _PLAIN_ORDER[card.rank]


def describe(card: Card, trump: str | None) -> str:
    """``JD is the left bower: a trump`` and the like, for reasons."""
    if trump is not None and card.rank == "J":
        if card.suit == trump:
            return f"{card} is the right bower, the highest trump"
        if card.suit == SAME_COLOUR[trump]:
            return f"{card} is the left bower: a trump, second only to the right bower"
    if effective_suit(card, trump) == trump:
        return f"{card} is a trump"
    return f"{card} is a {SUIT_NAMES[card.suit][:-1]}"


def trick_winner(cards: list[Card], trump: str | None) -> TrickVerdict:
    """Who wins a trick, by position in play order (contract §4).

    The highest trump wins, else the highest card of the suit led; of two
    identical cards the one played first wins (seed 002 "Trick Play").
    """
    if not cards:
        raise CardError("a trick needs at least one card")
    led = effective_suit(cards[0], trump)
    best = 0
    best_strength = _strength(cards[0], trump, led)
    for position, card in enumerate(cards[1:], start=1):
        strength = _strength(card, trump, led)
        if strength > best_strength:
            best, best_strength = position, strength
    winner = cards[best]
    return TrickVerdict(best, winner, _trick_reason(cards, best, trump, led))


def _trick_reason(cards: list[Card], best: int, trump: str | None, led: str) -> str:
    winner = cards[best]
    trumps_named = "no trump" if trump is None else f"{SUIT_NAMES[trump]} trump"
    first = cards[0]
    opening = ""
    if best != 0 and effective_suit(first, trump) != first.suit:
        opening = f"{first} is the left bower, so it led trumps; "
    if effective_suit(winner, trump) == trump:
        reason = f"{describe(winner, trump)} with {trumps_named}"
        others = sum(1 for card in cards if effective_suit(card, trump) == trump)
        if others > 1:
            reason += ", and the highest trump played"
        elif led != trump:
            reason += ", and a trump beats every card of another suit"
    elif trump is None:
        reason = (
            f"{winner} is the highest card of the suit led ({SUIT_NAMES[led]}); "
            "with no trump only the suit led can win"
        )
    else:
        reason = (
            f"{winner} is the highest card of the suit led ({SUIT_NAMES[led]}) "
            f"and nobody played a trump ({SUIT_NAMES[trump]})"
        )
    if any(card == winner for card in cards[best + 1 :]):
        reason += "; of two identical cards the first played wins"
    return opening + reason + "."


def legal_follows(led: Card, hand: list[Card], trump: str | None) -> FollowVerdict:
    """Which cards of ``hand`` may be played to ``led`` (seed 001 §4).

    A player must follow the suit led if able; the left bower counts as a
    trump, not as its printed suit, both when led and when held.
    """
    suit = effective_suit(led, trump)
    following = tuple(card for card in hand if effective_suit(card, trump) == suit)
    led_as = _led_as(led, suit, trump) + _bowers_held(hand, suit, trump)
    if following:
        names = ", ".join(str(card) for card in following)
        reason = f"{led_as}; the hand holds {names}, so one of them must be played."
        return FollowVerdict(True, following, reason)
    reason = f"{led_as}; the hand holds none, so any card may be played."
    return FollowVerdict(False, tuple(hand), reason)


def _bowers_held(hand: list[Card], suit: str, trump: str | None) -> str:
    """A left bower in the hand decides what it holds of the suit led: say
    so (the very thing a table argues about)."""
    notes = []
    for card in dict.fromkeys(hand):
        if effective_suit(card, trump) == card.suit:
            continue
        if card.suit == suit:
            notes.append(
                f"{card} is the left bower: a trump, not a {SUIT_NAMES[card.suit][:-1]}, "
                f"so it does not follow {SUIT_NAMES[suit]}"
            )
        elif suit == trump:
            notes.append(f"{card} is the left bower, so it follows trumps")
    return "".join(f"; {note}" for note in notes)


def _led_as(led: Card, suit: str, trump: str | None) -> str:
    plural = "trumps" if suit == trump else SUIT_NAMES[suit]
    if suit != led.suit:
        return f"{describe(led, trump)}, so {led} leads {plural}"
    return f"{led} leads {plural}"
