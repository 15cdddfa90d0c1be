"""The rules pages: every preset's table, its sources, and a game's own
house rules marked."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.test import Client

from scorekeeper.rules.variants import PRESETS
from tests.conftest import join
from tests.records import new_game, record_hands


def test_the_rules_index_lists_every_preset(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    for name in PRESETS:
        assert f'href="/rules/{name}/"' in page


@pytest.mark.parametrize(
    ("preset", "seats", "expected"),
    [
        (
            "moon-42",
            4,
            ["double moon", "7 for any trick; −7 if none", "up to 2", "seed 001 §3.4"],
        ),
        ("classic", 4, ["big pepper", "+12", "−6", "first to 30", "seed 004"]),
        ("classic", 3, ["big pepper", "+16", "−8", "each plays alone"]),
        (
            "bid-euchre",
            6,
            ["double pepper", "+24", "the bidding side wins", "seed 002"],
        ),
    ],
)
def test_each_preset_shows_its_ladder_sources_and_examples(
    client: Client, preset: str, seats: int, expected: list[str]
) -> None:
    page = client.get(f"/rules/{preset}/", {"seats": seats}).content.decode()
    for text in expected:
        assert text in page
    assert "Worked examples" in page and "Where the rule books disagree" in page
    assert "the house setting <code>exact_tie</code>" in page


def test_worked_examples_are_scored_by_the_engine(client: Client) -> None:
    page = client.get("/rules/moon-42/").content.decode()
    assert "Bob &amp; Dan bid 4 and took 5: made, +4" in page
    assert "Bob &amp; Dan bid 4; Ann &amp; Cat were granted 2 free tricks" in page


def test_an_unknown_preset_is_404(client: Client) -> None:
    assert client.get("/rules/euchre/").status_code == 404


def test_a_games_rules_mark_its_house_rules(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game("moon-42", target_score=21, exact_tie="pepper-round")
    join(client, game)
    page = client.get(f"/games/{game.pk}/rules").content.decode()
    assert "House rules here: target_score = 21, exact_tie = pepper-round" in page
    assert page.count("house rule</em>") == 2 and "first to 21" in page


def test_what_if_shows_both_results_and_what_the_other_rules_cannot_express(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game("moon-42", pepper_round_hands=0)
    join(client, game)
    record_hands(game, now, (1, 4, "hearts", [1, 5]), (2, "moon", "spades", [6, 0]))
    page = client.get(
        f"/games/{game.pk}/what-if", {"preset": "classic"}
    ).content.decode()
    assert "As played, and under classic" in page
    # As played: 1-4, then Cat's moon with every trick, 8 to -3. Under classic
    # the moon is left out: Bob & Dan's 4 with 5 tricks scores 5, and 1.
    assert "<td>8</td><td>1</td>" in page and "<td>-3</td><td>5</td>" in page
    assert "Left out: classic has no bid &quot;moon&quot;" in page


def test_what_if_under_its_own_rules_changes_nothing(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game(players=2)
    join(client, game)
    record_hands(game, now, (1, 5, "spades", [2, 6]))
    page = client.get(
        f"/games/{game.pk}/what-if", {"preset": "classic"}
    ).content.decode()
    assert "<td>2</td><td>2</td>" in page and "<td>6</td><td>6</td>" in page
    assert "Left out" not in page


def test_what_if_refuses_rules_the_table_cannot_play(
    client: Client, db: None, now: datetime
) -> None:
    game = new_game(players=3)
    join(client, game)
    response = client.get(f"/games/{game.pk}/what-if", {"preset": "moon-42"})
    assert response.status_code == 422
    assert "Moon-42 is played by 4 players, not 3." in response.content.decode()
    bad = client.get(
        f"/games/{game.pk}/what-if", {"preset": "classic", "target_score": "x"}
    )
    assert "Target_score must be a whole number" in bad.content.decode()
