"""Settings for the web benchmarks: the app's own, plus bench-only anchors."""

from __future__ import annotations

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
