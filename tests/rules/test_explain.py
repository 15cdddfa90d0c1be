"""Every hand says why it scored what it did, citing the rule."""

from __future__ import annotations

from scorekeeper.rules.engine import Scoreboard
from scorekeeper.rules.events import Hand
from scorekeeper.rules.explain import explain_hand, explain_status, status_rule
from scorekeeper.rules.variants import Variant
from tests.factories import conceded, passed, play, played, variant


def explained(rules: Variant, *hands: Hand) -> list[str]:
    board = play(rules, *hands)
    return [explain_hand(board, result) for result in board.hands]


def test_a_made_bid_names_the_sides_the_points_and_the_rule() -> None:
    [text] = explained(variant("moon-42", pepper_round_hands=0), played(1, 4, 1, 5))
    assert text == (
        "Bob & Dan bid 4 and took 5: made, +4 (the bid's value). "
        "Ann & Cat took 1: +1 (seed 001 §4.2)."
    )


def test_a_set_on_a_moon_says_the_defenders_took_a_trick_on_a_moon() -> None:
    [text] = explained(
        variant("moon-42", pepper_round_hands=0), played(1, "moon", 1, 5)
    )
    assert "Bob & Dan bid moon and took 5: set, -7 (a set costs the bid's 7)" in text
    assert "Ann & Cat took 1, and any trick on a moon pays 7: +7" in text


def test_a_classic_set_costs_6_whatever_the_bid() -> None:
    [text] = explained(variant("classic"), played(1, 2, 5, 1))
    assert "set, -6 (a set costs 6 whatever the bid)" in text
    assert "seed 000 'Outcome'" in text


def test_a_point_a_trick_and_a_shut_out_side() -> None:
    [made, shut_out] = explained(
        variant("moon-42", pepper_round_hands=0), played(1, 5, 1, 5), played(0, 4, 6, 0)
    )
    assert "Bob & Dan took no trick: a side shut out loses the bid: -4" in shut_out
    classic = explained(variant("classic"), played(1, 2, 0, 6))[0]
    assert (
        "made, +6 (a point a trick)" in classic
        and "Ann & Cat took no trick: +0" in classic
    )
    pepper = explained(variant("bid-euchre"), played(0, "pepper", 8, 0))[0]
    assert "made, +12 (the bid's value)" in pepper
    six = explained(variant("moon-42", pepper_round_hands=0), played(0, 6, 6, 0))[0]
    assert "made, +6. " in six
    assert made


def test_a_concession_names_the_free_tricks_and_the_negotiation_rule() -> None:
    texts = explained(variant("moon-42"), conceded(1, 4, 2), conceded(2, 4, 0))
    assert texts[0] == (
        "Bob & Dan bid 4; Ann & Cat were granted 2 free tricks: "
        "Bob & Dan +4, Ann & Cat +2 (seed 001 §3.2). "
        "The bid was forced: a pepper-round hand (seed 001 §5)."
    )
    assert "threw the hand in" in texts[1]


def test_a_passed_out_hand_says_the_deal_passes() -> None:
    assert explained(variant("classic"), passed()) == ["Nobody bid; the deal passes."]


def test_status_names_the_next_dealer_and_the_forced_bid() -> None:
    board = play(variant("moon-42"))
    assert explain_status(board) == (
        "Hand 1: Ann deals, Bob bids first and must bid 4 (pepper round). "
        "First to 42 wins."
    )
    assert explain_status(play(variant("classic"))).endswith("First to 30 wins.")


def test_status_names_the_winners_and_ties() -> None:
    won = play(variant("classic", 3), *[played(0, "big-pepper", 8, 0, 0)] * 2)
    assert explain_status(won).startswith("Ann wins with 32")
    team = play(variant("classic"), *[played(0, "big-pepper", 6, 0)] * 3)
    assert explain_status(team).startswith("Ann & Cat win with 36")
    tied = play(
        variant("classic", target_score=6), played(0, 3, 3, 3), played(1, 3, 3, 3)
    )
    assert "all tied win" in explain_status(tied)
    play_on = play(
        variant("classic", target_score=6, exact_tie="play-on"),
        played(0, 3, 3, 3),
        played(1, 3, 3, 3),
    )
    assert "tied at 6: play on until one side is ahead" in explain_status(play_on)
    pepper = play(
        variant("classic", target_score=6, exact_tie="pepper-round"),
        played(0, 3, 3, 3),
        played(1, 3, 3, 3),
    )
    assert "a new pepper round is played" in explain_status(pepper)


def _both_reach_50(both_reach: str = "bidder") -> Scoreboard:
    """bid-euchre: 48 all, then Ann & Cat bid 2 and take 2 (50) while Bob &
    Dan take 6 (54): both sides reach 50 in one hand."""
    rules = variant("bid-euchre", 4, both_reach=both_reach)
    hands = [played(1, 1, 4, 4) for _ in range(12)]
    return play(rules, *hands, played(0, 2, 2, 6))


def test_when_both_reach_the_bidders_win_with_their_own_total() -> None:
    board = _both_reach_50()
    assert (board.totals, board.winners, board.decided) == ((50, 54), (0,), "bidder")
    status = explain_status(board)
    assert status.startswith("Ann & Cat win with 50:")
    assert "the bidding side wins when both reach 50" in status
    assert "54" not in status
    assert status_rule(board) == board.variant.cite("both_reach")


def test_when_both_reach_under_higher_the_higher_total_wins() -> None:
    board = _both_reach_50("higher")
    assert (board.winners, board.decided) == ((1,), "higher")
    assert explain_status(board).startswith("Bob & Dan win with 54:")
    assert "the higher total wins" in explain_status(board)


def test_one_side_reaching_the_target_wins_with_its_total() -> None:
    rules = variant("classic", target_score=10)
    board = play(rules, played(1, 5, 1, 5), played(2, 5, 5, 1), played(3, 5, 1, 5))
    assert (board.totals, board.winners, board.decided) == ((7, 11), (1,), "target")
    assert explain_status(board) == "Bob & Dan win with 11: first to reach 10."
    assert status_rule(board) == board.variant.cite("target")


def test_co_winners_are_named_with_the_total_they_share() -> None:
    board = play(
        variant("classic", target_score=6), played(1, 3, 3, 3), played(2, 3, 3, 3)
    )
    assert (board.winners, board.decided) == ((0, 1), "co-winners")
    assert explain_status(board).startswith("Ann & Cat and Bob & Dan win, tied at 6")
    assert status_rule(board) == board.variant.cite("exact_tie")


def test_a_set_bid_of_8_in_bid_euchre_costs_the_number_bid_not_classic_words() -> None:
    [text] = explained(variant("bid-euchre", 4), played(1, 8, 1, 7))
    assert "set, -8 (a set costs the number bid, 8)" in text
    assert "whatever the bid" not in text


def test_a_classic_set_costs_its_fixed_penalty_whatever_the_bid() -> None:
    [text] = explained(variant("classic"), played(1, 2, 5, 1))
    assert "set, -6 (a set costs 6 whatever the bid)" in text
    [little] = explained(
        variant("classic", set_penalty="bid"), played(1, "little-pepper", 1, 5)
    )
    assert "(a set costs the 6 tricks it needed)" in little


def test_a_pepper_round_explanation_says_the_bid_was_forced() -> None:
    played_hand, conceded_hand = explained(
        variant("moon-42"), played(1, 4, 1, 5), conceded(2, 4, 1)
    )
    assert played_hand.endswith(
        "The bid was forced: a pepper-round hand (seed 001 §5)."
    )
    assert "The bid was forced" in conceded_hand
    [plain] = explained(variant("moon-42", pepper_round_hands=0), played(1, 4, 1, 5))
    assert "forced" not in plain
