"""QR codes of links, for a phone to open a game or a table by its camera."""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_code(url: str) -> str:
    """A link's QR code as an SVG data URI. Drawing one takes milliseconds,
    more than the rest of the page, and a link's code never changes."""
    return str(segno.make(url, error="m").svg_data_uri(scale=3, border=2))
