"""Names as people look for them: sorted and found with accents read as
their letters (``Đặng`` under D, ``Émile`` under E, ``Ørjan`` under O),
whatever the case. Pure: the standard library only.

Unicode's decomposition takes most accents off (É is E plus an acute);
a few letters carry their stroke inside and do not decompose (Đ, Ø, Ł,
Þ, ...): they are read as the letter a reader files them under, as
library catalogues do.
"""

from __future__ import annotations

import unicodedata

# Letters that do not decompose, as the letters they are filed under.
_UNDER = str.maketrans(
    {
        "đ": "d",
        "ð": "d",
        "ø": "o",
        "ł": "l",
        "ħ": "h",
        "ı": "i",
        "ŧ": "t",
        "þ": "th",
        "æ": "ae",
        "œ": "oe",
        "ŋ": "n",
    }
)


def fold(text: str) -> str:
    """``text`` without case or accents: what two spellings a person
    would call the same share ("Đặng" and "dang" both fold to "dang")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare.translate(_UNDER))


def sort_key(name: str) -> tuple[str, str, str]:
    """Sorts names as a reader expects: by their folded letters, then a
    name without accents before the same name with them ("Emile" before
    "Émile"), then by the exact text, so that the order never depends on
    the order the names came in."""
    return fold(name), name.casefold(), name


def initial(name: str) -> str:
    """The letter a name is filed under ("D" for "Đặng"); "#" for a name
    that does not start with a letter."""
    folded = fold(name.strip())
    first = folded[:1]
    return first.upper() if first.isalpha() else "#"


def matches(name: str, query: str) -> bool:
    """Whether a search for ``query`` finds ``name``: every word of the
    query starts a word of the name, accents and case aside ("dang" and
    "va" find "Đặng Văn"; "jo" finds "Jo Berg", not "Marjorie"); an
    empty query finds every name."""
    words = fold(name).replace("-", " ").split()
    return all(
        any(word.startswith(part) for word in words) for part in fold(query).split()
    )
