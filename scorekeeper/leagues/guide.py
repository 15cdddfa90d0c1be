"""The organizers' guide as the league pages' *Help*: docs/organizers.md,
rendered from the same file the repository shows (its pictures are served
by the games' guide_image, beside each guide's page)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from scorekeeper.web.guides import guide_html

GUIDE = "organizers"


@require_GET
def organizer_guide(request: HttpRequest) -> HttpResponse:
    # The guide is the project's own file, not anyone's input.
    guide = mark_safe(guide_html(GUIDE))
    return render(
        request,
        "_guide.html",
        {"guide": guide, "topic": "running a club night"}
        | {"back": reverse("leagues"), "back_words": "Your leagues"},
    )
