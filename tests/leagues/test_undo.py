"""Issue 33: "Call round" and "Close the night" undone before the next round
starts. A game the call ended plays on with every hand it had (its end is
voided, nothing deleted); a finished game stays finished; the night's
change log says who undid what, and when. An undo no longer possible is
refused in the organizer's words and changes nothing."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.leagues import rounds, services, undo
from scorekeeper.leagues.interchange import season_export, season_import
from scorekeeper.leagues.models import Change, Night, Round, Season, Seat, Table
from scorekeeper.leagues.results import season_standings
from scorekeeper.leagues.services import LeagueError
from scorekeeper.models import Game
from tests.leagues.imported import ROOT, command_standings, seated
from tests.leagues.nights import play_hand, play_out, progressive_night, take_over
from tests.records import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def first(season: Season) -> Round:
    """Round 1 of nine players (two tables): table 1 played out, table 2
    two hands in; then the round called."""
    night = progressive_night(season)
    played = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    done, going = _tables(played)
    play_out(done.game)
    for _ in range(2):
        play_hand(going.game)
    rounds.round_call(round=played, by="org", now=NOW)
    return played


def _tables(played: Round) -> list[Table]:
    return list(played.tables.select_related("game").order_by("number"))


def _hands(game: Game) -> list[Any]:
    return [(hand.number, hand.hand) for hand in replay_log(load(game)).hands]


def test_an_undone_call_plays_the_called_game_on_with_every_hand(
    first: Round, organizer: User
) -> None:
    done, going = _tables(first)
    hands, done_hands = _hands(going.game), _hands(done.game)
    assert replay_log(load(going.game)).decided == "ended"
    assert undo.round_call_undo(round=first, user=organizer, now=NOW) == 1
    first.refresh_from_db()
    assert first.called_at is None
    board = replay_log(load(Game.objects.get(pk=going.game_id)))
    assert board.decided == "" and board.next is not None
    assert _hands(going.game) == hands  # no hand lost
    game = Game.objects.get(pk=going.game_id)
    assert not game.finished and game.winners == []
    play_hand(game)  # the table plays on
    assert len(_hands(game)) == len(hands) + 1
    assert _hands(done.game) == done_hands  # finished at its table: as it was
    assert Game.objects.get(pk=done.game_id).finished
    line = Change.objects.get()
    assert (line.by, line.at, line.game) == (organizer, NOW, None)
    assert line.what == "round 1's call undone: 1 game plays on"


def test_the_games_page_after_an_undone_call_lists_no_voided_hand(
    client: Client, first: Round, organizer: User
) -> None:
    going = _tables(first)[1]
    undo.round_call_undo(round=first, user=organizer, now=NOW)
    client.get(f"/join/{going.game.edit_token}")
    page = client.get(f"/games/{going.game_id}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'class="voided"' not in text and "ended as it stood" not in text
    assert 'id="record"' in text  # the next hand's form


def test_the_score_card_keeps_every_hand_and_goes_on_after_an_undone_call(
    client: Client, first: Round, organizer: User
) -> None:
    client.force_login(organizer)
    going = _tables(first)[1]
    card = client.get(f"/tables/{going.pk}/card").content.decode()
    undo.round_call_undo(round=first, user=organizer, now=NOW)
    again = client.get(f"/tables/{going.pk}/card").content.decode()
    rows = re.findall(r"<tr>.*?</tr>", card, re.S)
    assert rows
    for row in rows:  # every line of the card, as it was
        assert row in again
    assert "This game is finished" in card and "This game is finished" not in again
    played = len(replay_log(load(going.game)).hands)  # the card goes on after them
    assert f"Hands 1–{played} are recorded already" in again
    assert f"Go on from hand {played + 1}." in again


def test_the_call_cannot_be_undone_once_the_next_round_started(
    first: Round, organizer: User
) -> None:
    night = first.night
    play_out(_tables(first)[1].game)  # (an ended game stays ended)
    rounds.round_start(night=night, rng=random.Random(6), now=NOW)
    seq = Game.objects.get(pk=_tables(first)[1].game_id).last_seq
    with pytest.raises(LeagueError, match="Round 2 has started: a call can be undone"):
        undo.round_call_undo(round=first, user=organizer, now=NOW)
    first.refresh_from_db()
    assert first.called_at is not None and not Change.objects.exists()
    assert Game.objects.get(pk=_tables(first)[1].game_id).last_seq == seq


def test_a_round_not_called_has_no_call_to_undo(
    season: Season, organizer: User
) -> None:
    night = progressive_night(season)
    played = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    with pytest.raises(LeagueError, match="Round 1 was not called"):
        undo.round_call_undo(round=played, user=organizer, now=NOW)
    assert not Change.objects.exists()


def test_a_closed_nights_call_waits_for_the_close_to_be_undone(
    first: Round, organizer: User
) -> None:
    rounds.night_close(night=first.night, by="org", now=NOW)
    with pytest.raises(LeagueError, match="The night is closed: undo Close"):
        undo.round_call_undo(round=first, user=organizer, now=NOW)


def test_reopening_undoes_the_call_the_close_made(
    season: Season, organizer: User
) -> None:
    night = progressive_night(season)
    played = rounds.round_start(night=night, rng=random.Random(5), now=NOW)
    going = _tables(played)[0]
    play_hand(going.game)
    hands = _hands(going.game)
    rounds.night_close(night=night, by="org", now=NOW)
    assert Game.objects.get(pk=going.game_id).locked
    assert undo.night_close_undo(night=night, user=organizer, now=NOW) == 1
    night.refresh_from_db()
    played.refresh_from_db()
    assert night.closed_at is None and played.called_at is None
    game = Game.objects.get(pk=going.game_id)
    assert not game.locked and not game.finished and _hands(game) == hands
    assert Change.objects.get().what == (
        "the night's close undone with round 1's call: 1 game plays on"
    )


def test_reopening_leaves_a_call_made_before_the_close(
    first: Round, organizer: User
) -> None:
    night = first.night
    rounds.night_close(night=night, by="org", now=NOW.replace(hour=23))
    assert undo.night_close_undo(night=night, user=organizer, now=NOW) == 0
    first.refresh_from_db()
    assert first.called_at is not None  # called by the organizer, not the close
    assert undo.round_call_undo(round=first, user=organizer, now=NOW) == 1
    assert [change.what for change in Change.objects.order_by("pk")] == [
        "the night's close undone",
        "round 1's call undone: 1 game plays on",
    ]


def test_an_open_night_has_no_close_to_undo(first: Round, organizer: User) -> None:
    with pytest.raises(LeagueError, match="The night is open"):
        undo.night_close_undo(night=first.night, user=organizer, now=NOW)


def test_the_buttons_undo_and_a_refusal_is_said_on_the_nights_page(
    client: Client, first: Round, organizer: User
) -> None:
    client.force_login(organizer)
    night: Night = first.night
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert "Undo the call of round 1" in page
    response = client.post(f"/rounds/{first.pk}/call/undo", {"next": "desk"})
    assert response.status_code == 302 and response["Location"].endswith("/desk")
    again = client.post(f"/rounds/{first.pk}/call/undo")
    assert again.status_code == 422
    assert "Round 1 was not called: there is no call to undo." in again.content.decode()
    log = client.get(f"/nights/{night.pk}/").content.decode()
    assert "round 1&#x27;s call undone: 1 game plays on" in log
    assert Change.objects.count() == 1


def test_a_season_with_an_undone_call_and_a_substitute_goes_out_and_back(
    first: Round, organizer: User
) -> None:
    """The call's end voided (contract §6), a substitute in the game that
    played on, called again and closed: the season's file reads back the
    same, every game's log passes `replay`, and the `standings` command
    ranks the file as the league's pages do."""
    night = first.night
    done, going = _tables(first)
    undo.round_call_undo(round=first, user=organizer, now=NOW)
    going = Table.objects.select_related("game", "round__night").get(pk=going.pk)
    leaver = Seat.objects.get(table=going, position=0).player
    take_over(going, first.sitting_out.get(), from_hand=3, credit="started")
    services.check_out(night=night, player=leaver)
    play_hand(Game.objects.get(pk=going.game_id))
    rounds.round_call(round=first, by="org", now=NOW)
    rounds.night_close(night=night, by="org", now=NOW)

    exported: dict[str, Any] = season_export(season=night.season)
    text = json.dumps(exported)
    games = exported["nights"][0]["games"]
    logs = [game["log"] for game in games]
    assert any(
        entry.get("type") == "void" for log in logs for entry in log["events"]
    ), "the undone call's void of the end is in the file"
    for log in logs:
        replayed = subprocess.run(
            [sys.executable, "manage.py", "replay", "-"],
            cwd=ROOT,
            input=json.dumps(log),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert replayed.returncode == 0, replayed.stderr

    other = services.league_create(name="Elsewhere", organizer=organizer, now=NOW)
    copy = season_import(league=other, text=text, now=NOW)
    assert json.dumps(season_export(season=copy)) == text

    command = command_standings(text)
    ids = seated(exported, night.season)
    ours = season_standings(night.season)
    pages = {
        pid: (row["rank"], row["played"], row["won"], row["points"])
        for row in ours["nights"][0]["rows"]  # type: ignore[index]
        for pid in [str(row["player"])]
    }
    theirs = {
        ids[row["player"]]: (row["rank"], row["played"], row["won"], row["points"])
        for row in command["nights"][0]["rows"]
    }
    assert pages == theirs and len(theirs) == 8
