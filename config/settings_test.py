"""The tests: local settings, static files read from the app's folders (no
collectstatic needed) and the rate limits off (tests of the limits turn
them on)."""

from __future__ import annotations

from config.settings_local import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
RATE_LIMITS = {}
# No collected files in tests: WhiteNoise serves from the apps' folders.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
