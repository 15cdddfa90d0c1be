"""gunicorn's settings for the app (``gunicorn -c python:config.gunicorn_conf
config.wsgi``): access and error logs on stderr, with capability tokens
redacted."""

from __future__ import annotations

import os
from typing import Any

from gunicorn.glogging import Logger

from scorekeeper.web.logs import RedactTokens, redact

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", 2))
# WEB_THREADS > 1: each worker answers that many requests at once (gunicorn's
# gthread worker), so a worker waiting on PostgreSQL or Redis is not a
# worker lost; it also keeps the load balancer's connections open.
threads = int(os.environ.get("WEB_THREADS", 1))
keepalive = 75  # seconds: nginx's upstream keepalive closes first (60 s)
accesslog = "-"
errorlog = "-"


def redact_atoms(atoms: dict[str, Any]) -> dict[str, Any]:
    """Every text the access log could print (request line, path, query,
    referer, any header a log format names) without a capability token."""
    for key, value in atoms.items():
        if isinstance(value, str):
            atoms[key] = redact(value)
    return atoms


class RedactingLogger(Logger):
    """The access log's atoms redacted, and gunicorn's error log too (it
    names the request's URL when a request fails: "Error handling request
    GET /join/...")."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if not any(isinstance(f, RedactTokens) for f in self.error_log.filters):
            self.error_log.addFilter(RedactTokens())

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> Any:
        return redact_atoms(super().atoms(resp, req, environ, request_time))


logger_class = RedactingLogger
