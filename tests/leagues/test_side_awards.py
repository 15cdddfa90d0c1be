"""A night's side awards read off replayed games (``leagues.side_awards``):
no database, boards from the engine itself."""

from __future__ import annotations

from scorekeeper.leagues.side_awards import (
    Played,
    comeback,
    comebacks,
    moons_made,
    pepper_rounds_made,
    side_awards,
)
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.events import Hand
from scorekeeper.rules.events import HandRecorded as Bid
from scorekeeper.rules.variants import find_variant

SEATS = ("A", "B", "C", "D")
PLAYERS = ("1", "2", "3", "4")  # player ids by seat
NAMES = {"1": "Ann", "2": "Bob", "3": "Cat", "4": "Dan"}

# moon-42: a four-hand pepper round (the seat after the dealer bids 4),
# then moons. Seat 2 is set in the pepper round, seat 1 once on a moon;
# seats 1 and 3 (one side) make three moons each and win.
MOON_GAME = (
    Bid(1, 4, "hearts", (2, 4)),
    Bid(2, 4, "hearts", (3, 3)),
    Bid(3, 4, "hearts", (1, 5)),
    Bid(0, 4, "hearts", (4, 2)),
    Bid(1, "moon", "spades", (0, 6)),
    Bid(3, "moon", "spades", (0, 6)),
    Bid(1, "moon", "spades", (1, 5)),
    Bid(3, "moon", "spades", (0, 6)),
    Bid(1, "moon", "spades", (0, 6)),
    Bid(3, "moon", "spades", (0, 6)),
    Bid(1, "moon", "spades", (0, 6)),
)
# classic: seats 1 and 3 lead 12 to 0, then seats 0 and 2 win with three
# big peppers.
COMEBACK_GAME = (
    Bid(1, 5, "hearts", (0, 6)),
    Bid(3, 5, "spades", (0, 6)),
    Bid(0, "big-pepper", "hearts", (6, 0)),
    Bid(2, "big-pepper", "hearts", (6, 0)),
    Bid(0, "big-pepper", "clubs", (6, 0)),
)


def _board(preset: str, hands: tuple[Hand, ...]) -> Scoreboard:
    return replay(find_variant(preset, 4), SEATS, 0, hands)


def _played(preset: str, hands: tuple[Hand, ...]) -> Played:
    return Played(PLAYERS, _board(preset, hands))


def test_a_moon_made_counts_for_its_bidder_and_a_moon_set_does_not() -> None:
    counts = moons_made([_played("moon-42", MOON_GAME)])
    assert counts["2"] == 3  # four moons bid, one set
    assert counts["4"] == 3
    assert counts["1"] == counts["3"] == 0


def test_a_pepper_round_hand_counts_for_its_bidder_when_made() -> None:
    counts = pepper_rounds_made([_played("moon-42", MOON_GAME)])
    assert (counts["1"], counts["2"], counts["3"], counts["4"]) == (1, 1, 0, 1)


def test_a_hand_after_the_pepper_round_is_no_pepper_round_hand() -> None:
    before = pepper_rounds_made([_played("moon-42", MOON_GAME[:4])])
    assert pepper_rounds_made([_played("moon-42", MOON_GAME)]) == before


def test_the_comeback_is_the_most_points_the_winners_were_behind() -> None:
    board = _board("classic", COMEBACK_GAME)
    assert board.winners == (0,)
    assert comeback(board) == {0: 12}
    best = comebacks([Played(PLAYERS, board)])
    assert best["1"] == best["3"] == 12  # seats 0 and 2
    assert best["2"] == best["4"] == 0


def test_winners_never_behind_made_no_comeback() -> None:
    board = _board("moon-42", MOON_GAME)
    assert board.winners == (1,)
    assert comeback(board) == {1: 0}


def _others(first: int) -> Played:
    """Four other players' one finished game (a comeback of 12 for its
    winners): they count among the night's players, with too few games
    for an award."""
    players = tuple(str(first + seat) for seat in range(4))
    return Played(players, _board("classic", COMEBACK_GAME))


def _named(games: list[Played]) -> dict[str, str]:
    return {pid: NAMES.get(pid, f"P{pid}") for game in games for pid in game.players}


def test_the_awards_go_to_all_who_share_the_best_figure() -> None:
    games = [
        _played("moon-42", MOON_GAME),
        _played("classic", COMEBACK_GAME),
        _others(5),
        _others(9),
    ]  # 12 players: three may share an award
    given = {award.title: award for award in side_awards(games, _named(games))}
    assert given["Most moons made"].names == ("Bob", "Dan")
    assert given["Most moons made"].why == "3 moons made."
    assert given["Most pepper rounds made"].names == ("Ann", "Bob", "Dan")
    assert given["Best comeback"].names == ("Ann", "Cat")  # not P5..P12: one game
    assert given["Best comeback"].figure == 12


def test_a_side_award_wants_two_finished_games_and_a_quarter_of_the_room() -> None:
    """The rule the page states for every award (awards.MIN_GAMES,
    SHARED_BY): one game each gives none; shared by more than a quarter
    of the players, none either."""
    once = [_played("classic", COMEBACK_GAME), _others(5), _others(9)]
    assert side_awards(once, _named(once)) == []
    twice = [
        _played("moon-42", MOON_GAME),
        _played("classic", COMEBACK_GAME),
        _others(5),
    ]  # 8 players: two may share an award, not three
    titles = [award.title for award in side_awards(twice, _named(twice))]
    assert titles == ["Most moons made", "Best comeback"]


def test_games_still_in_play_count_for_no_side_award() -> None:
    unfinished = _played("moon-42", MOON_GAME[:-1])
    assert not unfinished.board.winners
    assert side_awards([unfinished], NAMES) == []
