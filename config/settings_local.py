"""``make run`` and ``manage.py``: the production settings, with a generated
key kept in ``.local-secret-key`` when SECRET_KEY is not set. DEBUG stays
off unless asked for (``make dev``)."""

from __future__ import annotations

import os

from config.local_key import local_secret_key

os.environ["SECRET_KEY"] = os.environ.get("SECRET_KEY") or local_secret_key()

from config.settings import *  # noqa: E402, F403
