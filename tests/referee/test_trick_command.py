"""`python manage.py trick` (contract §4), as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def trick(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "trick", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_left_bower_wins_over_the_trump_ace() -> None:
    result = trick("--trump", "hearts", "9H", "JD", "AH")
    answer = json.loads(result.stdout)
    assert (answer["winner"], answer["card"]) == (1, "JD")
    assert "left bower" in answer["reason"]


def test_follow_suit_lists_the_legal_cards() -> None:
    result = trick("--trump", "hearts", "--led", "JD", "--hand", "AH,9D,JH")
    assert json.loads(result.stdout) == {
        "must_follow": True,
        "legal": ["AH", "JH"],
        "reason": json.loads(result.stdout)["reason"],
    }
    assert "JD leads trumps" in json.loads(result.stdout)["reason"]


def test_no_trump_is_accepted() -> None:
    answer = json.loads(trick("--trump", "no-trump", "KS", "AS").stdout)
    assert answer["winner"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--trump", "purple", "AH"), "trick: 'purple' is not a trump"),
        (("--trump", "hearts", "1H"), "trick: '1H' is not a card"),
        (("--trump", "hearts"), "trick: name the cards of the trick"),
        (("--trump", "hearts", "--led", "AH"), "trick: give --led CARD and --hand"),
        (
            ("--trump", "hearts", "--led", "AH", "--hand", "9H,ZZ"),
            "trick: 'ZZ' is not a card",
        ),
    ],
)
def test_a_bad_card_or_trump_exits_2_with_one_line(
    args: tuple[str, ...], message: str
) -> None:
    result = trick(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(message)
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--preset", "classic", "--trump", "hearts", "JD", "JD"],
            "the deck holds it once",
        ),
        (
            ["--preset", "classic", "--trump", "hearts", "9H", "9D", "9C", "9S", "AH"],
            "a trick holds at most 4 cards",
        ),
        (["--preset", "bid-euchre", "--trump", "hearts", "9H", "JD"], "only J Q K A"),
        (
            [
                "--preset",
                "classic",
                "--trump",
                "hearts",
                "--led",
                "JD",
                "--hand",
                "JD,AH",
            ],
            "the deck holds it once",
        ),
        (["--seats", "4", "--trump", "hearts", "AH"], "--seats needs --preset"),
        (["--preset", "moon-42", "--seats", "3", "--trump", "hearts", "AH"], "not 3"),
    ],
)
def test_a_preset_s_deck_limits_the_cards(args: list[str], words: str) -> None:
    result = trick(*args)
    assert (result.returncode, result.stdout) == (2, "") and words in result.stderr


def test_several_decks_allow_identical_cards_and_the_first_wins() -> None:
    result = trick(
        "--preset", "bid-euchre", "--seats", "6", "--trump", "hearts", "JD", "JD", "AH"
    )
    assert result.returncode == 0 and json.loads(result.stdout)["winner"] == 0
