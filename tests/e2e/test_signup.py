"""Issue 24, items 8 and 9 in Chromium at 360x740: an invited organizer
signs up from the invitation (its link carried through ``next``), a weak
password refused in words under the rules, then joins the league."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues import services
from tests.e2e.conftest import Looker
from tests.records import NOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_invited_organizer_signs_up_with_a_strong_password_and_joins(
    page: Page, live_server: LiveServer, looker: Looker, console_errors: list[str]
) -> None:
    first = User.objects.create_user("maria", password="pepper nights 2026")
    league = services.league_create(name="Thursday", organizer=first, now=NOW)
    invite = services.invite_create(league=league, by=first, now=NOW)
    page.goto(f"{live_server.url}/invite/{invite.token}")  # to sign in first
    page.get_by_role("link", name="Sign up as an organizer").click()
    expect(page.get_by_text("at least 10 characters")).to_be_visible()
    looker.look("rules")
    page.get_by_label("Username").fill("jo")
    page.get_by_label("Password", exact=True).fill("123456")
    page.get_by_label("Password again").fill("123456")
    page.get_by_role("button", name="Sign up").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("too short")
    expect(alert).to_contain_text("entirely numeric")
    looker.look("refused")
    page.get_by_label("Username").fill("jo")
    page.get_by_label("Password", exact=True).fill("tuesday euchre club")
    page.get_by_label("Password again").fill("tuesday euchre club")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("button", name="Join as an organizer").click()
    expect(page.get_by_role("heading", name="Thursday")).to_be_visible()
    assert league.organizers.filter(username="jo").exists()
    assert console_errors == []
