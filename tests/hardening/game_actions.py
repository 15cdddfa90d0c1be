"""Every POST a table's phone (or the API, or the referee) sends, set up as
the page sends it, with what "done once" means for it: the race tests
send each one four times at once through real server processes.

Each builder makes what its action needs through the services (a game,
its hands, a browser holding its link), reads the form from the page as
a browser would (its hidden event id, expected sequence and keys), and
returns the submission and the check of the state afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.test import Client

from scorekeeper.games import services
from scorekeeper.games.models import LiveTable, Series
from scorekeeper.models import Game, GameEvent
from tests.games.series_play import ANN_CAT_WIN, first_game, won
from tests.hardening.league_world import World
from tests.hardening.racing import Answer, Check, Send, cookies_of, form_on
from tests.records import NOW, new_game, record_hands

LOG = Path(__file__).resolve().parents[1] / "data" / "contract" / "classic3.log.json"


@dataclass
class Race:
    """Submissions sent at the same moment, and the check that the state
    is as after one of them (the others answered as a repeat, or refused
    in words)."""

    sends: list[Send]
    check: Check

    @classmethod
    def same(cls, send: Send, check: Check, times: int = 4) -> Race:
        return cls([send] * times, check)


def same_redirect(answers: list[Answer]) -> None:
    """Every answer is the first one's: a redirect to one place."""
    assert {a.status_code for a in answers} == {302}, [a.status_code for a in answers]
    assert len({a["Location"] for a in answers}) == 1


def holding(game: Game, token: str | None = None) -> Client:
    """A browser that opened the game's edit link (or ``token``)."""
    browser = Client()
    browser.get(f"/join/{token or game.edit_token}")
    return browser


def hand_fields(seq: int, event_id: str, taken: int = 4) -> dict[str, str]:
    """The record form as a phone posts it: Bob bids 3 in spades."""
    return {
        "expected_seq": str(seq),
        "event_id": event_id,
        "action": "save",
        "bidder": "1",
        "bid": "3",
        "trump": "spades",
        "outcome": "played",
        "taken": str(taken),
    }


def played(game: Game, hands: int) -> Game:
    record_hands(game, NOW, *[(1, 3, "spades", [2, 4])] * hands)
    return Game.objects.get(pk=game.pk)


def _game_new(world: World) -> Race:
    browser = Client()
    fields = form_on(browser, "/games/new", "/games/new")
    names = {f"seat_{n}": name for n, name in enumerate(["Ann", "Bob", "Cat", "Dan"])}
    fields |= {"preset": "classic", "first_dealer": "0", **names}
    games = Game.objects.count()

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert Game.objects.count() == games + 1
        game = Game.objects.get(pk=fields["game_id"])
        assert game.edit_token == fields["edit_token"]

    return Race.same(Send("/games/new", fields, cookies_of(browser)), check)


def _game_import(world: World) -> Race:
    browser = Client()
    fields = form_on(browser, "/games/import", "/games/import")
    fields["text"] = LOG.read_text()
    games = Game.objects.count()

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert Game.objects.count() == games + 1
        assert GameEvent.objects.filter(game_id=fields["game_id"]).exists()

    return Race.same(Send("/games/import", fields, cookies_of(browser)), check)


def _hand_create(world: World) -> Race:
    game = new_game()
    browser = holding(game)
    send = Send(f"/games/{game.pk}/hands", hand_fields(0, "tap"), cookies_of(browser))

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert game.events.count() == 1

    return Race.same(send, check)


def _links_replace(world: World) -> Race:
    """Game 2 of a series: its links and game 1's are replaced once (the
    series' games locked in one order on PostgreSQL)."""
    first = won(first_game(), ANN_CAT_WIN)
    game = services.series_next(game=first, now=NOW)
    before = first.edit_token
    browser = holding(game)
    page = f"/games/{game.pk}/links/replace"
    fields = form_on(browser, page, page)

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        game.refresh_from_db()
        assert game.edit_token == fields["edit_token"]
        assert game.view_token == fields["view_token"]
        first.refresh_from_db()
        assert first.edit_token != before

    return Race.same(Send(page, fields, cookies_of(browser)), check)


def _game_end(world: World) -> Race:
    game = played(new_game(), 1)
    browser = holding(game)
    page = f"/games/{game.pk}/end"
    fields = form_on(browser, page, page)

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert game.events.filter(type="end").count() == 1

    return Race.same(Send(page, fields, cookies_of(browser)), check)


def _hand_void(world: World) -> Race:
    game = played(new_game(), 2)
    browser = holding(game)
    page = f"/games/{game.pk}/hands/2/void"
    fields = form_on(browser, page, page) | {"reason": "dealt twice"}

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert game.events.filter(type="void").count() == 1

    return Race.same(Send(page, fields, cookies_of(browser)), check)


def _hand_correct(world: World) -> Race:
    game = played(new_game(), 2)
    browser = holding(game)
    page = f"/games/{game.pk}/hands/1/correct"
    fields = form_on(browser, page, page) | {"taken": "5"}

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert game.events.filter(type="correct").count() == 1

    return Race.same(Send(page, fields, cookies_of(browser)), check)


def _api_events(world: World) -> Race:
    game = new_game()
    body = {
        "expected_seq": 0,
        "id": "api-tap",
        "type": "hand",
        "bidder": 1,
        "bid": 3,
        "trump": "spades",
        "tricks": [2, 4],
    }
    auth = {"Authorization": f"Bearer {game.edit_token}"}
    send = Send(f"/api/games/{game.pk}/events", json_body=body, headers=auth)

    def check(answers: list[Answer]) -> None:
        assert {a.status_code for a in answers} == {201}
        assert len({a.content for a in answers}) == 1
        assert game.events.count() == 1

    return Race.same(send, check)


def _verify(world: World) -> Race:
    """The referee's check of a pasted log: it changes nothing, and says
    the same to each."""
    send = Send("/verify", {"text": LOG.read_text()})
    games = Game.objects.count()

    def check(answers: list[Answer]) -> None:
        assert {a.status_code for a in answers} == {200}
        assert len({_without_secrets(a.text()) for a in answers}) == 1
        assert Game.objects.count() == games

    return Race.same(send, check)


# What differs between two answers of one page: its script nonce and its
# CSRF token.
_SECRETS = re.compile(
    r'(nonce="|"X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*'
)


def _table_seat(world: World) -> Race:
    """ "I am Ann", tapped four times: Ann's seat is this phone's, once."""
    game = new_game()
    browser = holding(game)
    page = f"/games/{game.pk}/"
    fields = form_on(browser, page, f"{page}table/seat") | {"action": "take"}

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        phones = LiveTable.objects.get(pk=game.pk).phones
        assert phones[int(fields["seat"])] and phones.count("") == len(phones) - 1

    return Race.same(Send(f"{page}table/seat", fields, cookies_of(browser)), check)


def sit_down(browser: Client, page: str, seat: int) -> None:
    """This phone takes ``seat`` (the live auction shows once one has)."""
    taken = browser.post(
        f"{page}table/seat", {"seat": seat, "action": "take", "saw": "free"}
    )
    assert taken.status_code == 302


def _table_call(world: World) -> Race:
    """Bob's pass, tapped four times: one call in the auction (Ann sat
    down on this phone, so the table bids on its phones)."""
    game = new_game()
    browser = holding(game)
    page = f"/games/{game.pk}/"
    sit_down(browser, page, 0)
    fields = form_on(browser, page, f"{page}table/call") | {"call": "pass"}

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        calls = LiveTable.objects.get(pk=game.pk).calls
        assert [call[:2] for call in calls] == [[int(fields["seat"]), "pass"]]

    return Race.same(Send(f"{page}table/call", fields, cookies_of(browser)), check)


def _series_next(world: World) -> Race:
    """ "Start game 2", tapped twice on each of two phones at once (each
    phone's form chose its own keys): one game 2, which all four open."""
    game = won(first_game(), ANN_CAT_WIN)
    page = f"/games/{game.pk}/"
    sends = []
    for _ in range(2):
        browser = holding(game)
        fields = form_on(browser, page, f"{page}next")
        sends.append(Send(f"{page}next", fields, cookies_of(browser)))

    def check(answers: list[Answer]) -> None:
        same_redirect(answers)
        assert game.series_id is not None
        series = Series.objects.get(pk=game.series_id)
        assert series.game_count == len(series.games) == 2
        assert Game.objects.filter(series_id=series.pk).count() == 2

    return Race(sends * 2, check)


def _without_secrets(page: str) -> str:
    return _SECRETS.sub(r"\1", page)


GAME_ACTIONS: dict[str, Callable[[World], Race]] = {
    "game_new": _game_new,
    "game_import": _game_import,
    "hand_create": _hand_create,
    "links_replace": _links_replace,
    "game_end": _game_end,
    "hand_void": _hand_void,
    "hand_correct": _hand_correct,
    "api_events": _api_events,
    "verify": _verify,
    "table_seat": _table_seat,
    "table_call": _table_call,
    "series_next": _series_next,
}
