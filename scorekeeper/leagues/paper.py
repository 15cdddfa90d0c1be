"""Paper score cards: every table's card to print, and the cards' hands
typed in by the organizer in one sitting (a table's card at a time,
stored whole or not at all)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.leagues.card_rows import Typed
from scorekeeper.leagues.cards import (
    MOST_ROWS,
    Card,
    CardRefused,
    card_record,
    cards_of,
)
from scorekeeper.leagues.models import Round, Table
from scorekeeper.leagues.substitutes import night_substitutions
from scorekeeper.leagues.tables import table_of
from scorekeeper.leagues.views import organizer
from scorekeeper.tablewords import whole_number


def _round_of(request: HttpRequest, round_id: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("night__season__league"),
        pk=round_id,
        night__season__league__organizers=organizer(request),
    )


def _cards(played: Round) -> list[Card]:
    """Every table's card of the round."""
    tables = played.tables.select_related("game").order_by("number")
    return cards_of(tables, night_substitutions(played.night))


def _card(table: Table) -> Card:
    """One table's card (the table read with its game)."""
    [one] = cards_of([table], night_substitutions(table.round.night))
    return one


@login_required
@require_GET
def card(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table's printable score card."""
    table = table_of(request, table_id)
    return _printed(request, table.round, [_card(table)])


@login_required
@require_GET
def cards(request: HttpRequest, round_id: int) -> HttpResponse:
    """Every table's card of a round, one to a page."""
    played = _round_of(request, round_id)
    return _printed(request, played, _cards(played))


def _printed(request: HttpRequest, played: Round, cards: list[Card]) -> HttpResponse:
    night = played.night
    context = {"round": played, "night": night, "league": night.season.league}
    return render(request, "leagues/cards.html", context | {"cards": cards})


@login_required
@require_GET
def enter(request: HttpRequest, round_id: int) -> HttpResponse:
    """The round's cards typed in, a table at a time."""
    played = _round_of(request, round_id)
    saved = whole_number(request.GET.get("saved", ""))
    entries = [
        _entry(each, saved="Saved." if each.table.pk == saved else "")
        for each in _cards(played)
    ]
    return _entry_page(request, played, entries)


def _entry_page(
    request: HttpRequest,
    played: Round,
    entries: list[dict[str, Any]],
    status: int = 200,
) -> HttpResponse:
    night = played.night
    context = {"round": played, "night": night, "tables": entries}
    return render(request, "leagues/enter.html", context, status=status)


def _entry(
    each: Card,
    *,
    typed: dict[int, Typed] | None = None,
    problems: dict[int, str] | None = None,
    message: str = "",
    saved: str = "",
) -> dict[str, Any]:
    """A table's part of the entry page: its grid's rows (what was typed,
    and each refused row's reason), and the card's message."""
    typed, problems = typed or {}, problems or {}
    rows = [
        {
            "number": line.number,
            "dealer": line.dealer,
            "forced": line.forced,
            "typed": typed.get(line.number, Typed()),
            "problem": problems.get(line.number, ""),
        }
        for line in each.lines
    ]
    shown = {line.number for line in each.lines}
    elsewhere = [f"Hand {n}: {why}" for n, why in problems.items() if n not in shown]
    message = " ".join([message, *elsewhere]).strip()
    return {"card": each, "rows": rows, "message": message, "saved": saved}


@login_required
@require_POST
def enter_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = table_of(request, table_id)
    first = whole_number(request.POST.get("first", "")) or 1
    count = min(whole_number(request.POST.get("count", "")) or 0, MOST_ROWS)
    typed = {
        number: Typed(*(request.POST.get(f"h{number}-{cell}", "") for cell in _CELLS))
        for number in range(first, first + count)
    }
    by = organizer(request).get_username()
    try:
        added = card_record(
            table=table,
            first=first,
            rows=list(typed.values()),
            by=by,
            now=timezone.now(),
        )
    except CardRefused as refused:
        return _refused(request, table, typed, refused)
    htmx = getattr(request, "htmx", False)
    if not htmx:
        url = reverse("card_entry", args=[table.round_id])
        return redirect(f"{url}?saved={table.pk}#card-{table.pk}")
    fresh = _card(table)
    said = f"Saved {added} hand{'s' if added != 1 else ''} of table {table.number}."
    return _table_part(request, _entry(fresh, saved=said))


_CELLS = ("bidder", "bid", "trump", "result")


def _refused(
    request: HttpRequest, table: Table, typed: dict[int, Typed], refused: CardRefused
) -> HttpResponse:
    """The card again with what was typed, each refused row's reason beside
    it: nothing of the table's card was stored."""
    fresh = _card(table)
    first = fresh.lines[0].number if fresh.lines else 0
    moved = {n: t for n, t in typed.items() if n >= first}
    part = _entry(fresh, typed=moved, problems=refused.rows, message=refused.message)
    if getattr(request, "htmx", False):
        return _table_part(request, part, status=422)
    played = table.round
    entries = [
        part if each.table.pk == table.pk else _entry(each) for each in _cards(played)
    ]
    return _entry_page(request, played, entries, status=422)


def _table_part(
    request: HttpRequest, entry: dict[str, Any], status: int = 200
) -> HttpResponse:
    context = {"entry": entry, "round": entry["card"].table.round}
    return render(request, "leagues/enter.html#table", context, status=status)
