"""The tests: local settings, static files read from the app's folders (no
collectstatic needed) and the rate limits off (tests of the limits turn
them on)."""

from __future__ import annotations

import os

from config.settings_local import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
RATE_LIMITS = {}
# The tests' own counts file (emptied before each test, tests/conftest.py).
RATE_LIMIT_STORE = {
    "BACKEND": "scorekeeper.web.rate_counts.FileCounts",
    "LOCATION": os.environ.get(
        "RATE_LIMIT_FILE",
        str(BASE_DIR / "test-rate-limits.sqlite3"),  # noqa: F405
    ),
}
# No collected files in tests: WhiteNoise serves from the apps' folders.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
