"""Issue 33, a player's page that reads right: its header counts the
games "In numbers" counts (finished games), says how many are not, and a
new player's rating is said to be still to come, not "−1.5 (± 8.2)"."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import Season, Seat
from scorekeeper.leagues.rated_games import ratings_refresh
from tests.leagues.nights import (
    play_hand,
    play_out,
    play_out_round,
    progressive_night,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_header_and_in_numbers_count_the_same_finished_games(
    client: Client, organizer: User, season: Season
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    play_out_round(first)
    second = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    rounds.round_call(round=second, by="org", now=NOW)  # no hand: counts for nobody
    third = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    play_hand(third.tables.select_related("game").get(number=1).game)  # in play
    every = [
        set(Seat.objects.filter(table__round=each).values_list("player", flat=True))
        for each in (first, second, third)
    ]
    player = season.league.players.get(pk=min(set.intersection(*every)))
    ratings_refresh(season.league)
    client.force_login(organizer)
    page = client.get(f"/players/{player.pk}/")
    stats = page.context["stats"]
    text = _text(page.content.decode())
    games = f"{stats.games} game{'s' if stats.games != 1 else ''} on"
    assert text.count(games) == 1 and f"Games {stats.games} " in text
    assert stats.games == 1 and "1 game on 1 night" in text
    assert "And 2 not finished" in text  # seated in rounds 2 and 3 too


def test_a_new_players_rating_says_it_is_still_to_come(
    client: Client, organizer: User, season: Season
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = first.tables.select_related("game").get(number=1)
    play_out(table.game)
    ratings_refresh(season.league)
    player = Seat.objects.get(table=table, position=1).player
    client.force_login(organizer)
    text = _text(client.get(f"/players/{player.pk}/").content.decode())
    assert "1 game on 1 night · new: a rating after 5 games (1 game so far)" in text
    assert "(±" not in text
