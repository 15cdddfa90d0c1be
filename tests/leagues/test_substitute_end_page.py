"""The "End the game?" page after a substitute sat down mid-game names the
sides by who plays now, as the game page and the TV do, not by the log's
first names."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import Seat
from tests.leagues.nights import play_hand, progressive_night, take_over
from tests.records import NOW

pytestmark = pytest.mark.django_db


def test_the_end_page_names_the_sides_by_who_plays_now(
    client: Client, season: Any
) -> None:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = first.tables.select_related("game").get(number=1)
    substitute = first.sitting_out.get()
    left = Seat.objects.get(table=table, position=0).player
    play_hand(table.game)
    take_over(table, substitute, credit="started")
    client.get(f"/join/{table.game.edit_token}")

    page = client.get(f"/games/{table.game_id}/end").content.decode()

    totals = page.split('<ul class="end-totals">', 1)[1].split("</ul>", 1)[0]
    assert substitute.name in totals
    assert left.name not in page  # neither in the totals nor in who would win
