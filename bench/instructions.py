"""The hand save and its anchor counted in instructions, not seconds.

This machine's wall and CPU times move by a tenth or more between runs of
the same code (a busy neighbour, the VM's own noise), which is as large as
most single changes to a save. Valgrind's callgrind counts the
instructions a program executes instead: the same count for the same
code and inputs whatever else the machine does. So a change to the save
can be weighed here alone, before the timed runs of ``bench/web.py``.

Each figure is the difference between two runs of one script under
callgrind: the same warm-up (a 30-hand game, 30 one-row POSTs), then
``COUNT`` more saves, or ``COUNT`` one-row POSTs, or nothing; divided by
``COUNT``. Python's string hashing is fixed (PYTHONHASHSEED=0), so the
interpreter's own start-up counts the same in each run.

    make bench-instructions     (or: .venv/bin/python bench/instructions.py [COUNT])

An instruction is not a nanosecond (a save misses the CPU's caches more
than the anchor does), so the ratio here is not ``bench/web.py``'s, but a
change that removes instructions from the save moves both the same way.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_HANDS = 30


def _run(mode: str, count: int) -> None:
    """Inside callgrind: the warm-up, then ``count`` of ``mode``."""
    sys.path.insert(0, str(ROOT))
    from django.core.management import call_command

    from bench import web  # sets up Django on its own SQLite file

    try:
        call_command("migrate", verbosity=0)
        client = web.phone()
        game = web.long_game(client)
        web.record_hands(client, game, WARM_HANDS)
        web.plain_writes(client, WARM_HANDS)
        if mode == "save":
            web.record_hands(client, game, count, start=WARM_HANDS)
        elif mode == "post":
            web.plain_writes(client, count)
    finally:
        shutil.rmtree(web.WORK, ignore_errors=True)


def _instructions(mode: str, count: int) -> int:
    """The instructions of one run of ``mode`` under callgrind."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--run",
            mode,
            str(count),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        cwd=ROOT,
    ).stderr
    found = re.search(r"Collected : (\d+)", out)
    assert found, out[-2000:]
    return int(found.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--run"]:
        _run(sys.argv[2], int(sys.argv[3]))
        return
    if shutil.which("valgrind") is None:
        print("instructions: skipped (valgrind is not installed)")
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    base = _instructions("none", count)
    save = (_instructions("save", count) - base) / count
    post = (_instructions("post", count) - base) / count
    print(
        f"instructions a request (callgrind, {count} of each after the same warm-up):"
    )
    print(f"  hand save (HTMX)         {save / 1e6:6.2f} M")
    print(f"  anchor: one-row POST     {post / 1e6:6.2f} M")
    print(f"  ratio {save / post:.2f} (not the timed ratio: see the docstring)")


if __name__ == "__main__":
    main()
