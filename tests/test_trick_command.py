"""`python manage.py trick` (contract §4), as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
