"""A night's public page (``leagues.published.public_night``): reached
only through its season's public link, its cost pinned, never stale."""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.leagues import prize_lists, rounds, services
from scorekeeper.leagues.models import Night, Season, Table
from scorekeeper.leagues.public_night import published_night
from tests.leagues.nights import (
    newcomer,
    play_hand,
    play_out,
    progressive_night,
    take_over,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _night(season: Season) -> tuple[Night, list[Table]]:
    """A night whose first round is played out and whose second is in play."""
    night = progressive_night(season, date(2026, 1, 1))
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    tables = list(first.tables.select_related("game"))
    for table in tables:
        play_out(table.game)
    second = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    in_play = second.tables.select_related("game").first()
    assert in_play is not None
    play_hand(in_play.game)
    return night, tables


def _url(token: str, night: Night) -> str:
    return f"/standings/{token}/nights/{night.pk}"


def _main(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    return html[html.index('<main id="main">') : html.index("</main>")]


def test_it_shows_each_rounds_score_cards_standings_and_awards(
    client: Client, season: Season
) -> None:
    night, tables = _night(season)
    token = services.season_link_new(season=season)
    html = _main(client, _url(token, night))
    assert "Round 1" in html and "Round 2" in html
    for table in tables:
        for seat in table.seats.select_related("player"):
            assert seat.player.name in html
    assert "in play" in html  # round 2's game
    # One finished game each: every award wants two (none shown), the
    # night's side awards too, as the page says.
    assert "Most bids made" not in html
    assert "Best comeback" not in html
    assert "table-scroll" in html  # the standings table


def test_the_public_standings_link_to_each_night(
    client: Client, season: Season
) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    html = _main(client, f"/standings/{token}")
    assert f'href="{_url(token, night)}"' in html


def test_it_is_a_404_without_the_seasons_link(client: Client, season: Season) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    assert client.get(_url("x" * len(token), night)).status_code == 404
    other = services.season_create(
        league=season.league, name="Spring", preset="classic", now=NOW
    )
    elsewhere = services.season_link_new(season=other)
    assert client.get(_url(elsewhere, night)).status_code == 404


def test_a_replaced_or_revoked_link_cuts_off_its_night_pages_though_cached(
    client: Client, season: Season
) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    _main(client, _url(token, night))  # cached
    newer = services.season_link_new(season=season)
    assert client.get(_url(token, night)).status_code == 404
    assert f'href="{_url(newer, night)}"' in _main(client, f"/standings/{newer}")
    _main(client, _url(newer, night))
    season.refresh_from_db()
    services.season_link_revoke(season=season)
    assert client.get(_url(newer, night)).status_code == 404


def test_an_unchanged_page_costs_one_query(client: Client, season: Season) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    first = _main(client, _url(token, night))
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        again = _main(client, _url(token, night))
    assert len(queries) == 1, [q["sql"][:80] for q in queries]
    assert again == first


def _computed_queries(client: Client, url: str) -> int:
    cache.clear()
    _main(client, url)  # the night's rows summed, if they changed
    cache.clear()
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        _main(client, url)
    return len(queries)


def test_a_page_computed_costs_the_same_queries_whatever_the_nights_size(
    client: Client, season: Season
) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    # The link and version; the night; its rows' version, rules and rows;
    # its tables; its seats with their players' names; the events; the
    # substitutes.
    assert _computed_queries(client, _url(token, night)) == 9
    for table in night.rounds.get(number=2).tables.select_related("game"):
        play_out(table.game)
    third = rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    for table in third.tables.select_related("game"):
        play_out(table.game)
    assert _computed_queries(client, _url(token, night)) == 9


def test_a_hand_played_or_a_prize_set_shows_at_once(
    client: Client, season: Season
) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    before = _main(client, _url(token, night))
    table = night.rounds.get(number=2).tables.select_related("game").first()
    assert table is not None
    play_hand(table.game)
    after = _main(client, _url(token, night))
    assert after != before
    prize_lists.night_prizes_set(night=night, text="1st: £20\n2nd: a bottle")
    priced = _main(client, _url(token, night))
    assert "£20" in priced and "a bottle" in priced
    cache.clear()
    assert _main(client, _url(token, night)) == priced


def test_the_organizers_night_page_links_the_public_page_and_the_rules_sheet(
    client: Client, season: Season, organizer: User
) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    client.force_login(organizer)
    html = client.get(f"/nights/{night.pk}/").content.decode()
    assert _url(token, night) in html
    assert f"/nights/{night.pk}/rules" in html


def test_a_night_with_no_round_yet_says_so(client: Client, season: Season) -> None:
    night = progressive_night(season, date(2026, 1, 8))
    token = services.season_link_new(season=season)
    html = _main(client, _url(token, night))
    assert "No round yet." in html and "No finished game yet." in html


def test_a_substitutes_seat_says_who_played_it(client: Client, season: Season) -> None:
    night = progressive_night(season, date(2026, 1, 1))
    played = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = played.tables.select_related("game", "round__night").first()
    assert table is not None
    token = services.season_link_new(season=season)
    before = _main(client, _url(token, night))
    play_hand(table.game)
    take_over(table, newcomer(night), from_hand=2, credit="substitute")
    after = _main(client, _url(token, night))
    assert "→ Zed from hand 2" in after and "→ Zed" not in before


def test_a_called_round_says_which_games_were_called_and_which_unplayed(
    client: Client, season: Season
) -> None:
    night = progressive_night(season, date(2026, 1, 1))
    played = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    first, second = played.tables.select_related("game").order_by("number")
    token = services.season_link_new(season=season)
    play_hand(first.game)
    assert "not started" in _main(client, _url(token, night))
    rounds.round_call(round=played, by="org", now=NOW)
    html = _main(client, _url(token, night))
    assert "called as it stood" in html and "unplayed" in html
    assert "in play" not in html and "not started" not in html


def _renamed(night: Night) -> None:
    seat = Table.objects.filter(round__night=night).first()
    assert seat is not None
    player = seat.seats.select_related("player").first()
    assert player is not None
    services.player_rename(player=player.player, name="Zoe")


def _ties(night: Night) -> None:
    prize_lists.league_prize_ties_set(league=night.season.league, ties="higher")


def _closed(night: Night) -> None:
    rounds.night_close(night=night, by="org", now=NOW)


def _season_renamed(night: Night) -> None:
    Season.objects.filter(pk=night.season_id).update(name="Winter")


STALE = {
    "a player renamed": _renamed,
    "the league's rule for ties": _ties,
    "the night closed": _closed,
    "the season renamed": _season_renamed,
}


@pytest.mark.parametrize("change", STALE)
def test_the_page_is_never_stale_after_a_change_that_shows(
    client: Client, season: Season, change: str
) -> None:
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    url = _url(token, night)
    if change == "the league's rule for ties":
        prize_lists.night_prizes_set(night=night, text="£20\n£10")
    before = _main(client, url)
    STALE[change](night)
    after = _main(client, url)
    assert after != before
    cache.clear()
    assert _main(client, url) == after


def test_a_page_kept_by_an_earlier_deploy_is_never_shown(
    client: Client, season: Season
) -> None:
    """A night's page kept under its data version alone (as before the key
    named what draws it) is not read: a closed night never changes, and
    its old page, with the old awards' rules, would stay 24 h."""
    night, _ = _night(season)
    token = services.season_link_new(season=season)
    found = published_night(token, night.pk)
    assert found is not None
    cache.set(found.key, "KEPT BY THE LAST DEPLOY", timeout=60)
    html = _main(client, _url(token, night))
    assert "KEPT BY THE LAST DEPLOY" not in html and "Round 1" in html
