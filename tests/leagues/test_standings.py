"""Standings of small seasons worked out by hand (contract pepper-league v1),
without a database."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.leagues.season import SeasonError, parse_season
from scorekeeper.leagues.standings import standings

PLAYERS = [
    {"id": pid, "name": pid.title()} for pid in ("ann", "bob", "cat", "dan", "eve")
]


def hand(bidder: int, bid: int, *tricks: int) -> dict[str, Any]:
    return {
        "type": "hand",
        "bidder": bidder,
        "bid": bid,
        "trump": "hearts",
        "tricks": list(tricks),
    }


def log(names: list[str], *events: dict[str, Any], target: int = 10) -> dict[str, Any]:
    return {
        "format": "pepper-log",
        "version": 1,
        "variant": {"preset": "classic", "target_score": target},
        "seats": names,
        "first_dealer": 0,
        "events": list(events),
    }


# Night 1: Bob & Dan win 11-7 (Bob, Cat and Dan each bid 5 and made it).
NIGHT_1: dict[str, Any] = {
    "date": "2026-11-19",
    "games": [
        {
            "table": 1,
            "round": 1,
            "players": ["ann", "bob", "cat", "dan"],
            "log": log(
                ["Ann", "Bob", "Cat", "Dan"],
                hand(1, 5, 1, 5),
                hand(2, 5, 5, 1),
                hand(3, 5, 1, 5),
            ),
        },
    ],
}
# Night 2: Ann & Cat win 10-0 (Ann made 5, Bob was set on 3, Cat made 1);
# Dan's game is unfinished and does not count.
NIGHT_2: dict[str, Any] = {
    "date": "2026-11-26",
    "games": [
        {
            "table": 1,
            "round": 1,
            "players": ["eve", "ann", "bob", "cat"],
            "log": log(
                ["Eve", "Ann", "Bob", "Cat"],
                hand(1, 5, 1, 5),
                hand(2, 3, 2, 4),
                hand(3, 1, 5, 1),
            ),
        },
        {
            "table": 2,
            "round": 1,
            "players": ["dan", "eve"],
            "log": log(["Dan", "Eve"], hand(1, 2, 4, 4), target=30),
        },
    ],
}


def season(**settings: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": "pepper-league",
        "version": 1,
        "name": "Test",
        "players": PLAYERS,
        "nights": [NIGHT_1, NIGHT_2],
    }
    if settings:
        document["standings"] = settings
    return document


def computed(document: dict[str, Any]) -> Any:
    """The standings document of a season (read, as a test reads JSON)."""
    return standings(parse_season(document))


def table(rows: list[dict[str, Any]], *keys: str) -> list[tuple[Any, ...]]:
    return [tuple(row[key] for key in ("rank", "player", *keys)) for row in rows]


def test_a_night_sums_its_finished_games_and_ties_share_a_rank() -> None:
    night_1, night_2 = computed(season())["nights"]
    assert table(
        night_1["rows"], "played", "won", "points", "margin", "bids", "made"
    ) == [
        (1, "bob", 1, 1, 11, 4, 1, 1),
        (1, "dan", 1, 1, 11, 4, 1, 1),
        (3, "ann", 1, 0, 7, -4, 0, 0),
        (3, "cat", 1, 0, 7, -4, 1, 1),
    ]
    assert table(night_2["rows"], "points", "margin", "bids", "made") == [
        (1, "ann", 10, 10, 1, 1),
        (1, "cat", 10, 10, 1, 1),
        (3, "bob", 0, -10, 1, 0),
        (3, "eve", 0, -10, 0, 0),
    ]  # Dan's unfinished game gives him no row


def test_the_season_sums_every_night() -> None:
    rows = computed(season())["season"]["rows"]
    assert table(
        rows, "nights", "played", "won", "points", "margin", "bids", "made"
    ) == [
        (1, "ann", 2, 2, 1, 17, 6, 1, 1),
        (1, "cat", 2, 2, 1, 17, 6, 2, 2),
        (3, "dan", 1, 1, 1, 11, 4, 1, 1),
        (4, "bob", 2, 2, 1, 11, -6, 2, 1),
        (5, "eve", 1, 1, 0, 0, -10, 0, 0),
    ]
    assert list(rows[0]) == [
        "rank",
        "player",
        "name",
        "nights",
        "played",
        "won",
        "points",
        "margin",
        "bids",
        "made",
    ]


def test_best_nights_counts_each_players_best_and_min_nights_unranks() -> None:
    rows = computed(season(best_nights=1))["season"]["rows"]
    assert table(rows, "nights", "played", "points", "margin") == [
        (1, "bob", 2, 1, 11, 4),
        (1, "dan", 1, 1, 11, 4),
        (3, "ann", 2, 1, 10, 10),
        (3, "cat", 2, 1, 10, 10),
        (5, "eve", 1, 1, 0, -10),
    ]
    rows = computed(season(min_nights=2))["season"]["rows"]
    assert table(rows, "points") == [
        (1, "ann", 17),
        (1, "cat", 17),
        (3, "bob", 11),
        (None, "dan", 11),
        (None, "eve", 0),
    ]


def test_percentages_are_compared_exactly() -> None:
    rows = computed(season(order=["made_pct", "points"]))["season"]["rows"]
    assert table(rows, "bids", "made") == [
        (1, "ann", 1, 1),
        (1, "cat", 2, 2),
        (3, "dan", 1, 1),
        (4, "bob", 2, 1),
        (5, "eve", 0, 0),
    ]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"players": PLAYERS + [{"id": "ann", "name": "Another"}]},
            "log: the player id 'ann' is used twice",
        ),
        ({"format": "pepper-log"}, 'log: "format" must be "pepper-league"'),
        (
            {"standings": {"order": ["points", "luck"]}},
            'log: "standings.order" must be a list of measures',
        ),
        (
            {"standings": {"best_nights": -1}},
            'log: "standings.best_nights" must be a whole number',
        ),
        ({"nights": [NIGHT_2, NIGHT_1]}, "night 2: the nights must be in date order"),
        (
            {"nights": [{**NIGHT_1, "date": "2026-02-30"}]},
            'night 1: "date" 2026-02-30 is not a real date',
        ),
        (
            {
                "nights": [
                    {
                        "date": "2026-11-19",
                        "games": [
                            {
                                **NIGHT_1["games"][0],
                                "players": ["ann", "bob", "cat", "zed"],
                            }
                        ],
                    }
                ]
            },
            "night 1 game 1: 'zed' is not one of the season's players",
        ),
        (
            {
                "nights": [
                    {
                        "date": "2026-11-19",
                        "games": [
                            {
                                **NIGHT_1["games"][0],
                                "players": ["ann", "bob", "ann", "dan"],
                            }
                        ],
                    }
                ]
            },
            "night 1 game 1: a player sits at most once",
        ),
        (
            {
                "nights": [
                    {
                        "date": "2026-11-19",
                        "games": [{**NIGHT_1["games"][0], "players": ["ann", "bob"]}],
                    }
                ]
            },
            'night 1 game 1: "players" must name one player per seat of its log (4, not 2)',
        ),
        (
            {
                "nights": [
                    {
                        "date": "2026-11-19",
                        "games": [{**NIGHT_1["games"][0], "table": 0}],
                    }
                ]
            },
            'night 1 game 1: "table" must be a whole number of at least 1',
        ),
        (
            {
                "nights": [
                    {
                        "date": "2026-11-19",
                        "games": [
                            {
                                **NIGHT_1["games"][0],
                                "log": log(
                                    ["Ann", "Bob", "Cat", "Dan"],
                                    hand(1, 5, 1, 5),
                                    hand(1, 9, 1, 5),
                                ),
                            }
                        ],
                    }
                ]
            },
            "night 1 game 1: event 2: classic has no bid 9",
        ),
    ],
)
def test_a_broken_season_is_refused_naming_where(
    change: dict[str, Any], words: str
) -> None:
    with pytest.raises(SeasonError) as refused:
        parse_season({**season(), **change})
    assert refused.value.message.startswith(words), refused.value.message


def test_the_contracts_own_example_reads() -> None:
    from pathlib import Path

    text = (
        Path(__file__).resolve().parents[1]
        / "data"
        / "contract"
        / "pepper-league-v1.md"
    ).read_text()
    example = json.loads(text.split("```json\n")[1].split("```")[0])
    document = standings(parse_season(example))
    assert document["season"] == {"rows": []}  # its one game has no hand: unfinished
