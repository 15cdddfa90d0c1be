"""Who may see or change a game: capability links, held by the browser.

A game is reachable only through one of its links (the edit link or the
read-only one) or by the browser that created it; never by its id alone.
Opening a link stores the game's token in the (signed-cookie) session; each
request checks the stored token against the game's current ones, so
replacing a link revokes it at once.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Literal, Protocol
from uuid import UUID

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeeper.gamerows import game_row
from scorekeeper.models import Game
from scorekeeper.recording import Appended

# "correct": an organizer of a closed league night, who may void or correct
# a hand (with a reason) but not record one.
Role = Literal["edit", "view", "correct"]
RIGHTS = "rights"  # session key: {game id: token}
RENEWED = "renewed"  # session key: the day the browser's hold was last renewed
KEPT = 80  # games a browser remembers (its session cookie stays under 4 kB)


class Tokens(Protocol):
    """A game's capabilities: a ``Game``, or the poll's ``eventstore.Head``."""

    @property
    def pk(self) -> object: ...
    @property
    def edit_token(self) -> str: ...
    @property
    def view_token(self) -> str: ...
    @property
    def locked(self) -> bool: ...


def token_role(game: Tokens, token: str) -> Role | None:
    """What ``token`` may do in ``game``: a browser's stored link, or an
    API client's bearer token. Compared as UTF-8 bytes: ``compare_digest``
    refuses a str that is not ASCII, and a client may send anything."""
    if not token:
        return None
    given = token.encode("utf-8", "surrogatepass")
    if secrets.compare_digest(given, game.edit_token.encode()):
        return _edit_unless_locked(game)
    if secrets.compare_digest(given, game.view_token.encode()):
        return "view"
    return None


def _edit_unless_locked(game: Tokens) -> Role:
    """A closed league night's game: its edit link only reads it."""
    return "view" if game.locked else "edit"


def fingerprint(token: str) -> str:
    """What a browser keeps of a link: 8 characters of the token's SHA-256.
    The session cookie is signed, not encrypted: it never holds the token
    itself, and 80 games fit in one cookie. (A replaced link's new token
    matching the old fingerprint: one chance in 2**48.)"""
    digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
    return base64.urlsafe_b64encode(digest[:6]).decode()


def _held(request: HttpRequest, game_id: object) -> str:
    """What this browser keeps for the game: a fingerprint (keyed by the
    id's hex), or, in a session from before fingerprints, the token."""
    rights = request.session.get(RIGHTS, {})
    key = game_id.hex if isinstance(game_id, UUID) else UUID(str(game_id)).hex
    return str(rights.get(key) or rights.get(str(UUID(key)), ""))


def role_of(request: HttpRequest, game: Tokens) -> Role | None:
    held = _held(request, game.pk)
    if len(held) != FINGERPRINT_LENGTH:
        return token_role(game, held)
    if secrets.compare_digest(held, fingerprint(game.edit_token)):
        return _edit_unless_locked(game)
    if secrets.compare_digest(held, fingerprint(game.view_token)):
        return "view"
    return None


FINGERPRINT_LENGTH = 8


def grant(request: HttpRequest, game: Game, token: str) -> None:
    rights = dict(request.session.get(RIGHTS, {}))
    rights.pop(str(game.pk), None)
    rights.pop(game.pk.hex, None)
    rights[game.pk.hex] = fingerprint(token)
    request.session[RIGHTS] = dict(list(rights.items())[-KEPT:])


def renew(request: HttpRequest, today: date) -> None:
    """Keep the browser's hold on its games for another cookie's age from
    ``today``: its session cookie is signed and sent again once a day, not
    with every page (signing it again took ~0.1 ms of a game page)."""
    if request.session.get(RENEWED) != today.isoformat():
        request.session[RENEWED] = today.isoformat()


def held_games(request: HttpRequest) -> list[str]:
    """The games this browser holds a link to, most recently opened last."""
    return [str(UUID(key)) for key in request.session.get(RIGHTS, {})]


def held_token(request: HttpRequest, game_id: object) -> str:
    """What this browser holds for the game, valid or not ("": nothing)."""
    return _held(request, game_id)


class LinksReplaced(Exception):
    """This browser held a link to the game, and the table replaced it."""


LOCKED = (
    "This league night is closed: its games only read now. "
    "An organizer can still correct a hand, with a reason."
)
REPLACED = "This game's links were replaced: ask the table for the new one."


def links_replaced(request: HttpRequest) -> HttpResponse:
    """410 Gone, in words, for a page or a poll (htmx swaps it over the
    page, and the poll stops, since the page it polls is gone)."""
    htmx = getattr(request, "htmx", False)
    template = "games/replaced.html" + ("#message" if htmx else "")
    response = render(request, template, {"message": REPLACED}, status=410)
    if htmx:
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "innerHTML"
    return response


def game_for(
    request: HttpRequest, game_id: UUID, *, edit: bool = False, correct: bool = False
) -> tuple[Game, Role]:
    """The game and this browser's role in it: 404 without one of its links
    (a game is never found by its id alone), 403 when a read-only link
    tries to change it (``correct``: a void or a correction, which an
    organizer may make to a closed night's game)."""
    game = game_row(game_id)
    if game is None:
        raise Http404("no such game")
    role = role_of(request, game)
    if role is None:
        if held_token(request, game.pk):
            raise LinksReplaced()
        raise Http404("no such game")
    if role == "view" and game.locked and overseer_of(request, game):
        role = "correct"
    if edit and not (role == "edit" or (correct and role == "correct")):
        if game.locked:
            raise PermissionDenied(LOCKED)
        raise PermissionDenied("this link only reads the game; it cannot change it")
    return game, role


@dataclass(frozen=True, slots=True)
class Overseer:
    """A capability that locks games (a league closes its nights) and may
    still change them: who may (``oversees``) and how a change is made
    (``change``: keyword arguments ``game``, ``user``, ``reason``, ``what``,
    ``append`` and ``now``). The capability hands one in when the app
    starts (``overseers.append``), so this platform never imports it."""

    oversees: Callable[[HttpRequest, Game], bool]
    change: Callable[..., Appended]


overseers: list[Overseer] = []


def overseer_of(request: HttpRequest, game: Game) -> Overseer | None:
    """Who oversees this locked game for the signed-in user, if anyone."""
    if not request.user.is_authenticated:
        return None
    return next((o for o in overseers if o.oversees(request, game)), None)


def no_index(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Middleware: shared game pages are not for search engines."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return middleware
