"""The tests: local settings, static files read from the app's folders (no
collectstatic needed) and the rate limits off (tests of the limits turn
them on). One process's memory for the cache and a file for the counts,
whatever REDIS_URL says (tests/web/test_shared.py runs its own Redis), and
PostgreSQL without a pool unless DB_POOL_MAX asks for one: the suite's
own database juggling is Django's, as before."""

from __future__ import annotations

import os

os.environ.setdefault("DB_POOL_MAX", "0")

from config.settings_local import *  # noqa: E402, F403

REDIS_URL = ""
CACHES = {"default": LOCAL_CACHE}  # noqa: F405

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
RATE_LIMITS = {}
# The tests' own counts file (emptied before each test, tests/conftest.py),
# one per pytest-xdist worker (each also has its own test database: the
# worker's name is added to it by pytest-django).
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
RATE_LIMIT_STORE = {
    "BACKEND": "scorekeeper.web.rate_counts.FileCounts",
    "LOCATION": os.environ.get(
        "RATE_LIMIT_FILE",
        str(BASE_DIR / f"test-rate-limits{_WORKER and '-' + _WORKER}.sqlite3"),  # noqa: F405
    ),
}
# No collected files in tests: WhiteNoise serves from the apps' folders.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
# A task runs where it is enqueued, so a test sees its result at once; the
# tests of the worker itself (tests/leagues/test_rating_task.py) put the
# database backend back and run the real `db_worker` command.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
