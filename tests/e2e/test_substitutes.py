"""Issue 19, "Substitutes", in Chromium at 360x740: a player leaves after
hand 2; the organizer seats the player sitting out from hand 3, the game
counting for the substitute; the night's page, the game's page and the
substitute's page say who played which hands, and "End the game?" names
who plays now. axe checks every page."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Round, Seat, Substitution
from scorekeeper.models import Game
from tests.e2e.conftest import Looker
from tests.e2e.league import two_hands_played
from tests.leagues.nights import NAMES, play_out, progressive_night
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _round() -> Round:
    organizer = User.objects.create_user("maria", password="pepper nights 2026")
    league = services.league_create(
        name="Thursday Pepper", organizer=organizer, now=NOW
    )
    for name in NAMES:  # nine: one sits out
        services.player_add(league=league, name=name)
    season = services.season_create(
        league=league,
        name="Autumn",
        preset="classic",
        overrides={"hand_limit": 4},
        now=NOW,
    )
    night = progressive_night(season)
    return rounds.round_start(night=night, rng=random.Random(1), now=NOW)


def test_a_substitute_from_hand_3_on_a_phone(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    played = _round()
    table = two_hands_played(played)
    leaver = Seat.objects.get(table=table, position=0).player
    sitting = played.sitting_out.get()
    url = live_server.url
    page.goto(f"{url}/accounts/login")
    page.get_by_label("Username").fill("maria")
    page.get_by_label("Password").fill("pepper nights 2026")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{url}/nights/{played.night_id}/")
    page.get_by_role("link", name="Substitute…").first.click()
    expect(page.get_by_role("heading", name="A substitute at table 1")).to_be_visible()
    page.get_by_role("group", name="Who leaves").get_by_label(
        leaver.name, exact=True
    ).check()
    page.get_by_label("A player here tonight").select_option(label=sitting.name)
    expect(page.get_by_label("From hand")).to_have_value("3")
    page.get_by_role("group", name="The game counts for").get_by_label(
        "The substitute"
    ).check()
    looker.look("substitute-form")
    page.get_by_role("button", name="Seat the substitute").click()

    label = f"{leaver.name} → {sitting.name} from hand 3"
    expect(page.locator(".round-tables").first).to_contain_text(label)
    expect(page.locator(".substitutions")).to_contain_text(
        f"{sitting.name} played {leaver.name}'s seat from hand 3 "
        f"({leaver.name} played hands 1–2); the game counts for {sitting.name}."
    )
    looker.look("night")
    assert Substitution.objects.get().credited == sitting

    # The table's game: the note says who; hand 3 is the substitute's to bid.
    page.goto(f"{url}/join/{table.game.edit_token}")
    expect(page.get_by_role("list", name="Substitutes")).to_have_text(
        f"{label} (the game counts for {sitting.name})"
    )
    bidders = page.get_by_role("group", name="Bidder")
    expect(bidders.get_by_label(sitting.name, exact=True)).to_have_count(1)
    expect(bidders.get_by_label(leaver.name, exact=True)).to_have_count(0)
    looker.look("game")

    # Ending it now would name the sides by who plays now, too.
    page.goto(f"{url}/games/{table.game_id}/end")
    totals = page.locator(".end-totals")
    expect(totals).to_contain_text(sitting.name)
    expect(totals).not_to_contain_text(leaver.name)
    looker.look("end")

    # The game finishes; it counts for the substitute.
    play_out(Game.objects.get(pk=table.game_id))
    page.goto(f"{url}/players/{sitting.pk}/")
    expect(page.get_by_text("1 game on 1 night")).to_be_visible()
    expect(
        page.get_by_role("heading", name="Games left or joined midway")
    ).to_be_visible()
    looker.look("player")
    assert console_errors == []
