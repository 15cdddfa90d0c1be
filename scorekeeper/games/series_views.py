"""A series' pages: the next game started with one tap, another game of
the series opened from this one, the recap of a game (and its series),
and the series' games as one download."""

from __future__ import annotations

from uuid import UUID

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import tablewords
from scorekeeper.games import presenters, services
from scorekeeper.games.forms import ChosenKeys
from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.refusals import sentence
from scorekeeper.web import access
from scorekeeper.web.limits import rate_limited

from .pages import game_page
from .recap_words import recap_context
from .series import series_of
from .series_words import winner_line

SERIES_FORMAT = {"format": "pepper-series", "version": 1}
STOP_POLLING = 286  # htmx stops an "every" poll answered so


@require_POST
@rate_limited("game_create")
def series_next(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """ "Start game 3": the series' next game, made once (the form chose its
    id and edit link: a double tap, or two phones at once, open one game);
    this phone may edit it, as it may edit this one."""
    game, _ = access.game_for(request, game_id, edit=True)
    keys = ChosenKeys(request.POST)
    chosen = keys.chosen() if keys.is_valid() else (None, None)
    try:
        following = services.series_next(
            game=game, game_id=chosen[0], edit_token=chosen[1], now=timezone.now()
        )
    except services.SetupError as refused:
        log = game_log(game)
        message = f"The next game was not started: {sentence(refused.message)}"
        return game_page(
            request, game, log, scoreboard(game.pk, log), message=message, status=409
        )
    access.grant(request, following, following.edit_token)
    return redirect("game", game_id=following.pk)


@require_GET
def series_game(request: HttpRequest, game_id: UUID, number: int) -> HttpResponse:
    """Game ``number`` of this game's series, opened with this phone's
    right in this game (a phone at the table follows the table to the next
    game; a read-only link stays read-only). ``?to=recap``: its recap."""
    game, role = access.game_for(request, game_id)
    state = series_of(game)
    if state is None or not 1 <= number <= len(state.games):
        raise Http404("this series has no such game")
    other = state.games[number - 1]
    held = access.role_of(request, other)
    if held is None or (held == "view" and role == "edit"):  # never less
        token = other.edit_token if role == "edit" else other.view_token
        access.grant(request, other, token)
    pages = {"recap": "game_recap", "tv": "game_tv"}
    return redirect(pages.get(request.GET.get("to", ""), "game"), game_id=other.pk)


@require_GET
def series_tv_next(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A series game's TV asks whether the table has started the next game:
    204 until it has, then htmx is sent to that game's TV (with the right
    the TV has in this one), so the room follows the table; 286 (htmx's
    "stop polling") once there is nothing to follow: no series, or one
    that is over."""
    game, _ = access.game_for(request, game_id)
    state = series_of(game)
    following = None if state is None else state.after(game.pk)
    if state is None or (following is None and state.standing.over):
        return HttpResponse(status=STOP_POLLING)
    if following is None:
        return HttpResponse(status=204)
    number = state.number_of(following.pk)
    response = HttpResponse(status=204)
    response["HX-Redirect"] = reverse("series_game", args=[game.pk, number]) + "?to=tv"
    return response


@require_GET
def game_recap(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The table's recap: each player's game, the biggest swing, the hand
    that decided it, the awards and the chart; the series' too."""
    game, role = access.game_for(request, game_id)
    log = game_log(game)
    board = tablewords.board_now(scoreboard(game.pk, log), presenters.takeovers(game))
    context = recap_context(game, log, board, series_of(game))
    if role == "edit":
        context["share_url"] = request.build_absolute_uri(
            reverse("join_recap", args=[game.view_token])
        )
    return render(request, "games/recap.html", context)


@require_GET
@rate_limited("join", methods=("GET",))
def join_recap(request: HttpRequest, token: str) -> HttpResponse:
    """The recap's shared link: the game's read-only (or edit) link, which
    opens the recap instead of the game page."""
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if game is None:
        raise Http404("this link is not (or no longer) a game's")
    access.grant(request, game, token)
    return redirect("game_recap", game_id=game.pk)


@require_GET
def series_log(request: HttpRequest, game_id: UUID) -> JsonResponse:
    """The series as one document (pepper-series v1): its rule, where it
    stands, and each game's own pepper-log v1 document, unchanged (each
    imports, replays and verifies as the game's own log.json)."""
    game, _ = access.game_for(request, game_id)
    state = series_of(game)
    if state is None:
        raise Http404("this game is not part of a series")
    document = {
        **SERIES_FORMAT,
        "rule": state.rule.code,
        "sides": list(state.names),
        "wins": list(state.standing.wins),
        "winners": list(state.standing.winners),
        "result": winner_line(state.names, state.standing),
        "games": [services.game_export(game=each) for each in state.games],
    }
    response = JsonResponse(document, json_dumps_params={"indent": 1})
    if request.GET.get("download"):
        day = state.series.created_at.date().isoformat()
        response["Content-Disposition"] = (
            f'attachment; filename="pepper-series-{day}.json"'
        )
    return response
