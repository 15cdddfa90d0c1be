"""Settings for the web benchmarks: the app's own (with a local key), plus
bench-only anchors; the rate limits count every request as in production
(their shared counters are part of a save's cost), with counts no bench
reaches (it appends hundreds of hands from one client); static files read
in place (no collectstatic)."""

from __future__ import annotations

import sys

from config.settings_test import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
# The production limits' windows (config.settings, loaded by the import above).
RATE_LIMITS = {
    action: (10**9, window)
    for action, (_, window) in sys.modules["config.settings"].RATE_LIMITS.items()
}
# Tasks wait in the database for the worker, as in production (the tests'
# settings run each where it is enqueued): bench/late_change.py runs the
# real worker command between views and times it apart.
TASKS = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
}
