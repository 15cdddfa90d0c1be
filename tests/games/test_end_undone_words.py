"""Issue 33: the other phones at a table whose called game plays on again
(its end voided by the organizer) are told so in words, not "a hand was
voided"."""

from __future__ import annotations

from scorekeeper.gamelog import GameLog, LogEntry, replay_log
from scorekeeper.games.outcomes import what_changed
from scorekeeper.rules.events import GameEnded, HandVoided
from tests.factories import played, variant

NAMES = ("Ann", "Bob", "Cat", "Dan")


def _log(*events: object) -> GameLog:
    entries = tuple(LogEntry(event, by="org") for event in events)  # type: ignore[arg-type]
    return GameLog(variant("classic"), NAMES, 0, entries)


def test_an_end_voided_says_the_game_plays_on() -> None:
    log = _log(played(1, 3, 1, 5), GameEnded("round 1 called"), HandVoided(2))
    words = what_changed(log, replay_log(log), 2)
    assert words == "The game's end was just undone by org: play on."


def test_a_hand_voided_is_still_said_as_before() -> None:
    log = _log(played(1, 3, 1, 5), played(2, 3, 4, 2), HandVoided(1))
    assert what_changed(log, replay_log(log), 2) == "A hand was just voided by org."
