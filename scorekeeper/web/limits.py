"""Limits against abuse and faults, answered in the player's words.

- ``rate_limited(action)``: per-client request counts in a fixed window
  (``settings.RATE_LIMITS``), shared by the server's workers
  (``rate_counts``); over it, 429 with Retry-After.
- ``bad_request``: the 400 handler; a body over the size limit becomes a
  413 "too large" page (JSON under /api/).
- ``ExceptionPages``: a database fault (disk full, read-only, gone) becomes
  a 503 "busy, try again" with Retry-After, never a bare 500; a replaced
  link a 410 in words.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, IntegrityError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from scorekeeper.web.access import LinksReplaced, links_replaced
from scorekeeper.web.rate_counts import counts

logger = logging.getLogger(__name__)

View = Callable[..., HttpResponse]


def client_address(request: HttpRequest) -> str:
    """The client's address; behind ``TRUSTED_PROXIES`` proxies, the address
    the outermost trusted proxy saw (the last ones a client cannot forge)."""
    proxies: int = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
        hops = [hop.strip() for hop in forwarded.split(",")]
        if len(hops) >= proxies and hops[-proxies]:
            return hops[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def retry_after(request: HttpRequest, action: str) -> int | None:
    """Count this request against ``action``'s limit: None while within it,
    else the seconds until the window ends. The counts are shared by every
    worker of the server (``rate_counts``), so two workers do not allow
    twice the requests."""
    limit = settings.RATE_LIMITS.get(action)
    if limit is None:
        return None
    count, window = limit
    now = int(time.time())
    start = now - now % window
    used = counts().hit(f"{action}:{client_address(request)}", start, window)
    return None if used <= count else max(1, start + window - now)


def too_many(request: HttpRequest, seconds: int) -> HttpResponse:
    message = (
        f"Too many requests from this device: wait {seconds} seconds and try again."
    )
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": message}, status=429)
    else:
        response = render(request, "problem.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def rate_limited(
    action: str, *, methods: tuple[str, ...] = ("POST",)
) -> Callable[[View], View]:
    """Decorator: count ``methods`` requests of the view against ``action``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods:
                seconds = retry_after(request, action)
                if seconds is not None:
                    return too_many(request, seconds)
            return view(request, *args, **kwargs)

        return limited

    return decorate


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: say what was wrong instead of a bare "Bad Request"."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1000
        message = (
            f"That is too large: the most this app takes at once is {limit} kB "
            "(a pepper log of a long game is far smaller). Nothing was saved."
        )
        status = 413
    else:
        message = "That request could not be read. Nothing was saved."
        status = 400
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message}, status=status)
    return render(request, "problem.html", {"message": message}, status=status)


def unavailable(request: HttpRequest) -> HttpResponse:
    message = "The game's storage is not answering right now; nothing was saved. Try again in a moment."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": message}, status=503)
    else:
        response = render(request, "problem.html", {"message": message}, status=503)
    response["Retry-After"] = "5"
    return response


class ExceptionPages:
    """Middleware: exceptions a view leaves to it become pages in words. A
    database fault answers 503 (and is logged), not a bare 500 (a broken
    constraint is a bug: left alone); a replaced link answers 410."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if isinstance(exception, LinksReplaced):
            return links_replaced(request)
        if isinstance(exception, DatabaseError) and not isinstance(
            exception, IntegrityError
        ):
            logger.error("database fault on %s", request.path, exc_info=exception)
            return unavailable(request)
        return None
