"""A night's or a season's prizes, and who takes them. Pure: the standard
library only.

The organizer lists the prizes by place, one a line ("£20", "£10", "a
bottle"; a line may start with its place, "1st: £20"). The standings'
ranks say who takes each place. Players tied at a rank cover as many
places as they are (two tied first cover 1st and 2nd: the next rank is
3rd), and share them as the league chooses (``League.prize_ties``):

- ``SPLIT`` (the default): the amounts of the places the tie covers are
  pooled and split equally, to the penny, rounded down (the league pays
  out no more than it put up, whatever the ties); a prize that is not an
  amount ("a bottle") cannot be split, and is shared.
- ``HIGHER``: each tied player gets the prize of the tie's highest place
  (the league then gives one more of it for each extra player, and the
  places the tie covered below it are not given).

A player without a rank (not yet ranked: ``min_nights``) takes no prize.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from itertools import groupby

SPLIT, HIGHER = "split", "higher"
TIES = {
    SPLIT: "Split the prizes of the places they share equally",
    HIGHER: "Each tied player gets the higher place's prize",
}
MOST_PRIZES = 20
PRIZE_LENGTH = 60  # characters a prize may hold

# "1st: £20", "2nd - £10", "3. a bottle", "4) ...": the place said first.
_PLACE = re.compile(r"^\s*\d{1,2}\s*(?:st|nd|rd|th)?\s*[:.)\-–]\s*", re.IGNORECASE)
# "£20", "$15.50", "£1,000", "20 €", "EUR 20", "20p": a number with a
# short unit.
_AMOUNT = re.compile(
    r"^(?P<before>[^\d\s.,]{0,3})\s?"
    r"(?P<value>(?:\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.\d{1,2})?)\s?"
    r"(?P<after>[^\d\s.,]{0,3})$"
)
_CENT = Decimal("0.01")


class PrizeError(Exception):
    """A prize list that cannot be kept; the message says why, in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Amount:
    """A sum of money as written: its unit before or after the number."""

    before: str
    value: Decimal
    after: str

    def unit(self) -> tuple[str, str]:
        return self.before, self.after

    def times(self, value: Decimal) -> str:
        shown = value.quantize(_CENT, rounding=ROUND_DOWN)
        places = 0 if shown == shown.to_integral() else 2
        number = f"{shown:,.{places}f}"
        space = " " if len(self.after) > 1 else ""
        return f"{self.before}{number}{space}{self.after}"


def amount_of(prize: str) -> Amount | None:
    """The prize as an amount of money, or None ("a bottle")."""
    found = _AMOUNT.match(prize.strip())
    if found is None:
        return None
    before, after = found["before"], found["after"]
    if before and after:
        return None  # "£20p": not one unit
    return Amount(before, Decimal(found["value"].replace(",", "")), after)


def prize_lines(text: str) -> list[str]:
    """The prizes typed one a line, by place, as they are kept: each line
    without its place ("1st:"), blank lines skipped; ``PrizeError`` names
    the first line that cannot be kept."""
    prizes = []
    for number, line in enumerate(text.splitlines(), start=1):
        prize = _PLACE.sub("", line, count=1).strip()
        if not prize:
            continue
        if len(prize) > PRIZE_LENGTH:
            raise PrizeError(
                f"line {number}: a prize is at most {PRIZE_LENGTH} characters"
            )
        if any(unicodedata.category(c) in ("Cc", "Cs", "Cf") for c in prize):
            raise PrizeError(f"line {number}: a prize holds a control character")
        prizes.append(prize)
    if len(prizes) > MOST_PRIZES:
        raise PrizeError(f"at most {MOST_PRIZES} prizes, one a line")
    return prizes


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    last = {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{'th' if 10 <= place % 100 <= 20 else last}"


@dataclass(frozen=True)
class Place:
    """A line of the prize list as it is printed beside the standings."""

    places: str  # "1st", or "1st=" for a tie
    prize: str  # what the list says for it: "£20", "£20 + £10"
    names: tuple[str, ...]  # who takes it; none: not won (yet)
    each: str = ""  # what each of a tie gets: "£15 each", "shared"


def places_of(rows: Iterable[Mapping[str, object]]) -> list[tuple[int | None, str]]:
    """Each standings row's (rank, name), as ``prizes_given`` reads them."""
    return [
        (row["rank"] if isinstance(row["rank"], int) else None, str(row["name"]))
        for row in rows
    ]


def prizes_given(
    prizes: Sequence[str],
    ranked: Iterable[tuple[int | None, str]],
    ties: str = SPLIT,
) -> list[Place]:
    """Each prize's line: who takes it, by ``ranked`` (the standings' rank
    and name of each player, best first; those without a rank are left
    out). Places nobody has reached yet are listed with no name."""
    given: list[Place] = []
    place = 1  # the first place not given yet
    ranks = (row for row in ranked if row[0] is not None)
    for _, group in groupby(ranks, key=lambda row: row[0]):
        if place > len(prizes):
            break
        names = tuple(name for _, name in group)
        covered = list(prizes[place - 1 : place - 1 + len(names)])
        given.append(_shared(place, covered, names, ties))
        if ties == HIGHER:
            given += [
                Place(ordinal(place + n), prize, (), "not given (the tie above)")
                for n, prize in enumerate(covered[1:], start=1)
            ]
        place += len(names)
    given += [
        Place(ordinal(n), prizes[n - 1], ()) for n in range(place, len(prizes) + 1)
    ]
    return given


def _shared(place: int, covered: list[str], names: tuple[str, ...], ties: str) -> Place:
    label = ordinal(place) + ("=" if len(names) > 1 else "")
    if len(names) == 1:
        return Place(label, covered[0], names)
    if ties == HIGHER:
        return Place(label, covered[0], names, f"{covered[0]} each")
    prize = " + ".join(covered)
    amounts = [amount_of(p) for p in covered]
    units = {a.unit() for a in amounts if a is not None}
    if all(a is not None for a in amounts) and len(units) == 1:
        first = amounts[0]
        assert first is not None
        total = sum((a.value for a in amounts if a is not None), Decimal(0))
        return Place(label, prize, names, f"{first.times(total / len(names))} each")
    return Place(label, prize, names, "shared")
