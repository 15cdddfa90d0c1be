"""Log lines never carry a capability: every URL shape that holds a token
(a game's link, an organizer's invitation, a season's public standings,
a night's door and a player's own night)
and API bearer tokens are redacted before a record is written, in
Django's log and in gunicorn's access log (``config.gunicorn_conf``)."""

from __future__ import annotations

import logging
import re

# The first path segment of every URL that carries a token (``<token:...>``
# in the URL patterns; a test checks that the list names them all).
TOKEN_PATHS = ("join", "invite", "standings", "tv", "door", "me")

# A token-carrying path, also percent-encoded in a query (?next=%2Finvite%2F...),
# or "Bearer <token>" in a header: what follows is dropped up to the next
# separator, so a token with junk around it does not leak either.
_TOKEN = re.compile(
    r"((?:/|%2[Ff])(?:" + "|".join(TOKEN_PATHS) + r")(?:/|%2[Ff])|[Bb]earer\s+)"
    r"[^\s/?&#\"']+"
)


def redact(text: str) -> str:
    return _TOKEN.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Rewrites the record's message (and drops its arguments) when it holds
    a token; Django logs the request path in its 4xx/5xx lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True
