"""The public standings page served whole from the cache
(``leagues.public_page``): one query while nothing it shows changed, and
never stale after any change that moves what it shows."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.games import services as game_services
from scorekeeper.games.fragments import templates_of
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season, Table
from scorekeeper.leagues.public_page import TEMPLATE, public_season
from scorekeeper.models import Game
from scorekeeper.rules.events import HandRecorded
from tests.leagues.nights import (
    newcomer,
    play_hand,
    play_out,
    progressive_night,
    take_over,
    void_first_hand,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _shown(client: Client, token: str) -> str:
    """The page's main part (the frame around it holds this request's
    CSRF token, which differs on every page)."""
    response = client.get(f"/standings/{token}")
    assert response.status_code == 200
    html = response.content.decode()
    return html[html.index('<main id="main">') : html.index("</main>")]


def _computed(client: Client, token: str) -> str:
    """The page as a server with an empty cache computes it."""
    cache.clear()
    return _shown(client, token)


def _played(season: Season) -> tuple[Night, list[Table]]:
    """An open night whose first round's games are played out."""
    night = progressive_night(season, date(2026, 1, 1))
    played = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    tables = list(played.tables.select_related("game", "round__night"))
    for table in tables:
        play_out(table.game)
    return night, tables


def _game(tables: list[Table]) -> Game:
    return Game.objects.get(pk=tables[0].game_id)


def _void(night: Night, tables: list[Table], organizer: User) -> None:
    rounds.night_close(night=night, by="org", now=NOW)
    void_first_hand(_game(tables), organizer)


def _correct(night: Night, tables: list[Table], organizer: User) -> None:
    game = _game(tables)
    game_services.hand_correct(
        game=game,
        expected_seq=game.last_seq,
        target=1,
        hand=HandRecorded(1, 4, "hearts", (1, 5)),
        now=NOW,
    )


def _ended(night: Night, tables: list[Table], organizer: User) -> None:
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    play_hand(table.game)
    table.game.refresh_from_db()
    game_services.game_end(game=table.game, expected_seq=table.game.last_seq, now=NOW)


def _substituted(night: Night, tables: list[Table], organizer: User) -> None:
    """A substitute credited with a game, which then finishes."""
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    table = played.tables.select_related("game", "round__night").first()
    assert table is not None
    play_hand(table.game)
    take_over(table, newcomer(night))
    play_out(table.game)


def _night_added(night: Night, tables: list[Table], organizer: User) -> None:
    services.night_create(
        season=night.season, day=date(2026, 1, 8), format=Night.PROGRESSIVE, now=NOW
    )


def _renamed(night: Night, tables: list[Table], organizer: User) -> None:
    player = tables[0].seats.order_by("position").first()
    assert player is not None
    services.player_rename(player=player.player, name="Zoe")


def _reordered(night: Night, tables: list[Table], organizer: User) -> None:
    Season.objects.filter(pk=night.season_id).update(best_nights=1)


CHANGES: dict[str, Callable[[Night, list[Table], User], None]] = {
    "a finished game's hand voided (night closed)": _void,
    "a finished game's hand corrected": _correct,
    "a game ended early": _ended,
    "a substitute credited": _substituted,
    "a night added": _night_added,
    "a player renamed": _renamed,
    "the season's settings": _reordered,
}


@pytest.mark.parametrize("change", CHANGES)
def test_the_page_is_never_stale_after_a_change_that_shows(
    client: Client, season: Season, organizer: User, change: str
) -> None:
    night, tables = _played(season)
    token = services.season_link_new(season=season)
    before = _shown(client, token)
    assert _shown(client, token) == before  # from the cache
    CHANGES[change](night, tables, organizer)
    after = _shown(client, token)
    assert after != before
    assert after == _computed(client, token)


def test_an_unchanged_page_costs_one_query_and_a_hand_in_play_none_more(
    client: Client, season: Season
) -> None:
    night, _ = _played(season)
    token = services.season_link_new(season=season)
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    first = _shown(client, token)
    play_hand(table.game)  # a game in play: no standings, no rating moves
    connection.queries_log.clear()  # it keeps 9000: the games played filled it
    with CaptureQueriesContext(connection) as queries:
        again = _shown(client, token)
    assert len(queries) == 1, [q["sql"][:80] for q in queries]
    assert again == first == _computed(client, token)


def test_a_revoked_or_replaced_link_is_refused_though_its_page_is_cached(
    client: Client, season: Season
) -> None:
    _played(season)
    token = services.season_link_new(season=season)
    _shown(client, token)
    newer = services.season_link_new(season=season)
    assert client.get(f"/standings/{token}").status_code == 404
    _shown(client, newer)
    season.refresh_from_db()
    services.season_link_revoke(season=season)
    assert client.get(f"/standings/{newer}").status_code == 404


def test_a_page_kept_by_an_earlier_deploy_is_never_shown(
    client: Client, season: Season
) -> None:
    """A page kept under its data version alone (as before the key named
    what draws it) is not read: a quiet season's numbers do not change
    for days, and the old page, worded by the old code, would stay 24 h."""
    _played(season)
    token = services.season_link_new(season=season)
    found = public_season(token)
    assert found is not None
    cache.set(found.key, "KEPT BY THE LAST DEPLOY", timeout=60)
    shown = _shown(client, token)
    assert "KEPT BY THE LAST DEPLOY" not in shown and "Standings" in shown


def test_what_draws_the_page_includes_every_template_it_includes() -> None:
    """The key's digest reads the page's template and those it includes at
    any depth: a deploy that changes only the standings' table changes it."""
    drawn = templates_of(TEMPLATE)
    assert drawn[0] == TEMPLATE
    for part in ("_season_numbers.html", "_standings.html", "_prizes.html"):
        assert f"leagues/{part}" in drawn
