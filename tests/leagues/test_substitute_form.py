"""Issue 33, substitutes at the desk: seating a substitute offers to
check the player who left out (else they would be seated again next
round), and a newcomer is checked in on the spot from the same form; a
refusal leaves no newcomer and no check-out behind."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import CheckIn, Night, Player, Seat, Substitution, Table
from tests.leagues.nights import play_hand, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def _table(season: Any) -> tuple[Night, Table, Player]:
    night = progressive_night(season)
    played = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = played.tables.select_related("game").get(number=1)
    play_hand(table.game)
    return night, table, Seat.objects.get(table=table, position=0).player


def test_the_player_who_leaves_is_checked_out_and_not_seated_next_round(
    signed_in: Client, season: Any
) -> None:
    night, table, ann = _table(season)
    form = signed_in.get(f"/tables/{table.pk}/substitute").content.decode()
    assert 'name="leaver_goes" checked' in form  # offered, ticked
    eve = night.rounds.get().sitting_out.get()
    response = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {
            "seat": "0",
            "substitute": eve.pk,
            "from_hand": "2",
            "credit": "started",
            "leaver_goes": "on",
        },
    )
    assert response.status_code == 302
    assert not CheckIn.objects.get(night=night, player=ann).present
    rounds.round_call(round=night.rounds.get(), by="org", now=NOW)
    second = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    seated = set(
        Seat.objects.filter(table__round=second).values_list("player", flat=True)
    )
    assert ann.pk not in seated and ann not in second.sitting_out.all()


def test_unticked_the_player_who_leaves_stays_checked_in(
    signed_in: Client, season: Any
) -> None:
    night, table, ann = _table(season)
    eve = night.rounds.get().sitting_out.get()
    signed_in.post(
        f"/tables/{table.pk}/substitute",
        {"seat": "0", "substitute": eve.pk, "from_hand": "2", "credit": "started"},
    )
    assert CheckIn.objects.get(night=night, player=ann).present


def test_a_newcomer_is_checked_in_on_the_spot_and_takes_the_seat(
    signed_in: Client, season: Any
) -> None:
    night, table, ann = _table(season)
    response = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {
            "seat": "0",
            "newcomer": " Zed ",
            "from_hand": "2",
            "credit": "substitute",
            "leaver_goes": "on",
        },
    )
    assert response.status_code == 302
    zed = season.league.players.get(name="Zed")
    assert CheckIn.objects.get(night=night, player=zed).present
    made = Substitution.objects.get()
    assert made.substitute == zed and made.started == ann and made.credited == zed


def test_a_refused_newcomer_substitute_changes_nothing(
    signed_in: Client, season: Any
) -> None:
    night, table, ann = _table(season)
    refused = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {
            "seat": "0",
            "newcomer": "Zed",
            "from_hand": "9",
            "credit": "started",
            "leaver_goes": "on",
        },
    )
    assert refused.status_code == 422
    assert "A substitute takes over at hand 1 to 2" in refused.content.decode()
    assert not season.league.players.filter(name="Zed").exists()
    assert CheckIn.objects.get(night=night, player=ann).present
    both = signed_in.post(
        f"/tables/{table.pk}/substitute",
        {
            "seat": "0",
            "newcomer": "Zed",
            "substitute": night.rounds.get().sitting_out.get().pk,
            "from_hand": "2",
            "credit": "started",
        },
    )
    assert both.status_code == 422 and "not both" in both.content.decode()
    assert not Substitution.objects.exists()
