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


def test_several_hands_at_once_are_said_together() -> None:
    """A screen that missed a poll or two (a TV, a phone waking up) is told
    of every hand that came, not only the first."""
    log = _log(played(1, 3, 1, 5), played(2, 3, 4, 2), played(3, 3, 5, 1))
    assert what_changed(log, replay_log(log), 1) == (
        "Hands 2 and 3 were just recorded by org."
    )
    assert what_changed(log, replay_log(log), 0) == (
        "Hands 1 to 3 were just recorded by org."
    )
    assert what_changed(log, replay_log(log), 2) == "Hand 3 was just recorded by org."
    mixed = GameLog(
        log.variant,
        NAMES,
        0,
        (LogEntry(played(1, 3, 1, 5), by="Ann"), LogEntry(played(2, 3, 4, 2), by="")),
    )
    assert what_changed(mixed, replay_log(mixed), 0) == (
        "Hands 1 and 2 were just recorded by the other phones."
    )


def test_a_mix_of_hands_voids_and_corrections_is_counted_not_numbered() -> None:
    """A void or a correction among the arrivals moves the hands' numbers:
    the screen is told what came, counted."""
    log = _log(played(1, 3, 1, 5), played(2, 3, 4, 2), HandVoided(2))
    assert what_changed(log, replay_log(log), 1) == (
        "Just in from org: 1 hand recorded, 1 voided."
    )
    ended = _log(played(1, 3, 1, 5), GameEnded("time"))
    assert what_changed(ended, replay_log(ended), 0) == (
        "Just in from org: 1 hand recorded, the game ended."
    )


def test_the_end_undone_among_other_changes_still_says_play_on() -> None:
    log = _log(
        played(1, 3, 1, 5),
        GameEnded("round 1 called"),
        HandVoided(2),
        played(2, 3, 4, 2),
    )
    assert what_changed(log, replay_log(log), 2) == (
        "Just in from org: 1 hand recorded, the game's end undone: play on."
    )
