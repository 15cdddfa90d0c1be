"""League benchmarks, each beside an anchor measured in the same run.

1. The season standings page of a season of 10,000 finished games (50
   hands each: 500,000 hands), server time, with its nights' tallies
   cached (as after any earlier view) and cold (after a restart: the
   process cache empty, each night's tallies read from its rows), and its
   first view after a change to a game of its last night (that night
   summed again in the change's transaction, as an append does). The game
   rows are made in bulk as a finished game's append leaves them, without
   the 500,000 hand events, which the pages never read.
2. A hand saved at a league table (its night's standings follow from the
   game's row) beside a hand saved in a game outside any league, and the
   night's standings computed after it.
3. The organizer's desk poll with nothing new beside a game's poll, and
   after a hand at one of 20 or 40 tables (``bench/desk.py``).
4. The league's ratings of the 10,000 games rebuilt from scratch, and the
   page of a player with about 500 of them.
5. Last, issue 22's league figures of this run beside their targets: the
   season page cold after a restart, the season and player pages' first
   views after a change; each with the CPU time its requests took (on a
   machine shared with other work, what the request itself cost).

    make bench        (or: .venv/bin/python bench/league.py)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.web import (  # noqa: E402  (sets up Django on a fresh SQLite file)
    long_game,
    phone,
    record_hands,
    server_seconds,
)

# isort: split
from bench.desk import report as desk_report  # noqa: E402
from bench.late_change import first_table, played_game, run_worker  # noqa: E402
from bench.late_change import report as late_report  # noqa: E402

# isort: split
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models import Count, F  # noqa: E402
from django.utils import timezone  # noqa: E402

from scorekeeper.leagues import rounds, services  # noqa: E402
from scorekeeper.leagues.models import (  # noqa: E402
    Night,
    Player,
    Round,
    Season,
    Seat,
    Table,
)
from scorekeeper.leagues.night_rows import game_row_moved, project_nights
from scorekeeper.leagues.rated_games import ratings_refresh  # noqa: E402
from scorekeeper.leagues.results import night_numbers, season_standings
from scorekeeper.leagues.screens import version as desk_version  # noqa: E402
from scorekeeper.models import Game  # noqa: E402

# 10,000 games, ~500 a player; LEAGUE_NIGHTS=10 for a smaller league (2,000).
NIGHTS = int(os.environ.get("LEAGUE_NIGHTS", 50))
ROUNDS, TABLES, PLAYERS = 20, 10, 80


def big_season(user: User) -> Season:
    now = timezone.now()
    league = services.league_create(name="Bench", organizer=user, now=now)
    players = [
        services.player_add(league=league, name=f"P{i:02}") for i in range(PLAYERS)
    ]
    season = services.season_create(
        league=league, name="Big", preset="classic", now=now
    )
    rng = random.Random(1)
    for n in range(NIGHTS):
        night = Night.objects.create(
            season=season,
            date=date(2026, 1, 1) + timedelta(days=7 * n),
            format=Night.PROGRESSIVE,
            closed_at=now,
            created_at=now,
        )
        for r in range(1, ROUNDS + 1):
            played = Round.objects.create(night=night, number=r, started_at=now)
            seated = rng.sample(players, 4 * TABLES)
            games = Game.objects.bulk_create(
                _finished_game(rng, [p.name for p in seated[4 * t : 4 * t + 4]], now)
                for t in range(TABLES)
            )
            tables = Table.objects.bulk_create(
                Table(round=played, number=t + 1, game=game)
                for t, game in enumerate(games)
            )
            Seat.objects.bulk_create(
                Seat(table=table, position=i, player=seated[4 * t + i])
                for t, table in enumerate(tables)
                for i in range(4)
            )
    return season


def _finished_game(rng: random.Random, names: list[str], now: datetime) -> Game:
    winner = rng.randrange(2)
    totals = [rng.randrange(0, 30), rng.randrange(0, 30)]
    totals[winner] = 32
    bids = [rng.randrange(8, 16) for _ in range(4)]
    made = [b - rng.randrange(0, 4) for b in bids]
    stats = [
        {
            "bids": {"3": [b - 1, m - 1], "moon": [1, 1]},
            "sets": rng.randrange(0, 5),
            "conceded": rng.randrange(0, 3),
            "run": "M" * m + "S" * (b - m),
            "best": rng.randrange(3, 15),
        }
        for b, m in zip(bids, made, strict=True)
    ]
    return Game(
        preset="classic",
        seats=names,
        first_dealer=0,
        created_at=now,
        updated_at=now,
        last_seq=50,
        hands_played=50,
        totals=totals,
        finished=True,
        winners=[winner],
        seat_bids=bids,
        seat_made=made,
        seat_stats=stats,
        locked=True,
    )


# The process's CPU time of each request timed by ``timed_gets`` (SQLite
# runs in the process): on a machine shared with other work, it says what
# the request itself cost, where the server time counts the waits too.
cpu: list[float] = []


def timed_gets(client: object, url: str, count: int, **extra: object) -> list[float]:
    times = []
    for _ in range(count):
        start = time.process_time()
        response = client.get(url, **extra)  # type: ignore[attr-defined]
        cpu.append(time.process_time() - start)
        times.append(server_seconds(client))  # type: ignore[arg-type]
        assert response.status_code in (200, 204), response.status_code
    return times


def cpu_of(timed: Callable[[], list[float]]) -> tuple[list[float], list[float]]:
    """``timed``'s server times and the CPU times of the same requests."""
    cpu.clear()
    times = timed()
    return times, list(cpu)


class Figure(NamedTuple):
    """One of issue 22's figures: its name, p50 server time and CPU time
    (ms), and its target (ms)."""

    name: str
    server: float
    cpu: float
    target: float

    def line(self) -> str:
        verdict = "met" if self.server < self.target else "NOT met"
        return (
            f"  {self.name:52} p50 {self.server:6.1f} ms (CPU {self.cpu:5.1f})"
            f"   target < {self.target:.0f} ms: {verdict}"
        )


def figure(name: str, times: list[float], cpus: list[float], target: float) -> Figure:
    ms = 1000
    return Figure(
        name, ms * statistics.median(times), ms * statistics.median(cpus), target
    )


def change(game: Game) -> float:
    """``game``'s log one longer, as a hand saved or voided leaves it: its
    row moved and, in the same transaction, its night's tallies summed
    again (as its projector in ``projections.registry`` does). Returns what the tallies
    added to the write, in seconds."""
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(last_seq=F("last_seq") + 1)
        game.refresh_from_db(fields=["last_seq"])
        start = time.perf_counter()
        game_row_moved(game, True)
        return time.perf_counter() - start


def first_views(
    client: object, url: str, game: Game, count: int = 9
) -> tuple[list[float], list[float], list[float]]:
    """``url``'s server time just after each of ``count`` changes to
    ``game``, the CPU time of those views, and what each change's tallies
    added to its write."""
    times, cpus, writes = [], [], []
    for _ in range(count):
        writes.append(change(game))
        timed, spent = cpu_of(lambda: timed_gets(client, url, 1))
        times += timed
        cpus += spent
        run_worker()  # the change rated outside the request, before the next
    return times, cpus, writes


def main() -> None:
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="bench passphrase")
    client = phone()
    client.force_login(user)
    started = time.perf_counter()
    season = big_season(user)
    # Night 1's and the last night's first games played hand by hand (the
    # rest are rows without a log): issue 38's corrections need a log.
    first_night, *_, last_night = season.nights.order_by("date")
    early = played_game(first_table(first_night))
    late = played_game(first_table(last_night))
    print(
        f"league (a season of {Game.objects.count():,} finished games, "
        f"built in {time.perf_counter() - started:.0f} s):"
    )
    # The bench made the game rows in bulk: their nights' tallies summed
    # once, as the games' writes (or ``rebuild``) leave them.
    start = time.perf_counter()
    project_nights(Night.objects.filter(season=season).values_list("pk", flat=True))
    print(
        f"  every night's tallies summed from the game rows (rebuild) "
        f"{time.perf_counter() - start:5.2f} s"
    )
    ratings_refresh(season.league)  # as the first view after the build did
    cold, cold_cpu = [], []
    for _ in range(5):  # a restart: the process cache empty, the rows kept
        cache.clear()
        timed, spent = cpu_of(lambda: timed_gets(client, f"/seasons/{season.pk}/", 1))
        cold += timed
        cold_cpu += spent
    figures = [figure("season page, cold cache after a restart", cold, cold_cpu, 150)]
    page = timed_gets(client, f"/seasons/{season.pk}/", 15)  # nights cached
    alone = []
    for _ in range(15):
        start = time.perf_counter()
        season_standings(season)
        alone.append(time.perf_counter() - start)
    ms = 1000
    print(
        f"  season standings page   p50 {ms * statistics.median(page):7.1f} ms   "
        "(target < 200 ms; each night's tallies cached under its version)"
    )
    print(f"    of which the standings p50 {ms * statistics.median(alone):7.1f} ms")
    print(
        f"    cold cache (after a restart) p50 {ms * statistics.median(cold):7.1f} ms   "
        f"(CPU {ms * statistics.median(cold_cpu):.1f} ms; "
        "target < 150 ms; each night's tallies read from its rows)"
    )

    # Ratings of the 10,000 games from scratch, then a player's page.
    rebuilds = []
    for _ in range(3):
        start = time.perf_counter()
        rated = ratings_refresh(season.league, rebuild=True)
        rebuilds.append(time.perf_counter() - start)
    print(
        f"  ratings rebuilt ({rated:,} games) p50 "
        f"{statistics.median(rebuilds):7.2f} s   (target < 5 s)"
    )
    busy = Player.objects.annotate(games=Count("seats")).order_by("-games")[0]
    player_times = timed_gets(client, f"/players/{busy.pk}/", 15)
    print(
        f"  player page ({busy.games} games) p50 "
        f"{ms * statistics.median(player_times):7.1f} ms   (target < 100 ms)"
    )
    # The first view after one of the player's games changed (as a hand
    # saved or voided changes it): re-rated from that game on, the
    # player's numbers and that night's summary computed again.
    last = Game.objects.filter(table__seats__player=busy).order_by(
        "-table__round__night__date", "-table__round__number", "-table__number"
    )[0]
    changed, spent, writes = first_views(client, f"/players/{busy.pk}/", last)
    print(
        f"    first view after a change to its last game p50 "
        f"{ms * statistics.median(changed):7.1f} ms   "
        f"(CPU {ms * statistics.median(spent):.1f} ms; target < 60 ms)"
    )
    player_first = figure("player page, first view after a change", changed, spent, 60)
    changed, spent, more = first_views(client, f"/seasons/{season.pk}/", last)
    print(
        f"  season page, first view after a change to a game of its last night "
        f"p50 {ms * statistics.median(changed):7.1f} ms   "
        f"(CPU {ms * statistics.median(spent):.1f} ms; target < 60 ms)"
    )
    figures += [
        figure("season page, first view after a change", changed, spent, 60),
        player_first,
    ]
    print(
        f"    the change's night (200 games) summed again in its write p50 "
        f"{ms * statistics.median(writes + more):7.1f} ms"
    )
    late_report(client, season, early, late)

    # 2. A save at a league table beside a save in a plain game.
    night = services.night_create(
        season=season,
        day=date(2027, 1, 1),
        format=Night.PROGRESSIVE,
        now=timezone.now(),
    )
    for player in season.league.players.all()[:8]:
        services.check_in(night=night, player=player, now=timezone.now())
    first_round = rounds.round_start(
        night=night, rng=random.Random(2), now=timezone.now()
    )
    league_game = Game.objects.filter(table__round=first_round).first()
    assert league_game is not None
    Game.objects.filter(pk=league_game.pk).update(overrides={"target_score": 1000})
    for game in (league_game,):
        client.get(f"/join/{game.edit_token}")
        client.get(f"/games/{game.pk}/")
    plain = long_game(client)
    plain_times = record_hands(client, plain, 60)
    league_times = record_hands(client, Game.objects.get(pk=league_game.pk), 60)
    night_times = []
    for _ in range(15):  # as after a save: the night's cached summary is stale
        cache.clear()
        start = time.perf_counter()
        night_numbers(night)
        night_times.append(time.perf_counter() - start)
    print(
        f"  hand save, plain game   p50 {ms * statistics.median(plain_times):7.2f} ms"
    )
    print(
        f"  hand save, league table p50 {ms * statistics.median(league_times):7.2f} ms   "
        f"difference {ms * (statistics.median(league_times) - statistics.median(plain_times)):+.2f} ms"
    )
    print(
        f"  the night's standings after it p50 {ms * statistics.median(night_times):.2f} ms "
        "(target: save + standings < 5 ms more than a save)"
    )

    # 3. The desk's poll beside a game's poll, nothing new.
    version = desk_version(night.pk, user.pk)
    htmx = {"headers": {"HX-Request": "true"}}
    desk_times = timed_gets(
        client, f"/nights/{night.pk}/desk", 200, data={"v": version}, **htmx
    )
    poll_times = timed_gets(
        client, f"/games/{plain.pk}/poll", 200, data={"seq": plain.last_seq + 60}
    )
    print(
        f"  desk poll, nothing new  p50 {ms * statistics.median(desk_times):7.2f} ms   "
        f"game poll p50 {ms * statistics.median(poll_times):.2f} ms   "
        f"ratio {statistics.median(desk_times) / statistics.median(poll_times):.2f}"
    )
    desk_report(client, season)
    print("issue 22, the league's figures (this run; server time decides):")
    for each in figures:
        print(each.line())


if __name__ == "__main__":
    main()
