"""A secret key generated once and kept beside the checkout, for local
runs and tests only (production sets SECRET_KEY)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

KEY_FILE = Path(__file__).resolve().parent.parent / ".local-secret-key"


def local_secret_key(path: Path = KEY_FILE) -> str:
    """The kept key, made (readable by its owner only) on first use."""
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if not key:
        key = secrets.token_urlsafe(50)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(key + "\n")
    return key
