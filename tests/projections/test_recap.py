"""The table's recap, read off the engine's replay: each player's bids
made and set, top bids and pepper-round bids, the biggest swing, the hand
that decided the game, and the awards, each by its rule."""

from __future__ import annotations

from scorekeeper.projections.recap import (
    AwardKind,
    added,
    deciding_hand,
    game_recap,
    player_lines,
    recap_awards,
    top_calls,
)
from scorekeeper.rules.events import GameEnded
from scorekeeper.seatstats import no_stats, seat_stats
from tests.factories import passed, play, played, variant

MOON = variant("moon-42", 4)
# The four pepper-round hands (Bob, Cat, Dan, Ann forced to bid 4: Cat is
# set), then Bob makes a moon and Ann is set on hers.
MOON_HANDS = (
    played(1, 4, 1, 5),
    played(2, 4, 3, 3),
    played(3, 4, 2, 4),
    played(0, 4, 6, 0),
    played(1, "moon", 0, 6),
    played(0, "moon", 5, 1),
)


def test_each_player_has_their_bids_made_and_set() -> None:
    recap = game_recap(play(MOON, *MOON_HANDS))
    assert [(p.bids, p.made, p.set) for p in recap.players] == [
        (2, 1, 1),
        (2, 2, 0),
        (1, 0, 1),
        (1, 1, 0),
    ]


def test_top_bids_and_pepper_round_bids_are_counted_apart() -> None:
    recap = game_recap(play(MOON, *MOON_HANDS))
    assert [(p.top_bids, p.top_made) for p in recap.players] == [
        (1, 0),
        (1, 1),
        (0, 0),
        (0, 0),
    ]
    assert [(p.pepper_bids, p.pepper_made) for p in recap.players] == [
        (1, 1),
        (1, 1),
        (1, 0),
        (1, 1),
    ]


def test_a_seats_defence_counts_the_bidders_it_set() -> None:
    recap = game_recap(play(MOON, *MOON_HANDS))
    # Cat's 4 and Ann's moon were set: Bob and Dan defended both.
    assert [p.sets for p in recap.players] == [0, 2, 0, 2]


def test_the_top_bids_are_the_ladders_top_rungs() -> None:
    assert top_calls(MOON) == {"moon", "double-moon"}
    assert top_calls(variant("classic", 4)) == {"big-pepper"}


def test_the_biggest_swing_is_the_first_hand_of_the_widest_gap() -> None:
    board = play(MOON, *MOON_HANDS)
    recap = game_recap(board)
    widest = max(max(h.deltas) - min(h.deltas) for h in board.hands)
    assert recap.swing is not None and recap.swing.number == 5
    assert max(recap.swing.deltas) - min(recap.swing.deltas) == widest


def test_a_game_of_passed_out_hands_has_no_swing() -> None:
    assert game_recap(play(variant("classic", 4), passed(), passed())).swing is None


def test_a_game_won_at_the_table_was_decided_by_its_last_hand() -> None:
    rules = variant("classic", 4, target_score=10)
    board = play(rules, played(1, 3, 2, 4), played(0, 3, 4, 2), played(1, 4, 1, 5))
    assert board.winners == (1,)
    decided = deciding_hand(board)
    assert decided is not None and decided.number == 3


def test_an_ended_game_was_decided_where_its_winners_took_the_lead_for_good() -> None:
    rules = variant("classic", 4)
    board = play(
        rules,
        played(1, 3, 2, 4),  # Bob & Dan lead
        played(0, 4, 5, 1),  # Ann & Cat lead, and keep it
        played(1, 3, 3, 3),
        GameEnded("time"),
    )
    assert (board.winners, board.decided) == ((0,), "ended")
    decided = deciding_hand(board)
    assert decided is not None and decided.number == 2


def test_a_game_still_played_or_without_hands_has_no_deciding_hand() -> None:
    assert deciding_hand(play(MOON, *MOON_HANDS)) is None
    assert deciding_hand(play(variant("classic", 4), GameEnded())) is None


def test_the_awards_follow_their_rules() -> None:
    awards = {a.kind: a.seats for a in game_recap(play(MOON, *MOON_HANDS)).awards}
    assert awards == {
        AwardKind.MOON_SHOOTER: (1,),  # made a top bid
        AwardKind.SURE_HAND: (1,),  # the most bids made
        AwardKind.BRICK_WALL: (1, 3),  # the most bidders set, shared
        AwardKind.PEPPER_PROOF: (0, 1, 3),  # every pepper-round bid made
    }


def test_an_award_nobody_earned_is_left_out() -> None:
    assert game_recap(play(variant("classic", 4))).awards == ()


def test_a_series_sums_each_seats_games() -> None:
    one = game_recap(play(MOON, *MOON_HANDS)).players
    two = player_lines(MOON, seat_stats(play(MOON, *MOON_HANDS[:2])))
    total = added([one, two])
    assert [(p.seat, p.bids, p.made) for p in total] == [
        (p.seat, p.bids + q.bids, p.made + q.made)
        for p, q in zip(one, two, strict=True)
    ]


def test_lines_from_a_rows_seat_numbers_have_no_pepper_count() -> None:
    lines = player_lines(MOON, no_stats(MOON))
    assert all(p.pepper_bids == 0 and p.bids == 0 for p in lines)
    assert recap_awards(lines) == ()
