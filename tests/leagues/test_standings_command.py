"""`python manage.py standings` as the contract (pepper-league v1 §2) runs it."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from tests.leagues.test_standings import season

ROOT = Path(__file__).resolve().parents[2]


def standings(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "standings", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_json_from_standard_input() -> None:
    result = standings("-", "--json", stdin=json.dumps(season()))
    document = json.loads(result.stdout)
    assert result.returncode == 0 and result.stderr == ""
    assert (document["format"], document["version"]) == ("pepper-standings", 1)
    assert [row["player"] for row in document["season"]["rows"]] == [
        "ann",
        "cat",
        "dan",
        "bob",
        "eve",
    ]


def test_a_table_a_person_reads(tmp_path: Path) -> None:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(season(min_nights=2)))
    lines = standings(str(path)).stdout.splitlines()
    assert lines[0] == "Night of 2026-11-19" and "Season" in lines
    assert any(line.split()[:2] == ["1", "Ann"] for line in lines)
    assert any(line.split()[:1] == ["Dan"] for line in lines)  # unranked: no rank


def test_a_refused_season_exits_2_with_one_line_naming_where() -> None:
    broken = {**season(), "nights": [season()["nights"][1], season()["nights"][0]]}
    result = standings("-", "--json", stdin=json.dumps(broken))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.strip().startswith("night 2: the nights must be in date order")
    assert len(result.stderr.strip().splitlines()) == 1
    for text, words in (
        ("{", "log: this is not valid JSON"),
        ("[]", "log: a pepper league"),
    ):
        result = standings("-", stdin=text)
        assert result.returncode == 2 and result.stderr.startswith(words)
    missing = standings("/no/such/file.json")
    assert missing.returncode == 2 and missing.stderr.startswith("log: cannot read")


def test_section_1_a_later_games_house_rule_of_the_wrong_type_is_refused() -> None:
    """pepper-log v1 §1: a value of the wrong type is a `log:` error, in the
    second game of a season too, after a game with the equal right value
    (target_score 10, then 10.0)."""
    document = copy.deepcopy(season())  # season() shares its nights
    games = document["nights"][1]["games"]
    games[1] = copy.deepcopy(games[0])  # the same rules and seats
    assert games[0]["log"]["variant"] == {"preset": "classic", "target_score": 10}
    games[1]["log"]["variant"]["target_score"] = 10.0
    result = standings("-", "--json", stdin=json.dumps(document))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.strip() == (
        "night 2 game 2: log: target_score must be a whole number of at least 1"
    )
