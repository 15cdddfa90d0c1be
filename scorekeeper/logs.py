"""Log lines never carry a capability: a game's links and API tokens are
redacted before a record is written."""

from __future__ import annotations

import logging
import re

# /join/<token> in a path, and "Bearer <token>" in a header.
_TOKEN = re.compile(r"(/join/|[Bb]earer\s+)[^\s/?\"']+")


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
