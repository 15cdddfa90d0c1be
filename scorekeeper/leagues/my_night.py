"""A player's own night, on their own phone, by their check-in's link:
where they sit this round (table, seat, partner, opponents), who took
their seat, or that they sit out; and "I'm at my table", which the desk
reads to list who has not sat down yet.

Everything here is one night's round, never the league's: the page polls
every few seconds from every player's phone, so its queries are few and
fixed (pinned by the tests), whatever the size of the league."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.db import transaction
from django.db.models import Q

from scorekeeper.gamelog import game_variant
from scorekeeper.leagues.collation import sort_key
from scorekeeper.leagues.models import CheckIn, Night, Player, Round, Seat, Substitution
from scorekeeper.leagues.services import LeagueError, check_in
from scorekeeper.rules.variants import Variant


class Place(StrEnum):
    """Where the player is this round, as their page says it."""

    WAITING = "waiting"  # no round yet
    SEATED = "seated"
    REPLACED = "replaced"  # a substitute took their seat
    SITTING_OUT = "sitting-out"
    LATE = "late"  # checked in after the round was seated
    LEFT = "left"  # checked out
    CLOSED = "closed"


@dataclass(frozen=True)
class MyNight:
    checkin: CheckIn
    place: Place
    round: Round | None = None
    table: int = 0
    seat: int = 0  # 1-based, clockwise as the table's phone lists them
    partners: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    replaced_by: str = ""
    from_hand: int = 0
    game_over: bool = False

    @property
    def called(self) -> bool:
        return self.round is not None and self.round.called_at is not None

    @property
    def confirmed(self) -> bool:
        """They said they sat down at this round's table."""
        return self.round is not None and self.checkin.seated_round == self.round.number

    @property
    def player(self) -> Player:
        return self.checkin.player

    @property
    def night(self) -> Night:
        return self.checkin.night


def checkin_of(token: str) -> CheckIn | None:
    """The check-in a player's link names (one query), or ``None``."""
    found = CheckIn.objects.select_related("player", "night__season__league")
    return found.filter(token=token).first()


def my_night(checkin: CheckIn) -> MyNight:
    """Where the player sits in the night's latest round: four queries at
    most (the round, its seats, its substitutions, its sit-outs). A player
    checked out is told who took their seat this round, if anyone did."""
    night = checkin.night
    if night.closed_at is not None:
        return MyNight(checkin, Place.CLOSED)
    played = night.rounds.order_by("number").last()
    if played is None:
        return MyNight(checkin, Place.WAITING if checkin.present else Place.LEFT)
    me = checkin.player_id
    subs = list(
        Substitution.objects.filter(table__round=played).select_related("substitute")
    )
    gone = next((s for s in subs if s.started_id == me), None)
    if gone is not None:  # checked out or not, who took their seat
        place = Place.REPLACED if checkin.present else Place.LEFT
        return MyNight(
            checkin,
            place,
            played,
            replaced_by=gone.substitute.name,
            from_hand=gone.from_hand,
        )
    if not checkin.present:
        return MyNight(checkin, Place.LEFT)
    joined = next((s for s in subs if s.substitute_id == me), None)
    seats = Seat.objects.select_related("player", "table__game").order_by("position")
    if joined is not None:
        seats = seats.filter(table=joined.table_id)
    else:
        mine = Seat.objects.filter(table__round=played, player=me)
        seats = seats.filter(table__in=mine.values("table"))
    return _seated(checkin, played, list(seats), subs) or _not_seated(checkin, played)


# Who sits at each seat of a table: position -> (player id, name).
Sitting = dict[int, tuple[int, str]]


def sitting_now(
    table_id: int, seated: Sitting, subs: Iterable[Substitution]
) -> Sitting:
    """Who sits at each seat of the table now: a substitute in the seat of
    the one who left (``subs`` may be of other tables too)."""
    now = dict(seated)
    for sub in subs:
        if sub.table_id == table_id:
            now[sub.position] = (sub.substitute_id, sub.substitute.name)
    return now


def company(
    variant: Variant, sitting: Sitting, mine: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The partners and the opponents of seat ``mine``, by name, clockwise."""
    side = variant.side_of(mine)
    others = [(pos, name) for pos, (_, name) in sorted(sitting.items()) if pos != mine]
    return (
        tuple(n for pos, n in others if variant.side_of(pos) == side),
        tuple(n for pos, n in others if variant.side_of(pos) != side),
    )


def _seated(
    checkin: CheckIn, played: Round, seats: list[Seat], subs: list[Substitution]
) -> MyNight | None:
    """The player's table, who sits at each seat now (a substitute in the
    seat of the one who left) and so the partners and opponents."""
    if not seats:
        return None
    table = seats[0].table
    seated = {seat.position: (seat.player_id, seat.player.name) for seat in seats}
    sitting = sitting_now(table.pk, seated, subs)
    mine = next(
        (pos for pos, (pk, _) in sitting.items() if pk == checkin.player_id), None
    )
    if mine is None:  # credited for a seat another plays now: handled above
        return None
    game = table.game
    variant = game_variant(game.preset, len(game.seats), game.overrides)
    partners, opponents = company(variant, sitting, mine)
    return MyNight(
        checkin,
        Place.SEATED,
        played,
        table=table.number,
        seat=mine + 1,
        partners=partners,
        opponents=opponents,
        game_over=game.finished,
    )


def _not_seated(checkin: CheckIn, played: Round) -> MyNight:
    out = played.sitting_out.filter(pk=checkin.player_id).exists()
    return MyNight(checkin, Place.SITTING_OUT if out else Place.LATE, played)


def checkin_seated(*, checkin: CheckIn, round_number: int) -> None:
    """The player tapped "I'm at my table" for round ``round_number`` (the
    round their page showed): the desk stops listing them. Tapped twice,
    or for a round since replaced by the next, it changes nothing more."""
    if checkin.night.closed_at is not None:
        raise LeagueError("this night is closed")
    if not checkin.night.rounds.filter(number=round_number).exists():
        raise LeagueError(
            "that round has not started: your table shows here when it does"
        )
    CheckIn.objects.filter(pk=checkin.pk, seated_round__lt=round_number).update(
        seated_round=round_number
    )


class DoorAnswer(StrEnum):
    CHECKED_IN = "checked-in"
    ALREADY = "already"  # checked in by another form: told so, no link given


def door_check_in(
    *, night: Night, player: Player, key: str, now: datetime
) -> tuple[DoorAnswer, CheckIn]:
    """A player checks themselves in at the door (its QR code), by the
    form's one-time ``key``: the first sending checks them in, the same
    form sent again (a double tap) answers as the first; a name already
    checked in by anyone else is told so and gets no link (the link is
    the player's own: the desk has it on the check-in sheet)."""
    if not night.self_check_in:
        raise LeagueError("check-in at the door is off tonight: ask at the desk")
    with transaction.atomic():
        here = (
            CheckIn.objects.select_for_update()
            .filter(night=night, player=player)
            .first()
        )
        if here is not None and here.present:
            if key and here.door_key == key:
                return DoorAnswer.CHECKED_IN, here
            return DoorAnswer.ALREADY, here
        made = check_in(night=night, player=player, now=now)
        CheckIn.objects.filter(pk=made.pk).update(door_key=key[:32])
        made.door_key = key[:32]
    return DoorAnswer.CHECKED_IN, made


def not_sat_down(night: Night, played: Round | None) -> list[str]:
    """The players seated in ``played``, the night's latest round, while it
    is being played, who have not said "I'm at my table" since it began:
    present, at a table of the round (a substitute in the seat they took;
    not one who left it), sorted by name. One query; none once the round
    is called or the night closed."""
    if played is None or played.called_at is not None or night.closed_at is not None:
        return []
    subs = Substitution.objects.filter(table__round=played)
    seated = Seat.objects.filter(table__round=played).values("player")
    waiting = (
        CheckIn.objects.filter(
            night=night, present=True, seated_round__lt=played.number
        )
        .filter(Q(player__in=seated) | Q(player__in=subs.values("substitute")))
        .exclude(player__in=subs.values("started"))
        .values_list("player__name", flat=True)
    )
    return sorted(waiting, key=sort_key)
