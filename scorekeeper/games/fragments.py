"""The history's rows, each rendered once and kept (issue 22: a lean save).

A row of the history is the same HTML for as long as the hand it shows
is: the same hand event, at the same place in the game (its number, and
so its dealer), with the same totals, in or out of a pepper round, named
by the same players, for the same kind of link. Each row is kept in the
cache under exactly that, so after a save (or another phone's save) only
the new hand is rendered, and the rest of the history is put together
from the kept rows; a void or a correction, which moves the numbers or
totals of the hands after it, or a substitute, who renames the hands they
play, give those rows new keys; so does a change to the template or to
the code that words a row (``drawn_by``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache as once
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.template.loader import get_template, render_to_string
from django.template.loader_tags import IncludeNode
from django.utils.safestring import SafeString, mark_safe

import scorekeeper
from scorekeeper import tablewords
from scorekeeper.gamelog import GameLog
from scorekeeper.games import presenters
from scorekeeper.rules.engine import HandResult, Scoreboard
from scorekeeper.tablewords import Change, corrections
from scorekeeper.web.access import Role

KEPT_SECONDS = 3600
ROW_TEMPLATE = "games/_hand_row.html"
CHART_TEMPLATE = "games/_score_chart.html"


def templates_of(template_name: str) -> tuple[str, ...]:
    """The template's file and every file it includes, at any depth (a
    name's ``#partial`` is read as its whole file; an include whose name
    is a variable cannot be followed, and none of ours is one)."""
    found: list[str] = []
    waiting = [template_name.partition("#")[0]]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.append(name)
        loaded: Any = get_template(name)  # the Django backend's Template
        for node in loaded.template.nodelist.get_nodes_by_type(IncludeNode):
            included = node.template.var
            if isinstance(included, str):
                waiting.append(included.partition("#")[0])
    return tuple(found)


@once
def code_digest() -> str:
    """A digest of the project's Python source (every module under
    ``scorekeeper``), read once per process: the code that words what a
    kept fragment shows is some of it, and no list of which modules that
    is can be forgotten when a new one starts to."""
    digest = hashlib.sha256()
    for path in sorted(Path(scorekeeper.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


@once
def drawn_by(template_name: str) -> str:
    """What draws a kept fragment, part of its every key: a digest of the
    template's source and the sources it includes, and of the project's
    code (``code_digest``), worked out once per process. A deploy that
    changes any of them gives every fragment a new key (the old entries
    just go unread), so nothing kept in Redis across a deploy shows the
    old words, and there is no version to bump by hand."""
    digest = hashlib.sha256(code_digest().encode())
    for name in templates_of(template_name):
        loaded: Any = get_template(name)
        digest.update(loaded.template.source.encode())
    return digest.hexdigest()[:16]


def _named(names: Sequence[str]) -> str:
    return hashlib.sha256("\x1f".join(names).encode()).hexdigest()[:16]


def row_key(game_url: str, role: Role, result: HandResult, names: Sequence[str]) -> str:
    """What a hand's row depends on, as a cache key: the hand event that
    set it (and its target, whose corrections it lists), its number,
    totals and pepper round, the names it is told with, the link's role."""
    named = _named(names)
    totals = ",".join(map(str, result.totals))
    return (
        f"hand-row:{drawn_by(ROW_TEMPLATE)}:{game_url}:{role}:"
        f"{result.target}:{result.event}:"
        f"{result.number}:{int(result.pepper_round)}:{totals}:{named}"
    )


def rows_html(
    game_url: str,
    board: Scoreboard,
    log: GameLog,
    role: Role,
    results: Sequence[HandResult],
    takers: Sequence[tablewords.Takeover] = (),
) -> SafeString:
    """The rows of ``results`` in the order given, each as kept or, if not
    kept yet, rendered and kept; each hand named by who played it."""
    named = [tablewords.board_at(board, takers, r.number) for r in results]
    keys = [
        row_key(game_url, role, result, then.seats)
        for result, then in zip(results, named, strict=True)
    ]
    found: dict[str, str] = cache.get_many(keys)
    missing = {
        key: (result, then)
        for key, result, then in zip(keys, results, named, strict=True)
        if key not in found
    }
    if missing:
        # A hand last set by its own event was never corrected: no need to
        # read the whole log for its corrections (a new hand, on a save).
        corrected = any(result.event != result.target for result, _ in missing.values())
        changes = corrections(log) if corrected else {}
        made = {
            key: _render(game_url, role, then, result, changes.get(result.target))
            for key, (result, then) in missing.items()
        }
        cache.set_many(made, timeout=KEPT_SECONDS)
        found.update(made)
    return mark_safe("".join(found[key] for key in keys))  # our own templates


def _render(
    game_url: str,
    role: Role,
    board: Scoreboard,
    result: HandResult,
    changes: list[Change] | None,
) -> str:
    row = presenters.history_row(board, result, changes)
    context = {"row": row, "game_url": game_url, "role": role}
    return render_to_string(ROW_TEMPLATE, context)


def chart_html(game_url: str, board: Scoreboard, seq: int) -> SafeString:
    """The score chart of the game after its event ``seq``, the sides named
    as ``board`` names them: drawn once and kept (the page, the TV, a poll
    and the chart loaded after a save all show it; drawing it took a fifth
    of a game page). Every total it draws is fixed by the game's first
    ``seq`` events; the names and the target are in the key too."""
    if not board.rows:
        return mark_safe("")
    target = board.variant.target_score
    drawer = drawn_by(CHART_TEMPLATE)
    key = f"chart:{drawer}:{game_url}:{seq}:{target}:{_named(board.side_names)}"
    html: str | None = cache.get(key)
    if html is None:
        drawn = presenters.chart(board)
        html = render_to_string(CHART_TEMPLATE, {"chart": drawn})
        cache.set(key, html, timeout=KEPT_SECONDS)
    return mark_safe(html)  # our own autoescaping template
