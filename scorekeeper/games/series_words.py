"""A series in the table's words: "Best of 3", "Ann & Cat 1 – Bob & Dan 0",
"Best of 3: Ann & Cat win 2 games to 1". Plain functions of the rule and
the standing (``rules.series``); no rule is decided here."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.rules.series import SeriesRule, SeriesStanding

# What the new-game form offers (a series is optional: "" is one game).
CHOICES = (
    ("", "One game"),
    ("best-of-3", "Best of 3"),
    ("best-of-5", "Best of 5"),
    ("best-of-7", "Best of 7"),
    ("first-to-2", "First to 2 games"),
    ("first-to-3", "First to 3 games"),
    ("first-to-5", "First to 5 games"),
)


def rule_label(rule: SeriesRule) -> str:
    """ "Best of 3", "First to 2 games"."""
    if rule.kind == "best-of":
        return f"Best of {rule.games}"
    return f"First to {_games(rule.games)}"


def rule_meaning(rule: SeriesRule) -> str:
    """The rule in a sentence, as the series panel says it."""
    need = _games(rule.wins_needed)
    if rule.kind == "best-of":
        return f"At most {rule.games} games: the first to win {need} takes the series."
    return f"The first to win {need} takes the series, however many games it takes."


def score_line(names: Sequence[str], wins: Sequence[int]) -> str:
    """ "Ann & Cat 1 – Bob & Dan 0"."""
    return " – ".join(f"{name} {won}" for name, won in zip(names, wins, strict=True))


def winner_line(names: Sequence[str], standing: SeriesStanding) -> str:
    """ "Best of 3: Ann & Cat win 2 games to 1"; "…: Ann and Bob share it,
    2 games each"; "" while the series goes on."""
    if not standing.over:
        return ""
    label = rule_label(standing.rule)
    wins = standing.wins
    won = wins[standing.winners[0]]
    others = [wins[side] for side in range(len(wins)) if side not in standing.winners]
    against = " and ".join(str(n) for n in others)
    if len(standing.winners) > 1:
        sharing = _listed([names[side] for side in standing.winners])
        tail = f" ({against} for the rest)" if others else ""
        return f"{label}: {sharing} share it, {_games(won)} each{tail}"
    name = names[standing.winners[0]]
    verb = "win" if " & " in name else "wins"
    return f"{label}: {name} {verb} {_games(won)} to {against}"


def game_title(rule: SeriesRule, number: int) -> str:
    """ "Best of 3 · game 2"."""
    return f"{rule_label(rule)} · game {number}"


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]
