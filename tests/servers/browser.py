"""Requests as a phone's browser sends them, to one server of the cluster
(or nginx): its session cookie, its CSRF cookie and header, htmx's header."""

from __future__ import annotations

import http.client
import secrets
from typing import Any
from urllib.parse import urlencode

CSRF = secrets.token_hex(16)  # a browser's CSRF cookie: any 32 characters
SESSION = "sessionid"


class Answer:
    def __init__(
        self, status: int, body: str, headers: dict[str, str], session: str = ""
    ) -> None:
        self.status, self.body, self.headers = status, body, headers
        self.session = session  # the session cookie the answer set, if it set one


def ask(
    url: str,
    method: str,
    path: str,
    *,
    cookie: str = "",
    form: dict[str, Any] | None = None,
    htmx: bool = False,
    source: str = "127.0.0.1",
) -> Answer:
    """One request, as a browser at address ``source`` sends it."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(
        host, int(port), timeout=30, source_address=(source, 0)
    )
    headers = {"Cookie": f"{SESSION}={cookie}; csrftoken={CSRF}"}
    body = None
    if form is not None:
        body = urlencode(form)
        headers |= {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": CSRF,
            "Origin": url,
        }
    if htmx:
        headers["HX-Request"] = "true"
    try:
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        return Answer(
            response.status,
            response.read().decode(errors="replace"),
            dict(response.getheaders()),
            _session_set(response.msg.get_all("Set-Cookie") or []),
        )
    finally:
        connection.close()


def _session_set(cookies: list[str]) -> str:
    """The session cookie's new value among an answer's Set-Cookie headers
    (the sessions are signed cookies: a session that changed comes back)."""
    for cookie in cookies:
        name, _, rest = cookie.partition("=")
        if name.strip() == SESSION:
            return rest.split(";", 1)[0]
    return ""
