"""A page's first view after a change reads what was kept and redoes only
what the change moved: the season's totals of its earlier nights (kept in
the cache) and the ratings up to the changed game (kept as rows). Each
equals what every night folded again, or a rebuild, gives: after a change
to the latest night, a late correction of an early game and a substitute."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.awards import joined
from scorekeeper.leagues.models import (
    Night,
    NightProjection,
    Player,
    Rating,
    Round,
    Season,
)
from scorekeeper.leagues.presenters import player_numbers
from scorekeeper.leagues.rated_games import rating_history, ratings_refresh
from scorekeeper.leagues.ratings import Skill
from scorekeeper.leagues.results import (
    SeasonNights,
    kept_versions,
    player_results,
    season_nights,
)
from scorekeeper.leagues.season_totals import SeasonTotals, season_totals
from scorekeeper.models import Game
from tests.leagues.nights import (
    closed_night,
    play_hand,
    play_out,
    play_out_round,
    progressive_night,
    take_over,
    void_first_hand,
)
from tests.records import NOW

pytestmark = pytest.mark.django_db


def _totals(season: Season) -> SeasonTotals:
    nights = list(season.nights.all())
    return season_totals(season, SeasonNights(nights, kept_versions(nights)))


def _every_night_folded(season: Season) -> SeasonTotals:
    """The totals as the page summed them before any was kept: every
    night's summary, read again from its rows, folded in date order."""
    cache.clear()
    summaries = season_nights(season)
    return SeasonTotals(
        joined(summary.feats for _, summary in summaries),
        [
            (day, {pid: tally.points for pid, tally in summary.tallies.items()})
            for day, summary in summaries
            if summary.tallies
        ],
        sum((Counter(summary.rules) for _, summary in summaries), Counter()),
    )


def _game(night: Night, round: int, table: int) -> Game:
    return night.rounds.get(number=round).tables.get(number=table).game


def test_the_totals_kept_for_the_earlier_nights_equal_every_night_folded(
    season: Season, organizer: User
) -> None:
    nights = [closed_night(season, date(2026, 1, 1 + 7 * n), n) for n in range(3)]
    assert _totals(season) == _every_night_folded(season)
    _totals(season)  # the earlier nights' totals kept
    void_first_hand(_game(nights[2], 2, 1), organizer)  # the latest night
    kept = list(season.nights.all())
    versions = kept_versions(kept)
    with CaptureQueriesContext(connection) as queries:
        after_latest = season_totals(season, SeasonNights(kept, versions))
    # The latest night's summary alone, read again from its rows.
    assert [q["sql"].count(f"IN ({nights[2].pk})") for q in queries] == [1, 1]
    assert after_latest == _every_night_folded(season)
    _totals(season)
    void_first_hand(_game(nights[0], 1, 2), organizer)  # a late correction
    assert _totals(season) == _every_night_folded(season)


def test_a_substitute_on_the_latest_night_moves_its_totals(
    season: Season, organizer: User
) -> None:
    closed_night(season, date(2026, 1, 1), 1)
    _totals(season)
    night = progressive_night(season, date(2026, 1, 8))
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    table = played.tables.select_related("game", "round__night").get(number=1)
    play_hand(table.game)
    take_over(table, played.sitting_out.get())
    play_out_round(played)
    assert _totals(season) == _every_night_folded(season)


def _ratings(season: Season) -> list[tuple[int, object, int, object]]:
    rows = Rating.objects.filter(league=season.league)
    return list(rows.values_list("position", "game", "seq", "skills"))


def _players() -> list[tuple[int, float | None, float | None, int]]:
    rows = Player.objects.order_by("pk")
    return list(rows.values_list("pk", "mu", "sigma", "rated_games"))


def _as_a_rebuild_would(season: Season) -> None:
    running, players = _ratings(season), _players()
    ratings_refresh(season.league, rebuild=True)
    assert _ratings(season) == running
    assert _players() == players


def test_a_substitute_credited_rerates_from_its_game_on_as_a_rebuild_would(
    season: Season,
) -> None:
    """Table 2 finished and rated first; table 1, before it in the league's
    order, then takes a substitute credited with the game and finishes:
    both are rated again (in order), the nights before stay as they were."""
    closed_night(season, date(2026, 1, 1), 1)
    assert ratings_refresh(season.league) == 4
    before = _ratings(season)
    night = progressive_night(season, date(2026, 1, 8))
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    first, second = played.tables.select_related("game", "round__night")
    play_out(second.game)
    assert ratings_refresh(season.league) == 1
    play_hand(first.game)
    take_over(first, played.sitting_out.get(), position=1)
    play_out(first.game)
    assert ratings_refresh(season.league) == 2  # table 1, then table 2 again
    assert _ratings(season)[:4] == before
    _as_a_rebuild_would(season)
    substitute = f"p{played.sitting_out.get().pk}"
    assert substitute in _ratings(season)[4][3]  # type: ignore[operator]


def test_the_ratings_take_in_each_nights_revision(
    season: Season, organizer: User
) -> None:
    """A night's revision moves with every change to its finished games;
    the ratings compare only from the first night whose revision moved,
    and mark what they took in."""
    nights = [closed_night(season, date(2026, 1, 1 + 7 * n), n) for n in range(2)]
    ratings_refresh(season.league)
    kept = NightProjection.objects.filter(night__in=nights)
    assert all(p.rated == p.revision for p in kept)
    void_first_hand(_game(nights[1], 1, 2), organizer)
    moved = NightProjection.objects.get(night=nights[1])
    assert moved.rated < moved.revision
    assert ratings_refresh(season.league) == 3  # that game and the two after it
    assert ratings_refresh(season.league) == 0
    moved.refresh_from_db()
    assert moved.rated == moved.revision
    _as_a_rebuild_would(season)


def test_a_hand_at_a_game_still_being_played_shows_on_the_players_page(
    season: Season,
) -> None:
    """The ratings' version moves only with finished games: a player's
    cached numbers are keyed by their own games too."""
    closed_night(season, date(2026, 1, 1), 1)
    night = progressive_night(season, date(2026, 1, 8))
    played = rounds.round_start(night=night, rng=random.Random(2), now=NOW)
    table = played.tables.select_related("game").first()
    assert table is not None
    player = table.seats.get(position=0).player
    ratings_refresh(season.league)
    before = player_numbers(player).recent[0].game.totals
    play_hand(table.game)
    ratings_refresh(season.league)
    assert player_numbers(player).recent[0].game.totals != before


@pytest.mark.parametrize("seed", range(3))
def test_the_running_ratings_equal_a_rebuild_after_any_change(
    season: Season, organizer: User, seed: int
) -> None:
    """Two seasons whose nights share dates, changed in a random order (a
    night played, a late correction of any finished game, a hand at a game
    still going, a round played out): after each change the ratings
    brought up to date equal the ratings redone from scratch, and bringing
    them up to date again does nothing; a player's games are listed in the
    same order (two seasons' games of one date, round and table number
    by season)."""
    rng = random.Random(seed)
    other = services.season_create(
        league=season.league, name="Winter", preset="classic", now=NOW
    )
    free = [(each, date(2026, 1, day)) for each in (season, other) for day in (1, 8)]
    rng.shuffle(free)  # a season's night, one a date; the other's on the same dates
    going: list[Round] = []

    def night_played() -> None:
        if free:
            closed_night(*free.pop(), rng.randrange(9))

    def late_correction() -> None:
        finished = list(Game.objects.filter(finished=True, table__isnull=False))
        if finished:
            void_first_hand(rng.choice(finished), organizer)

    def round_started() -> None:
        if not free:
            return
        night = progressive_night(*free.pop())
        played = rounds.round_start(night=night, rng=rng, now=NOW)
        play_hand(played.tables.first().game)  # type: ignore[union-attr]
        going.append(played)

    def round_finished() -> None:
        if going:
            play_out_round(going.pop(rng.randrange(len(going))))

    changes = [night_played, late_correction, round_started, round_finished]
    night_played()
    for _ in range(7):
        rng.choice(changes)()
        ratings_refresh(season.league)
        assert ratings_refresh(season.league) == 0
        _as_a_rebuild_would(season)
    for player in season.league.players.all():  # their games in the same order
        places = [(p.night, p.season, p.round, p.table) for p in player_results(player)]
        assert places == sorted(places)


def test_a_players_rating_history_reads_their_own_skill_of_each_game(
    season: Season,
) -> None:
    """The history (one plain query, a database's own JSON look-up) is
    each of the player's rated games' skills after it, read whole here,
    in the order rated; a player not rated yet has none."""
    for seed, day in enumerate((date(2026, 1, 1), date(2026, 1, 8))):
        closed_night(season, day, seed)
    ratings_refresh(season.league)
    newcomer = services.player_add(league=season.league, name="Newcomer")
    assert rating_history(newcomer) == []
    for player in season.league.players.exclude(pk=newcomer.pk):
        rated = Rating.objects.filter(game__table__seats__player=player)
        expected = [
            (row.game.table.round.night.date, Skill(*row.skills[f"p{player.pk}"]))
            for row in rated.select_related("game__table__round__night")
        ]
        assert rating_history(player) == expected
        assert len(expected) == player.seats.filter(table__game__finished=True).count()
