"""What an organizer does to a league, as plainly named functions.

Keyword arguments only, the time (``now``) and any randomness (``rng``)
given. A refusal is a ``LeagueError`` in the organizer's words, and
changes nothing. Games are made and changed only through the game
services, so every table's log stays append-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet

from scorekeeper.gamelog import LogError, clean_text, game_variant
from scorekeeper.leagues.models import (
    CheckIn,
    Invite,
    League,
    Night,
    Player,
    RegistryPaste,
    Round,
    Season,
    Seat,
    Substitution,
    Table,
)
from scorekeeper.leagues.names import name_key, name_problem, tidy
from scorekeeper.leagues.night_rows import project_nights
from scorekeeper.leagues.pasted import PASTE_LIMIT, paste_report, pasted_names
from scorekeeper.leagues.season import SeasonError, parse_settings
from scorekeeper.leagues.tasks import ratings_ask
from scorekeeper.models import new_token
from scorekeeper.rules.errors import RulesError

SEATS = (4, 6, 8)


class LeagueError(RulesError):
    """An organizer's action refused; the message says why."""


def _name(value: str, what: str) -> str:
    name = " ".join(value.split())
    if not name:
        raise LeagueError(f"{what} needs a name")
    problem = clean_text(name, limit=60)
    if problem:
        raise LeagueError(f"{what}'s name {problem}")
    return name


def league_create(*, name: str, organizer: User, now: datetime) -> League:
    league = League.objects.create(name=_name(name, "a league"), created_at=now)
    league.organizers.add(organizer)
    return league


def invite_create(*, league: League, by: User, now: datetime) -> Invite:
    """A link that makes one more organizer. Asked again (a double tap)
    while this organizer's last one is unused, it is that one again."""
    with transaction.atomic():
        _lock(league)
        unused = league.invites.filter(created_by=by, used_at=None).last()
        if unused is not None:
            return unused
        return Invite.objects.create(league=league, created_by=by, created_at=now)


def invite_accept(*, token: str, user: User, now: datetime) -> League:
    """Make ``user`` an organizer of the invite's league; a link works once.
    The invite is taken by one conditional update: of two accounts sending
    it at the same moment, exactly one gets it. Sent again by the account
    that took it, it answers as it did (the league)."""
    invite = Invite.objects.select_related("league").filter(token=token).first()
    if invite is None:
        raise LeagueError("this invitation link is not valid")
    with transaction.atomic():
        unused = Invite.objects.filter(pk=invite.pk, used_at=None)
        if unused.update(used_at=now) == 1:
            invite.league.organizers.add(user)
            return invite.league
    if invite.league.organizers.filter(pk=user.pk).exists():
        return invite.league  # already done: this organizer's own repeat
    raise LeagueError("this invitation was used already: ask for a new one")


def _lock(league: League) -> None:
    """Take the league row's lock (PostgreSQL) for the rest of the
    transaction, so that two requests changing the league's registry run
    one after the other (SQLite's immediate transaction already does)."""
    League.objects.select_for_update().values_list("pk").get(pk=league.pk)


# Players ---------------------------------------------------------------------


def _player_name(value: str) -> tuple[str, str]:
    """A player's name as stored, and its key (``names``)."""
    clean = tidy(value)
    if not clean:
        raise LeagueError("a player needs a name")
    problem = name_problem(clean)
    if problem:
        raise LeagueError(f"a player's name {problem}")
    return clean, name_key(clean)


def player_add(*, league: League, name: str) -> Player:
    clean, key = _player_name(name)
    _name_free(league, key)
    try:
        with transaction.atomic():
            return Player.objects.create(league=league, name=clean, name_key=key)
    except IntegrityError:  # the same name added at the same moment
        _name_free(league, key)
        raise


def players_paste(*, league: League, text: str, now: datetime) -> RegistryPaste:
    """Add every new name of a pasted list (``pasted``) in one transaction;
    the names already players and those the name rules refuse are reported,
    not added. The registry's lock is held throughout, so two pastes (or a
    paste and a name added) run one after the other."""
    names = pasted_names(text)
    if not names:
        raise LeagueError("paste the names, one a line (or a CSV with a name column)")
    if len(names) > PASTE_LIMIT:
        raise LeagueError(
            f"paste at most {PASTE_LIMIT} names at a time (this list has {len(names)})"
        )
    with transaction.atomic():
        _lock(league)
        registered = dict(league.players.values_list("name_key", "name"))
        report = paste_report(names, registered)
        Player.objects.bulk_create(
            Player(league=league, name=name, name_key=name_key(name))
            for name in report.added
        )
        return RegistryPaste.objects.create(
            league=league, at=now, report=asdict(report)
        )


def _name_free(league: League, key: str, player: Player | None = None) -> None:
    same = league.players.filter(name_key=key)
    if player is not None:
        same = same.exclude(pk=player.pk)
    found = same.first()
    if found is not None:
        already = "" if player is None else ": merge them"
        raise LeagueError(f"{found.name} is already a player of this league{already}")


def player_rename(*, player: Player, name: str) -> Player:
    clean, key = _player_name(name)
    _name_free(player.league, key, player)
    player.name, player.name_key = clean, key
    try:
        with transaction.atomic():
            player.save(update_fields=["name", "name_key"])
    except IntegrityError:  # another player took the name meanwhile
        _name_free(player.league, key, player)
        raise
    return player


def player_merge(*, keep: Player, merge: Player) -> Player:
    """Two entries of the same person: ``merge``'s games, nights, sit-outs
    and places in fixed teams become ``keep``'s, and ``merge`` goes (the
    ratings are redone from the first game, as after any roster change)."""
    if keep.pk == merge.pk or keep.league_id != merge.league_id:
        raise LeagueError("choose two different players of this league")
    with transaction.atomic():
        _lock(keep.league)
        if not Player.objects.filter(pk=merge.pk).exists():
            raise LeagueError(f"{merge.name} was merged already")
        _refuse_two_people(keep, merge)
        moved = list(
            Seat.objects.filter(player=merge)
            .values_list("table__round__night", flat=True)
            .distinct()
        )
        Seat.objects.filter(player=merge).update(player=keep)
        for role in ("started", "substitute", "credited"):
            Substitution.objects.filter(**{role: merge}).update(**{role: keep})
        nights = CheckIn.objects.filter(player=keep).values("night")
        CheckIn.objects.filter(player=merge, night__in=nights).delete()
        CheckIn.objects.filter(player=merge).update(player=keep)
        for sat_out in Round.objects.filter(sitting_out=merge):
            sat_out.sitting_out.remove(merge)
            sat_out.sitting_out.add(keep)
        for night in _nights_in_teams(merge):
            night.teams = [
                [str(keep.pk) if pk == str(merge.pk) else pk for pk in team]
                for team in night.teams
            ]
            night.save(update_fields=["teams"])
        merge.delete()
        League.objects.filter(pk=keep.league_id).update(
            roster_version=F("roster_version") + 1
        )
        project_nights(moved)  # their games count for ``keep`` now
        ratings_ask(league_id=keep.league_id)  # in the worker, once committed
    return keep


def _tables_of(player: Player) -> QuerySet[Table]:
    """The tables a player sat at, or left or joined as a substitute."""
    return Table.objects.filter(
        Q(seats__player=player)
        | Q(substitutions__started=player)
        | Q(substitutions__substitute=player)
    )


def _rounds_of(player: Player) -> QuerySet[Round]:
    """The rounds a player was at: at a table (or as a substitute) or sitting out."""
    return Round.objects.filter(
        Q(tables__in=_tables_of(player).values("pk")) | Q(sitting_out=player)
    )


def _refuse_two_people(keep: Player, merge: Player) -> None:
    """Two entries seen at once (at one table, in one round, in one
    night's teams) are two people: a merge would seat one person twice."""
    where = ""
    if _tables_of(merge).filter(pk__in=_tables_of(keep).values("pk")).exists():
        where = "sat at the same table"
    elif _rounds_of(merge).filter(pk__in=_rounds_of(keep).values("pk")).exists():
        where = "were both at one round"
    elif any(_in_teams(night, keep) for night in _nights_in_teams(merge)):
        where = "are both in one night's teams"
    if where:
        raise LeagueError(
            f"{keep.name} and {merge.name} {where}: they are two people, not one"
        )


def _nights_in_teams(player: Player) -> list[Night]:
    """The fixed-teams nights whose teams hold ``player``."""
    nights = Night.objects.filter(season__league=player.league_id, format=Night.FIXED)
    return [night for night in nights if _in_teams(night, player)]


def _in_teams(night: Night, player: Player) -> bool:
    return any(str(player.pk) in team for team in night.teams)


# Seasons and nights ----------------------------------------------------------


def season_create(
    *,
    league: League,
    name: str,
    preset: str,
    seats: int = 4,
    overrides: dict[str, Any] | None = None,
    order: Sequence[str] | None = None,
    best_nights: int = 0,
    min_nights: int = 0,
    now: datetime,
) -> Season:
    if seats not in SEATS:
        raise LeagueError("league tables have 4, 6 or 8 seats")
    try:
        variant = game_variant(preset, seats, overrides or {})
    except LogError as error:
        raise LeagueError(error.message.removeprefix("log: ")) from None
    standings: dict[str, object] = {
        "best_nights": best_nights,
        "min_nights": min_nights,
    }
    if order is not None:
        standings["order"] = list(order)
    try:
        settings = parse_settings(standings)
    except SeasonError as error:
        raise LeagueError(error.message.removeprefix("log: ")) from None
    return Season.objects.create(
        league=league,
        name=_name(name, "a season"),
        preset=variant.preset,
        seats=seats,
        overrides=dict(overrides or {}),
        order=list(settings.order),
        best_nights=settings.best_nights,
        min_nights=settings.min_nights,
        created_at=now,
    )


def season_link_new(*, season: Season) -> str:
    """A new public read-only standings link for the season; any earlier
    one stops working."""
    season.public_token = new_token()
    season.save(update_fields=["public_token"])
    return season.public_token


def season_link_revoke(*, season: Season) -> None:
    season.public_token = None
    season.save(update_fields=["public_token"])


def night_create(
    *, season: Season, day: date, format: str, label: str = "", now: datetime
) -> Night:
    """A night of the season; two nights of one date (two rooms) are told
    apart by their ``label``."""
    if format not in Night.FORMATS:
        raise LeagueError("choose progressive or fixed teams")
    if format == Night.PROGRESSIVE and season.seats != 4:
        raise LeagueError(
            "partners rotate at 4-seat tables: this season plays fixed teams"
        )
    room = _name(label, "a room") if label.strip() else ""
    try:
        with transaction.atomic():
            return Night.objects.create(
                season=season, date=day, label=room, format=format, created_at=now
            )
    except IntegrityError:
        same = f"a night on {day}" + (f" called {room}" if room else "")
        raise LeagueError(
            f"this season already has {same}: give this one another room or name"
        ) from None


def refuse_closed(night: Night) -> None:
    if night.closed_at is not None:
        raise LeagueError("this night is closed")


def check_in(*, night: Night, player: Player, now: datetime) -> CheckIn:
    """The player is here (again: a leaver who comes back)."""
    refuse_closed(night)
    if player.league_id != night.season.league_id:
        raise LeagueError("that player is not in this league")
    if night.teams:
        raise LeagueError("the teams are drawn: check-in is over for fixed teams")
    checkin, _ = CheckIn.objects.update_or_create(
        night=night,
        player=player,
        defaults={"present": True},
        create_defaults={"at": now},
    )
    return checkin


def check_out(*, night: Night, player: Player) -> None:
    """The player has left: not seated in the next rounds."""
    refuse_closed(night)
    if night.teams:
        raise LeagueError("a fixed team plays the night together")
    CheckIn.objects.filter(night=night, player=player).update(present=False)


def teams_enter(*, night: Night, teams: Sequence[Sequence[int]]) -> None:
    """The organizer's own partnerships for a fixed-teams night, instead of
    a random draw: every player here in exactly one team of the table's
    half. Until the first round starts they can be entered again; none
    at all clears them (and opens check-in again)."""
    refuse_closed(night)
    if night.format != Night.FIXED:
        raise LeagueError("partners rotate on a progressive night: no teams to enter")
    if night.rounds.exists():
        raise LeagueError("the night has started: its teams stay as they are")
    size = night.season.seats // 2
    present = set(night.checkins.filter(present=True).values_list("player", flat=True))
    chosen = [pk for team in teams for pk in team]
    if chosen and (len(chosen) != len(set(chosen)) or set(chosen) != present):
        raise LeagueError("put every player here tonight in one team")
    if len(teams) == 1:
        raise LeagueError("a round needs at least two teams")
    if any(len(team) != size for team in teams):
        raise LeagueError(f"each team has {size} players")
    night.teams = [[str(pk) for pk in team] for team in teams]
    night.save(update_fields=["teams"])


def newcomer_check_in(*, night: Night, name: str, now: datetime) -> Player:
    player = player_add(league=night.season.league, name=name)
    check_in(night=night, player=player, now=now)
    return player
