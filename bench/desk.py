"""The desk's poll on a busy night (issue 24: with 40 tables every poll
after any change answered the whole page, p99 near 780 ms): a hand at
one table, then the poll as the desk sends it (the versions its page
holds), at 20 and 40 tables; beside it the whole live part, which the
poll used to answer each time."""

from __future__ import annotations

import random
import re
import statistics
from datetime import date
from typing import Any

from django.test import Client
from django.utils import timezone

from bench.web import percentile, server_seconds
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services as game_services
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season
from scorekeeper.models import Game
from scorekeeper.projections.boards import game_log

HTMX = {"HX-Request": "true"}
POLLS = 60


def table_hand(game: Game) -> None:
    """A hand at the table, as its phone would save it: the first bidder
    bids the lowest bid and takes every trick."""
    board = replay_log(game_log(game))
    turn = board.next
    assert turn is not None
    variant = board.variant
    tricks = [0] * variant.sides
    tricks[variant.side_of(turn.first_bidder)] = variant.tricks_per_hand
    game_services.hand_record(
        game=game,
        expected_seq=game.last_seq,
        bidder=turn.first_bidder,
        bid=turn.forced_bid or variant.lowest_bid,
        trump="hearts",
        tricks=tricks,
        now=timezone.now(),
    )


def _held(page: str) -> dict[str, str]:
    """What the desk's poll sends: its page's hidden versions, and ``v``."""
    held = dict(re.findall(r'class="poll-state" name="(\w+)" value="([^"]*)"', page))
    version = re.search(r'id="desk-poll" hx-get="[^"]*\?v=([^"]+)"', page)
    assert version is not None
    return held | {"v": version.group(1)}


def _night(season: Season, tables: int, day: int) -> tuple[Night, list[Game]]:
    now = timezone.now()
    league = season.league
    while league.players.count() < 4 * tables:
        services.player_add(league=league, name=f"Q{league.players.count():03}")
    night = services.night_create(
        season=season,
        day=date(2027, 2, day),
        format=Night.PROGRESSIVE,
        now=now,
    )
    for player in league.players.order_by("pk")[: 4 * tables]:
        services.check_in(night=night, player=player, now=now)
    played = rounds.round_start(night=night, rng=random.Random(tables), now=now)
    return night, [table.game for table in played.tables.select_related("game")]


def desk_polls(client: Client, tables: int, season: Season, day: int) -> dict[str, Any]:
    """Server seconds and answer sizes of the desk's poll after a hand at
    one table (``POLLS`` times, round the tables), and of the whole live
    part."""
    night, games = _night(season, tables, day)
    url = f"/nights/{night.pk}/desk"
    held = _held(client.get(url).content.decode())
    changed, sizes = [], []
    for n in range(POLLS):
        table_hand(Game.objects.get(pk=games[n % len(games)].pk))
        answer = client.get(url, held, headers=HTMX)
        assert answer.status_code == 200, answer.status_code
        changed.append(server_seconds(client))
        sizes.append(len(answer.content))
        held |= _held(answer.content.decode())  # as the page holds it now
    whole, whole_sizes = [], []
    for _ in range(15):
        answer = client.get(url, {"v": "stale"}, headers=HTMX)  # no versions held
        whole.append(server_seconds(client))
        whole_sizes.append(len(answer.content))
    return {
        "changed": changed,
        "size": statistics.median(sizes),
        "whole": whole,
        "whole_size": statistics.median(whole_sizes),
    }


def report(client: Client, season: Season) -> None:
    ms = 1000
    for day, tables in enumerate((20, 40), start=1):
        found = desk_polls(client, tables, season, day)
        print(
            f"  desk poll, a hand at one of {tables} tables: p50 "
            f"{ms * statistics.median(found['changed']):6.2f} ms, p99 "
            f"{ms * percentile(found['changed'], 0.99):6.2f} ms, "
            f"{found['size'] / 1000:5.1f} kB (its row and the standings)"
        )
        print(
            f"    the whole live part (what every such poll answered before) p50 "
            f"{ms * statistics.median(found['whole']):6.2f} ms, "
            f"{found['whole_size'] / 1000:5.1f} kB"
        )
