"""Who may see or change a game: capability links, held by the browser.

A game is reachable only through one of its links (the edit link or the
read-only one) or by the browser that created it; never by its id alone.
Opening a link stores the game's token in the (signed-cookie) session; each
request checks the stored token against the game's current ones, so
replacing a link revokes it at once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Literal, Protocol
from uuid import UUID

from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseForbidden,
)
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import get_object_or_404

from .models import Game

Role = Literal["edit", "view"]
RIGHTS = "rights"  # session key: {game id: token}
KEPT = 30  # games a browser remembers


class Tokens(Protocol):
    """A game's capabilities: a ``Game``, or the poll's ``eventstore.Head``."""

    @property
    def pk(self) -> object: ...
    @property
    def edit_token(self) -> str: ...
    @property
    def view_token(self) -> str: ...


def token_role(game: Tokens, token: str) -> Role | None:
    """What ``token`` may do in ``game``: a browser's stored link, or an
    API client's bearer token."""
    if token and secrets.compare_digest(token, game.edit_token):
        return "edit"
    if token and secrets.compare_digest(token, game.view_token):
        return "view"
    return None


def role_of(request: HttpRequest, game: Tokens) -> Role | None:
    return token_role(game, request.session.get(RIGHTS, {}).get(str(game.pk), ""))


def grant(request: HttpRequest, game: Game, token: str) -> None:
    rights = dict(request.session.get(RIGHTS, {}))
    rights.pop(str(game.pk), None)
    rights[str(game.pk)] = token
    request.session[RIGHTS] = dict(list(rights.items())[-KEPT:])


def held_games(request: HttpRequest) -> list[str]:
    return list(request.session.get(RIGHTS, {}))


def game_for(
    request: HttpRequest, game_id: UUID, *, edit: bool = False
) -> tuple[Game, Role]:
    """The game and this browser's role in it: 404 without one of its links
    (a game is never found by its id alone), 403 when a read-only link
    tries to change it."""
    game = get_object_or_404(Game, pk=game_id)
    role = role_of(request, game)
    if role is None:
        raise Http404("no such game")
    if edit and role != "edit":
        raise PermissionDenied("this link only reads the game; it cannot change it")
    return game, role


def no_index(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: shared game pages are not for search engines."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return middleware


class CsrfNoReferrerMiddleware(CsrfViewMiddleware):
    """Django's CSRF check, for pages that send no referrer.

    Every page says ``Referrer-Policy: no-referrer`` (a shared link carries
    its capability in the URL). Under that policy a browser sends
    ``Origin: null`` on the page's own plain form posts (the Fetch
    standard's "append a request Origin header"; htmx's requests still send
    the real origin), and Django's origin check refuses ``null``. So such a
    post is checked as coming from this site, which leaves it to the token
    check: a page elsewhere cannot pass that, since it can neither read the
    token nor (SameSite=Lax) make the browser send the CSRF cookie.
    Any other origin is checked as Django checks it.
    """

    def process_view(
        self,
        request: HttpRequest,
        callback: Callable[..., HttpResponseBase],
        callback_args: tuple[Any, ...],
        callback_kwargs: dict[str, Any],
    ) -> HttpResponseForbidden | None:
        if request.META.get("HTTP_ORIGIN") == "null":
            request.META["HTTP_ORIGIN"] = f"{request.scheme}://{request.get_host()}"
        return super().process_view(request, callback, callback_args, callback_kwargs)
