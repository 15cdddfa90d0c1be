"""The shapes of what a URL may carry, checked before any view or query
sees it: a row's id (``<id:...>``) and a capability token (``<token:...>``).

A path that does not fit is no page (404) on every database: an id past
what a 64-bit column holds made SQLite raise OverflowError (500) while
PostgreSQL answered 404, and a NUL in a token reached PostgreSQL, which
refuses NUL in text (503 and a logged database fault).
"""

from __future__ import annotations

from django.urls import register_converter

from scorekeeper.models import TOKEN_PATTERN

# The largest value of a 64-bit signed column (BigAutoField, SQLite's INTEGER).
LARGEST_ID = 2**63 - 1


class BoundedId:
    """A non-negative integer a 64-bit column can hold."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > LARGEST_ID:
            raise ValueError("past the largest id")  # the URL does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class Token:
    """A capability token as ``new_token`` makes them (its alphabet, its length)."""

    regex = TOKEN_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    """Called once, when the app is ready (before any URL is resolved)."""
    register_converter(BoundedId, "id")
    register_converter(Token, "token")
