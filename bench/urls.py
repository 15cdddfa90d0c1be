"""The app's URLs plus the anchors the web benchmarks compare against."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from config.urls import urlpatterns as app_urls
from scorekeeper.models import GameEvent


def fifty_rows(request: HttpRequest) -> HttpResponse:
    """A plain Django page: 50 rows of a table, rendered by a template."""
    rows = GameEvent.objects.order_by("pk")[:50]
    return render(request, "bench/rows.html", {"rows": rows})


def insert_one(request: HttpRequest) -> HttpResponse:
    """A plain Django write, the save's anchor: one row INSERTed into the
    table a save writes (the next event of the game named), a short answer.
    CSRF-checked and through every middleware, as a save is."""
    GameEvent.objects.create(
        game_id=request.POST["game"],
        seq=int(request.POST["seq"]),
        event_id=request.POST["by"],
        type="note",
        payload={"by": request.POST["by"]},
        recorded_at=timezone.now(),
    )
    return HttpResponse("ok", status=201)


def hello(request: HttpRequest) -> HttpResponse:
    """The least a Django view can do: the anchor for the poll."""
    return HttpResponse("hello")


urlpatterns = [
    path("bench/hello", hello),
    path("bench/rows", fifty_rows),
    path("bench/write", insert_one),
    *app_urls,
]
