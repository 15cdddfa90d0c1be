"""The history put together from each hand's kept row: the same HTML as the
history rendered whole, and only what changed rendered again."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.test import override_settings

from scorekeeper import tablewords
from scorekeeper.gamelog import GameLog, LogEntry
from scorekeeper.games import fragments, presenters
from scorekeeper.games.parts import history_html
from scorekeeper.rules.engine import Scoreboard, replay
from scorekeeper.rules.events import (
    Event,
    HandCorrected,
    HandPassedOut,
    HandRecorded,
    HandVoided,
)
from scorekeeper.rules.variants import find_variant
from scorekeeper.web.access import Role

SEATS = ("Ann", "Bob", "Cat", "Dan")
URL = "/games/00000000-0000-0000-0000-000000000001/"
EVE = (tablewords.Takeover(1, "Eve", 4),)


def _game(*events: Event) -> tuple[Scoreboard, GameLog]:
    variant = find_variant("classic", 4)
    entries = tuple(
        LogEntry(event, f"e{n}", "2026-11-25T09:00:00", "Ann", "typo")
        for n, event in enumerate(events, start=1)
    )
    return replay(variant, SEATS, 0, list(events)), GameLog(variant, SEATS, 0, entries)


HANDS: list[Event] = [
    HandRecorded(1, 3, "hearts", (4, 2)),
    HandRecorded(2, 3, "spades", (2, 4)),
    HandRecorded(3, 3, "clubs", (1, 5)),
    HandRecorded(0, 4, "diamonds", (5, 1)),
    HandPassedOut(),
    HandRecorded(1, 4, "hearts", (6, 0)),
]


def _whole(
    board: Scoreboard,
    log: GameLog,
    role: Role,
    takers: Sequence[tablewords.Takeover] = (),
) -> str:
    """The history as it was rendered before rows were kept: all at once."""
    rows = presenters.played_history(board, log, takers)
    context = {"rows": rows, "game_url": URL, "role": role}
    # Less the list template's own last line end, outside every row.
    return render_to_string("games/_history_rows.html", context).removesuffix("\n")


def _kept(
    board: Scoreboard,
    log: GameLog,
    role: Role,
    takers: Sequence[tablewords.Takeover] = (),
) -> str:
    return fragments.rows_html(URL, board, log, role, board.hands[::-1], takers)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The hand numbers of the rows rendered (not taken from the cache)."""
    rendered: list[int] = []
    render = fragments._render

    def counted(*args: object) -> str:
        rendered.append(args[3].number)  # type: ignore[attr-defined]
        return render(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(fragments, "_render", counted)
    cache.clear()
    return rendered


@pytest.mark.parametrize("role", ["edit", "view", "correct"])
@pytest.mark.parametrize(
    "changes",
    [[], [HandVoided(2, "misdeal")], [HandCorrected(1, HandPassedOut())]],
    ids=["plain", "a void", "a correction"],
)
def test_the_kept_rows_make_the_history_rendered_whole(
    renders: list[int], role: Role, changes: list[Event]
) -> None:
    board, log = _game(*HANDS, *changes)
    for takers in ((), EVE):
        assert _kept(board, log, role, takers) == _whole(board, log, role, takers)
        assert _kept(board, log, role, takers) == _whole(board, log, role, takers)


def test_after_a_save_only_the_new_hand_is_rendered(renders: list[int]) -> None:
    board, log = _game(*HANDS[:5])
    _kept(board, log, "edit")
    assert renders == [5, 4, 3, 2, 1]
    board, log = _game(*HANDS)
    assert _kept(board, log, "edit") == _whole(board, log, "edit")
    assert renders[5:] == [6]


def test_a_void_renders_again_the_hands_it_moved(renders: list[int]) -> None:
    board, log = _game(*HANDS)
    _kept(board, log, "edit")
    board, log = _game(*HANDS, HandVoided(5, "dealt twice"))  # the passed-out hand
    assert _kept(board, log, "edit") == _whole(board, log, "edit")
    assert renders[6:] == [5]  # hand 6 is hand 5 now; hands 1-4 did not move


def test_a_substitute_renames_the_rows_of_the_hands_they_played(
    renders: list[int],
) -> None:
    board, log = _game(*HANDS)
    _kept(board, log, "edit")
    kept = _kept(board, log, "edit", EVE)
    assert kept == _whole(board, log, "edit", EVE)
    assert renders[6:] == [6, 5, 4]  # Eve plays Bob's seat from hand 4 on
    assert "Eve bid 4" in kept and "Bob bid 3" in kept


def test_the_kept_chart_is_the_chart_drawn_and_drawn_once_an_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chart = presenters.chart

    def drawn(board: Scoreboard) -> str:
        return render_to_string("games/_score_chart.html", {"chart": chart(board)})

    draws: list[int] = []

    def counted(board: Scoreboard) -> object:
        draws.append(len(board.rows))
        return chart(board)

    monkeypatch.setattr(presenters, "chart", counted)
    cache.clear()
    board, _ = _game(*HANDS)
    assert fragments.chart_html(URL, board, 6) == drawn(board)
    assert fragments.chart_html(URL, board, 6) == drawn(board)
    assert draws == [6]
    # A new event (a void) or new names (a substitute): drawn again.
    voided, _ = _game(*HANDS, HandVoided(5, "dealt twice"))
    assert fragments.chart_html(URL, voided, 7) == drawn(voided)
    renamed = tablewords.board_now(board, EVE)
    assert fragments.chart_html(URL, renamed, 6) == drawn(renamed)
    assert "Eve" in fragments.chart_html(URL, renamed, 6)
    assert draws == [6, 5, 6]
    assert fragments.chart_html(URL, _game()[0], 0) == ""  # no hand, no chart


@pytest.fixture
def edited(tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """Deploys a changed copy of one of our templates (found before ours);
    answers the marker it added. What draws a fragment is worked out once
    a process: forgotten here before and after, as a new process would."""
    changed: list[override_settings] = []

    def edit(name: str) -> str:
        marker = f"<!-- {name} edited -->"
        copy = tmp_path / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text((settings.BASE_DIR / "templates" / name).read_text() + marker)
        ours: dict[str, Any] = settings.TEMPLATES[0]
        changed.append(
            override_settings(TEMPLATES=[{**ours, "DIRS": [tmp_path, *ours["DIRS"]]}])
        )
        changed[-1].enable()
        fragments.drawn_by.cache_clear()
        return marker

    fragments.drawn_by.cache_clear()
    yield edit
    for each in reversed(changed):
        each.disable()
    fragments.drawn_by.cache_clear()


def test_a_changed_row_template_gives_every_row_a_new_key(
    renders: list[int], edited: Callable[[str], str]
) -> None:
    board, log = _game(*HANDS)
    result = board.hands[-1]
    before = fragments.row_key(URL, "edit", result, SEATS)
    _kept(board, log, "edit")
    marker = edited("games/_hand_row.html")
    assert fragments.row_key(URL, "edit", result, SEATS) != before
    # Kept rows of the old template are not shown: each row drawn anew.
    assert _kept(board, log, "edit").count(marker) == len(board.hands)
    assert renders == [6, 5, 4, 3, 2, 1] * 2


def test_a_changed_chart_template_draws_the_chart_again(
    edited: Callable[[str], str],
) -> None:
    cache.clear()
    board, _ = _game(*HANDS)
    assert "edited" not in fragments.chart_html(URL, board, 6)
    marker = edited("games/_score_chart.html")
    assert marker in fragments.chart_html(URL, board, 6)


def test_the_history_kept_whole_follows_a_changed_row_template(
    edited: Callable[[str], str],
) -> None:
    cache.clear()
    board, log = _game(*HANDS)
    assert "edited" not in history_html(URL, board, log, "edit")
    marker = edited("games/_hand_row.html")
    assert history_html(URL, board, log, "edit").count(marker) == len(board.hands)


def test_a_deploy_that_changes_the_code_gives_every_row_a_new_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Any module of the project may come to word a row: the key reads a
    digest of all of them, so none can be left off a list."""
    board, _ = _game(*HANDS)
    result = board.hands[-1]
    fragments.drawn_by.cache_clear()
    before = fragments.row_key(URL, "edit", result, SEATS)
    monkeypatch.setattr(fragments, "code_digest", lambda: "the next deploy")
    fragments.drawn_by.cache_clear()
    assert fragments.row_key(URL, "edit", result, SEATS) != before
    fragments.drawn_by.cache_clear()
