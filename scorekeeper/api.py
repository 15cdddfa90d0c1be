"""The JSON API: the same append path as the pages, for retry queues and
other tools. Authorised by a game's capability tokens (``Authorization:
Bearer ...``): the edit token may append, either token may read.

    POST /api/games/<id>/events   a pepper-log v1 event + expected_seq + id
        201 the new scoreboard (pepper-score v1); the same 201 for an id
            already recorded (answered as the first time, stored once)
        409 a stale expected_seq, with the current scoreboard
        422 the engine's refusal (or a malformed request), nothing written
        401 no or unknown token; 403 a read-only token; 503 busy: retry
    GET /api/games/<id>           the scoreboard, for either token
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .access import Role, token_role
from .eventstore import Busy, Conflict, Refused, append, load
from .gamelog import LogEntry, LogError, parse_entry, replay_log, score_document
from .models import Game
from .rules.engine import Scoreboard


def _error(status: int, message: str, **extra: Any) -> JsonResponse:
    response = JsonResponse({"error": message, **extra}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="pepper"'
    return response


def _role(request: HttpRequest, game: Game) -> Role | None:
    """What the request's bearer token may do (None: no valid token)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token_role(game, token.strip()) if scheme.lower() == "bearer" else None


def _score(board: Scoreboard, seq: int) -> dict[str, object]:
    return {**score_document(board), "seq": seq}


def _game(game_id: UUID) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


@require_GET
def game_score(request: HttpRequest, game_id: UUID) -> JsonResponse:
    game = _game(game_id)
    if game is None or not _role(request, game):
        return _error(401, "a valid edit or read-only token is needed")
    log = load(game)
    return JsonResponse(_score(replay_log(log), len(log.entries)))


@csrf_exempt  # authorised by the bearer token, not by a cookie
@require_POST
def game_events(request: HttpRequest, game_id: UUID) -> JsonResponse:
    game = _game(game_id)
    role = None if game is None else _role(request, game)
    if game is None or not role:
        return _error(401, "a valid edit token is needed")
    if role != "edit":
        return _error(403, "this link only reads the game; it cannot change it")
    try:
        body = json.loads(request.body)
    except ValueError:
        return _error(422, "the body must be a JSON object")
    if not isinstance(body, dict):
        return _error(422, "the body must be a JSON object")
    expected = body.pop("expected_seq", None)
    if type(expected) is not int or expected < 0:
        return _error(422, '"expected_seq" must be the number of events already seen')
    if not isinstance(body.get("id"), str) or not body["id"]:
        return _error(422, '"id" is needed, so that a retry is recorded once')
    try:
        entry = parse_entry(body, expected + 1)
    except LogError as refused:
        return _error(422, str(refused))
    stamped = LogEntry(
        entry.event, entry.id, timezone.now().isoformat(), entry.by, entry.note
    )
    try:
        appended = append(game, expected, stamped)
    except Conflict as conflict:
        log = load(game)
        return _error(
            409,
            f"the game is at event {conflict.current_seq}, not {expected}",
            current_seq=conflict.current_seq,
            score=_score(replay_log(log), len(log.entries)),
        )
    except Refused as refused:
        return _error(422, refused.message, remedy=refused.remedy)
    except Busy:
        response = _error(503, "the game is busy; send the same request again")
        response["Retry-After"] = "1"
        return response
    return JsonResponse(_score(appended.board, appended.seq), status=201)
