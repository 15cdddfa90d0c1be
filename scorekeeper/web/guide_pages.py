"""The guides in docs/ as the app's *Help*: the players' guide (the start
page's and each game page's) and the organizers' guide (the league
pages'), rendered from the same files the repository shows, with their
pictures served beside them (web/guides.py renders them)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from scorekeeper.web.guides import guide_html, guide_picture


def guide_view(
    *, name: str, topic: str, back: str, back_words: str
) -> Callable[[HttpRequest], HttpResponse]:
    """The page of docs/<name>.md, titled "Help: <topic>", with a way back
    (``back``: a URL name) to where its readers come from."""

    @require_GET
    def guide(request: HttpRequest) -> HttpResponse:
        # The guide is the project's own file, not anyone's input.
        context = {"guide": mark_safe(guide_html(name)), "topic": topic}
        context |= {"back": reverse(back), "back_words": back_words}
        return render(request, "_guide.html", context)

    return guide


player_guide = guide_view(
    name="players", topic="scoring a game", back="home", back_words="Start page"
)
organizer_guide = guide_view(
    name="organizers",
    topic="running a club night",
    back="leagues",
    back_words="Your leagues",
)


@require_GET
def guide_image(request: HttpRequest, name: str) -> FileResponse:
    path = guide_picture(f"{name}.png")
    if path is None:
        raise Http404("no such picture in the guide")
    response = FileResponse(path.open("rb"), content_type="image/png")
    response["Cache-Control"] = "max-age=3600"
    return response
