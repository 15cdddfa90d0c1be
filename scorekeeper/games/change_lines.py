"""What a change after a game's end or a night's close did to a game, in
the words the game's page and the night's change log print (no
database): each hand whose record changed, before and after ("hand 2 (Bob bid 3 ♥): took 6 → took 3"), and the
winner when it changed."""

from __future__ import annotations

from scorekeeper.rules.scoreboard import HandResult, Scoreboard, side_names
from scorekeeper.tablewords import hand_summary


def change_words(before: Scoreboard, after: Scoreboard) -> str:
    """The hands changed, then the winner's change ("" when neither: a
    correction to what the hand already was)."""
    kept = {result.target: result for result in after.hands}
    words = [
        _hand_change(before, result, after, kept[result.target])
        for result in before.hands
        if result.target in kept and kept[result.target].hand != result.hand
    ]
    winner = _winner_change(before, after)
    return "; ".join(words + ([winner] if winner else []))


def _hand_change(
    before: Scoreboard, old: HandResult, after: Scoreboard, new: HandResult
) -> str:
    """ "hand 2 (Bob bid 3 ♥): took 6 → took 3", the part both share named
    once; "hand 2: Bob bid 3 ♥, took 6 → Cat bid 4 ♠, took 4" otherwise."""
    was = hand_summary(before.variant, before.seats, old.hand).split(", ")
    now = hand_summary(after.variant, after.seats, new.hand).split(", ")
    if len(was) > 1 and len(now) > 1 and was[0] == now[0]:
        return (
            f"hand {old.number} ({was[0]}): {', '.join(was[1:])} → {', '.join(now[1:])}"
        )
    return f"hand {old.number}: {', '.join(was)} → {', '.join(now)}"


def _winner_change(before: Scoreboard, after: Scoreboard) -> str:
    if before.winners == after.winners:
        return ""
    names = side_names(before.variant, before.seats)
    return (
        f"the winner changed: {_winners(names, before.winners)}"
        f" → {_winners(names, after.winners)}"
    )


def _winners(names: tuple[str, ...], winners: tuple[int, ...]) -> str:
    """ "Ann & Cat", "Ann & Cat and Bob & Dan (tied)", or "no one"."""
    named = " and ".join(names[side] for side in winners) or "no one"
    return f"{named} (tied)" if len(winners) > 1 else named
