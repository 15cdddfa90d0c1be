"""Issue 35: every write is safe against a double tap. Each route of the
site that takes a POST (listed from the URLconf: a new one without a case
here fails) is sent four times at the same moment through real server
processes (gunicorn, four workers) on the test database (SQLite here,
PostgreSQL in .ci/run): no answer is a 5xx, the state changed once (the
others answered as the first, or refused in words), and every game's row
and every night's rows equal a replay of the logs. Two different
submissions racing for one place: one wins, the other is told, in a
player's words, and nothing it carried is stored half.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.games import services as game_services
from scorekeeper.games.models import LiveTable
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Season, Table
from scorekeeper.models import GameEvent
from tests.games.series_play import ANN_CAT_WIN, first_game, won
from tests.hardening.game_actions import (
    GAME_ACTIONS,
    Race,
    hand_fields,
    holding,
    played,
    same_redirect,
    sit_down,
)
from tests.hardening.league_actions import ACTIONS, DATA, Action, form_key
from tests.hardening.league_world import World, every_route, make_world
from tests.hardening.racing import (
    Answer,
    Send,
    app_servers,
    assert_state_is_a_replay,
    at_once,
    cookies_of,
    form_on,
)
from tests.records import NOW, new_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # One set of server processes for the module: its tests on one worker.
    pytest.mark.xdist_group("route_races"),
]

# The routes that only read: each answers a POST with 405 (checked below).
ONLY_READ = {
    "home",
    "service_worker",
    "manifest",
    "no_connection",
    "offline_game",
    "engine_files",
    "game",
    "game_poll",
    "table_poll",
    "game_tv",
    "series_tv_next",
    "game_chart",
    "join",
    "join_recap",
    "series_game",
    "game_recap",
    "series_log",
    "game_log",
    "game_offline",
    "game_score",
    "rules",
    "rules_detail",
    "game_rules",
    "game_what_if",
    "trick",
    "api_game",
    "player",
    "season_export",
    "season_standings_csv",
    "season_hands_csv",
    "season_changes_csv",
    "public_standings",
    "public_night",
    "rules_sheet",
    "night",
    "night_standings_csv",
    "sheet",
    "desk",
    "night_tv",
    "score_card",
    "score_cards",
    "card_entry",
    "organizer_guide",
    "organizer_guide_image",
    "player_guide",
    "player_guide_image",
    "tv_by_link",
    "checkin_sheet",
    "my_night",
    "movement_card",
}
SAMPLE = {
    "uuid": str(uuid.uuid4()),
    "id": "1",
    "token": "A" * 32,
    "slug": "classic",
    "int": "2",
}


def _league_race(build: Callable[[World], Action]) -> Callable[[World], Race]:
    def race(world: World) -> Race:
        action = build(world)
        send = Send(action.url, action.data, cookies_of(action.client))
        return Race.same(send, action.check)

    return race


RACES: dict[str, Callable[[World], Race]] = {
    **{name: _league_race(build) for name, build in ACTIONS.items()},
    **GAME_ACTIONS,
}


@pytest.fixture(scope="module")
def server(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with app_servers(tmp_path_factory.mktemp("races") / "gunicorn.log") as base:
        yield base


def _ours() -> list[tuple[str, str]]:
    """(route, name) of every route but Django's admin (its own forms)."""
    return [
        (route, name)
        for route, name in every_route()
        if name and not route.startswith("admin/")
    ]


def test_every_route_that_takes_a_post_has_a_race() -> None:
    names = {name for _, name in _ours()}
    assert names - ONLY_READ == set(RACES)
    assert names >= ONLY_READ


@pytest.mark.parametrize("name", sorted(ONLY_READ))
def test_a_route_that_only_reads_refuses_a_post(name: str) -> None:
    world = make_world()
    route = next(route for route, named in _ours() if named == name)
    path = "/" + _sample_path(route)
    assert world.client.post(path, {}).status_code == 405, path


def _sample_path(route: str) -> str:
    """The route with a sample value of each converter's shape."""
    parts = route.split("<")
    path = parts[0]
    for part in parts[1:]:
        converter, rest = part.split(">", 1)
        path += SAMPLE[converter.split(":")[0]] + rest
    return path


@pytest.mark.parametrize("name", sorted(RACES))
def test_a_submission_sent_four_times_at_once_is_done_once(
    name: str, server: str
) -> None:
    race = RACES[name](make_world())
    answers = at_once(server, race.sends)
    assert [a.status_code for a in answers if a.status_code >= 500] == []
    race.check(answers)
    assert_state_is_a_replay()


# The defects the issue names, each as it was found ------------------------


def _round_one(world: World) -> tuple[Night, Table]:
    """A night whose round 1 is seated; table 1's game has no hand yet."""
    night = world.night()
    rounds.round_start(night=night, rng=random.Random(3), now=NOW)
    table = Table.objects.get(round__night=night, number=1)
    return night, table


def _card(table: Table, hands: list[tuple[int, int, str, int]]) -> dict[str, str]:
    """A paper card's rows as typed: (bidder seat, bid, trump, tricks)."""
    data = {"first": "1", "count": str(len(hands))}
    for number, (bidder, bid, trump, taken) in enumerate(hands, start=1):
        data |= {
            f"h{number}-bidder": str(bidder + 1),
            f"h{number}-bid": str(bid),
            f"h{number}-trump": trump,
            f"h{number}-result": str(taken),
        }
    return data


THREE_HANDS = [(1, 3, "s", 4), (2, 3, "h", 4), (3, 3, "d", 2)]


def test_the_same_whole_card_sent_twice_at_once_is_stored_once(server: str) -> None:
    world = make_world()
    _, table = _round_one(world)
    send = Send(f"/tables/{table.pk}/card/enter", _card(table, THREE_HANDS))
    send.cookies = cookies_of(world.client)
    answers = at_once(server, [send, send])
    same_redirect(answers)
    assert GameEvent.objects.filter(game=table.game_id).count() == 3
    assert_state_is_a_replay()


def test_a_card_after_its_round_was_called_sent_four_times_is_stored_once(
    server: str,
) -> None:
    """The round was called before table 1 saved a hand (its game is left
    unplayed); its paper card comes after: entered, it ends the game as
    the call would have. Sent four times at once, the others find it done."""
    world = make_world()
    _, table = _round_one(world)
    rounds.round_call(round=table.round, by="org", now=NOW)
    send = Send(f"/tables/{table.pk}/card/enter", _card(table, THREE_HANDS))
    send.cookies = cookies_of(world.client)
    answers = at_once(server, [send] * 4)
    same_redirect(answers)
    events = GameEvent.objects.filter(game=table.game_id)
    assert list(events.order_by("seq").values_list("type", flat=True)) == [
        "hand",
        "hand",
        "hand",
        "end",
    ]
    assert_state_is_a_replay()


@pytest.mark.parametrize("players", ["in the league", "new"])
def test_a_season_imported_four_times_at_once_is_stored_once(
    server: str, players: str
) -> None:
    world = make_world()
    document = (DATA / "contract" / "mixed-season.league.json").read_text()
    if players == "new":
        world.league.players.all().delete()
    else:  # the file's own players, by name, already in the registry
        for name in sorted({p["name"] for p in json.loads(document)["players"]}):
            services.player_add(league=world.league, name=name)
    url = f"/leagues/{world.league.pk}/import"
    page = f"/leagues/{world.league.pk}/"
    sends = [
        Send(
            url,
            {
                "text": document,
                "once": form_key(world.client.get(page).content.decode(), url),
            },
            cookies_of(world.client),
        )
        for _ in range(4)
    ]
    seasons = Season.objects.count()
    answers = at_once(server, sends)
    assert [a.status_code for a in answers if a.status_code >= 500] == []
    assert sum(a.status_code == 302 for a in answers) == 1
    for refused in (a for a in answers if a.status_code != 302):
        assert 400 <= refused.status_code < 500, refused.status_code
        assert "in the league already" in refused.text()
    assert Season.objects.count() == seasons + 1
    assert_state_is_a_replay()


# Two different submissions for one place -----------------------------------


def _one_wins(answers: list[Answer], won: int, words: str) -> None:
    """Exactly one answer is the win (``won``); the others are 4xx saying
    ``words``."""
    assert sum(a.status_code == won for a in answers) == 1, [
        a.status_code for a in answers
    ]
    for lost in (a for a in answers if a.status_code != won):
        assert 400 <= lost.status_code < 500, lost.status_code
        assert words in lost.text(), lost.text()[:2000]


def test_two_phones_saving_hand_7_differently_keep_one_and_tell_the_other(
    server: str,
) -> None:
    game = played(new_game(), 6)
    phones = [holding(game), holding(game)]
    sends = [
        Send(
            f"/games/{game.pk}/hands",
            hand_fields(6, f"phone{n}", taken=3 + n),
            cookies_of(phone),
        )
        for n, phone in enumerate(phones)
    ]
    answers = at_once(server, sends)
    _one_wins(answers, 302, "Your entry is still below")
    assert game.events.count() == 7
    assert_state_is_a_replay()


def test_two_phones_calling_for_one_seat_keep_the_first_and_tell_the_other(
    server: str,
) -> None:
    game = new_game()
    phones = [holding(game), holding(game)]
    page = f"/games/{game.pk}/"
    sit_down(phones[0], page, 0)  # Ann sat down: the table bids on its phones
    sends = [
        Send(
            f"{page}table/call",
            form_on(phone, page, f"{page}table/call") | {"call": call},
            cookies_of(phone),
        )
        for phone, call in zip(phones, ["pass", "4"], strict=True)
    ]
    answers = at_once(server, sends)
    _one_wins(answers, 302, "call was just made by another phone")
    assert len(LiveTable.objects.get(pk=game.pk).calls) == 1


def test_two_organizers_starting_round_1_start_it_once_and_tell_the_other(
    server: str,
) -> None:
    world = make_world()
    night = world.night()
    second = Client()
    other = User.objects.create_user("co", password="x")
    world.league.organizers.add(other)
    second.force_login(other)
    url = f"/nights/{night.pk}/rounds"
    sends = [Send(url, {"number": "1"}, cookies_of(c)) for c in (world.client, second)]
    answers = at_once(server, sends)
    _one_wins(answers, 302, "was started by")
    assert night.rounds.count() == 1
    assert_state_is_a_replay()


def test_two_cards_for_one_table_keep_one_and_tell_the_other(server: str) -> None:
    world = make_world()
    _, table = _round_one(world)
    url = f"/tables/{table.pk}/card/enter"
    other = [(2, 4, "c", 5), *THREE_HANDS[1:]]
    sends = [
        Send(url, _card(table, hands), cookies_of(world.client))
        for hands in (THREE_HANDS, other)
    ]
    answers = at_once(server, sends)
    _one_wins(answers, 302, "recorded already")
    assert GameEvent.objects.filter(game=table.game_id).count() == 3
    assert_state_is_a_replay()


def test_a_card_racing_a_table_phones_save_keeps_one_and_tells_the_other(
    server: str,
) -> None:
    world = make_world()
    _, table = _round_one(world)
    game = table.game
    phone = holding(game)
    sends = [
        Send(
            f"/tables/{table.pk}/card/enter",
            _card(table, THREE_HANDS),
            cookies_of(world.client),
        ),
        Send(
            f"/games/{game.pk}/hands",
            hand_fields(0, "phone", taken=2),
            cookies_of(phone),
        ),
    ]
    answers = at_once(server, sends)
    card, save = answers
    assert {card.status_code, save.status_code} in ({302, 409}, {422, 302})
    if card.status_code == 302:  # the phone is told what came in meanwhile
        assert "Hands 1 to 3 were just recorded by" in save.text()
    else:  # the card's page says nothing of it was saved, and why
        assert "Nothing of this card was saved" in card.text()
        assert "Hand 1 is recorded already as" in card.text()
    stored = GameEvent.objects.filter(game=game.pk).count()
    assert stored == (3 if card.status_code == 302 else 1)
    assert_state_is_a_replay()


def test_a_phone_saving_after_the_card_is_told_what_came_in(server: str) -> None:
    """The race above, the card first: the phone's save of hand 1 is
    answered 409 with the card's hands named (its order forced here, so
    the words of both outcomes are checked)."""
    world = make_world()
    _, table = _round_one(world)
    game = table.game
    phone = holding(game)
    card_url = f"/tables/{table.pk}/card/enter"
    [card] = at_once(
        server, [Send(card_url, _card(table, THREE_HANDS), cookies_of(world.client))]
    )
    assert card.status_code == 302
    save_url = f"/games/{game.pk}/hands"
    fields = hand_fields(0, "phone", taken=2)
    [save] = at_once(server, [Send(save_url, fields, cookies_of(phone))])
    assert save.status_code == 409
    assert "Hands 1 to 3 were just recorded by" in save.text()
    assert GameEvent.objects.filter(game=game.pk).count() == 3


def test_two_phones_replacing_two_games_of_a_series_at_once_both_answer(
    server: str,
) -> None:
    """Game 1's links replaced on one phone while game 2's are on another:
    each locks the whole series, in one order, so neither waits for ever
    (PostgreSQL) nor answers a 5xx: one phone's replacement wins, the other
    is told the links were replaced, and every game has new links."""
    first = won(first_game(), ANN_CAT_WIN)
    second = game_services.series_next(game=first, now=NOW)
    old = {first.edit_token, second.edit_token}
    sends = []
    for game in (first, second):
        browser = holding(game)
        page = f"/games/{game.pk}/links/replace"
        sends.append(Send(page, form_on(browser, page, page), cookies_of(browser)))
    answers = at_once(server, sends)
    assert sorted(a.status_code for a in answers) == [302, 410]
    first.refresh_from_db()
    second.refresh_from_db()
    assert old.isdisjoint({first.edit_token, second.edit_token})
