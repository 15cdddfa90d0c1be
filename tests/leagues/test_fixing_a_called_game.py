"""Issue 19, defect 1: a called game of a closed night can be fixed. Seven
of eight hands are recorded, round 1 is called, the night is closed; the
organizer corrects hand 5 from the game's page with a reason. The change
is stored, the night's change log has its line, and the game's row and
the night's standings follow it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Change, League, Night
from scorekeeper.leagues.results import night_numbers
from scorekeeper.models import Game
from scorekeeper.rules.engine import replay
from scorekeeper.rules.events import GameEnded, HandCorrected, HandRecorded
from scorekeeper.tablewords import hand_summary
from tests.leagues.nights import play_hand, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db

# What the bidding side takes in each of the seven hands: nobody reaches
# 30, so the game is still being played when its round is called.
TAKEN = [3, 2, 4, 1, 3, 2, 4]


@pytest.fixture
def signed_in(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


@pytest.fixture
def called_night(league: League) -> Night:
    """Round 1 of an eight-hand season, called after seven hands at the
    first table, and the night closed."""
    season = services.season_create(
        league=league,
        name="Eights",
        preset="classic",
        overrides={"hand_limit": 8},
        now=NOW,
    )
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=__import__("random").Random(1), now=NOW)
    game = first.tables.order_by("number").first().game  # type: ignore[union-attr]
    for taken in TAKEN:
        play_hand(game, bidder_side_takes=taken)
    rounds.round_call(round=first, by="org", now=NOW)
    rounds.night_close(night=night, by="org", now=NOW)
    return night


def _called_game(night: Night) -> Game:
    return Game.objects.get(table__round__night=night, table__number=1)


def _points(night: Night) -> dict[str, object]:
    rows, _, _ = night_numbers(night)
    return {str(row["player"]): (row["won"], row["points"]) for row in rows}


def test_the_organizers_correct_and_void_pages_ask_no_entered_by(
    signed_in: Client, called_night: Night
) -> None:
    """An organizer's fix is signed with their account's name (the night's
    change log says who): an "Entered by" box would be ignored."""
    game = _called_game(called_night)
    signed_in.get(f"/join/{game.edit_token}")
    for page in ("correct", "void"):
        form = signed_in.get(f"/games/{game.pk}/hands/5/{page}").content.decode()
        assert 'name="reason"' in form and "signed with your name" in form
        assert 'name="by"' not in form and "Entered by" not in form


def test_the_organizer_corrects_hand_5_of_a_called_game(
    signed_in: Client, called_night: Night
) -> None:
    game = _called_game(called_night)
    board = replay_log(load(game))
    assert board.decided == "ended" and len(board.rows) == 7
    before = _points(called_night)
    hand = board.hands[4].hand
    assert isinstance(hand, HandRecorded) and hand.tricks is not None
    bidder_side = board.variant.side_of(hand.bidder)
    signed_in.get(f"/join/{game.edit_token}")
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "hands/5/correct" in page and "hands/5/void" in page
    form = signed_in.get(f"/games/{game.pk}/hands/5/correct")
    assert form.status_code == 200 and 'name="reason"' in form.content.decode()

    response = signed_in.post(
        f"/games/{game.pk}/hands/5/correct",
        {
            "expected_seq": game.last_seq,
            "event_id": "fix-5",
            "bidder": str(hand.bidder),
            "bid": str(hand.bid),
            "trump": hand.trump,
            "outcome": "played",
            "taken": "0",  # the bidders were set, not made
            "reason": "Cat read the tricks off the wrong pile",
            "action": "save",
        },
    )

    assert response.status_code == 302, response.content.decode()
    game.refresh_from_db()
    fix = load(game).entries[-1]
    assert isinstance(fix.event, HandCorrected) and fix.event.target == 5
    assert (fix.by, fix.note) == ("org", "Cat read the tricks off the wrong pile")
    assert isinstance(load(game).entries[-2].event, GameEnded)
    change = Change.objects.get()
    # Before and after, in the change log (issue 33).
    bid = hand_summary(board.variant, board.seats, hand).split(", ")[0]
    taken_before = hand.tricks[bidder_side]
    assert change.what.startswith(
        f"round 1 table 1: hand 5 ({bid}): took {taken_before} → took 0"
    )
    assert change.reason == "Cat read the tricks off the wrong pile"
    # The game's row as the engine scores the corrected hands, ended as
    # it stands: the standings read that row.
    tricks = [0, 0]
    tricks[1 - bidder_side] = 6
    fixed = [result.hand for result in board.hands]
    fixed[4] = HandRecorded(hand.bidder, hand.bid, hand.trump, tuple(tricks))
    expected = replay(board.variant, board.seats, board.first_dealer, fixed)
    assert game.finished and game.totals == list(expected.totals)
    top = max(expected.totals)
    assert game.winners == [s for s, t in enumerate(expected.totals) if t == top]
    after = _points(called_night)
    assert after != before
    night_page = signed_in.get(f"/nights/{called_night.pk}/").content.decode()
    assert f"took {taken_before} → took 0" in night_page
    assert "(Cat read the tricks off the wrong pile)</li>" in night_page


def test_a_fix_that_would_win_the_game_before_its_end_is_refused_in_words(
    signed_in: Client, called_night: Night
) -> None:
    game = _called_game(called_night)
    board = replay_log(load(game))
    hand = board.hands[6].hand
    assert isinstance(hand, HandRecorded)
    signed_in.get(f"/join/{game.edit_token}")
    response = signed_in.post(
        f"/games/{game.pk}/hands/7/correct",
        {
            "expected_seq": game.last_seq,
            "event_id": "fix-7",
            "bidder": str(hand.bidder),
            "bid": "big-pepper",
            "trump": hand.trump,
            "outcome": "played",
            "taken": "6",
            "reason": "it was a pepper",
            "action": "save",
        },
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert "before the game was ended" in page
    assert "event " not in page.split('role="alert"')[1].split("</p>")[0]
    assert not Change.objects.exists()
    assert Game.objects.get(pk=game.pk).last_seq == game.last_seq
