"""Settings for the web benchmarks: the app's own (with a local key), plus
bench-only anchors; no rate limits (the bench appends hundreds of hands
from one client) and static files read in place (no collectstatic)."""

from __future__ import annotations

from config.settings_test import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
