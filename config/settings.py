"""Production settings, read from the environment; they fail closed.

SECRET_KEY (required: the app refuses to start without it), DEBUG (off
unless "1"), ALLOWED_HOSTS (comma-separated), DATABASE_URL (default: SQLite
in WAL mode at ./db.sqlite3), HTTPS ("1" behind TLS: HSTS, SSL redirect,
Secure cookies), STATIC_ROOT (where collectstatic writes).

Several servers (docs/operators.md, "Several servers"): REDIS_URL (the
cache and the rate-limit counts in Redis, shared by every server; unset:
each process's memory and this machine's counts file, as one server
needs), DB_POOL_MAX / DB_POOL_MIN / DB_POOL_TIMEOUT (the PostgreSQL
connection pool of each worker process).

``config.settings_local`` (``make run``, ``manage.py``) and
``config.settings_test`` (the tests) generate and keep a local key instead.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

# Lets generic Django classes (ModelAdmin[Game]) be subscripted at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes")


DEBUG = _flag("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY:
    # Sessions (which hold a browser's game links) are signed with it: a
    # guessable default would let anyone forge the right to any game.
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Set it to a long random value, e.g. "
        "SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
        "or run locally with `make run` (DJANGO_SETTINGS_MODULE=config.settings_local), "
        "which keeps a generated key."
    )
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
    "django_tasks_db",
    "scorekeeper",
    "scorekeeper.web",
    "scorekeeper.leagues",
    "scorekeeper.games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.web.access.no_index",
    "scorekeeper.web.limits.ExceptionPages",
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
                "scorekeeper.web.installable.offline_switch",
            ],
        },
    },
]


def _database() -> dict[str, Any]:
    url = os.environ.get("DATABASE_URL", "")
    if url:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60))
        if config["ENGINE"] == "django.db.backends.postgresql":
            _pool(config)
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


def _pool(config: dict[str, Any]) -> None:
    """PostgreSQL: each worker process keeps a pool of connections
    (Django's own, psycopg_pool) of DB_POOL_MIN (default 1) to DB_POOL_MAX
    (default 4) connections; a request waits up to DB_POOL_TIMEOUT seconds
    (default 10) for one, then answers "busy, try again" (503). A gunicorn
    sync worker serves one request at a time, so it holds one connection
    at a time: the server's PostgreSQL must allow servers x workers x
    DB_POOL_MAX connections (max_connections, 100 by default).
    DB_POOL_MAX=0: no pool, one persistent connection per worker."""
    largest = int(os.environ.get("DB_POOL_MAX", 4))
    if largest <= 0:
        return
    config["CONN_MAX_AGE"] = 0  # the pool keeps them (Django refuses both)
    config.setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(largest, int(os.environ.get("DB_POOL_MIN", 1))),
        "max_size": largest,
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", 10)),
    }


DATABASES = {"default": _database()}

# Work that must not run in a request (a league's ratings brought up to
# date after a change to an earlier game) is queued in the database and
# run by the worker, `manage.py db_worker` (django-tasks-db), which
# `make run` starts beside the web server.
TASKS: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The league standings' cached nights and seasons, a player's numbers, a
# game's rendered history and record form. Their keys carry the data's
# version (read from the database on every view), so no process ever
# serves a stale entry, whoever wrote it. Without REDIS_URL: each
# process's own memory, room for a few seasons' nights, each entry a few
# kilobytes. With it: one cache in Redis for every worker of every server
# (scorekeeper.web.shared: while Redis is gone, every read is a miss).
# Give Redis a memory limit and an eviction policy (maxmemory-policy
# allkeys-lru): entries are never deleted, old versions just go unread.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
LOCAL_CACHE: dict[str, Any] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "OPTIONS": {"MAX_ENTRIES": 2000},
}
CACHES: dict[str, dict[str, Any]] = {"default": LOCAL_CACHE}
if REDIS_URL:
    CACHES["default"] = {
        "BACKEND": "scorekeeper.web.shared.SharedCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "pepper",
    }

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # Pyodide (npm, locked) and the engine's own source, for offline play.
    "scorekeeper.web.offline_files.OfflineFinder",
]
STATIC_ROOT: Path | None = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# WhiteNoise serves the collected files itself (gzip/brotli, hashed names
# cached for a year), so the app needs no other web server for them.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # WhiteNoise's CompressedManifestStaticFilesStorage, reusing the
        # offline runtime's brotli copies from `make setup`'s build.
        "BACKEND": "scorekeeper.web.offline_files.CollectedStorage"
    },
}
# The phone's standard library is a zip stored uncompressed (scorekeeper/
# web/offline_build.py), so that brotli compresses it whole: a zip is
# compressed here like any other file.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [
    extension for extension in Compressor.SKIP_COMPRESS_EXTENSIONS if extension != "zip"
]

SECURE_CONTENT_TYPE_NOSNIFF = True
# A shared game link carries its capability in the URL: "same-origin" never
# sends it to another site, and lets Django's own CSRF origin check work.
SECURE_REFERRER_POLICY = "same-origin"
# The rights a browser holds (its games' tokens) live in a signed cookie:
# no session table to query on every page. A game page opened renews it,
# so a table's phones keep their games while they play.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
X_FRAME_OPTIONS = "DENY"
SECURE_CSP = {
    "default-src": ["'self'"],
    # The rules engine runs on the phone under Pyodide (WebAssembly).
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "img-src": ["'self'", "data:"],
    "form-action": ["'self'"],
    "base-uri": ["'none'"],
}

# Behind TLS (production): HSTS, redirect plain HTTP, cookies only over TLS.
HTTPS = _flag("HTTPS", False)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # The directive alone does nothing until the domain is submitted.
    SECURE_HSTS_PRELOAD = True

# The offline app's kill switch (docs/operators.md): OFFLINE_OFF=1
# serves a service worker that deletes its caches and removes itself, and
# pages that register none. The hands waiting in a phone's outbox are kept
# (they live in IndexedDB, not in the caches) and sent by the page.
OFFLINE_OFF = _flag("OFFLINE_OFF", False)

# Bodies: a pepper log of a long game is well under 1 MB; anything bigger
# is refused with a "too large" page (scorekeeper.web.limits.bad_request).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1_100_000
FILE_UPLOAD_MAX_MEMORY_SIZE = 1_100_000

# Requests per client address in a window of seconds; a client over it is
# answered 429 with Retry-After. An empty dict turns the limits off.
# The counts are shared by every worker of the server: by default in a
# small SQLite file (RATE_LIMIT_FILE; any database, no server needed);
# with REDIS_URL, in Redis, shared by every server (while Redis is gone,
# each server counts in its file again).
RATE_LIMITS: dict[str, tuple[int, int]] = {
    "game_create": (30, 600),
    "import": (20, 600),
    "join": (30, 60),
    "append": (120, 60),
    # A club's room behind one address: 80 players at the door, each
    # picking a name (a double tap or two each) within a minute or two.
    "door": (240, 60),
    "login": (10, 300),
    "signup": (10, 3600),
}
RATE_LIMIT_FILE = os.environ.get(
    "RATE_LIMIT_FILE", str(BASE_DIR / "rate-limits.sqlite3")
)
RATE_LIMIT_STORE: dict[str, Any] = {
    "BACKEND": "scorekeeper.web.rate_counts.FileCounts",
    "LOCATION": RATE_LIMIT_FILE,
}
if REDIS_URL:
    RATE_LIMIT_STORE = {
        "BACKEND": "scorekeeper.web.shared.RedisCounts",
        "LOCATION": REDIS_URL,
        "OPTIONS": {"fallback": RATE_LIMIT_FILE},
    }
# An organizer's password (sign-up): Django's validators, their messages
# shown on the form.
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"
    },
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "leagues"
LOGOUT_REDIRECT_URL = "home"
# Behind a reverse proxy, the client is the last address it adds.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", 0))

# Every unhandled exception is logged with its traceback to stderr (where
# gunicorn and systemd collect it); capability tokens are redacted first.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact": {"()": "scorekeeper.web.logs.RedactTokens"}},
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["redact"],
        }
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # The app's own messages; APP_LOG_LEVEL=DEBUG also says each time a
        # league's ratings are brought up to date (tests/servers/).
        "scorekeeper": {"level": os.environ.get("APP_LOG_LEVEL", "WARNING")},
        "django": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "django.server": {
            "handlers": ["stderr"],
            "level": "INFO",
            "propagate": False,
        },
    },
}
