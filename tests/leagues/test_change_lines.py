"""Issue 33: a change after a night's close says what it changed, before
and after, and when the winner changed; a correction that changes nothing
is refused in words and stores nothing."""

from __future__ import annotations

import csv
import random
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services as game_services
from scorekeeper.leagues import rounds
from scorekeeper.leagues.models import Change, Season
from scorekeeper.models import Game
from scorekeeper.recording import Appended, Refused
from scorekeeper.rules.events import HandRecorded
from scorekeeper.rules.scoreboard import side_names
from tests.leagues.nights import play_out, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _closed_game(season: Season) -> Game:
    """Table 1 of round 1 played out (each first bidder takes all six),
    the night closed."""
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(4), now=NOW)
    table = first.tables.select_related("game").order_by("number").first()
    assert table is not None
    play_out(table.game)
    rounds.night_close(night=night, by="org", now=NOW)
    return Game.objects.get(pk=table.game.pk)


def _correct(game: Game, organizer: User, number: int, taken: int) -> Appended:
    """The organizer corrects hand ``number``: the bidding side took ``taken``."""
    board = replay_log(load(game))
    result = board.hands[number - 1]
    hand = result.hand
    assert isinstance(hand, HandRecorded)
    side = board.variant.side_of(hand.bidder)
    tricks = [board.variant.tricks_per_hand - taken] * board.variant.sides
    tricks[side] = taken
    corrected = replace(hand, tricks=tuple(tricks))

    def append(by: str, note: str) -> Appended:
        return game_services.hand_correct(
            game=game,
            expected_seq=game.last_seq,
            target=result.target,
            hand=corrected,
            by=by,
            note=note,
            now=NOW,
        )

    return rounds.closed_game_change(
        game=game,
        user=organizer,
        reason="the sheet said otherwise",
        what=f"hand {number} corrected",
        append=append,
        now=NOW,
    )


def test_a_correction_is_logged_with_the_hand_before_and_after(
    season: Season, organizer: User
) -> None:
    game = _closed_game(season)
    board = replay_log(load(game))
    bidder = board.seats[board.hands[1].hand.bidder]  # type: ignore[union-attr]
    _correct(game, organizer, 2, 3)
    change = Change.objects.get()
    assert f"hand 2 ({bidder} bid " in change.what
    assert change.what.split("): ", 1)[1].startswith("took 6 → took 3")


def test_a_correction_that_changes_the_winner_says_so(
    season: Season, organizer: User
) -> None:
    game = _closed_game(season)
    before = replay_log(load(game))
    names = side_names(before.variant, before.seats)
    winner = before.winners[0]  # (every first bidder made 6: maybe a tie)
    # Every hand the winner bid is set: the other side ends ahead.
    for result in before.hands:
        hand = result.hand
        assert isinstance(hand, HandRecorded)
        if before.variant.side_of(hand.bidder) == winner:
            game.refresh_from_db()
            _correct(game, organizer, result.number, 0)
    after = replay_log(load(Game.objects.get(pk=game.pk)))
    assert after.winners != before.winners
    lines = [change.what for change in Change.objects.order_by("pk")]
    said = [line.split("the winner changed: ")[1] for line in lines if "winner" in line]
    assert said, lines
    was = " and ".join(names[side] for side in before.winners)
    assert said[0].startswith(was + (" (tied)" if len(before.winners) > 1 else ""))
    now = " and ".join(names[side] for side in after.winners)
    assert said[-1].endswith(f" → {now}")


def test_a_correction_to_what_the_hand_already_was_is_refused_and_stores_nothing(
    season: Season, organizer: User
) -> None:
    game = _closed_game(season)
    seq = game.last_seq
    with pytest.raises(Refused, match="nothing to correct: hand event"):
        _correct(game, organizer, 2, 6)
    game.refresh_from_db()
    assert game.last_seq == seq
    assert not Change.objects.exists()
    _correct(game, organizer, 2, 4)  # a real one after it is stored as ever
    assert "took 6 → took 4" in Change.objects.get().what
    assert len(load(Game.objects.get(pk=game.pk)).entries) == seq + 1


def test_the_seasons_log_and_its_csv_say_before_and_after(
    client: Client, season: Season, organizer: User, django_assert_num_queries: Any
) -> None:
    game = _closed_game(season)
    _correct(game, organizer, 2, 3)
    line = Change.objects.get().what
    client.force_login(organizer)
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    log = page.split('id="season-changes"')[1].split("</section>")[0]
    assert escape(line) in log and "(the sheet said otherwise)" in log
    with django_assert_num_queries(3):  # session's user, season, changes
        answer = client.get(f"/seasons/{season.pk}/changes.csv")
        body = b"".join(answer.streaming_content)  # type: ignore[attr-defined]
    rows = list(csv.reader(body.decode("utf-8-sig").splitlines()))
    assert rows[0] == ["night", "at", "by", "what", "reason"]
    assert rows[1][2:] == ["org", line, "the sheet said otherwise"]
