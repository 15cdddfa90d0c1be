"""A table's paper card entered through the services: each row a hand
event, in order, refereed by the engine; a card stored whole or not at
all; a card sent again stored once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.eventstore import Conflict, load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services as game_services
from scorekeeper.leagues import cards, rounds, services
from scorekeeper.leagues.card_rows import Typed
from scorekeeper.leagues.cards import CardRefused, card_record
from scorekeeper.leagues.models import League, Night, Season, Table
from scorekeeper.models import Game, GameEvent
from scorekeeper.rules.events import HandPassedOut, HandRecorded
from tests.leagues.nights import play_hand, progressive_night
from tests.records import NOW

pytestmark = pytest.mark.django_db

# Eight hands of a classic game, as a card says them: seats 1 to 4 are
# the table's players clockwise; a pass-out and a concession among them.
EIGHT = [
    Typed("2", "3", "h", "4"),
    Typed("3", "2", "s", "2"),
    Typed("", "", "", "p"),
    Typed("1", "4", "d", "c"),
    Typed("4", "3", "c", "3"),
    Typed("2", "2", "n", "1"),
    Typed("3", "3", "h", "5"),
    Typed("1", "2", "s", "3"),
]


@pytest.fixture
def card_season(league: League) -> Season:
    return services.season_create(
        league=league,
        name="Paper",
        preset="classic",
        overrides={"hand_limit": 8, "negotiation": True},
        now=NOW,
    )


def _table(season: Season) -> Table:
    night = progressive_night(season)
    first = rounds.round_start(night=night, rng=random.Random(1), now=NOW)
    table = first.tables.select_related("game", "round__night").first()
    assert table is not None
    return table


def _stored(game: Game) -> list[object]:
    game.refresh_from_db()
    return [
        list(GameEvent.objects.filter(game=game).values_list("payload", flat=True)),
        game.last_seq,
        game.totals,
        game.hands_played,
    ]


def test_a_card_of_eight_hands_becomes_eight_hand_events_in_order(
    card_season: Season,
) -> None:
    table = _table(card_season)
    added = card_record(table=table, first=1, rows=EIGHT, by="org", now=NOW)
    assert added == 8
    board = replay_log(load(table.game))
    hands = [result.hand for result in board.hands]
    assert hands[0] == HandRecorded(1, 3, "hearts", (2, 4))
    assert hands[2] == HandPassedOut()
    assert hands[3] == HandRecorded(0, 4, "diamonds", None, 0)
    assert board.finished and board.decided == "hand-limit"
    ids = GameEvent.objects.filter(game=table.game).values_list("event_id", flat=True)
    assert list(ids) == [f"card-{table.pk}-{n}-{n - 1}" for n in range(1, 9)]
    assert {event.by for event in load(table.game).entries} == {"org"}


def test_a_refusal_mid_card_keeps_the_log_unchanged(card_season: Season) -> None:
    table = _table(card_season)
    play_hand(table.game)  # hand 1 from a phone
    before = _stored(table.game)
    rows = [*EIGHT[1:4], Typed("1", "7", "h", "6"), *EIGHT[5:]]  # hand 5 bids 7
    with pytest.raises(CardRefused) as refused:
        card_record(table=table, first=2, rows=rows, by="org", now=NOW)
    assert list(refused.value.rows) == [5]
    why = refused.value.rows[5]
    assert why.startswith("Classic has no bid 7: the bids are 1, 2, 3, 4, 5")
    assert "event" not in why and "contract" not in why
    assert _stored(table.game) == before
    assert table.game.last_seq == 1  # the caller's copy is put back too


def test_a_refused_card_fixed_and_sent_again_is_recorded_whole(
    card_season: Season,
) -> None:
    """The refused card's rows were read back inside its rolled-back
    transaction: the process must not keep them as the game's log."""
    table = _table(card_season)
    rows = [*EIGHT[:4], Typed("4", "9", "c", "3"), *EIGHT[5:]]
    with pytest.raises(CardRefused):
        card_record(table=table, first=1, rows=rows, by="org", now=NOW)
    assert card_record(table=table, first=1, rows=EIGHT, by="org", now=NOW) == 8
    assert len(replay_log(load(table.game)).rows) == 8


def test_every_unreadable_row_is_said_before_anything_is_recorded(
    card_season: Season,
) -> None:
    table = _table(card_season)
    before = _stored(table.game)
    rows = [EIGHT[0], Typed("Zed", "3", "h", "3"), Typed(), Typed("1", "3", "x", "3")]
    with pytest.raises(CardRefused) as refused:
        card_record(table=table, first=1, rows=rows, by="org", now=NOW)
    assert refused.value.rows == {
        2: f"“Zed” is nobody at this table ({', '.join(table.game.seats)}).",
        3: "This row is blank, but a later one is filled in.",
        4: "“x” is not a trump: S, H, D, C or N (no trump).",
    }
    assert _stored(table.game) == before
    with pytest.raises(CardRefused, match="every row is blank"):
        card_record(table=table, first=1, rows=[Typed()] * 3, by="org", now=NOW)


def test_a_card_sent_again_records_nothing_twice(card_season: Season) -> None:
    table = _table(card_season)
    assert card_record(table=table, first=1, rows=EIGHT[:4], by="org", now=NOW) == 4
    assert card_record(table=table, first=1, rows=EIGHT, by="org", now=NOW) == 4
    before = _stored(table.game)
    with pytest.raises(CardRefused) as refused:
        card_record(table=table, first=1, rows=[*EIGHT, EIGHT[0]], by="org", now=NOW)
    assert refused.value.rows == {9: "The game was over after hand 8."}
    assert card_record(table=table, first=1, rows=EIGHT, by="org", now=NOW) == 0
    assert _stored(table.game) == before


def test_the_same_card_sent_twice_at_once_is_stored_once(card_season: Season) -> None:
    """Two requests that read the game before either stored anything: the
    second's event ids are the first's, so the event store answers them
    as repeats."""
    table = _table(card_season)
    stale = Table.objects.select_related("game", "round__night").get(pk=table.pk)
    card_record(table=table, first=1, rows=EIGHT[:3], by="org", now=NOW)
    assert card_record(table=stale, first=1, rows=EIGHT[:3], by="org", now=NOW) == 0
    assert GameEvent.objects.filter(game=table.game).count() == 3


def test_a_row_unlike_the_recorded_hand_is_refused(card_season: Season) -> None:
    table = _table(card_season)
    card_record(table=table, first=1, rows=EIGHT[:2], by="org", now=NOW)
    before = _stored(table.game)
    rows = [EIGHT[0], Typed("3", "2", "s", "3"), EIGHT[2]]
    with pytest.raises(CardRefused) as refused:
        card_record(table=table, first=1, rows=rows, by="org", now=NOW)
    seats = table.game.seats
    assert refused.value.rows == {
        2: f"Hand 2 is recorded already as “{seats[2]} bid 2 ♠, took 2”: "
        "correct it on the game's page, or type it as recorded."
    }
    assert _stored(table.game) == before


def test_a_phone_saving_meanwhile_undoes_the_card(
    card_season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _table(card_season)
    record = game_services.hand_record
    calls = {"n": 0}

    def busy_table(**kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise Conflict(kwargs["expected_seq"] + 1)
        return record(**kwargs)

    monkeypatch.setattr(game_services, "hand_record", busy_table)
    with pytest.raises(CardRefused, match="moved on while the card was typed"):
        card_record(table=table, first=1, rows=EIGHT, by="org", now=NOW)
    assert _stored(table.game)[1] == 0


def test_a_called_rounds_card_ends_its_game_as_it_stands(card_season: Season) -> None:
    table = _table(card_season)
    rounds.round_call(round=table.round, by="org", now=NOW)
    table.refresh_from_db()
    table.game.refresh_from_db()
    assert not table.game.finished  # unplayed: left as it was
    card_record(table=table, first=1, rows=EIGHT[:3], by="org", now=NOW)
    board = replay_log(load(table.game))
    assert board.finished and board.decided == "ended" and len(board.rows) == 3
    assert board.end_reason == "round 1 called"


def test_a_closed_nights_cards_are_refused(card_season: Season) -> None:
    table = _table(card_season)
    rounds.night_close(night=table.round.night, by="org", now=NOW)
    table.round.night.refresh_from_db()
    with pytest.raises(CardRefused, match="This night is closed"):
        card_record(table=table, first=1, rows=EIGHT, by="org", now=NOW)


def test_a_pepper_rounds_forced_cells_may_stay_blank(league: League) -> None:
    season = services.season_create(
        league=league, name="Moon", preset="moon-42", now=NOW
    )
    table = _table(season)
    rows = [Typed("", "", "h", "5"), Typed("", "4", "s", "4")]
    card_record(table=table, first=1, rows=rows, by="org", now=NOW)
    board = replay_log(load(table.game))
    forced = [result.first_bidder for result in board.hands]
    assert [result.hand.bidder for result in board.hands] == forced  # type: ignore[union-attr]
    assert {result.hand.bid for result in board.hands} == {4}  # type: ignore[union-attr]


def test_the_printed_card_lists_who_deals_each_hand_to_come(
    card_season: Season,
) -> None:
    table = _table(card_season)
    play_hand(table.game)
    [card] = cards.cards_of([table], [])
    seats = table.game.seats
    assert [line.number for line in card.lines] == list(range(2, 13))  # 8 + 4 - 1
    first = table.game.first_dealer
    assert [line.dealer for line in card.lines[:4]] == [
        seats[(first + n) % 4] for n in range(1, 5)
    ]
    assert [seat.number for seat in card.seats] == [1, 2, 3, 4]
    assert len(card.recorded) == 1 and card.bids.startswith("1, 2, 3")


def test_the_night_unaffected_elsewhere(card_season: Season) -> None:
    """Entering one table's card leaves the other tables' games alone."""
    table = _table(card_season)
    other = Table.objects.exclude(pk=table.pk).select_related("game").get()
    card_record(table=table, first=1, rows=EIGHT[:2], by="org", now=NOW)
    other.game.refresh_from_db()
    assert other.game.last_seq == 0
    assert Night.objects.get().closed_at is None


def test_a_refusal_names_the_rule_in_words_not_the_contract(season: Season) -> None:
    """The engine cites "(contract §2)" for the API and the log; the page
    says the rule alone."""
    table = _table(season)  # classic: no concessions
    with pytest.raises(CardRefused) as refused:
        card_record(
            table=table, first=1, rows=[Typed("1", "3", "h", "c")], by="", now=NOW
        )
    assert refused.value.rows == {
        1: "Classic has no negotiation: the hand must be played out. To make it "
        "legal: record it as played, with each side's tricks."
    }
