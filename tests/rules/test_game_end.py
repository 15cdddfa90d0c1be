"""Winning, ties and tie-breaks across presets (contract §2)."""

from __future__ import annotations

from scorekeeper.rules.variants import DEFAULT_TIE_PEPPER_ROUND
from tests.factories import play, played, variant

# Three players, first to 10: Ann and Bob reach 10 together in hand 3.
TIED_AT_10 = (
    played(1, 4, 4, 4, 0),  # 4 4 0
    played(0, 4, 4, 4, 0),  # 8 8 0
    played(2, 1, 2, 2, 4),  # 10 10 4
)


def test_exact_tie_pepper_round_lasts_4_hands_when_the_variant_has_none() -> None:
    rules = variant("classic", 3, target_score=10, exact_tie="pepper-round")
    board = play(rules, *TIED_AT_10)
    assert (board.totals, board.tied) == ((10, 10, 4), (0, 1))
    assert board.pepper_round_until == 3 + DEFAULT_TIE_PEPPER_ROUND
    assert board.next is not None
    assert (board.next.pepper_round, board.next.forced_bid) == (True, 1)


def test_exact_tie_pepper_round_lasts_the_houses_pepper_round_length() -> None:
    rules = variant(
        "classic", 3, target_score=10, exact_tie="pepper-round", pepper_round_hands=1
    )
    board = play(rules, played(1, 1, 4, 4, 0), *TIED_AT_10[1:])
    assert board.totals == (10, 10, 4)
    assert board.hands[0].pepper_round and not board.hands[1].pepper_round
    assert board.pepper_round_until == 4


def test_a_tie_that_persists_keeps_playing_on() -> None:
    rules = variant("classic", 3, target_score=10, exact_tie="play-on")
    board = play(rules, *TIED_AT_10, played(1, 1, 1, 1, 6))
    assert (board.totals, board.tied, board.winners) == ((11, 11, 10), (0, 1), ())


def test_a_third_player_past_the_target_and_strictly_ahead_breaks_the_tie() -> None:
    rules = variant("classic", 3, target_score=10, exact_tie="play-on")
    board = play(
        rules,
        *TIED_AT_10,
        played(1, 1, 1, 1, 6),  # 11 11 10: tied at the top, still playing
        played(0, 7, 0, 0, 8),  # Ann set to 3, Cat reaches 18 and wins
    )
    assert (board.totals, board.winners, board.tied) == ((3, 11, 18), (2,), ())


def test_bid_euchre_bidding_side_wins_when_both_reach_50_seed_002_winning() -> None:
    rules = variant("bid-euchre", 4)
    opening = [played(0, "double-pepper", 8, 0)] * 2
    opening += [played(1, "double-pepper", 0, 8)] * 2  # 48-48
    board = play(rules, *opening, played(1, 1, 6, 2))
    assert board.totals == (54, 50)
    assert board.winners == (1,)


def test_both_reach_override_lets_the_higher_win_in_bid_euchre() -> None:
    rules = variant("bid-euchre", 4, both_reach="higher")
    opening = [played(0, "double-pepper", 8, 0)] * 2
    opening += [played(1, "double-pepper", 0, 8)] * 2
    assert play(rules, *opening, played(1, 1, 6, 2)).winners == (0,)


def test_a_single_side_past_the_target_wins_even_against_the_bidder() -> None:
    rules = variant("bid-euchre", 4)
    board = play(rules, *[played(0, "double-pepper", 8, 0)] * 2, played(1, 3, 2, 6))
    assert (board.totals, board.winners) == ((50, 6), (0,))


def test_target_override_moves_the_finish_line() -> None:
    board = play(variant("classic", 4, target_score=5), played(1, 3, 1, 5))
    assert board.winners == (1,)


def test_section_5_both_reach_bidder_needs_sides_that_reach_the_target_in_that_hand() -> (
    None
):
    """Contract §5 both_reach: "several sides reach the target in one hand".
    After a tie at the target (play-on, §2) Ann and Bob were past it
    already: the next hand is play-on's "first side at or above the target
    and strictly ahead wins", so Bob (18) wins, not Ann who bid (11)."""
    rules = variant(
        "classic", 3, target_score=10, exact_tie="play-on", both_reach="bidder"
    )
    board = play(rules, *TIED_AT_10, played(0, 1, 1, 7, 0))
    assert (board.totals, board.winners) == ((11, 17, 4), (1,))


def test_section_5_both_reach_bidder_after_a_tie_still_waits_for_one_side_ahead() -> (
    None
):
    """Cat bids and reaches the target alone while Ann and Bob stay level
    at the top: nobody reached it with her, and nobody is strictly ahead."""
    rules = variant(
        "classic", 3, target_score=10, exact_tie="play-on", both_reach="bidder"
    )
    board = play(rules, *TIED_AT_10, played(2, 6, 1, 1, 6))
    assert (board.totals, board.winners, board.tied) == ((11, 11, 10), (), (0, 1))


def test_section_5_both_reach_bidder_when_both_reach_in_the_same_hand() -> None:
    """Three players: Ann (bidder, 10) and Bob (12) reach 10 in one hand:
    the bidding side wins."""
    rules = variant("classic", 3, target_score=10, both_reach="bidder")
    board = play(
        rules, played(1, 4, 4, 4, 0), played(2, 1, 4, 4, 0), played(0, 2, 2, 4, 2)
    )
    assert (board.totals, board.winners, board.decided) == (
        (10, 12, -6),
        (0,),
        "bidder",
    )
