"""Settings, read from the environment.

DATABASE_URL (default: SQLite in WAL mode at ./db.sqlite3), SECRET_KEY,
DEBUG, ALLOWED_HOSTS (comma-separated).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext

# Lets generic Django classes (ModelAdmin[Game]) be subscripted at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes")


DEBUG = _flag("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and os.environ.get("DJANGO_REQUIRE_SECRET_KEY"):
        raise RuntimeError("SECRET_KEY must be set in production")
    SECRET_KEY = "insecure-development-key-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scorekeeper.access.CsrfNoReferrerMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.access.no_index",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database() -> dict[str, Any]:
    url = os.environ.get("DATABASE_URL", "")
    if url:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60))
    else:
        config = {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # WAL lets readers run beside the one writer; IMMEDIATE takes the write
        # lock when a transaction starts, so concurrent appends wait their turn
        # (busy timeout) instead of failing with "database is locked";
        # synchronous=FULL makes an acknowledged hand survive a power cut.
        # Tests use a file too (not SQLite's shared memory), so that they see
        # the WAL and the locking the app runs with.
        config["TEST"] = {"NAME": BASE_DIR / "test-db.sqlite3"}
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
                "PRAGMA foreign_keys=ON;"
            ),
        }
    return config


DATABASES = {"default": _database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

SECURE_CONTENT_TYPE_NOSNIFF = True
# Shared game links carry their capability in the URL: never send it
# anywhere. (Browsers then send "Origin: null" on a page's own form posts;
# scorekeeper.access.CsrfNoReferrerMiddleware leaves those to the token.)
SECURE_REFERRER_POLICY = "no-referrer"
# The rights a browser holds (its games' tokens) live in a signed cookie:
# no session table to query on every page.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
X_FRAME_OPTIONS = "DENY"
SECURE_CSP = {"default-src": ["'self'"], "img-src": ["'self'", "data:"]}
