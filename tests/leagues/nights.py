"""A league night's games played through the services, for the league tests."""

from __future__ import annotations

import random
from datetime import date, datetime

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.eventstore import load
from scorekeeper.gamelog import replay_log
from scorekeeper.games import services as game_services
from scorekeeper.leagues import rounds, services
from scorekeeper.leagues.models import Night, Player, Round, Season, Table
from scorekeeper.leagues.substitutes import seat_substitute
from scorekeeper.models import Game
from scorekeeper.rules.events import Call
from tests.records import NOW

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def play_hand(
    game: Game, *, bidder_side_takes: int = 6, bid: Call | None = None
) -> None:
    """The next hand: the first bidder bids ``bid`` (or the lowest bid, or
    the pepper round's forced bid)."""
    board = replay_log(load(game))
    turn = board.next
    assert turn is not None
    call = turn.forced_bid or bid or board.variant.lowest_bid
    variant = board.variant
    side = variant.side_of(turn.first_bidder)
    tricks = [0] * variant.sides  # the rest go to the next side
    tricks[side] = bidder_side_takes
    tricks[(side + 1) % variant.sides] = variant.tricks_per_hand - bidder_side_takes
    game_services.hand_record(
        game=game,
        expected_seq=game.last_seq,
        bidder=turn.first_bidder,
        bid=call,
        trump="hearts",
        tricks=tricks,
        now=NOW,
    )


def play_out(game: Game) -> None:
    game.refresh_from_db()
    while not game.finished:
        play_hand(game)


def play_out_round(played: Round) -> None:
    """Every game of the round played out."""
    for table in played.tables.select_related("game"):
        play_out(table.game)


def progressive_night(season: Season, day: date = date(2026, 11, 19)) -> Night:
    night = services.night_create(
        season=season, day=day, format=Night.PROGRESSIVE, now=NOW
    )
    for player in season.league.players.all():
        services.check_in(night=night, player=player, now=NOW)
    return night


def void_first_hand(game: Game, organizer: User, reason: str = "wrong bidder") -> None:
    """The organizer voids hand 1 of a closed night's game, with a reason."""
    rounds.closed_game_change(
        game=game,
        user=organizer,
        reason=reason,
        what="hand 1 voided",
        append=lambda by, note: game_services.hand_void(
            game=game, expected_seq=game.last_seq, target=1, by=by, note=note, now=NOW
        ),
        now=NOW,
    )


def closed_night(season: Season, day: date, seed: int) -> Night:
    """A closed night of two rounds, every game played out."""
    night = progressive_night(season, day)
    for _ in range(2):
        play_out_round(
            rounds.round_start(night=night, rng=random.Random(seed), now=NOW)
        )
    rounds.night_close(night=night, by="org", now=NOW)
    return night


def newcomer(night: Night, name: str = "Zed", now: datetime = NOW) -> Player:
    """A player new to the league, checked in to the night."""
    player = services.player_add(league=night.season.league, name=name)
    services.check_in(night=night, player=player, now=now)
    return player


def take_over(
    table: Table,
    substitute: Player,
    from_hand: int = 2,
    credit: str = "substitute",
    position: int = 0,
    now: datetime = NOW,
) -> None:
    """``substitute`` takes seat ``position`` of ``table`` from ``from_hand``."""
    seat_substitute(
        table=table,
        position=position,
        substitute=substitute,
        from_hand=from_hand,
        credit=credit,
        now=now,
    )


def three_tables(client: Client, organizer: User, season: Season) -> Night:
    """Twelve players, round 1 started: three tables; the organizer signed in."""
    for name in ["Joe", "Kim", "Lou"]:
        services.player_add(league=season.league, name=name)
    client.force_login(organizer)
    found = progressive_night(season)
    client.post(f"/nights/{found.pk}/rounds")
    return found
