"""The game's live screens: the TV view, the chart alone, and the poll
that keeps every screen of a game fresh (with a note of what changed)."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scorekeeper import tablewords
from scorekeeper.gamerows import Head, game_row, head
from scorekeeper.games import fragments, presenters
from scorekeeper.projections.boards import game_log, scoreboard
from scorekeeper.tablewords import whole_number
from scorekeeper.web import access

from .outcomes import what_changed
from .parts import board_context, game_url_of, history_html, record_context
from .series_panel import series_context
from .sharing import carry_new_events
from .table import head_and_version
from .table_views import panel_answer, panel_html


@require_GET
def game_tv(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The score for a TV or a tablet: big totals and the last hands, kept
    live by the same poll as every game page (either link may watch)."""
    game, _ = access.game_for(request, game_id)
    log = game_log(game)
    played = scoreboard(game.pk, log)
    takers = presenters.takeovers(game)
    board = tablewords.board_now(played, takers)
    game_url = game_url_of(game.pk)
    context = {
        **board_context(game_url, log, board),
        "history_html": history_html(game_url, played, log, "view", takers=takers),
        "chart_html": fragments.chart_html(game_url, board, len(log.entries)),
        **series_context(game, role="view"),  # the room follows the series too
    }
    return render(request, "games/game_tv.html", context)


@require_GET
def game_chart(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """The score chart alone: a saved hand's answer loads it after the save
    (it sits below the form), so drawing it never slows a save down."""
    game, _ = access.game_for(request, game_id)
    log = game_log(game)
    # Named by who plays now, as the page's own chart.
    board = tablewords.board_now(scoreboard(game.pk, log), presenters.takeovers(game))
    game_url = game_url_of(game.pk)
    context = {"chart_html": fragments.chart_html(game_url, board, len(log.entries))}
    return render(request, "games/game_detail.html#chart", context)


@require_GET
def game_poll(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Has the game moved on since event ``seq`` (or its table since
    version ``v`` and the hand ``table_seq`` it was drawn for, on a page
    showing the table panel)? 204 if not (one indexed query); else the
    fresh score and history, swapped in out of band, a note of what
    changed, the record form for the next hand, and the table panel. If
    someone has touched this phone's form (``form=touched``), the new form
    replaces it too, with a note by its Save bar (and the page's script
    offers the entry back); else (``form=untouched``) it simply replaces
    it. One poll serves the score and the table: a page asks once every
    1.5 s, not once for each."""
    seen = whole_number(request.GET.get("seq", "")) or 0
    seen_version = whole_number(request.GET.get("v", ""))
    now: Head | None
    version: int | None = None
    if seen_version is None:  # a page with no table panel (the TV)
        now = head(game_id)
    else:
        found = head_and_version(game_id)
        now, version = (None, None) if found is None else found
    role = None if now is None else access.role_of(request, now)
    if now is None or role is None:
        if now is not None and access.held_token(request, now.pk):
            return access.links_replaced(request)
        return HttpResponse(status=404)
    if seen == now.last_seq:
        table_seq = whole_number(request.GET.get("table_seq", ""))
        if version is None or (
            version == seen_version and table_seq in (None, now.last_seq)
        ):
            return HttpResponse(status=204)
        # A seat taken, a call made, or a hand saved on this phone (its
        # answer moved the page on, not the panel).
        return panel_answer(request, game_id, role=role)
    game = game_row(game_id)  # plain SQL, as head: the poll is the hot path
    if game is None:  # deleted since head read it
        return HttpResponse(status=404)
    log = game_log(game)
    played = scoreboard(game.pk, log)
    takers = presenters.takeovers(game)
    board = tablewords.board_now(played, takers)
    game_url = game_url_of(game.pk)
    state = request.GET.get("form") if role == "edit" else None
    note = what_changed(log, board, min(seen, len(log.entries)))
    context = {
        **board_context(game_url, log, board),
        "history_html": history_html(game_url, played, log, role, takers=takers),
        "board_oob": True,
        "poller_oob": True,
        "note": note,
        "role": role,
        "record_state": state if state in ("touched", "untouched") else None,
        "chart_html": fragments.chart_html(game_url, board, len(log.entries)),
    }
    if state in ("touched", "untouched") and not board.finished:
        # A fresh form for the next hand, touched or not: at a table both
        # phones enter the same hand, so what this one had started was most
        # likely that hand. A touched one says so by its Save bar, and the
        # page's script offers the entry back ("a different hand").
        context.update(record_context(request, game, log, board), record_oob=True)
        if state == "touched":
            context["reaimed_note"] = (
                f"{note} This is a fresh form for hand {len(board.rows) + 1}."
            )
    if version is not None and not board.finished:  # the next hand's auction
        context["table_html"] = panel_html(request, game, board, role=role)
    elif version is not None:  # the game is over: no table (as on its page)
        context["table_gone"] = True
    if board.finished:  # the series' next game may start now
        context.update(series_context(game, role=role), series_oob=True)
    response = render(request, "games/game_detail.html#polled", context)
    carry_new_events(request, response, log, takers)
    return response
