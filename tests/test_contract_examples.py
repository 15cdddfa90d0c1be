"""Every example of the contract (copied into tests/data/contract) reproduced
through the real `replay` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "data" / "contract"
LOGS = sorted(EXAMPLES.glob("*.log.json"))


def replay_command(
    *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        check=False,
    )


def assert_matches(expected: object, actual: object, path: str = "$") -> None:
    """Every field the example gives is there with the same value; the
    contract lets an implementation add optional fields."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            assert_matches(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), path
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            assert_matches(want, got, f"{path}[{index}]")
    else:
        assert actual == expected and type(actual) is type(expected), path


def test_there_are_examples_to_check() -> None:
    assert len(LOGS) == 5


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_replay_json_reproduces_the_contract_example(log: Path) -> None:
    result = replay_command(str(log), "--json")
    assert result.returncode == 0, result.stderr
    expected = json.loads(
        log.with_name(log.name.replace(".log.", ".score.")).read_text()
    )
    assert_matches(expected, json.loads(result.stdout))


def test_the_contracts_own_example_names_sides_and_explains_hands() -> None:
    result = replay_command(
        "-", "--json", stdin=(EXAMPLES / "contract-example.log.json").read_bytes()
    )
    score = json.loads(result.stdout)
    assert score["format"] == "pepper-score" and score["version"] == 1
    assert score["variant"] == "moon-42"
    assert score["sides"] == [
        {"name": "Ann & Cat", "seats": [0, 2]},
        {"name": "Bob & Dan", "seats": [1, 3]},
    ]
    assert score["hands"][0]["explanation"].startswith(
        "Bob & Dan bid 4 and took 5: made, +4"
    )
    assert score["hands"][1]["explanation"] == "Nobody bid; the deal passes."


def test_the_plain_table_shows_each_hand_and_the_standing() -> None:
    result = replay_command(str(EXAMPLES / "classic4-to-win.log.json"))
    lines = result.stdout.decode().splitlines()
    assert lines[0].split() == ["Hand", "Dealer", "Ann", "&", "Cat", "Bob", "&", "Dan"]
    assert lines[-1].startswith("Ann & Cat win with 31")


def test_a_refused_log_exits_2_with_the_event_and_nothing_on_stdout() -> None:
    log = json.loads(
        (EXAMPLES / "moon42-pepper-round-negotiation.log.json").read_text()
    )
    log["events"][6] = {
        "type": "hand",
        "bidder": 3,
        "bid": 4,
        "trump": "clubs",
        "conceded": {"free_tricks": 0},
    }
    result = replay_command("-", "--json", stdin=json.dumps(log).encode())
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().strip() == (
        "event 7: with clubs trump the defenders must play the hand (seed 001 §3.4)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"{not json", "log: this is not valid JSON"),
        (b"[]", "log: a pepper log is a JSON object"),
        (
            b'{"format": "pepper-log", "version": 1, "variant": "uno", "seats": ["a", "b"],'
            b' "first_dealer": 0, "events": []}',
            "log: there is no preset called 'uno'",
        ),
        (
            b'{"format": "pepper-log", "version": 1, "variant": "moon-42", "seats": ["a", "b"],'
            b' "first_dealer": 0, "events": []}',
            "log: moon-42 is played by 4 players, not 2",
        ),
    ],
)
def test_malformed_logs_are_refused_in_one_line_never_a_traceback(
    text: bytes, message: str
) -> None:
    result = replay_command("-", stdin=text)
    assert result.returncode == 2
    err = result.stderr.decode()
    assert err.startswith(message) and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_an_unreadable_file_is_refused_too() -> None:
    result = replay_command("/nonexistent/game.json")
    assert (result.returncode, result.stderr.decode().strip()) == (
        2,
        "log: cannot read /nonexistent/game.json: No such file or directory",
    )
