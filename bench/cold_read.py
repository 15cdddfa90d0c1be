"""A cold read of a 50-hand game beside the plain read of the same rows.

Each run is a new process (a real restart: nothing of any game is kept in
memory), started once Django and the app are imported and the database is
open, as a server is before its first request. In it, the app and the
anchor each read three games of the same rules, in alternating order:

- the app: the game's row, its log from the store, its scoreboard, as the
  game page reads them (``game_row``, ``boards.game_log``,
  ``boards.scoreboard``);
- the anchor: ``sqlite3`` and ``json`` alone read the same row and rows,
  build the events with no check, and fold them through the same engine
  (``rules.engine.replay``).

The first game read after the restart also pays what a process does once
(the ORM's first query, the rules' tables for the variant); the second is
the cold read of a game (after a restart, or past the games a worker
keeps), the one held to the target: at most 3x the anchor. The third is
read only to its log (no fold), where the store's own cost shows alone.
Medians over the runs, wall time and CPU time.

    make bench        (or: .venv/bin/python bench/cold_read.py)
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RUNS = int(os.environ.get("BENCH_RUNS", "9"))
HANDS = 50
TARGET = 3.0


def _django(database: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    import django

    django.setup()


def _seed(database: Path) -> str:
    """Three 50-hand classic games stored as the app stores one; their ids."""
    _django(database)
    from django.core.management import call_command
    from django.utils import timezone

    from bench.replay import random_game
    from scorekeeper.gamelog import GameLog, LogEntry, replay_log
    from scorekeeper.games import services
    from scorekeeper.rules.variants import find_variant, with_overrides

    call_command("migrate", verbosity=0)
    rules = with_overrides(find_variant("classic", 4), {"target_score": 10_000})
    ids = []
    for seed in (50, 51, 52):
        _, names, dealer, events = random_game(rules, random.Random(seed))
        entries = tuple(LogEntry(event) for event in events[:HANDS])
        log = GameLog(rules, names, dealer, entries)
        now = timezone.now()
        game = services.game_store(log=log, board=replay_log(log), now=now)
        ids.append(str(game.pk))
    return " ".join(ids)


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """The wall and CPU seconds ``work`` took."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def _child(database: Path, game_ids: list[str], app_first: bool) -> None:
    """One restart: the first two games read whole (row, log, scoreboard),
    the third only to its log (row and events), each once by the app and
    once by the anchor, in the order given; prints each read's times."""
    _django(database)
    from uuid import UUID

    from django.db import connection

    from scorekeeper.gamerows import game_row
    from scorekeeper.projections import boards

    connection.ensure_connection()
    plain = sqlite3.connect(database)

    def app(game_id: UUID, fold: bool) -> object:
        game = game_row(game_id)
        assert game is not None
        log = boards.game_log(game)
        return boards.scoreboard(game.pk, log).totals if fold else log.events

    def anchor(game_id: UUID, fold: bool) -> object:
        return _plain_read(plain, game_id.hex, fold)

    readers = [("app", app), ("anchor", anchor)][:: 1 if app_first else -1]
    times = []
    for game_id, fold in zip(map(UUID, game_ids), (True, True, False), strict=True):
        read = {
            name: _timed(partial(reader, game_id, fold)) for name, reader in readers
        }
        times.append(read)
        assert app(game_id, fold) == anchor(game_id, fold), "the same game"
    print(json.dumps(times))


def _plain_read(db: sqlite3.Connection, game_hex: str, fold: bool) -> object:
    """The game's row and events with sqlite3 and json alone, folded (or
    only the events)."""
    from scorekeeper.gamelog import game_variant
    from scorekeeper.rules.engine import replay
    from scorekeeper.rules.events import (
        Event,
        GameEnded,
        HandCorrected,
        HandPassedOut,
        HandRecorded,
        HandVoided,
    )

    preset, seats, dealer, overrides = db.execute(
        "SELECT preset, seats, first_dealer, overrides FROM scorekeeper_game"
        " WHERE id = ?",
        (game_hex,),
    ).fetchone()
    rows = db.execute(
        "SELECT payload FROM scorekeeper_gameevent WHERE game_id = ? ORDER BY seq",
        (game_hex,),
    ).fetchall()
    names = json.loads(seats)
    # The same kept rules the app reads a game under (built once a process).
    rules = game_variant(preset, len(names), json.loads(overrides))

    def hand(raw: dict[str, Any]) -> HandRecorded | HandPassedOut:
        if raw.get("passed_out"):
            return HandPassedOut()
        tricks = raw.get("tricks")
        free = None if tricks else raw["conceded"]["free_tricks"]
        return HandRecorded(
            raw["bidder"], raw["bid"], raw["trump"], tricks and tuple(tricks), free
        )

    events: list[Event] = []
    for (payload,) in rows:
        raw = json.loads(payload)
        kind = raw["type"]
        if kind == "hand":
            events.append(hand(raw))
        elif kind == "void":
            events.append(HandVoided(raw["target"]))
        elif kind == "correct":
            events.append(HandCorrected(raw["target"], hand(raw["hand"])))
        else:
            events.append(GameEnded())
    return replay(rules, tuple(names), dealer, events).totals if fold else events


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="pepper-cold-"))
    database = work / "cold.sqlite3"
    seeded = subprocess.run(
        [sys.executable, __file__, "--seed", str(database)],
        check=True,
        capture_output=True,
        text=True,
    )
    game_ids = seeded.stdout.split()
    runs: list[list[dict[str, list[float]]]] = []
    for run in range(RUNS):
        child = subprocess.run(
            [sys.executable, __file__, "--child", str(database), str(run % 2)]
            + game_ids,
            check=True,
            capture_output=True,
            text=True,
        )
        runs.append(json.loads(child.stdout))
    print(
        f"cold read: a {HANDS}-hand game, each run a new process;"
        f" median of {RUNS} runs (wall / CPU)"
    )
    labels = (
        "first game after the restart, read whole",
        "a game not kept, read whole (the figure)",
        "a game not kept, its log alone (row and events, no fold)",
    )
    for index, label in enumerate(labels):
        reads = [run[index] for run in runs]
        print(f"  {label}")
        for name in ("app", "anchor"):
            wall = statistics.median(read[name][0] for read in reads)
            cpu = statistics.median(read[name][1] for read in reads)
            print(f"    {name:<8} {wall * 1000:7.2f} ms wall  {cpu * 1000:7.2f} ms CPU")
        wall_ratio = statistics.median(r["app"][0] / r["anchor"][0] for r in reads)
        cpu_ratio = statistics.median(r["app"][1] / r["anchor"][1] for r in reads)
        print(
            f"    the app {wall_ratio:.2f}x the anchor (wall), {cpu_ratio:.2f}x (CPU)"
        )
    print(f"  target: a game not kept at most {TARGET:.0f}x the anchor")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seed"]:
        print(_seed(Path(sys.argv[2])))
    elif sys.argv[1:2] == ["--child"]:
        _child(Path(sys.argv[2]), sys.argv[4:], sys.argv[3] == "0")
    else:
        main()
