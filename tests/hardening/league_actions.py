"""Every action an organizer posts (each POST URL of the league's pages),
set up as a browser would send it, with what "done once" means for it:
the repeated-submit tests send each one again and at once, the crawl feeds
each one odd values."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Invite, League, Night, Player, Season, Seat
from scorekeeper.models import Game, GameEvent
from tests.hardening.league_world import PASSWORD, World
from tests.records import NOW

DATA = Path(__file__).resolve().parents[1] / "data"


def form_key(page: str, action: str) -> str:
    """The one-time key (``once``) of the form posting to ``action`` (or of
    the page's form without an action: it posts to the page itself)."""
    for form in page.split("<form")[1:]:
        head = form.split(">", 1)[0]
        posts_here = f'action="{action}"' in head or "action=" not in head
        found = re.search(r'name="once" value="([^"]+)"', form.split("</form>")[0])
        if posts_here and found:
            return found.group(1)
    raise AssertionError(f"no form with a key posts to {action}")


@dataclass
class Action:
    """One organizer's action, ready to send: ``check`` asserts the state
    is as if it had been sent once, given every answer."""

    url: str
    data: dict[str, Any]
    check: Callable[[list[Any]], None]
    client: Client
    files: dict[str, Any] = field(default_factory=dict)


def statuses(answers: list[Any]) -> set[int]:
    return {answer.status_code for answer in answers}


def _refused_as_done(answers: list[Any], words: str) -> None:
    """Each answer is the first one's redirect, or a refusal saying it is
    done already."""
    for answer in answers:
        if answer.status_code != 302:
            assert answer.status_code == 422, answer.status_code
            assert words in answer.content.decode()
    assert any(answer.status_code == 302 for answer in answers)


def _same_redirect(answers: list[Any]) -> None:
    assert statuses(answers) == {302}
    assert len({answer["Location"] for answer in answers}) == 1


def _signup(world: World) -> Action:
    guest = Client()
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert User.objects.filter(username="newbie").count() == 1

    return Action("/accounts/signup", data, check, guest)


def _login(world: World) -> Action:
    guest = Client()
    data = {"username": "org", "password": PASSWORD}
    return Action("/accounts/login", data, _same_redirect, guest)


def _logout(world: World) -> Action:
    return Action("/accounts/logout", {}, _same_redirect, world.client)


def _keyed(world: World, page: str, action: str) -> str:
    return form_key(world.client.get(page).content.decode(), action)


def _league_create(world: World) -> Action:
    data = {"name": "Friday", "once": _keyed(world, "/leagues/", "/leagues/")}

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert League.objects.filter(name="Friday").count() == 1

    return Action("/leagues/", data, check, world.client)


def _season_create(world: World) -> Action:
    url = f"/leagues/{world.league.pk}/"
    data = {
        "name": "Winter",
        "preset": "classic",
        "seats": "4",
        "order": "points won",
        "best_nights": "0",
        "min_nights": "0",
        "once": _keyed(world, url, url),
    }

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert Season.objects.filter(name="Winter").count() == 1

    return Action(url, data, check, world.client)


def _player_add(world: World) -> Action:
    def check(answers: list[Any]) -> None:
        _refused_as_done(answers, "Zed is already a player")
        assert world.league.players.filter(name="Zed").count() == 1

    url = f"/leagues/{world.league.pk}/players"
    return Action(url, {"name": "Zed"}, check, world.client)


def _players_paste(world: World) -> Action:
    """A list of three, one a new name: the first paste adds it, the others
    are answered as the first (the same report)."""
    page = f"/leagues/{world.league.pk}/"
    url = f"/leagues/{world.league.pk}/players/paste"
    data = {"names": "Ann\nZed\nBob", "once": _keyed(world, page, url)}

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert world.league.players.filter(name="Zed").count() == 1
        assert world.league.pastes.count() == 1

    return Action(url, data, check, world.client)


def _player_merge(world: World) -> Action:
    night = world.night()
    rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    keep = services.player_add(league=world.league, name="Annie")  # came later
    merge = Player.objects.get(name="Ann")
    seats = merge.seats.count() + keep.seats.count()

    def check(answers: list[Any]) -> None:
        _refused_as_done(answers, "merged already")
        assert not Player.objects.filter(pk=merge.pk).exists()
        assert keep.seats.count() == seats

    data = {"keep": str(keep.pk), "merge": str(merge.pk)}
    return Action(f"/leagues/{world.league.pk}/merge", data, check, world.client)


def _invite_create(world: World) -> Action:
    def check(answers: list[Any]) -> None:
        assert statuses(answers) == {200}
        assert Invite.objects.count() == 1
        token = Invite.objects.get().token
        assert all(f"/invite/{token}" in a.content.decode() for a in answers)

    return Action(f"/leagues/{world.league.pk}/invite", {}, check, world.client)


def _season_import(world: World) -> Action:
    document = (DATA / "contract" / "mixed-season.league.json").read_text()
    url = f"/leagues/{world.league.pk}/import"
    once = _keyed(world, f"/leagues/{world.league.pk}/", url)
    seasons = Season.objects.count()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert Season.objects.count() == seasons + 1

    return Action(url, {"text": document, "once": once}, check, world.client)


def _invite_accept(world: World) -> Action:
    invite = services.invite_create(league=world.league, by=world.organizer, now=NOW)
    second = User.objects.create_user("second", password=PASSWORD)
    guest = Client()
    guest.force_login(second)

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert world.league.organizers.count() == 2

    return Action(f"/invite/{invite.token}", {}, check, guest)


def _player_rename(world: World) -> Action:
    bob = Player.objects.get(name="Bob")

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert Player.objects.get(pk=bob.pk).name == "Robert"

    return Action(f"/players/{bob.pk}/rename", {"name": "Robert"}, check, world.client)


def _night_create(world: World) -> Action:
    url = f"/seasons/{world.season.pk}/"
    data = {
        "date": "2026-12-03",
        "format": "progressive",
        "once": _keyed(world, url, url),
    }

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert world.season.nights.filter(date="2026-12-03").count() == 1

    return Action(url, data, check, world.client)


def _season_public(world: World) -> Action:
    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        world.season.refresh_from_db()
        assert world.season.public_token
        page = world.client.get(f"/seasons/{world.season.pk}/").content.decode()
        assert f"/standings/{world.season.public_token}" in page

    url = f"/seasons/{world.season.pk}/public"
    return Action(url, {"action": "new"}, check, world.client)


def _season_prizes(world: World) -> Action:
    """A prize list is set, not added: sent again, it is the same list."""

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        world.season.refresh_from_db()
        assert world.season.prizes == ["£20", "£10"]
        assert world.season.league.prize_ties == "higher"

    url = f"/seasons/{world.season.pk}/prizes"
    data = {"prizes": "1st: £20\n2nd: £10", "ties": "higher"}
    return Action(url, data, check, world.client)


def _night_prizes(world: World) -> Action:
    night = world.night()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        night.refresh_from_db()
        assert night.prizes == ["£5", "a bottle"]

    data = {"prizes": "£5\na bottle"}
    return Action(f"/nights/{night.pk}/prizes", data, check, world.client)


def _check_in(world: World) -> Action:
    night = services.night_create(
        season=world.season, day=date(2026, 12, 10), format=Night.PROGRESSIVE, now=NOW
    )
    ann = Player.objects.get(name="Ann")

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert list(night.checkins.values_list("player", "present")) == [(ann.pk, True)]

    url = f"/nights/{night.pk}/check-in"
    return Action(url, {"player": str(ann.pk)}, check, world.client)


def _newcomer(world: World) -> Action:
    night = world.night()

    def check(answers: list[Any]) -> None:
        _refused_as_done(answers, "Nan is already a player")
        nan = world.league.players.get(name="Nan")
        assert night.checkins.filter(player=nan, present=True).count() == 1

    return Action(f"/nights/{night.pk}/newcomer", {"name": "Nan"}, check, world.client)


def _teams(world: World) -> Action:
    night = world.night(fixed=True)
    here = list(night.checkins.values_list("player", flat=True))
    data = {f"p{pk}": str(1 + n % 2) for n, pk in enumerate(here)}

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        night.refresh_from_db()
        assert len(night.teams) == 2

    return Action(f"/nights/{night.pk}/teams", data, check, world.client)


def _round_start(world: World) -> Action:
    night = world.night()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert night.rounds.count() == 1
        assert Game.objects.filter(table__round__night=night).count() == 2

    url = f"/nights/{night.pk}/rounds"
    return Action(url, {"number": "1"}, check, world.client)


def _round_call(world: World) -> Action:
    night = world.playing_night()
    played = night.rounds.get()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert GameEvent.objects.filter(type="end").count() == 2
        assert Game.objects.filter(finished=True).count() == 2

    return Action(f"/rounds/{played.pk}/call", {}, check, world.client)


def _night_close(world: World) -> Action:
    night = world.playing_night()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        night.refresh_from_db()
        assert night.closed_at is not None
        assert GameEvent.objects.filter(type="end").count() == 2
        assert not Game.objects.filter(locked=False).exists()

    return Action(f"/nights/{night.pk}/close", {}, check, world.client)


def _undone_once(answers: list[Any], *words: str) -> None:
    """One undo is done; a repeat is refused in words (nothing to undo,
    or another undo is at it that moment)."""
    assert any(answer.status_code == 302 for answer in answers)
    for answer in answers:
        if answer.status_code != 302:
            assert answer.status_code == 422, answer.status_code
            page = answer.content.decode()
            assert any(said in page for said in words), page[:200]


def _round_call_undo(world: World) -> Action:
    night = world.playing_night()
    played = night.rounds.get()
    rounds.round_call(round=played, by="org", now=NOW)

    def check(answers: list[Any]) -> None:
        _undone_once(answers, "there is no call to undo", "try again in a moment")
        played.refresh_from_db()
        assert played.called_at is None
        assert GameEvent.objects.filter(type="void").count() == 2  # one a game
        assert not Game.objects.filter(finished=True).exists()

    return Action(f"/rounds/{played.pk}/call/undo", {}, check, world.client)


def _night_close_undo(world: World) -> Action:
    night = world.playing_night()
    rounds.night_close(night=night, by="org", now=NOW)

    def check(answers: list[Any]) -> None:
        _undone_once(answers, "there is no close to undo", "try again in a moment")
        night.refresh_from_db()
        assert night.closed_at is None
        assert GameEvent.objects.filter(type="void").count() == 2
        assert not Game.objects.filter(locked=True).exists()

    return Action(f"/nights/{night.pk}/close/undo", {}, check, world.client)


def _night_tv_link(world: World) -> Action:
    night = world.night()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        night.refresh_from_db()
        assert night.tv_token
        tv = world.client.get(f"/tv/{night.tv_token}")
        assert tv.status_code == 200

    url = f"/nights/{night.pk}/tv-link"
    return Action(url, {"action": "new"}, check, world.client)


def _season_delete(world: World) -> Action:
    night = world.playing_night()
    rounds.night_close(night=night, by="org", now=NOW)
    url = f"/seasons/{world.season.pk}/delete"
    data = {"once": _keyed(world, url, url)}

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert not Season.objects.filter(pk=world.season.pk).exists()
        assert not Game.objects.exists()

    return Action(url, data, check, world.client)


def _substitute(world: World) -> Action:
    """The player sitting out takes seat 0 of table 1 from hand 2."""
    night = world.playing_night()
    played = night.rounds.get()
    table = played.tables.get(number=1)
    out = played.sitting_out.get()
    data = {
        "substitute": str(out.pk),
        "seat": "0",
        "from_hand": "2",
        "credit": "started",
    }

    def check(answers: list[Any]) -> None:
        _refused_as_done(answers, "seated")
        assert table.substitutions.count() == 1

    return Action(f"/tables/{table.pk}/substitute", data, check, world.client)


def _card_enter(world: World) -> Action:
    """Table 1's paper card: hand 2 passed out (hand 1 is in already)."""
    night = world.playing_night()
    table = night.rounds.get().tables.get(number=1)
    data = {"first": "1", "count": "2", "h2-result": "p"}
    data |= _typed_hand_1(table.game)

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert table.game.events.count() == 2

    return Action(f"/tables/{table.pk}/card/enter", data, check, world.client)


def _typed_hand_1(game: Game) -> dict[str, str]:
    """Hand 1 as the card shows it (already in the game: checked, not
    stored again)."""
    hand = game.events.get(seq=1).payload
    return {
        "h1-bidder": str(hand["bidder"] + 1),
        "h1-bid": str(hand["bid"]),
        "h1-trump": str(hand["trump"])[0],
        "h1-result": str(
            hand["tricks"][0] if hand["bidder"] % 2 == 0 else hand["tricks"][1]
        ),
    }


def _time_zone(world: World) -> Action:
    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert League.objects.get(pk=world.league.pk).time_zone == "Europe/Paris"

    url = f"/leagues/{world.league.pk}/time-zone"
    return Action(url, {"time_zone": "Europe/Paris"}, check, world.client)


def _check_in_regulars(world: World) -> Action:
    """Last night's nine, checked in at once at tonight's door."""
    world.night()
    tonight = services.night_create(
        season=world.season, day=date(2026, 11, 26), format=Night.PROGRESSIVE, now=NOW
    )

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert tonight.checkins.filter(present=True).count() == 9

    url = f"/nights/{tonight.pk}/check-in/last-night"
    return Action(url, {}, check, world.client)


def _door(world: World) -> Action:
    """A player checks in at the door by its QR code: one form, sent
    twice (a double tap), lands twice on their own night."""
    night = services.night_create(
        season=world.season, day=date(2026, 12, 10), format=Night.PROGRESSIVE, now=NOW
    )
    ann = Player.objects.get(name="Ann")

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert list(night.checkins.values_list("player", "present")) == [(ann.pk, True)]
        assert answers[0]["Location"] == f"/me/{night.checkins.get().token}"

    data = {"player": str(ann.pk), "once": "d" * 22}
    return Action(f"/door/{night.door_token}", data, check, Client())


def _door_switch(world: World) -> Action:
    night = world.night()

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        assert not Night.objects.get(pk=night.pk).self_check_in

    url = f"/nights/{night.pk}/door"
    return Action(url, {"door": "off"}, check, world.client)


def _my_seated(world: World) -> Action:
    """A player's "I'm at my table", tapped twice."""
    night = world.playing_night()
    seat = Seat.objects.filter(table__round__night=night).first()
    assert seat is not None
    mine = night.checkins.get(player=seat.player)

    def check(answers: list[Any]) -> None:
        _same_redirect(answers)
        mine.refresh_from_db()
        assert mine.seated_round == 1

    return Action(f"/me/{mine.token}/seated", {"round": "1"}, check, Client())


ACTIONS: dict[str, Callable[[World], Action]] = {
    "signup": _signup,
    "login": _login,
    "logout": _logout,
    "leagues": _league_create,
    "league": _season_create,
    "player_add": _player_add,
    "players_paste": _players_paste,
    "player_merge": _player_merge,
    "invite_create": _invite_create,
    "season_import": _season_import,
    "invite": _invite_accept,
    "player_rename": _player_rename,
    "season": _night_create,
    "season_public": _season_public,
    "season_prizes": _season_prizes,
    "night_prizes": _night_prizes,
    "season_delete": _season_delete,
    "check_in": _check_in,
    "newcomer": _newcomer,
    "teams": _teams,
    "round_start": _round_start,
    "round_call": _round_call,
    "night_close": _night_close,
    "round_call_undo": _round_call_undo,
    "night_close_undo": _night_close_undo,
    "night_tv_link": _night_tv_link,
    "substitute": _substitute,
    "card_enter": _card_enter,
    "league_time_zone": _time_zone,
    "check_in_regulars": _check_in_regulars,
    "door": _door,
    "door_switch": _door_switch,
    "my_seated": _my_seated,
}
