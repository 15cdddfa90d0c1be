"""Issue 38's figures: no league-wide work inside a request.

A correction in night 1 of the big season (10,000 games: every game after
it must be rated again) beside one in its last night: the correction's
own POST (an organizer voids the game's last hand, as on a closed night),
then the first view of the season page, or of a player's page, after it.
The re-rating is the task worker's (``tasks.ratings_bring_up_to_date``,
run here by the real ``db_worker`` command between views, and timed
apart): a page shows the ratings as of the last rated game and says they
are being brought up to date. After each view the hand is saved again
(the game finished again), and the worker runs, so that every correction
meets a league whose ratings are current, as a quiet league's are.

Targets: each first view after the night-1 correction at most 2x the
same view after the last-night correction; the correction's POST under
100 ms on a quiet machine. Medians of ``RUNS``, CPU beside wall time.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable
from typing import NamedTuple

from django.core.management import call_command
from django.http.response import HttpResponseBase
from django.test import Client
from django.utils import timezone

from bench.desk import table_hand
from bench.web import cpu_seconds, server_seconds
from scorekeeper.games import services as game_services
from scorekeeper.leagues.models import Night, Season, Table
from scorekeeper.models import Game

RUNS = 5


def played_game(table: Table) -> Game:
    """``table``'s bulk-made game (a row without a log) replaced by one
    played hand by hand to its end, so that a correction has a log to
    replay: its night must be summed again afterwards."""
    names = [seat.player.name for seat in table.seats.order_by("position")]
    old = table.game
    game = game_services.game_create(
        preset="classic", seats=names, first_dealer=0, now=timezone.now()
    )
    while not game.finished:
        table_hand(game)
    Table.objects.filter(pk=table.pk).update(game=game)
    Game.objects.filter(pk=old.pk).delete()
    return game


def first_table(night: Night) -> Table:
    return Table.objects.get(round__night=night, round__number=1, number=1)


def run_worker() -> float:
    """The real worker over what waits (the correction's task); seconds."""
    start = time.perf_counter()
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0
    )
    return time.perf_counter() - start


class Timed(NamedTuple):
    seconds: float
    cpu: float


def _request(client: Client, send: Callable[[], HttpResponseBase]) -> Timed:
    response = send()
    assert response.status_code in (200, 302), response.status_code
    return Timed(server_seconds(client), cpu_seconds(client, 1)[0])


def first_view(client: Client, url: str) -> Timed:
    """``url``'s first view after a correction: it rates nothing and says
    the ratings are being brought up to date."""
    response = client.get(url)
    assert "being brought up to date" in response.content.decode()
    return Timed(server_seconds(client), cpu_seconds(client, 1)[0])


def correct(client: Client, game: Game, number: int) -> Timed:
    """The organizer voids the game's last hand (a correction of a closed
    night's game, with its reason), through the page's form."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    last = max(map(int, re.findall(r"/hands/(\d+)/void", page)))
    game.refresh_from_db()
    data = {
        "expected_seq": game.last_seq,
        "event_id": f"late-{game.pk}-{number}",
        "reason": "scored on the wrong table",
        "by": "desk",
    }
    csrf = {"X-CSRFToken": client.cookies["csrftoken"].value}
    timed = _request(
        client,
        lambda: client.post(f"/games/{game.pk}/hands/{last}/void", data, headers=csrf),
    )
    game.refresh_from_db()
    assert not game.finished, "the void was not stored"
    return timed


class Views(NamedTuple):
    """A night's correction, measured: its POSTs, the first views after
    them, and the worker's re-rating after each."""

    posts: list[Timed]
    season: list[Timed]
    player: list[Timed]
    worker: list[float]


def measure(client: Client, season: Season, game: Game) -> Views:
    player = game.table.seats.get(position=0).player
    pages = {"season": f"/seasons/{season.pk}/", "player": f"/players/{player.pk}/"}
    client.get(f"/join/{game.edit_token}")
    found = Views([], [], [], [])
    for _ in range(RUNS):
        for which, url in pages.items():
            found.posts.append(correct(client, game, len(found.posts)))
            getattr(found, which).append(first_view(client, url))
            found.worker.append(run_worker())
            table_hand(game)  # finished again
            run_worker()
    return found


def _median(times: list[Timed]) -> tuple[float, float]:
    ms = 1000
    return ms * statistics.median(t.seconds for t in times), ms * statistics.median(
        t.cpu for t in times
    )


def report(client: Client, season: Season, early: Game, late: Game) -> None:
    """Issue 38's figures, each beside its target."""
    nights = {"night 1": measure(client, season, early)}
    nights["the last night"] = measure(client, season, late)
    print(
        f"issue 38, a correction's first views ({season.nights.count()} nights, "
        f"medians of {RUNS}; server time, CPU in brackets):"
    )
    for name, views in nights.items():
        post, post_cpu = _median(views.posts)
        season_ms, season_cpu = _median(views.season)
        player_ms, player_cpu = _median(views.player)
        print(
            f"  correction in {name:14} POST {post:6.1f} ms (CPU {post_cpu:5.1f})   "
            f"first season view {season_ms:6.1f} ms (CPU {season_cpu:5.1f})   "
            f"first player view {player_ms:6.1f} ms (CPU {player_cpu:5.1f})   "
            f"worker's re-rating {statistics.median(views.worker):5.2f} s"
        )
    early_views, late_views = nights["night 1"], nights["the last night"]
    for label, which in (("season", "season"), ("player", "player")):
        ratio = (
            _median(getattr(early_views, which))[0]
            / _median(getattr(late_views, which))[0]
        )
        cpu = (
            _median(getattr(early_views, which))[1]
            / _median(getattr(late_views, which))[1]
        )
        verdict = "met" if ratio <= 2 else "NOT met"
        print(
            f"  first {label} view, night-1 / last-night correction: {ratio:4.2f}x "
            f"(CPU {cpu:4.2f}x)   target <= 2x: {verdict}"
        )
    post = _median(early_views.posts)[0]
    verdict = "met" if post < 100 else "NOT met"
    print(
        f"  the night-1 correction's POST p50 {post:6.1f} ms   "
        f"target < 100 ms: {verdict}"
    )
