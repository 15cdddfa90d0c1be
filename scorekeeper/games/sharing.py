"""A game's links and logs: opening a shared link, replacing the links,
importing a log, and the log and score as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from uuid import UUID

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper import tablewords
from scorekeeper.gamelog import (
    GameLog,
    LogError,
    event_document,
    log_document,
    replay_log,
)
from scorekeeper.games import presenters, services
from scorekeeper.games.forms import ImportForm, LinksForm
from scorekeeper.models import Game, new_token
from scorekeeper.projections import boards
from scorekeeper.refusals import Refusal, ordinal, players_words
from scorekeeper.score_document import score_document
from scorekeeper.tablewords import whole_number
from scorekeeper.web import access
from scorekeeper.web.limits import rate_limited
from scorekeeper.web.qr import qr_code


@require_http_methods(["GET", "POST"])
@rate_limited("import")
def game_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error, earlier = Refusal(""), None
    if request.method == "POST" and form.is_valid():
        try:
            document = form.document()
            if request.POST.get("again") != "1":
                earlier = _imported_before(request, document)
            if earlier is None:
                game_id, edit_token = form.chosen()
                game = services.game_import(
                    document=document,
                    game_id=game_id,
                    edit_token=edit_token,
                    now=timezone.now(),
                )
        except LogError as refused:
            error = _refused_log(refused, "The log was not imported")
        except services.SetupError as refused:
            error = Refusal(f"The log was not imported: {refused.message}.")
        else:
            if earlier is None:
                access.grant(request, game, game.edit_token)
                return redirect("game", game_id=game.pk)
            form = ImportForm(initial={"text": document.decode(errors="replace")})
    return render(
        request,
        "games/game_import.html",
        {"form": form, "error": error, "earlier": earlier},
        status=422 if error else 200,
    )


def _refused_log(refused: LogError, outcome: str) -> Refusal:
    """A refused log in a player's words: what happened, which of its
    events (counted, as a person reading the file would), and why."""
    said = players_words(refused.message, refused.remedy)
    where = (
        "."
        if refused.event is None
        else f": its {ordinal(refused.event)} event is refused."
    )
    return Refusal(f"{outcome}{where} {said.text}", said.rule)


def _imported_before(request: HttpRequest, document: bytes) -> Game | None:
    """A game this browser holds that was imported from the same log."""
    digest = services.log_digest(document)
    held = Game.objects.filter(import_digest=digest, pk__in=access.held_games(request))
    return next((game for game in held if access.role_of(request, game)), None)


@require_GET
def game_log(request: HttpRequest, game_id: UUID) -> JsonResponse:
    """The stored log; ``?download=1`` saves it as a file (a phone would
    otherwise only show it as text)."""
    game, _ = access.game_for(request, game_id)
    response = JsonResponse(
        services.game_export(game=game), json_dumps_params={"indent": 1}
    )
    if request.GET.get("download"):
        day = game.created_at.date().isoformat()
        response["Content-Disposition"] = f'attachment; filename="pepper-{day}.json"'
    return response


@require_GET
def game_offline(request: HttpRequest, game_id: UUID) -> JsonResponse:
    """What a phone keeps to score with no connection: the stored log and
    who plays which seat from which hand (a league's substitutes), so the
    phone names the players its page names. ``?after=N``: a phone holding
    the log's first N events is sent only the events after them (the log
    only grows), so keeping a phone in step costs what changed."""
    game, _ = access.game_for(request, game_id)
    log = boards.game_log(game)
    after = whole_number(request.GET.get("after", ""))
    takeovers = presenters.takeovers(game)
    if after is None or not 0 < after <= len(log.entries):
        whole = [list(change) for change in takeovers]
        return JsonResponse({"log": log_document(log), "takeovers": whole})
    return JsonResponse(_events_after(log, after, takeovers))


def _events_after(
    log: GameLog, after: int, takeovers: Sequence[tablewords.Takeover]
) -> dict[str, object]:
    """What is new for a phone holding the log's first ``after`` events:
    ``offline.json?after=N``'s answer, and what a save or a poll carries."""
    return {
        "after": after,
        "events": [event_document(entry) for entry in log.entries[after:]],
        "takeovers": [list(change) for change in takeovers],
    }


HELD_SEQ = "HTTP_X_PEPPER_HAVE_SEQ"  # the phone: "my copy holds N events"
CARRIED = "X-Pepper-Events"  # the answer: the events after them
CARRIED_MAX = 2000  # characters: far behind, the phone asks offline.json


def carry_new_events(
    request: HttpRequest,
    response: HttpResponse,
    log: GameLog,
    takeovers: Sequence[tablewords.Takeover],
) -> None:
    """A save's or a poll's answer carries the events after those the
    phone says its copy holds (``X-Pepper-Have-Seq``), as
    ``offline.json?after=N`` would send them: the phone keeps its copy in
    step with no second request. Nothing is carried if the phone did not
    say, or is so far behind that the header would be long.

    A response header, not an out-of-band ``<script>`` part: the page's
    script reads it from the request's answer itself, whatever htmx swaps
    (``HX-Reswap: none``, a retarget) and in whichever order; nothing is
    left in the page to be read twice; no partial changes. JSON's ASCII
    escapes keep it Latin-1, as a header must be ("Łukasz" too); the cap
    keeps it well under a proxy's header buffer (nginx: 4 KB)."""
    have = whole_number(request.META.get(HELD_SEQ, ""))
    if have is None or have > len(log.entries):  # not this log: offline.json
        return
    text = json.dumps(_events_after(log, have, takeovers), separators=(",", ":"))
    if len(text) <= CARRIED_MAX:
        response[CARRIED] = text


@require_GET
def game_score(request: HttpRequest, game_id: UUID) -> JsonResponse:
    game, _ = access.game_for(request, game_id)
    board = replay_log(boards.game_log(game))
    return JsonResponse(score_document(board), json_dumps_params={"indent": 1})


@require_GET
@rate_limited("join", methods=("GET",))
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Open a shared link: the browser holds the game's edit or read-only
    right from now on (until the link is replaced)."""
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if game is None:
        raise Http404("this link is not (or no longer) a game's")
    access.grant(request, game, token)
    return redirect("game", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def links_replace(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """New edit and read-only links; the old ones stop working at once.
    GET asks first: every phone at the table will need the new link. The
    new links are chosen when the question is shown, so the same answer
    sent twice replaces them once, and its phone keeps the new edit link."""
    form = LinksForm(request.POST or None)
    chosen = form.chosen() if request.method == "POST" else None
    done = _replaced_by(game_id, chosen)
    if done is not None:  # this form replaced them already (sent twice)
        return _links_given(request, done)
    try:
        game, _ = access.game_for(request, game_id, edit=True)
    except access.LinksReplaced:
        done = _replaced_by(game_id, chosen)  # by this form, a moment ago?
        if done is None:
            raise
        return _links_given(request, done)
    if request.method == "GET":
        edit_token, view_token = new_token(), new_token()
        context = {"game": game, "edit_token": edit_token, "view_token": view_token}
        return render(request, "games/links_replace.html", context)
    if chosen is None:  # a page from before the links were chosen with it
        chosen = (new_token(), new_token())
    if not services.game_links_replace(
        game=game, held=game.edit_token, edit_token=chosen[0], view_token=chosen[1]
    ):
        game.refresh_from_db(fields=["edit_token", "view_token"])
        if not constant_time_compare(game.edit_token, chosen[0]):
            return access.links_replaced(request)  # another phone did it first
    return _links_given(request, game)


def _replaced_by(game_id: UUID, chosen: tuple[str, str] | None) -> Game | None:
    """The game, if its links are now the ones ``chosen`` (by this form)."""
    if chosen is None:
        return None
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not constant_time_compare(game.edit_token, chosen[0]):
        return None
    return game


LINKS_NEW = "links-new"  # the game page's next view opens its new links


def _links_given(request: HttpRequest, game: Game) -> HttpResponse:
    """The game page, its new links open and said to be new (once: a
    reload later shows them folded away, as before)."""
    access.grant(request, game, game.edit_token)
    messages.info(request, "New links made.", extra_tags=LINKS_NEW)
    return redirect(reverse("game", args=[game.pk]) + "#share")


def share_links(request: HttpRequest, game: Game) -> list[tuple[str, str, str]]:
    """(label, absolute link, QR code as an SVG data URI), edit link first."""
    links = []
    for label, token in (
        ("Edit link", game.edit_token),
        ("Read-only link", game.view_token),
    ):
        url = request.build_absolute_uri(reverse("join", args=[token]))
        links.append((label, url, qr_code(url)))
    return links
