"""The players' guide as the table's *Help*: docs/players.md, rendered
from the same file the repository shows, with its pictures (served here
for every guide of the app)."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from scorekeeper.web.guides import guide_html, guide_picture

GUIDE = "players"


@require_GET
def player_guide(request: HttpRequest) -> HttpResponse:
    # The guide is the project's own file, not anyone's input.
    guide = mark_safe(guide_html(GUIDE))
    return render(
        request,
        "_guide.html",
        {"guide": guide, "topic": "scoring a game"}
        | {"back": reverse("home"), "back_words": "Start page"},
    )


@require_GET
def guide_image(request: HttpRequest, name: str) -> FileResponse:
    path = guide_picture(f"{name}.png")
    if path is None:
        raise Http404("no such picture in the guide")
    response = FileResponse(path.open("rb"), content_type="image/png")
    response["Cache-Control"] = "max-age=3600"
    return response
