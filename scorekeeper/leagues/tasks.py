"""Work that must not run in a request: a league's ratings brought up to
date after a change, run by the task worker (`manage.py db_worker`, the
django-tasks-db backend of Django's Tasks framework; `make run` starts it
beside the web server).

Every write that moves what the ratings read (a night's rows summed
again: a game finished or corrected, a substitute credited, a merge, an
import; a season deleted) asks for it when it commits (``ratings_ask``).
A page reads only whether the ratings are current (``ratings_current``)
and, while they are not, shows them as of the last rated game and says
so. A correction of an early game re-rates every game after it: that is
the worker's, never a page view's or the correction's own POST.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.leagues.models import League, Night
from scorekeeper.leagues.rated_games import ratings_refresh, ratings_version

# Rounds of rating a task does while changes keep landing; past them, the
# task of the latest change (queued at its commit) carries on.
ROUNDS = 5
# A task "running" for longer was left by a worker stopped in its middle
# (a league's whole re-rating takes seconds).
STUCK = timedelta(minutes=10)


@task()
def ratings_bring_up_to_date(league_id: int) -> int:
    """Bring the league's ratings up to date, then look again: a change
    committed while they were being redone moved its night's revision
    after it was read, and is taken in by the next round. Enqueued many
    times (a correction, then another), the work is done once per change:
    a task that finds the ratings current does one query and nothing
    else, and two at once take their turns on the league row
    (``ratings_refresh``). Returns how many games were (re)rated."""
    rated = 0
    for _ in range(ROUNDS):
        league = League.objects.filter(pk=league_id).first()
        if league is None or ratings_version(league) == league.rated_version:
            break  # current (or the league is gone)
        rated += ratings_refresh(league)
    return rated


def nights_moved(*, nights: list[int], **_: object) -> None:
    """``night_rows.nights_moved``'s receiver: each league of the nights
    asks for its ratings (one query finds the leagues)."""
    leagues = Night.objects.filter(pk__in=nights).values_list("season__league")
    for (league,) in leagues.distinct():
        ratings_ask(league_id=league)


def ratings_ask(*, league_id: int) -> None:
    """Ask the worker to bring the league's ratings up to date once the
    caller's transaction commits (at once outside one): one row queued,
    whatever the change."""
    transaction.on_commit(partial(ratings_bring_up_to_date.enqueue, league_id))


def ratings_current(league: League) -> bool:
    """Whether ``league``'s ratings take in every change to its games (one
    small query of its nights). Nothing is rated here: a page that finds
    them behind shows them as of the last rated game and says they are
    being brought up to date. Every change asks the worker when it
    commits; should none be waiting or running for the league (a change
    whose task was lost), the page asks: a read, and a write only then. A
    backend that runs the task at once (the tests') has done it by the
    answer."""
    version = ratings_version(league)
    if version == league.rated_version:
        return True
    if _waiting(league.pk):
        return False
    done = ratings_bring_up_to_date.enqueue(league.pk)
    if done.status != TaskResultStatus.SUCCESSFUL:
        return False
    league.refresh_from_db(fields=["rated_version", "roster_version"])
    return ratings_version(league) == league.rated_version


def _waiting(league_id: int) -> bool:
    """Whether a task for the league's ratings waits, or runs since less
    than ``STUCK`` (a worker stopped in the middle of one leaves it
    "running" for ever): a read, so a page never waits for the worker."""
    running = Q(status=TaskResultStatus.RUNNING, started_at__gte=timezone.now() - STUCK)
    return DBTaskResult.objects.filter(
        Q(status=TaskResultStatus.READY) | running,
        task_path=ratings_bring_up_to_date.module_path,
        args_kwargs={"args": [league_id], "kwargs": {}},
    ).exists()
