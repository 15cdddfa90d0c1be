"""The room's TV without the organizer's sign-in: a read-only link to one
night's TV page, made, replaced and revoked as the season's public
standings link is (``services.season_link_new``); and the last round's
option that hides the totals on it."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from scorekeeper.leagues.models import Night
from scorekeeper.models import new_token
from scorekeeper.web.qr import qr_code


def night_tv_link_new(*, night: Night) -> str:
    """A new read-only TV link for the night; any earlier one stops working
    at once (a TV still showing it gets a 404 at its next look)."""
    night.tv_token = new_token()
    night.save(update_fields=["tv_token"])
    return night.tv_token


def night_tv_link_revoke(*, night: Night) -> None:
    night.tv_token = None
    night.save(update_fields=["tv_token"])


def night_tv_totals_hide(*, night: Night, hidden: bool) -> None:
    """Hide the totals on the TV (the tables' scores and the standings) for
    the last round, or show them again; closing the night shows them."""
    night.tv_totals_hidden = hidden
    night.save(update_fields=["tv_totals_hidden"])


def totals_hidden(night: Night) -> bool:
    """Whether the TV hides the totals now: asked for, and the night open."""
    return night.tv_totals_hidden and night.closed_at is None


def tv_link(request: HttpRequest, night: Night) -> dict[str, str]:
    """The night's TV link and its QR code, if it has one."""
    if not night.tv_token:
        return {}
    link = request.build_absolute_uri(reverse("tv_by_link", args=[night.tv_token]))
    return {"tv_link": link, "tv_qr": qr_code(link)}
