"""The round clock: a round started with a length ends at a known time
(the desk and the TV count down to it), and, if the organizer asked, the
task worker calls it then, outside any request.

Starting such a round queues a task to run after its end (the
django-tasks-db backend keeps ``run_after``; its worker takes the task
once the time has come). ``python manage.py call_due_rounds`` does the
same for every round past its end, for a backend that cannot wait. A
round is called once, whoever comes first: the clock, the organizer, or
both at once (``rounds.round_call`` takes the night's lock and leaves a
called round as it is).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.tasks import task
from django.utils import timezone

from scorekeeper.leagues.models import Round, Table
from scorekeeper.leagues.rounds import round_call

# Who called a round whose time was up: the games' `end` events say so.
CLOCK = "the round clock"


def rounds_due(now: datetime) -> list[Round]:
    """The rounds past their end that the clock calls: asked to, not
    called, their night open, a game still unfinished."""
    open_game = Table.objects.filter(round=OuterRef("pk"), game__finished=False)
    return list(
        Round.objects.filter(
            auto_call=True,
            ends_at__lte=now,
            called_at__isnull=True,
            night__closed_at__isnull=True,
        )
        .filter(Exists(open_game))
        .select_related("night")
    )


def rounds_call_due(*, now: datetime, round_id: int | None = None) -> int:
    """Call the rounds whose time is up (only ``round_id``, if given);
    returns how many games were ended."""
    ended = 0
    for due in rounds_due(now):
        if round_id is None or due.pk == round_id:
            ended += round_call(round=due, by=CLOCK, now=now)
    return ended


@task()
def round_call_when_due(round_id: int) -> int:
    """The worker's call of a round at its end (queued to run after it);
    a round already called, or not yet due, is left as it is."""
    return rounds_call_due(now=timezone.now(), round_id=round_id)


def round_clock_ask(*, played: Round) -> None:
    """Queue the round's call for its end once the caller's transaction
    commits, when it is to be called automatically. A backend that cannot
    wait (``supports_defer``) queues nothing: ``call_due_rounds`` calls
    it then."""
    if not played.auto_call or played.ends_at is None or played.called_at:
        return
    if not round_call_when_due.get_backend().supports_defer:
        return
    later = round_call_when_due.using(run_after=played.ends_at)
    transaction.on_commit(partial(later.enqueue, played.pk))
