"""The door of a night of 80: who was here last time (one tap checks
them all in), and the names as the organizer finds them: sorted with
accents read as their letters, grouped by letter, filtered by a search."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from scorekeeper.leagues.collation import initial, matches, sort_key
from scorekeeper.leagues.models import CheckIn, Night, Player, Seat
from scorekeeper.leagues.services import LeagueError


def previous_night(night: Night) -> Night | None:
    """The season's night before this one: the latest earlier date's, in
    the same room when there is one."""
    earlier = night.season.nights.filter(date__lt=night.date).order_by(
        "-date", "-created_at", "-pk"
    )
    return earlier.filter(label=night.label).first() or earlier.first()


def regulars(night: Night) -> set[int]:
    """The players at ``night``: checked in (even if they left), or seated
    (an imported night has tables and no check-in)."""
    checked = night.checkins.values_list("player", flat=True)
    seated = Seat.objects.filter(table__round__night=night).values_list(
        "player", flat=True
    )
    return set(checked) | set(seated)


def check_in_last_night(*, night: Night, now: datetime) -> int:
    """Everyone who was at the season's previous night is here (one tap
    at the door for the regulars); returns how many were not yet."""
    if night.closed_at is not None:
        raise LeagueError("this night is closed")
    if night.teams:
        raise LeagueError("the teams are drawn: check-in is over for fixed teams")
    previous = previous_night(night)
    if previous is None:
        raise LeagueError("this is the season's first night: no last night to copy")
    coming = regulars(previous)
    here = night.checkins.filter(player__in=coming)
    present = set(here.filter(present=True).values_list("player", flat=True))
    with transaction.atomic():
        here.update(present=True)  # those who had left come back
        CheckIn.objects.bulk_create(
            (CheckIn(night=night, player_id=pk, at=now) for pk in sorted(coming)),
            ignore_conflicts=True,
        )
    return len(coming - present)


HERE, LEFT, AWAY = "here", "left", "away"


@dataclass(frozen=True)
class Arrival:
    """A name at the door: the player, and here, left (between rounds) or
    not come."""

    player: Player
    state: str

    @property
    def here(self) -> bool:
        return self.state == HERE


def arrivals(night: Night, players: list[Player]) -> list[Arrival]:
    """Every player of the league with their state tonight, sorted as a
    reader expects."""
    present = dict(night.checkins.values_list("player", "present"))
    listed = sorted(players, key=lambda player: sort_key(player.name))
    return [
        Arrival(p, AWAY if p.pk not in present else HERE if present[p.pk] else LEFT)
        for p in listed
    ]


def by_letter(
    listed: list[Arrival], query: str = ""
) -> list[tuple[str, list[Arrival]]]:
    """The names a search finds, under the letter each is filed under."""
    letters: dict[str, list[Arrival]] = {}  # in the order first met
    for each in listed:
        if matches(each.player.name, query):
            letters.setdefault(initial(each.player.name), []).append(each)
    return list(letters.items())
