"""Contract §5: every house setting, alone and together, and §6's end."""

from __future__ import annotations

import re

import pytest

from scorekeeper.rules.errors import VariantError, Violation
from scorekeeper.rules.events import AuctionCall, GameEnded, HandRecorded
from scorekeeper.rules.referee import turn_of, verify_auction
from scorekeeper.rules.variants import Variant
from tests.factories import conceded, passed, play, played, variant, void


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"dealer_sticks": True}, "'dealer_sticks' is not a house setting"),
        ({"stick_the_dealer": "yes"}, "stick_the_dealer must be true or false"),
        ({"minimum_bid": "4"}, "minimum_bid must be a bid of classic's ladder"),
        ({"minimum_bid": True}, "minimum_bid must be a bid"),
        ({"set_penalty": 0}, 'set_penalty must be "bid" or a whole number'),
        ({"set_penalty": "tricks"}, 'set_penalty must be "bid"'),
        ({"top_bid_points": 0}, "top_bid_points must be a whole number of at least 1"),
        ({"mercy": 5}, "mercy must be a negative whole number"),
        ({"mercy": -2.5}, "mercy must be a negative whole number"),
        ({"hand_limit": -1}, "hand_limit must be a whole number of at least 0"),
        ({"hand_limit": True}, "hand_limit must be a whole number"),
    ],
)
def test_an_unknown_setting_or_a_wrong_type_is_refused(
    overrides: dict[str, object], words: str
) -> None:
    with pytest.raises(VariantError, match=words):
        variant("classic", 4, **overrides)


def test_negotiation_needs_two_sides() -> None:
    with pytest.raises(VariantError, match="negotiation needs two sides"):
        variant("classic", 3, negotiation=True)


def test_a_bid_below_the_minimum_is_refused_in_a_hand_and_in_an_auction() -> None:
    rules = variant("classic", minimum_bid=3)
    with pytest.raises(Violation, match="the lowest bid here is 3, so 2 cannot be bid"):
        play(rules, played(1, 2, 2, 4))
    turn = turn_of(rules, 0, 1, False)
    with pytest.raises(Violation, match="call 2: the lowest bid here is 3"):
        verify_auction(rules, turn, [(1, "pass"), (2, 2)])
    assert play(rules, played(1, 3, 2, 4)).totals == (2, 4)


def test_the_pepper_round_forces_the_minimum_bid() -> None:
    rules = variant("moon-42", minimum_bid=5)
    board = play(rules)
    assert board.next is not None and board.next.forced_bid == 5
    assert play(rules, played(1, 5, 1, 5)).totals == (1, 5)
    with pytest.raises(Violation, match="pepper round"):
        play(rules, played(1, 6, 0, 6))
    with pytest.raises(Violation, match="the lowest bid here is 5"):
        play(rules, played(1, 4, 1, 5))


def test_stick_the_dealer_refuses_a_passed_out_hand_and_a_stuck_dealers_pass() -> None:
    rules = variant("classic", stick_the_dealer=True)
    with pytest.raises(Violation, match="the dealer is stuck"):
        play(rules, passed())
    turn = turn_of(rules, 0, 1, False)  # Ann deals; Bob, Cat, Dan pass
    with pytest.raises(Violation, match="call 4: everyone else passed, so Ann"):
        verify_auction(
            rules,
            turn,
            [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")],
            ["Ann", "Bob", "Cat", "Dan"],
        )
    assert verify_auction(
        rules, turn, [(1, "pass"), (2, "pass"), (3, "pass"), (0, 1)]
    ) == (0, 1)
    euchre = variant("bid-euchre", stick_the_dealer=True)
    calls: list[AuctionCall] = [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")]
    with pytest.raises(Violation, match="stuck"):
        verify_auction(euchre, turn_of(euchre, 0, 1, False), calls)


def test_set_penalty_bid_costs_the_tricks_the_bid_needed() -> None:
    rules = variant("classic", set_penalty="bid")
    assert play(rules, played(1, 3, 4, 2)).totals == (4, -3)
    assert play(rules, played(1, "little-pepper", 1, 5)).totals == (1, -6)
    assert play(rules, played(1, "big-pepper", 1, 5)).totals == (
        1,
        -12,
    )  # not a numbered bid


def test_set_penalty_points_cost_that_many_on_numbered_bids_and_little_pepper() -> None:
    rules = variant("bid-euchre", set_penalty=5)
    assert play(rules, played(1, 3, 6, 2)).totals == (6, -5)
    assert play(rules, played(1, "pepper", 1, 7)).totals == (1, -12)


def test_top_bid_points_move_the_top_bids_made_set_and_the_defenders() -> None:
    classic = variant("classic", top_bid_points=20)
    assert play(classic, played(1, "big-pepper", 0, 6)).totals == (0, 20)
    assert play(classic, played(1, "big-pepper", 1, 5)).totals == (1, -20)
    moon = variant("moon-42", top_bid_points=10, pepper_round_hands=0)
    assert play(moon, played(1, "moon", 0, 6)).totals == (-10, 10)  # shut out
    assert play(moon, played(1, "moon", 1, 5)).totals == (10, -10)
    assert play(moon, played(1, "double-moon", 1, 5)).totals == (20, -20)


def test_a_side_shut_out_loses_the_bids_value_not_the_set_penalty() -> None:
    rules = variant("classic", defenders_shut_out_lose=True)
    assert play(rules, played(1, 3, 0, 6)).totals == (-3, 6)
    assert play(rules, played(1, "little-pepper", 0, 6)).totals == (-6, 6)
    moon = variant("moon-42", defenders_shut_out_lose=False, pepper_round_hands=0)
    assert play(moon, played(1, 4, 0, 6)).totals == (0, 4)


def test_negotiation_scores_the_bids_value_and_the_free_tricks() -> None:
    rules = variant("classic", negotiation=True)
    assert play(rules, conceded(1, 3, 2)).totals == (2, 3)
    assert play(rules, conceded(1, "little-pepper", 0)).totals == (0, 6)
    with pytest.raises(Violation, match="at most 3 free tricks"):
        play(rules, conceded(1, 3, 4))
    with pytest.raises(Violation, match="no negotiation"):
        play(
            variant("moon-42", negotiation=False, pepper_round_hands=0),
            conceded(1, 4, 1),
        )


def test_clubs_may_be_conceded_when_the_house_says_so() -> None:
    rules = variant("moon-42", clubs_must_play=False, pepper_round_hands=0)
    assert play(rules, conceded(1, 4, 1, trump="clubs")).totals == (1, 4)
    with pytest.raises(Violation, match="with clubs trump"):
        play(
            variant("classic", negotiation=True, clubs_must_play=True),
            conceded(1, 3, 1, trump="clubs"),
        )


def test_a_house_without_no_trump_refuses_it() -> None:
    with pytest.raises(Violation, match="without no-trump"):
        play(variant("classic", no_trump=False), played(1, 3, 2, 4, trump="no-trump"))


def test_one_call_each_can_be_turned_off_and_on() -> None:
    open_auction = variant("bid-euchre", one_call_each=False)
    turn = turn_of(open_auction, 0, 1, False)
    calls: list[AuctionCall] = [(1, 2), (2, 3), (3, "pass"), (0, "pass"), (1, "pass")]
    assert verify_auction(open_auction, turn, calls) == (2, 3)
    one_each = variant("classic", one_call_each=True)
    assert verify_auction(
        one_each, turn, [(1, 2), (2, 3), (3, "pass"), (0, "pass")]
    ) == (2, 3)


def test_must_bid_to_win_only_the_bidders_win_and_whatever_the_others_have() -> None:
    rules = variant("classic", must_bid_to_win=True, target_score=10)
    board = play(rules, played(1, 5, 6, 0), played(1, 5, 6, 0))  # Ann & Cat 12, unbid
    assert (board.totals, board.winners) == ((12, -12), ())
    board = play(rules, played(0, 5, 6, 0), played(1, 1, 3, 3), played(2, 5, 5, 1))
    assert board.winners == (0,) and board.decided == "must-bid"
    with pytest.raises(Violation, match="the game is over"):
        play(
            rules, played(0, 5, 6, 0), played(1, 1, 3, 3), played(2, 5, 5, 1), passed()
        )


def test_must_bid_to_win_a_set_bidder_at_the_target_does_not_win() -> None:
    rules = variant("classic", must_bid_to_win=True, target_score=10, set_penalty=1)
    board = play(rules, played(0, 5, 6, 0), played(0, 5, 6, 0))  # 12: wins on hand 2
    assert board.winners == (0,)
    unbid = played(1, 1, 6, 0)  # Bob bids 1 and is set: Ann & Cat +6 without bidding
    board = play(rules, unbid, unbid, played(0, 5, 4, 2))  # 11 by a set bid of 5
    assert (board.totals[0], board.winners) == (11, ())


def test_mercy_ends_the_game_and_the_highest_total_wins() -> None:
    rules = variant("classic", mercy=-10)
    board = play(rules, played(1, 5, 2, 4), played(1, 5, 2, 4))
    assert (board.totals, board.winners, board.decided) == ((4, -12), (0,), "mercy")


def test_the_hand_limit_ends_the_game_after_that_many_hands() -> None:
    rules = variant("classic", hand_limit=2)
    board = play(rules, played(1, 3, 2, 4), played(2, 3, 4, 2))
    assert (board.totals, board.winners, board.decided) == (
        (6, 6),
        (0, 1),
        "hand-limit",
    )
    board = play(rules, played(1, 3, 2, 4), played(2, 3, 3, 3))
    assert (board.winners, board.decided) == ((1,), "hand-limit")


def test_a_tie_at_the_hand_limit_plays_on_or_starts_a_pepper_round() -> None:
    play_on = variant("classic", hand_limit=1, exact_tie="play-on")
    board = play(play_on, played(1, 3, 3, 3))
    assert (board.winners, board.tied) == ((), (0, 1))
    assert play(play_on, played(1, 3, 3, 3), played(2, 3, 4, 2)).winners == (0,)
    pepper = variant("classic", hand_limit=1, exact_tie="pepper-round")
    board = play(pepper, played(1, 3, 3, 3))
    assert (
        board.next is not None
        and board.next.pepper_round
        and board.next.forced_bid == 1
    )


def test_the_target_comes_before_mercy_and_mercy_before_the_hand_limit() -> None:
    rules = variant("classic", target_score=6, mercy=-6, hand_limit=1)
    board = play(
        rules, played(1, "little-pepper", 0, 6)
    )  # 6 and -6... -6 is a set? no: made
    assert board.decided == "target" and board.winners == (1,)
    rules = variant("classic", mercy=-6, hand_limit=1)
    board = play(rules, played(1, 3, 4, 2))  # Bob & Dan set: -6
    assert board.decided == "mercy" and board.winners == (0,)


def test_an_end_event_ends_the_game_as_it_stands() -> None:
    rules = variant("moon-42", pepper_round_hands=0)
    board = play(rules, played(1, 4, 1, 5), GameEnded("time"))
    assert (board.winners, board.decided, board.end_reason) == ((1,), "ended", "time")
    assert board.next is None and board.status == "finished"
    tied = play(rules, GameEnded())
    assert tied.winners == (0, 1)


def test_only_a_fix_follows_an_end_and_a_won_game_cannot_be_ended() -> None:
    rules = variant("moon-42", pepper_round_hands=0)
    with pytest.raises(
        Violation, match="ended at event 2: only a void or a correction"
    ) as after:
        play(rules, played(1, 4, 1, 5), GameEnded(), played(2, 4, 5, 1))
    assert after.value.event == 3
    with pytest.raises(Violation, match="ended at event 2") as twice:
        play(rules, played(1, 4, 1, 5), GameEnded(), GameEnded())
    assert twice.value.event == 3
    won = variant("classic", target_score=5)
    with pytest.raises(Violation, match="already over") as ended:
        play(won, played(1, 5, 1, 5), GameEnded())
    assert ended.value.event == 2


def test_an_end_after_a_void_ends_the_corrected_game() -> None:
    rules = variant("moon-42", pepper_round_hands=0)
    board = play(rules, played(1, 4, 1, 5), played(2, 4, 5, 1), void(2), GameEnded())
    assert board.totals == (1, 4) and board.winners == (1,)
    assert isinstance(board.hands[0].hand, HandRecorded)


def test_must_bid_to_win_counts_a_hand_conceded_to_the_bidders() -> None:
    rules = variant(
        "moon-42", must_bid_to_win=True, target_score=4, pepper_round_hands=0
    )
    assert play(rules, conceded(1, 4, 1)).winners == (1,)


@pytest.mark.parametrize(
    ("rules", "hands", "words", "source"),
    [
        (
            variant("classic", mercy=-10),
            [played(1, 5, 2, 4)] * 2,
            "Ann & Cat win with 4: a side fell to -10 or below, so the mercy rule ends",
            "house rule",
        ),
        (
            variant("classic", hand_limit=1),
            [played(1, 3, 2, 4)],
            "Bob & Dan win with 4: the game ends after 1 hand,",
            "house rule",
        ),
        (
            variant("classic", hand_limit=1),
            [played(1, 3, 3, 3)],
            "Ann & Cat and Bob & Dan win, tied at 3: the game ends after 1 hand,",
            "house rule",
        ),
        (
            variant("classic"),
            [played(1, 3, 2, 4), GameEnded("time")],
            "Bob & Dan win with 4: the game was ended as it stood (time)",
            "contract §6",
        ),
        (
            variant("classic", must_bid_to_win=True, target_score=4),
            [played(1, 4, 2, 4)],
            "Bob & Dan win with 4: they made their bid and stand at 4 or more",
            "house rule",
        ),
    ],
)
def test_every_ending_is_explained_with_the_rule_behind_it(
    rules: object, hands: list[object], words: str, source: str
) -> None:
    from scorekeeper.rules.explain import explain_status, status_rule

    board = play(rules, *hands)  # type: ignore[arg-type]
    assert explain_status(board).startswith(words)
    assert status_rule(board) == source


@pytest.mark.parametrize(
    ("rules", "hands", "words", "source"),
    [
        (
            variant("classic"),
            [played(0, "big-pepper", 6, 0)] * 3,
            "the game is over: Ann & Cat won after hand 3, so there is no hand",
            "seed 000 'Game'",
        ),
        (
            variant("classic", mercy=-10),
            [played(1, 5, 2, 4)] * 2,
            "Ann & Cat won after hand 2 by the mercy rule (a side at -10 or below)",
            "house rule: mercy at -10",
        ),
        (
            variant("classic", hand_limit=1),
            [played(1, 3, 3, 3)],
            "Ann & Cat and Bob & Dan won after hand 1 at the hand limit (1 hand),",
            "house rule: hand limit of 1 hand",
        ),
        (
            variant("classic", hand_limit=2, exact_tie="play-on"),
            [played(1, 3, 2, 4), played(2, 3, 4, 2), played(3, 3, 2, 4)],
            "Bob & Dan won after hand 3 past the hand limit (2 hands), once one "
            "side was ahead,",
            "house rule: hand limit of 2 hands",
        ),
    ],
)
def test_a_hand_after_the_game_is_won_cites_the_rule_that_ended_it(
    rules: Variant, hands: list[HandRecorded], words: str, source: str
) -> None:
    with pytest.raises(Violation, match=re.escape(words)) as refused:
        play(rules, *hands, passed())
    assert refused.value.rule == source
    assert refused.value.event == len(hands) + 1


def test_a_hand_after_an_end_event_cites_the_end_not_the_target() -> None:
    with pytest.raises(Violation, match="the game was ended at event 2") as refused:
        play(variant("classic"), played(1, 3, 2, 4), GameEnded("time"), passed())
    assert refused.value.rule == "contract §6"


def test_a_tie_or_a_game_in_progress_cites_its_own_rule() -> None:
    from scorekeeper.rules.explain import status_rule

    rules = variant("classic", target_score=3, exact_tie="play-on")
    assert status_rule(play(rules, played(1, 3, 3, 3))) == rules.cite("exact_tie")
    assert status_rule(play(rules)) == rules.cite("target")


def test_a_bid_given_as_the_text_4_is_told_to_write_the_number() -> None:
    with pytest.raises(
        Violation, match='the bid "4" is text: write it as the number 4'
    ):
        play(variant("classic"), played(1, "4", 2, 4))
