"""The app's URLs plus the anchors the web benchmarks compare against."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import urlpatterns as app_urls
from scorekeeper.models import GameEvent


def fifty_rows(request: HttpRequest) -> HttpResponse:
    """A plain Django page: 50 rows of a table, rendered by a template."""
    rows = GameEvent.objects.order_by("pk")[:50]
    return render(request, "bench/rows.html", {"rows": rows})


@csrf_exempt
def insert_one(request: HttpRequest) -> HttpResponse:
    """A plain Django write: one row inserted, a short answer."""
    first = GameEvent.objects.order_by("pk").first()
    assert first is not None
    GameEvent.objects.filter(pk=first.pk).update(recorded_by=request.POST.get("by", ""))
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
