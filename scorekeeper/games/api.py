"""The JSON API: the same append path as the pages, for retry queues and
other tools. Authorised by a game's capability tokens (``Authorization:
Bearer ...``): the edit token may append, either token may read.

    POST /api/games/<id>/events   a pepper-log v1 event + expected_seq + id
        201 where the game stands: the new event's ``seq``, the ``hand`` it
            set (pepper-score v1's hand, null for a void), ``totals``,
            ``status``, ``winners`` and ``next``; the whole scoreboard
            (pepper-score v1) under ``score`` only with ``?board=full``.
            The same 201 for an id already recorded with the same event
            (answered as the first time, stored once).
        409 a stale expected_seq (with ``current_seq`` and where the game
            stands), or an id already used by a different event
        422 the engine's refusal (or a malformed request), nothing written
        413 a body over 64 kB; 429 too many appends from this client
        401 no or unknown token; 403 a read-only token; 503 busy: retry
    GET /api/games/<id>           the scoreboard, for either token
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.eventstore import Busy, Conflict, IdTaken
from scorekeeper.gamelog import LogEntry, LogError, parse_entry, read_json, replay_log
from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log
from scorekeeper.recording import Appended, Refused, event_append
from scorekeeper.rules.engine import Scoreboard, Snapshot, snapshot_of
from scorekeeper.score_document import hand_document, score_document, turn_document
from scorekeeper.web.access import Role, token_role
from scorekeeper.web.limits import rate_limited

MAX_BODY = 64_000  # one event and its envelope: a few hundred bytes


def _error(code: int, message: str, /, **extra: Any) -> JsonResponse:
    response = JsonResponse({"error": message, **extra}, status=code)
    if code == 401:
        response["WWW-Authenticate"] = 'Bearer realm="pepper"'
    return response


def _role(request: HttpRequest, game: Game) -> Role | None:
    """What the request's bearer token may do (None: no valid token)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token_role(game, token.strip()) if scheme.lower() == "bearer" else None


def _score(board: Scoreboard, seq: int) -> dict[str, object]:
    return {**score_document(board), "seq": seq}


def _standing(state: Snapshot, full: Scoreboard | None) -> dict[str, object]:
    """Where the game stands after event ``state.seq``: the hand that event
    set (None for a void), the totals and what comes next, all from the
    engine's state (no replay); not every hand's explanation, which a long
    game makes large and slow; the whole scoreboard under ``score`` when
    ``full`` is given."""
    result = state.hand_set
    standing: dict[str, object] = {
        "seq": state.seq,
        "hand": None if result is None else hand_document(state, result),
        "totals": list(state.totals),
        "status": state.status,
        "winners": list(state.winners),
        "next": turn_document(state.next),
    }
    if full is not None:
        standing["score"] = _score(full, state.seq)
    return standing


def _game(game_id: UUID) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


@require_GET
def game_score(request: HttpRequest, game_id: UUID) -> JsonResponse:
    game = _game(game_id)
    if game is None or not _role(request, game):
        return _error(401, "a valid edit or read-only token is needed")
    log = game_log(game)
    return JsonResponse(_score(replay_log(log), len(log.entries)))


@csrf_exempt  # authorised by the bearer token, not by a cookie
@require_POST
@rate_limited("append")
def game_events(request: HttpRequest, game_id: UUID) -> JsonResponse:
    game = _game(game_id)
    role = None if game is None else _role(request, game)
    if game is None or not role:
        return _error(401, "a valid edit token is needed")
    if role != "edit":
        return _error(403, "this link only reads the game; it cannot change it")
    if _too_large(request):
        return _error(
            413, f"the body is too large: one event is at most {MAX_BODY // 1000} kB"
        )
    try:
        body = read_json(request.body)
    except LogError as refused:
        return _error(422, f"the body must be a JSON object: {refused.message}")
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
    full = request.GET.get("board") == "full"
    try:
        appended = event_append(game=game, expected_seq=expected, entry=stamped)
    except (Conflict, IdTaken) as error:
        return _conflict(game, error, expected, full)
    except Refused as refused:
        return _error(422, refused.message, remedy=refused.remedy)
    except Busy:
        response = _error(503, "the game is busy; send the same request again")
        response["Retry-After"] = "1"
        return response
    return _created(appended, full)


def _too_large(request: HttpRequest) -> bool:
    length = request.META.get("CONTENT_LENGTH") or "0"
    return not length.isascii() or not length.isdigit() or int(length) > MAX_BODY


def _created(appended: Appended, full: bool) -> JsonResponse:
    board = appended.board if full else None
    return JsonResponse(_standing(appended.state, board), status=201)


def _conflict(
    game: Game, error: Conflict | IdTaken, expected: int, full: bool
) -> JsonResponse:
    log = game_log(game)
    seq = len(log.entries)
    if isinstance(error, IdTaken):
        message = (
            f"id {error.event_id!r} is already used by event {error.seq}, "
            "for a different event: nothing was written; send a new id"
        )
    else:
        message = f"the game is at event {seq}, not {expected}"
    board = replay_log(log)
    standing = _standing(snapshot_of(board, seq), board if full else None)
    return _error(409, message, current_seq=seq, **standing)
