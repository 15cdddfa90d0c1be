"""Players' names in a league (no database): how a name is tidied and
checked, the key two names are compared by, and how a season file's
repeated names are told apart.

Two names are the same name when their keys are equal: the key is the
name in Unicode's compatibility form (NFKC: a ligature "ﬁ" is "fi", a
full-width "Ａ" is "A") case-folded (``str.casefold``: "Émile" and
"émile", "Straße" and "STRASSE"), so both databases compare names alike
(SQLite folds only ASCII case, PostgreSQL's ``lower`` depends on its
locale). The key is stored beside the name and unique in a league.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scorekeeper.gamelog import NAME_LIMIT, clean_text

# The key of a NAME_LIMIT-character name is longer only for names made of
# ligatures that spell out several letters each.
KEY_LIMIT = 255


def name_key(name: str) -> str:
    """What two names are compared by (``tidy`` names)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def tidy(name: str) -> str:
    """The name as stored: spaces at either end gone, runs of spaces one."""
    return " ".join(name.split())


def name_problem(name: str) -> str | None:
    """Why a tidy name cannot be a player's (None: it can), in words that
    follow "the name ..."."""
    if not name:
        return "is empty"
    problem = clean_text(name, limit=NAME_LIMIT)
    if problem is None and len(name_key(name)) > KEY_LIMIT:
        problem = "spells out too many letters"
    return problem


def distinct_names(names: Sequence[str]) -> list[str]:
    """``names`` (tidy) with each name repeated after its first told apart
    by a number, in their order: "Ann", "Ann (2)", "Ann (3)". A numbered
    name never takes one listed itself, and stays within NAME_LIMIT (the
    name is shortened before its number when it must be)."""
    listed = {name_key(name) for name in names}
    used: set[str] = set()
    following: dict[str, int] = {}  # a repeated key: the next number to try
    distinct = []
    for name in names:
        key = name_key(name)
        if key in used:
            number = following.get(key, 2)
            while True:
                suffix = f" ({number})"
                candidate = name[: NAME_LIMIT - len(suffix)].rstrip() + suffix
                number += 1
                taken = name_key(candidate)
                if taken not in used and taken not in listed:
                    break
            following[key] = number
            name, key = candidate, name_key(candidate)
        used.add(key)
        distinct.append(name)
    return distinct
