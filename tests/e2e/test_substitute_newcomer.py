"""Issue 33, substitutes, in Chromium at 360x740 and 1280x720: the form
checks the player who leaves out (ticked by default) and seats a newcomer
typed on the spot; the night's page then counts one more here and the
leaver as left. axe checks the pages; nothing scrolls sideways."""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import CheckIn, Night, Seat, Substitution
from tests.e2e.conftest import PHONE, Looker
from tests.e2e.league import TV, sign_in
from tests.leagues.nights import NAMES, play_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pepper nights 2026"


@pytest.mark.parametrize("size", [PHONE, TV], ids=["360", "1280"])
def test_a_newcomer_takes_the_seat_of_a_player_who_goes_home(
    page: Page,
    live_server: LiveServer,
    console_errors: list[str],
    request: pytest.FixtureRequest,
    size: dict[str, int],
) -> None:
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    looker = Looker(page, request.node.name, width=size["width"])
    user = User.objects.create_user("maria", password=PASSWORD)
    now = timezone.now()
    league = services.league_create(name="Thursday Pepper", organizer=user, now=now)
    for name in NAMES[:8]:  # eight: nobody sits out, nobody to substitute
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league, name="Autumn", preset="classic", overrides={}, now=now
    )
    night = services.night_create(
        season=season, day=date(2026, 11, 26), format=Night.PROGRESSIVE, now=now
    )
    for player in league.players.all():
        services.check_in(night=night, player=player, now=now)
    played = rounds.round_start(night=night, rng=random.Random(2), now=now)
    table = played.tables.select_related("game").get(number=1)
    play_hand(table.game)
    leaver = Seat.objects.get(table=table, position=0).player

    sign_in(page, live_server.url, "maria", PASSWORD)
    page.goto(f"{live_server.url}/tables/{table.pk}/substitute")
    page.get_by_role("group", name="Who leaves").get_by_label(
        leaver.name, exact=True
    ).check()
    expect(page.get_by_label("They are leaving for the night")).to_be_checked()
    expect(page.get_by_text("Everyone checked in is seated this round")).to_be_visible()
    page.get_by_label("Someone new (checked in now)").fill("Nadia Quill")
    looker.look("form")
    page.get_by_role("button", name="Seat the substitute").click()

    expect(page.locator(".round-tables").first).to_contain_text(
        f"{leaver.name} → Nadia Quill from hand 2"
    )
    expect(page.locator("#door-counts")).to_contain_text("8 here · 1 left")
    looker.look("night")
    assert Substitution.objects.get().substitute.name == "Nadia Quill"
    assert not CheckIn.objects.get(night=night, player=leaver).present
    assert console_errors == []
