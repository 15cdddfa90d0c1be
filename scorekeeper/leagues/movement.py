"""The progressive movement as clubs play it: after each round the winning
pair moves up a table and splits, the losers stay and split. Pure: the
round's results (its tables, who won at each) and the players here in,
the next round's seats out; no Django, no clock, no randomness.

Tables are numbered from the head (table 1). After a round of N tables:

- table 1 (the head): its winners stay, joined by table 2's winners;
- table t (between): its losers stay, joined by table t+1's winners;
- table N (the foot): its losers stay, joined by the head's losers, who
  go to the foot (one table alone: both pairs stay).

Every pair that meets at a table splits: each of its two players
partners one of the other pair. A tie (co-winners, or a table that
recorded nothing) moves up the side of the table's first seat, as if it
had won. A player who left leaves a gap; those who sat out the round, or
arrived late, or played at a table that was not two pairs (a 3-handed
table), fill the gaps, the foot's first; who sits out is who has sat out
least (of those, the foot's players first, then the last to arrive).
Fewer tables than before: the foot's tables go, their players fill the
gaps; more: new tables at the foot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.leagues.schedule import Round, ScheduleError, Table, Team


@dataclass(frozen=True)
class TableResult:
    """A table of the round just played and the side that won it (0 or 1,
    as ``Table.teams``); None: a tie, or nothing recorded."""

    table: Table
    winner: int | None


def winners_move_up(
    results: Sequence[TableResult],
    present: Sequence[str],
    sat_out: Mapping[str, int] | None = None,
) -> Round:
    """The next round's tables of 4 for the players ``present`` (in their
    check-in order), from the last round's ``results`` (head table
    first); ``sat_out``: how many rounds each player has sat out so far."""
    if len(set(present)) != len(present):
        raise ScheduleError("a player is checked in twice")
    if len(present) < 4:
        raise ScheduleError("a round needs at least 4 players present")
    turns = sat_out or {}
    here = set(present)
    arriving = _moved(results)
    seated = {player for group in arriving for player in group}
    waiting = [player for player in present if player not in seated]
    out = _sitting_out(arriving, waiting, present, turns)
    groups: list[list[str | None]] = [
        [p if p in here and p not in out else None for p in group] for group in arriving
    ]
    count = len(present) // 4
    waiting = [p for p in waiting if p not in out]
    for dropped in groups[count:]:  # fewer tables: the foot's go
        waiting += [player for player in dropped if player is not None]
    groups = groups[:count] + [[None] * 4 for _ in range(count - len(groups))]
    for group in reversed(groups):  # the gaps are filled from the foot up
        for seat, player in enumerate(group):
            if player is None:
                group[seat] = waiting.pop(0)
    partners = _partners(results)
    tables = tuple(_split([p for p in g if p is not None], partners) for g in groups)
    return Round(tables, tuple(sorted(out)))


def _moved(results: Sequence[TableResult]) -> list[list[str]]:
    """Who arrives at each table, head first: two pairs (winners up,
    losers stay, the head's losers to the foot), each pair side by side."""
    pairs = [r for r in results if len(r.table.teams) == 2]
    won = [_won(r) for r in pairs]
    lost = [_lost(r) for r in pairs]
    if len(pairs) == 1:
        return [[*won[0], *lost[0]]]
    groups = []
    for number in range(len(pairs)):
        if number == 0:
            groups.append([*won[0], *won[1]])
        elif number == len(pairs) - 1:
            groups.append([*lost[number], *lost[0]])
        else:
            groups.append([*lost[number], *won[number + 1]])
    return groups


def _won(result: TableResult) -> Team:
    return result.table.teams[result.winner or 0]


def _lost(result: TableResult) -> Team:
    return result.table.teams[1 - (result.winner or 0)]


def _sitting_out(
    arriving: list[list[str]],
    waiting: list[str],
    present: Sequence[str],
    turns: Mapping[str, int],
) -> set[str]:
    """Who sits out: those here past the tables of 4 who have sat out
    least; of those, the foot's players first, those waiting last."""
    here = set(present)
    from_foot = [p for group in reversed(arriving) for p in group if p in here]
    order = from_foot + waiting[::-1]  # of those waiting, the last to arrive
    ranked = sorted(enumerate(order), key=lambda item: (turns.get(item[1], 0), item[0]))
    return {player for _, player in ranked[: len(present) % 4]}


def _partners(results: Sequence[TableResult]) -> set[frozenset[str]]:
    return {
        frozenset(team)
        for result in results
        for team in result.table.teams
        if len(team) == 2
    }


def _split(players: list[str], partners: set[frozenset[str]]) -> Table:
    """The four at a table as two new partnerships: pairs arriving side by
    side (seats 1-2, 3-4) sit across two teams; when the gaps' fillers
    make that join last round's partners, the next way that does not
    (four players, each with at most one last partner: one always does)."""
    first, second, third, fourth = players
    for team_a, team_b in (
        ((first, third), (second, fourth)),
        ((first, fourth), (second, third)),
        ((first, second), (third, fourth)),
    ):
        if frozenset(team_a) not in partners and frozenset(team_b) not in partners:
            return Table((team_a, team_b))
    raise AssertionError(
        "unreachable: a matching of 4 always splits"
    )  # pragma: no cover
