# `make run` and `make test` work on a fresh machine: they find a Python
# >= 3.12, build .venv, install, migrate, then serve or test. Node.js (npm)
# is needed only for offline play (the phone's engine, Pyodide): without
# it the app runs with offline play off and the offline tests are skipped,
# each saying why (OFFLINE_TESTS=required makes them fail instead).
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run dev test test-times lint bench bench-scale bench-instructions setup clean

PYTHON := $(shell for p in python3.12 python3.13 python3.14 python3; do \
	command -v $$p >/dev/null 2>&1 && \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && \
	{ echo $$p; break; }; done)

$(STAMP): pyproject.toml
	@if [ -z "$(PYTHON)" ]; then \
		echo "This project needs Python 3.12 or newer (Django 6): none was found on PATH." >&2; \
		echo "Install one (e.g. 'pyenv install 3.12') and run make again." >&2; exit 1; fi
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade 'pip>=25.1'
	$(PY) -m pip install -q --group dev
	@touch $(STAMP)

# The phone's engine runtime (Pyodide, pinned in package-lock.json), served
# from our own static files: installed again whenever the lock changes.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed for offline play (Pyodide): install Node.js" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

# The runtime as the phone is sent it (scorekeeper/web/offline_build.py):
# Pyodide with only the standard-library modules the engine imports,
# compiled for it (offline_compile.mjs), and brotli copies beside
# (generated in build/, not committed; ~1 minute).
OFFLINE_STAMP := build/offline/.built
$(OFFLINE_STAMP): package-lock.json scorekeeper/web/offline_stdlib.txt scorekeeper/web/offline_build.py scorekeeper/web/offline_compile.mjs | $(STAMP) $(NODE_STAMP)
	$(PY) manage.py offline_build
	@touch $(OFFLINE_STAMP)

# With npm: the offline engine, installed and built. Without it: a note,
# and the rest of the set-up goes on (offline play off).
ifneq ($(shell command -v npm 2>/dev/null),)
OFFLINE := $(NODE_STAMP) $(OFFLINE_STAMP)
else
OFFLINE := offline-off
endif

.PHONY: offline-off
offline-off:
	@echo "npm not found: offline play is off (the phone's engine, Pyodide, needs Node.js)." >&2
	@echo "The app runs online; the offline tests are skipped. Install Node.js and run make again to add it." >&2

setup: $(STAMP) $(OFFLINE)

# The task worker (django-tasks-db's db_worker: a league's ratings brought
# up to date after a change) beside the web server, stopped with it: the
# shell stops it by its pid when the server ends, or on Ctrl+C.
WITH_WORKER = $(PY) manage.py db_worker --no-reload -v0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT; trap 'exit 130' INT TERM;

# Served as production serves it (gunicorn, DEBUG off, static files by
# WhiteNoise), with a local secret key kept in .local-secret-key.
run: $(STAMP) $(OFFLINE)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	PORT=$(PORT) $(PY) manage.py demo_game
	export DJANGO_SETTINGS_MODULE=config.settings_local; $(WITH_WORKER) \
		PORT=$(PORT) $(VENV)/bin/gunicorn -c python:config.gunicorn_conf config.wsgi

# Django's debug server, with tracebacks in the browser: for development.
dev: $(STAMP) $(OFFLINE)
	$(PY) manage.py migrate --noinput
	PORT=$(PORT) $(PY) manage.py demo_game
	export DEBUG=1; $(WITH_WORKER) $(PY) manage.py runserver 127.0.0.1:$(PORT)

# The tests run on every core (pytest-xdist: each worker has its own test
# database, live server and counts file); TEST_WORKERS=1 runs them in one
# process. The pure rules engine must stay 100% branch-covered by its own
# tests (tests/rules, no database), measured alone: tracing every test of
# the site for it took a quarter of the suite's time.
TEST_WORKERS ?= auto
test: $(STAMP) $(OFFLINE)
	$(PY) -m pytest -q -n $(TEST_WORKERS) tests/rules --cov=scorekeeper/rules \
		--cov-branch --cov-report=term:skip-covered --cov-fail-under=100
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup --ignore=tests/rules

# Where the suite's time goes: the 25 slowest tests and the time by folder.
test-times: $(STAMP) $(OFFLINE)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup --durations=25 --times-by-folder

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict .
	$(VENV)/bin/lint-imports

bench: $(STAMP) $(NODE_STAMP) $(OFFLINE_STAMP)
	@command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; } \
		|| echo "wrk could not be installed: the load figures will be skipped"
	$(PY) bench/replay.py
	$(PY) bench/cold_read.py
	$(PY) bench/web.py
	$(PY) bench/league.py
	$(PY) bench/offline.py
	$(PY) bench/auction.py
	$(MAKE) --no-print-directory bench-scale

# Many clubs at once through nginx: two servers with Redis beside one
# without (bench/scale.py; says what is missing and skips without
# PostgreSQL, redis-server or nginx). SCALE_SECONDS per set-up.
SCALE_SECONDS ?= 60
bench-scale: $(STAMP)
	$(PY) bench/scale.py $(SCALE_SECONDS)

# The save and its anchor in instructions (valgrind's callgrind): the
# same count whatever else the machine does, for weighing one change to
# the save (bench/instructions.py). Not part of `make bench`: ~6 minutes.
bench-instructions: $(STAMP)
	@command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; } \
		|| echo "valgrind could not be installed: nothing to count"
	$(PY) bench/instructions.py

clean:
	rm -rf $(VENV) node_modules build .pytest_cache .mypy_cache .ruff_cache db.sqlite3* staticfiles
