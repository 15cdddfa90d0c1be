"""Where a benchmark's CPU went, read from /proc (Linux): the seconds of
CPU each group of processes used between two readings, and the whole
machine's, so that what the servers, nginx, Redis, PostgreSQL and the
load generator took can be set beside what everybody else on the
machine took.

    before = reading(groups)
    ...
    spent = used(before, reading(groups))   # {"servers": 12.3, ..., "other": 4.5}
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

# A group: its name, what lists its processes' ids now, and whether each
# one's descendants count with it (a load generator's do not: it started
# the servers).
Groups = dict[str, tuple[Callable[[], Iterable[int]], bool]]


def _processes() -> dict[int, tuple[int, float]]:
    """Every process: its parent's id and its CPU seconds so far."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()
        # After the name: state, ppid, ... utime is field 14, stime 15 (1-based).
        found[int(entry.name)] = (
            int(fields[1]),
            (int(fields[11]) + int(fields[12])) / TICK,
        )
    return found


def _machine() -> float:
    """The machine's busy CPU seconds (every core), from /proc/stat."""
    first = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(value) for value in first]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks[:8]) - idle) / TICK


def reading(groups: Groups) -> dict[str, dict[int, float]]:
    """Each group's processes (roots and descendants) and their CPU seconds,
    and the machine's busy seconds under "machine" (pid 0)."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    found: dict[str, dict[int, float]] = {"machine": {0: _machine()}}
    for name, (roots, descend) in groups.items():
        pids, queue = {}, [pid for pid in roots() if pid in processes]
        while queue:
            pid = queue.pop()
            pids[pid] = processes[pid][1]
            queue += children.get(pid, []) if descend else []
        found[name] = pids
    return found


def used(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
) -> dict[str, float]:
    """Each group's CPU seconds between the readings (a process that started
    meanwhile counts whole; one that ended meanwhile is lost), and
    "other": the machine's busy seconds that no group took."""
    spent = {
        name: sum(
            seconds - before.get(name, {}).get(pid, 0.0)
            for pid, seconds in pids.items()
        )
        for name, pids in after.items()
    }
    machine = spent.pop("machine")
    spent["other"] = max(0.0, machine - sum(spent.values()))
    return spent


def children_but(excluded: Iterable[int]) -> list[int]:
    """This process's children but ``excluded``: a bench's Playwright
    driver (and under it Chromium), not the servers it started."""
    left = set(excluded)
    return [
        pid
        for pid, (parent, _) in _processes().items()
        if parent == os.getpid() and pid not in left
    ]
