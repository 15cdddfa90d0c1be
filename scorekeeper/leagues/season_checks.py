"""What a league stores of a season file, checked before any database
sees it (no database here). The ``standings`` command reads any valid
pepper-league v1 document; a league also stores it, so it checks what
its tables can hold, as the organizer's forms check what is typed: the
file's size (players, nights, games), each player's name, the season's
name, round and table numbers, the standings settings, a night's
``format`` and the optional ``rules``. A refusal is a ``SeasonError``
naming where (``log:``, ``night N:``, ``night N game M:``).

The sizes are far above any real league's (a season of 80 players
playing 20 tables of 4 rounds every week of a year is some 4,200 games):
they only stop a file that would tie up the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.gamelog import clean_text, printable
from scorekeeper.leagues.names import distinct_names, name_problem, tidy
from scorekeeper.leagues.season import Season, SeasonError

MAX_PLAYERS = 5_000
MAX_NIGHTS = 1_000
MAX_GAMES = 20_000
MAX_NUMBER = 9_999  # a round's or a table's number
MAX_NIGHTS_SETTING = 999  # best_nights, min_nights
FORMATS = ("progressive", "fixed")


@dataclass(frozen=True)
class Stored:
    """What the league stores of a checked season file."""

    name: str  # the season's name ("" when the file has none)
    names: dict[str, str]  # per player id: the name, told apart when repeated
    formats: tuple[str | None, ...]  # per night: its format, if the file says


def check_size(document: object) -> None:
    """Refuse a file too big to store before reading it whole (its games
    are refereed one by one, which takes time)."""
    if not isinstance(document, dict):
        return  # the season's reader words it
    players, nights = document.get("players"), document.get("nights")
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise SeasonError(
            f"log: a season holds at most {MAX_PLAYERS:,} players, "
            f"not {len(players):,}: split the file"
        )
    if not isinstance(nights, list):
        return
    if len(nights) > MAX_NIGHTS:
        raise SeasonError(f"log: a season holds at most {MAX_NIGHTS:,} nights")
    games = sum(
        len(night["games"])
        for night in nights
        if isinstance(night, dict) and isinstance(night.get("games"), list)
    )
    if games > MAX_GAMES:
        raise SeasonError(
            f"log: a season holds at most {MAX_GAMES:,} games, not {games:,}: "
            "split the file"
        )


def check_season(document: dict[str, Any], parsed: Season) -> Stored:
    """Refuse what the league cannot store of a season its reader took."""
    for key in ("best_nights", "min_nights"):
        value = getattr(parsed.settings, key)
        if value > MAX_NIGHTS_SETTING:
            raise SeasonError(
                f'log: "standings.{key}" must be at most {MAX_NIGHTS_SETTING}'
            )
    name = tidy(parsed.name)
    problem = clean_text(name, limit=60)
    if problem:
        raise SeasonError(f"log: the season's name {problem}")
    formats = []
    pairs = zip(document["nights"], parsed.nights, strict=True)
    for n, (raw, night) in enumerate(pairs, start=1):
        formats.append(_format(raw.get("format"), n))
        for m, game in enumerate(night.games, start=1):
            for key in ("round", "table"):
                if getattr(game, key) > MAX_NUMBER:
                    raise SeasonError(
                        f'night {n} game {m}: "{key}" must be a whole number '
                        f"from 1 to {MAX_NUMBER:,}"
                    )
    return Stored(name, _names(parsed), tuple(formats))


def _format(value: object, n: int) -> str | None:
    if value is None or value in FORMATS:
        return value
    raise SeasonError(f'night {n}: "format" must be "progressive" or "fixed"')


def _names(parsed: Season) -> dict[str, str]:
    """Each player's name as the league stores it: tidied, checked, and
    told apart from an earlier one of the same name ("Ann (2)")."""
    names = {}
    for n, (pid, person) in enumerate(parsed.players.items(), start=1):
        name = tidy(person.name)
        problem = name_problem(name)
        if problem:
            who = printable(pid[:30])
            raise SeasonError(f"log: player {n} ({who!r}): the name {problem}")
        names[pid] = name
    return dict(zip(names, distinct_names(list(names.values())), strict=True))
