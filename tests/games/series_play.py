"""A series played through the services and the pages, for the tests
that need one."""

from __future__ import annotations

import uuid

from django.test import Client

from scorekeeper.games import services
from scorekeeper.models import Game, new_token
from scorekeeper.rules.series import series_rule
from tests.conftest import join
from tests.factories import NAMES
from tests.records import NOW, HandSpec, record_hands

# Classic, first to 10: Ann & Cat (seats 0 and 2) win in two hands, and so
# do Bob & Dan (seats 1 and 3).
ANN_CAT_WIN: list[HandSpec] = [(0, 4, "hearts", [5, 1]), (0, 4, "hearts", [6, 0])]
BOB_DAN_WIN: list[HandSpec] = [(1, 4, "spades", [1, 5]), (1, 4, "spades", [0, 6])]


def first_game(rule: str = "best-of-3", first_dealer: int = 0) -> Game:
    return services.game_create(
        preset="classic",
        seats=list(NAMES[:4]),
        first_dealer=first_dealer,
        overrides={"target_score": 10},
        series=series_rule(rule),
        now=NOW,
    )


def won(game: Game, hands: list[HandSpec]) -> Game:
    record_hands(game, NOW, *hands)
    game.refresh_from_db()
    assert game.finished
    return game


def keys() -> dict[str, str]:
    """What the page's "Start game N" form carries: the new game's id and
    edit link, chosen when the form was shown."""
    return {"game_id": str(uuid.uuid4()), "edit_token": new_token()}


def next_game(client: Client, game: Game, chosen: dict[str, str]) -> Game:
    answer = client.post(f"/games/{game.pk}/next", chosen)
    assert answer.status_code == 302
    return Game.objects.get(pk=answer["Location"].split("/")[2])


def played_series(client: Client) -> list[Game]:
    """Best of 3, won by Ann & Cat 2 games to 1."""
    games = [won(first_game(), ANN_CAT_WIN)]
    join(client, games[0])
    for hands in (BOB_DAN_WIN, ANN_CAT_WIN):
        games.append(won(next_game(client, games[-1], keys()), hands))
    return games
