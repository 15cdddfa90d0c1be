"""Work that must not run in a request: a league's ratings brought up to
date after a change, run by the worker (`manage.py db_worker`, the
django-tasks-db backend of Django's Tasks framework; `make run` starts it
beside the web server).

A change to a finished game asks for it when it commits
(``ratings_ask``); a page that finds the ratings behind asks too, once per
version however many pages look (``ratings_current``), and shows the
ratings as of the last rated game meanwhile, saying so. A correction of
an early game re-rates every game after it: that is the worker's, never a
page view's or the correction's own POST.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.tasks import TaskResultStatus, task

from scorekeeper.leagues.models import League, Table
from scorekeeper.leagues.rated_games import ratings_refresh, ratings_version
from scorekeeper.models import Game

# Rounds of rating a task does while changes keep landing; past them, the
# task of the latest change (queued at its commit) carries on.
ROUNDS = 5


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
            break  # gone meanwhile (a league is never deleted today), or current
        rated += ratings_refresh(league)
    return rated


def ratings_ask(*, league_id: int) -> None:
    """Ask the worker to bring the league's ratings up to date once the
    caller's transaction commits (at once outside one): one row queued,
    whatever the change."""
    transaction.on_commit(partial(ratings_bring_up_to_date.enqueue, league_id))


def game_row_rated(game: Game, was_finished: bool) -> None:
    """An append moved ``game``'s row (``eventstore.row_watchers``): a
    league game that is finished, or was, asks for its league's ratings
    once the append commits (one query finds the league; a hand at a game
    still being played rates nothing)."""
    if not (was_finished or game.finished):
        return
    tables = Table.objects.filter(game=game)
    league = tables.values_list("round__night__season__league", flat=True).first()
    if league is not None:
        ratings_ask(league_id=league)


def ratings_current(league: League) -> bool:
    """Whether ``league``'s ratings take in every change to its games (one
    small query). When they do not, the worker is asked to bring them up to
    date, once per version (a page views's one-row update decides who
    asks), and nothing is rated here: the page shows the ratings as of the
    last rated game and says they are being brought up to date. A backend
    that runs the task at once (the tests') has done it by the answer."""
    version = ratings_version(league)
    if version == league.rated_version:
        return True
    unasked = League.objects.filter(pk=league.pk).exclude(rating_asked=version)
    if unasked.update(rating_asked=version):
        done = ratings_bring_up_to_date.enqueue(league.pk)
        if done.status == TaskResultStatus.SUCCESSFUL:
            league.refresh_from_db(fields=["rated_version", "roster_version"])
            return ratings_version(league) == league.rated_version
    return False
