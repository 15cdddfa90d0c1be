"""A gunicorn serving the production settings as `make run` does, for the
tests that need the real thing (WhiteNoise's compressed files, two workers,
the access log).

collectstatic compresses every file, Pyodide's included: 15-35 s on this
2-core machine each time it ran, and four tests ran it for themselves. The
files are collected once per test process (`collected_static` in
tests/conftest.py, session scope; the tests that use it share one xdist group, so once per run) and
each server reads them as they are: collectstatic only writes. The
servers too live for the session (a module-scoped one was started again
whenever xdist ran another file's test in between)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GROUP = pytest.mark.xdist_group("production")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def production_env(*, workdir: Path, static_root: Path, port: int) -> dict[str, str]:
    """The production settings on a database of the test's own."""
    return {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{workdir / 'production.sqlite3'}",
        "STATIC_ROOT": str(static_root),
        "PORT": str(port),
    }


def manage(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=180,
    )
    return done.stdout


def collect_static(workdir: Path) -> Path:
    """The static files as collectstatic leaves them (tests/conftest.py's
    session fixture `collected_static` calls this once)."""
    static_root = workdir / "static"
    env = production_env(workdir=workdir, static_root=static_root, port=0)
    manage("collectstatic", "--noinput", "-v0", env=env)
    return static_root


@contextmanager
def gunicorn(env: dict[str, str], *, log: Path | None = None) -> Iterator[str]:
    """Migrates the database `env` names, serves it with gunicorn on
    env["PORT"] until the block ends; yields its base URL."""
    manage("migrate", "--noinput", "-v0", env=env)
    with (log or Path(os.devnull)).open("w") as output:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "-c",
                "python:config.gunicorn_conf",
                "config.wsgi",
            ],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", int(env["PORT"])), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{env['PORT']}"
    finally:
        server.terminate()
        server.wait(timeout=10)
