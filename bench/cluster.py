"""Several app servers as a host runs them, for tests/servers/ and
bench/scale.py: a PostgreSQL database of their own, a Redis of their own
(started here on a free port, nothing kept on disk), N gunicorn servers
of the production settings, nginx in front of them and the task worker
(`manage.py db_worker`: a league's ratings brought up to date after a
change, never inside a request). Every process started here is stopped
here, by its own pid.

    with Cluster(servers=2) as cluster:
        cluster.url          # through nginx
        cluster.servers[0].url
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PG_SERVER = os.environ.get("PG_SERVER", "postgres://postgres@127.0.0.1:5432")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise RuntimeError(f"{what} stopped at start (exit {process.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not open port {port}")


def gunicorn(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Two plain gunicorn workers of the app on ``port``, answering
    (``env``: the settings; bench/web.py and bench/offline.py)."""
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-w", "2"]
        + ["-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_for_port(port, server, "gunicorn")
    except RuntimeError:
        server.kill()
        raise
    return server


def missing() -> list[str]:
    """What this machine lacks to run a cluster (empty: nothing)."""
    lacking = [tool for tool in ("redis-server", "nginx") if shutil.which(tool) is None]
    try:
        import psycopg

        psycopg.connect(f"{PG_SERVER}/postgres", connect_timeout=3).close()
    except Exception as error:  # any failure to reach it says the same
        lacking.append(f"PostgreSQL at {PG_SERVER} ({error.__class__.__name__})")
    return lacking


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(sql.encode())


def stop(process: subprocess.Popen[bytes], how: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(how)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class RedisServer:
    """A Redis of the caller's own on a free port; nothing on disk."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = folder / f"redis-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--maxmemory",
                "256mb",
                "--maxmemory-policy",
                "allkeys-lru",
            ],
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.process, "redis-server")

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


class AppServer:
    """One gunicorn of the app (the production settings)."""

    def __init__(self, name: str, env: dict[str, str], folder: Path) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**env, "PORT": str(self.port)}
        self.log = folder / f"server-{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "-c",
                "python:config.gunicorn_conf",
                "--access-logfile",
                "/dev/null",
                "--no-control-socket",  # each its own: not one in $HOME
                "config.wsgi",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.process, f"server {self.name}")

    def stop(self, how: int = signal.SIGTERM) -> None:
        if self.process is not None:
            stop(self.process, how)
            self.process = None

    def logged(self) -> str:
        return self.log.read_text(errors="replace")


class TaskWorker:
    """The app's task worker (django-tasks-db's ``db_worker``), one for all
    the servers, as a host runs it beside them: it takes the tasks they
    queue in the shared database."""

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        self.env = env
        self.log = folder / "worker.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "-v0"]
            + ["--interval", "0.2"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        time.sleep(0.5)
        if self.process.poll() is not None:
            raise RuntimeError(f"the task worker stopped at start:\n{self.logged()}")

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    def pids(self) -> list[int]:
        return [] if self.process is None else [self.process.pid]


NGINX_CONF = """\
{user}worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream pepper {{
{upstreams}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://pepper;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
        }}
    }}
}}
"""


class Balancer:
    """nginx in front of the servers (round robin; a server that refuses
    connections is skipped for a while: max_fails=1 fail_timeout=5s)."""

    def __init__(self, servers: list[AppServer], folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folder = folder / "nginx"
        self.folder.mkdir()
        upstreams = "\n".join(
            f"        server 127.0.0.1:{s.port} max_fails=1 fail_timeout=5s;"
            for s in servers
        )
        user = "user root;\n" if os.geteuid() == 0 else ""
        self.conf = self.folder / "nginx.conf"
        self.conf.write_text(
            NGINX_CONF.format(
                user=user, folder=self.folder, upstreams=upstreams, port=self.port
            )
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                shutil.which("nginx") or "nginx",
                "-c",
                str(self.conf),
                "-p",
                str(self.folder),
                "-g",
                "daemon off;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=(self.folder / "nginx-stderr.log").open("ab"),
        )
        wait_for_port(self.port, self.process, "nginx")

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process, signal.SIGQUIT)
            self.process = None

    def pids(self) -> list[int]:
        return [] if self.process is None else [self.process.pid]


class Cluster:
    """``servers`` gunicorns (``workers`` each) on one PostgreSQL database
    and, with ``redis``, one Redis, behind nginx."""

    def __init__(
        self,
        servers: int = 2,
        *,
        redis: bool = True,
        workers: int = 2,
        database: str | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="pepper-cluster-"))
        self.database = (
            database
            or os.environ.get("CLUSTER_DATABASE")  # a name of the caller's own
            or f"pepper_cluster_{os.getpid()}"
        )
        self.redis = RedisServer(self.folder) if redis else None
        self.env = {
            "PATH": os.environ["PATH"],
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"{PG_SERVER}/{self.database}",
            "STATIC_ROOT": str(self.folder / "static"),
            "RATE_LIMIT_FILE": str(self.folder / "rate-limits.sqlite3"),
            "TRUSTED_PROXIES": "1",
            "WEB_CONCURRENCY": str(workers),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            **(extra_env or {}),
        }
        if self.redis is not None:
            self.env["REDIS_URL"] = self.redis.url
        self.servers = [
            AppServer(chr(ord("A") + n), self.env, self.folder) for n in range(servers)
        ]
        self.balancer = Balancer(self.servers, self.folder)
        self.worker = TaskWorker(self.env, self.folder)
        self.url = self.balancer.url

    def manage(self, *args: str) -> str:
        return self.run([sys.executable, "manage.py", *args])

    def run(self, command: list[str]) -> str:
        done = subprocess.run(
            command,
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if done.returncode:
            raise RuntimeError(f"{command} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def seed(
        self, nights: int, tables: int, target: int = 5000
    ) -> list[dict[str, Any]]:
        """League nights under way (bench/seed_nights.py)."""
        script = "bench/seed_nights.py"
        found: list[dict[str, Any]] = json.loads(
            self.run([sys.executable, script, str(nights), str(tables), str(target)])
        )
        return found

    def __enter__(self) -> Cluster:
        try:
            _admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            _admin(f'CREATE DATABASE "{self.database}"')
            self.manage("migrate", "--noinput", "-v0")
            self.manage("collectstatic", "--noinput", "-v0")
            if self.redis is not None:
                self.redis.start()
            for server in self.servers:
                server.start()
            self.worker.start()
            self.balancer.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def server_pids(self) -> list[int]:
        return [s.process.pid for s in self.servers if s.process is not None]

    def redis_pids(self) -> list[int]:
        found = self.redis and self.redis.process
        return [found.pid] if found else []

    def backend_pids(self) -> list[int]:
        """PostgreSQL's processes serving this cluster's database now."""
        import psycopg

        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]
            ).fetchall()
        return [row[0] for row in rows]

    def close(self) -> None:
        self.balancer.stop()
        self.worker.stop()
        for server in self.servers:
            server.stop()
        if self.redis is not None:
            self.redis.stop()
        with contextlib.suppress(Exception):  # one left behind is harmless
            _admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        shutil.rmtree(self.folder, ignore_errors=True)
