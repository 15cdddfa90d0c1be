"""Any one-field corruption of a valid log is refused cleanly or still
scores consistently; nothing ever crashes."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.gamelog import (
    GameLog,
    LogEntry,
    LogError,
    log_document,
    read_and_replay,
)
from scorekeeper.rules.events import Event
from scorekeeper.rules.variants import Variant
from tests.hypothesis_profiles import examples
from tests.strategies import games

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.text(max_size=12)
    | st.sampled_from(["moon", "pepper", "no-trump", "clubs", "pass", "hand", "void"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)


def document_of(
    game: tuple[Variant, tuple[str, ...], int, list[Event]],
) -> dict[str, Any]:
    rules, names, first_dealer, events = game
    log = GameLog(
        rules, names, first_dealer, tuple(LogEntry(event) for event in events)
    )
    return log_document(log)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(games(max_hands=10), st.data())
def test_one_corrupted_field_is_refused_or_scores_consistently(
    game: tuple[Variant, tuple[str, ...], int, list[Event]], data: st.DataObject
) -> None:
    document = document_of(game)
    if document["events"] and data.draw(st.booleans()):
        event = data.draw(st.sampled_from(document["events"]))
        key = data.draw(
            st.sampled_from([*event, "type", "target", "hand", "passed_out"])
        )
    else:
        event = document
        key = data.draw(st.sampled_from([*document, "extra"]))
    event[key] = data.draw(JSON_VALUES)
    try:
        _, board = read_and_replay(json.dumps(document))
    except LogError as error:
        assert str(error).startswith(("log: ", "event "))
        return
    running = [0] * board.variant.sides
    for result in board.hands:
        running = [a + b for a, b in zip(running, result.deltas, strict=True)]
    assert list(board.totals) == running
