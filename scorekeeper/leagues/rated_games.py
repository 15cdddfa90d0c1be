"""A league's ratings in the database: each finished game of its seasons,
in the order played (night, round, table), rated by ``ratings.rate``.

The stored ratings are a projection of the games' logs. ``ratings_refresh``
brings them up to date: when nothing changed (one aggregate query says so)
it does nothing; when a game changed or a game was added, it redoes the
ratings from the first game that differs, on from the ratings just before
it; after a merge of two players it redoes them all. ``rebuild=True``
redoes them all from scratch, and equals the running result.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple
from uuid import UUID

from django.db import transaction
from django.db.models import Count, F, Min, Q, Sum, TextField
from django.db.models.functions import Cast

from scorekeeper.leagues.models import League, Player, Rating, Seat, Table
from scorekeeper.leagues.ratings import Rated, Skill, rate
from scorekeeper.leagues.results import sides_of

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Game:
    game: UUID
    seq: int
    order: str
    players: tuple[int, ...]
    rated: Rated


def _order(day: date, season: int, round: int, table: int) -> str:
    """A game's place in the league's order, as a string that sorts so."""
    return f"{day.isoformat()}:{season:010d}:{round:05d}:{table:05d}"


class _Version(NamedTuple):
    """What the ratings read of the league's games now; its text changes
    whenever any of it changes: every append to any of the league's games
    adds to the sum of their logs' lengths."""

    games: int
    finished: int
    seq: int
    roster: int

    def __str__(self) -> str:
        return f"{self.games}:{self.finished}:{self.seq}:{self.roster}"


def _version(league: League) -> _Version:
    found = Table.objects.filter(round__night__season__league=league).aggregate(
        games=Count("pk"),
        finished=Count("pk", filter=Q(game__finished=True)),
        seq=Sum("game__last_seq"),
    )
    return _Version(
        found["games"], found["finished"], found["seq"] or 0, league.roster_version
    )


_PLACE = ("round__night__date", "round__night__season", "round__number", "number")


def _finished_games(league: League, since: str = "") -> list[_Game]:
    """The league's finished games in order, from the place ``since`` on."""
    tables = Table.objects.filter(
        round__night__season__league=league, game__finished=True
    ).order_by(*_PLACE)
    if since:
        tables = tables.filter(round__night__date__gte=since[:10])
    seated: dict[int, list[int]] = defaultdict(list)
    seats = Seat.objects.filter(table__in=tables).order_by("table", "position")
    for table_id, player_id in seats.values_list("table", "player"):
        seated[table_id].append(player_id)
    games = []
    for (
        table_id,
        game_id,
        seq,
        winners,
        preset,
        rules,
        *place,
    ) in tables.annotate(rules=Cast("game__overrides", TextField())).values_list(
        "pk",
        "game",
        "game__last_seq",
        "game__winners",
        "game__preset",  # each game's own rules: an import may mix them
        "rules",
        *_PLACE,
    ):
        order = _order(*place)
        if order < since:
            continue
        players = tuple(seated[table_id])
        rated = Rated(
            tuple(map(str, players)),
            sides_of(preset, len(players), rules),
            frozenset(winners),
        )
        games.append(_Game(game_id, seq, order, players, rated))
    return games


def _first_change(league: League, rated_roster: int, finished: int) -> str | None:
    """The place of the first game whose rating must be redone: a rated
    game that changed (its log grew, or it is no longer finished or in the
    league) or a finished game not rated yet; "" for all of them (after a
    merge); None when nothing rated changes. ``finished``: how many of the
    league's games are finished now (when every rated game is unchanged
    and there are as many, none is new)."""
    if league.roster_version != rated_roster:
        return ""
    rated = Rating.objects.filter(league=league)
    stale = Q(game__finished=False) | ~Q(seq=F("game__last_seq")) | Q(game__table=None)
    found = rated.aggregate(
        first=Min("order", filter=stale),
        # Rated games still finished and in the league: as many as it has
        # finished games, and no finished game waits to be rated.
        kept=Count("pk", filter=Q(game__finished=True, game__table__isnull=False)),
    )
    changed: str | None = found["first"]
    if found["kept"] == finished:
        return changed  # None: every finished game is rated, as it stands
    new = (
        Table.objects.filter(round__night__season__league=league, game__finished=True)
        .exclude(game__in=rated.values("game"))
        .values_list(*_PLACE)
    )
    places = [_order(*place) for place in new]
    if changed is not None:
        places.append(changed)
    return min(places, default=None)


def ratings_refresh(league: League, *, rebuild: bool = False) -> int:
    """Bring the league's ratings up to date; returns how many games were
    (re)rated. Afterwards ``league.rated_version`` is the version of
    everything the league's games hold now (pages key caches on it). Two
    requests at once: the league row's lock (PostgreSQL) or the immediate
    transaction (SQLite, config.settings) makes the second wait, and it
    then finds the work done: on one server or on several sharing the
    database, the work is done once (logged at DEBUG, each time it is)."""
    now = _version(league)
    version = str(now)
    if not rebuild and version == league.rated_version:
        return 0
    with transaction.atomic():
        locked = League.objects.select_for_update().get(pk=league.pk)
        if not rebuild and version == locked.rated_version:
            league.rated_version = version
            return 0  # another request did it meanwhile
        since = (
            ""
            if rebuild
            else _first_change(league, _rated_roster(locked), now.finished)
        )
        rerated = 0
        if since is not None:
            rerated = _rate_from(league, since)
        League.objects.filter(pk=league.pk).update(rated_version=version)
        league.rated_version = version
        logger.debug(
            "ratings of league %s brought to version %s: %d games rated",
            league.pk,
            version,
            rerated,
        )
    return rerated


def _rate_from(league: League, since: str) -> int:
    """Redo the ratings of the games from the place ``since`` on: only the
    players of those games (as rated before, and now) move."""
    rated = Rating.objects.filter(league=league)
    start = rated.filter(order__lt=since).count()  # these stay as they are
    games = _finished_games(league, since)
    # Games rated per player: those before ``start`` stay; the tail's are
    # taken off (as rated before) and put back (as rated now).
    counted: dict[str, int] = defaultdict(int)
    redone = rated.filter(position__gte=start).values_list("skills", flat=True)
    for after in redone if start else ():  # from the start: counted afresh
        for key in after:
            counted[key[1:]] -= 1
    for game in games:
        for pk in game.players:
            counted[str(pk)] += 1
    touched = set(counted)
    if start == 0:
        touched.update(str(pk) for pk in league.players.values_list("pk", flat=True))
    skills = _skills_before(league, start, rated.count(), touched)
    rated.filter(position__gte=start).delete()
    rows: list[Rating] = []
    for position, game in enumerate(games, start=start):
        after = rate(skills, game.rated)
        skills.update(after)
        rows.append(
            Rating(
                league=league,
                position=position,
                game_id=game.game,
                seq=game.seq,
                order=game.order,
                skills={f"p{pid}": [s.mu, s.sigma] for pid, s in after.items()},
            )
        )
    Rating.objects.bulk_create(rows, batch_size=2000)
    _current(league, skills, touched, counted, fresh=start == 0)
    return len(games)


def _skills_before(
    league: League, start: int, rated: int, needed: set[str]
) -> dict[str, Skill]:
    """The skill of each ``needed`` player before the game at ``start``
    (none for a player not rated before it): the players' current ratings
    when every rated game stays, else each one's last stored rating
    before it, read back from there."""
    if start and start == rated:
        current = league.players.filter(pk__in=[int(pid) for pid in needed])
        return {
            str(pk): Skill(mu, sigma)
            for pk, mu, sigma in current.values_list("pk", "mu", "sigma")
            if mu is not None and sigma is not None
        }
    skills: dict[str, Skill] = {}
    missing = set(needed)
    earlier = Rating.objects.filter(league=league, position__lt=start).order_by(
        "-position"
    )
    for after in earlier.values_list("skills", flat=True).iterator(chunk_size=500):
        for key, (mu, sigma) in after.items():
            if key[1:] in missing:
                skills[key[1:]] = Skill(mu, sigma)
                missing.discard(key[1:])
        if not missing:
            break
    return skills


def _rated_roster(league: League) -> int:
    """The roster version the stored ratings were computed under."""
    return int(league.rated_version.rsplit(":", 1)[-1] or -1)


def _current(
    league: League,
    skills: dict[str, Skill],
    touched: set[str],
    counted: dict[str, int],
    *,
    fresh: bool,
) -> None:
    """The latest rating and games rated of each player whose ratings
    were redone, kept on the player: ``counted`` is how many more games
    each has rated (all of them, when ``fresh``)."""
    players = list(league.players.filter(pk__in=[int(pid) for pid in touched]))
    for player in players:
        skill = skills.get(str(player.pk))
        player.mu = skill.mu if skill else None
        player.sigma = skill.sigma if skill else None
        before = 0 if fresh else player.rated_games
        player.rated_games = before + counted.get(str(player.pk), 0)
    Player.objects.bulk_update(players, ["mu", "sigma", "rated_games"], batch_size=500)


def rating_history(player: Player) -> list[tuple[date, Skill]]:
    """The player's skill after each of their rated games, in order, with
    the date of the game's night."""
    games = Table.objects.filter(seats__player=player).values("game")
    rows = Rating.objects.filter(game__in=games).values_list(  # from the seats
        "game__table__round__night__date", "skills"
    )
    me = f"p{player.pk}"
    return [(day, Skill(*skills[me])) for day, skills in rows]
