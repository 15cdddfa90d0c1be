"""A create form sent twice is done once.

A double tap, or a resend after a slow answer, sends the same form again.
Actions with a natural key answer a repeat themselves (a name once per
league, a round by its number, a night closed already); the creates that
have none (a league, a season, an imported season) carry a one-time key in
a hidden field (``{% once_field %}``). ``once`` stores the key in the
action's own transaction: the second request with it waits for the first
(the key's unique index) and then answers where the first one went.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone

from scorekeeper.leagues.models import Submission

View = Callable[..., HttpResponse]
FIELD = "once"
_KEY = re.compile(r"[A-Za-z0-9_-]{22}")
KEPT = timedelta(days=1)  # a repeat comes within seconds; keys go after a day


def new_key() -> str:
    return secrets.token_urlsafe(16)


class _NotDone(Exception):
    """The action was refused (nothing changed): its key stays unused."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def once(view: View) -> View:
    """Decorator of a create view that redirects when done: a POST whose
    ``once`` key was done already is redirected where the first went."""

    @functools.wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = str(request.POST.get(FIELD, "")) if request.method == "POST" else ""
        user = request.user
        if not _KEY.fullmatch(key) or not isinstance(user, User):
            return view(request, *args, **kwargs)
        try:
            with transaction.atomic():
                if not _claim(key, user):
                    return _first_answer(request, key, view, *args, **kwargs)
                response = view(request, *args, **kwargs)
                if response.status_code not in (301, 302, 303):
                    raise _NotDone(response)
                answer = Submission.objects.filter(key=key)
                answer.update(answer=response["Location"])
                return response
        except _NotDone as refused:
            return refused.response

    return guarded


def _claim(key: str, user: User) -> bool:
    """Store the key (False: it is stored already, by a first request that
    has committed; PostgreSQL makes this insert wait for it)."""
    now = timezone.now()
    Submission.objects.filter(at__lt=now - KEPT).delete()
    try:
        with transaction.atomic():
            Submission.objects.create(key=key, user=user, at=now)
    except IntegrityError:
        return False
    return True


def _first_answer(
    request: HttpRequest, key: str, view: View, *args: Any, **kwargs: Any
) -> HttpResponse:
    done = Submission.objects.filter(key=key, user=request.user.pk).first()
    if done is None or not done.answer:  # not this organizer's key: no repeat
        return view(request, *args, **kwargs)
    return redirect(done.answer)
