"""A league's ratings in the database: each finished game of its seasons,
in the order played (night, round, table), rated by ``ratings.rate``.

The stored ratings are a projection of the games' logs. ``ratings_refresh``
brings them up to date: when no night's tallies moved (one small query of
the nights' revisions says so) it does nothing; otherwise it compares the
rated games with the games as they stand from the first night that moved
on, and redoes the ratings from the first game that differs (a game
changed, added, or credited to another player), on from the ratings just
before it. ``rebuild=True`` redoes them all from scratch, and equals the
running result.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from django.db import connection, transaction

from scorekeeper.leagues.models import (
    League,
    Night,
    NightProjection,
    Player,
    Rating,
)
from scorekeeper.leagues.night_rows import project_nights, sides_of
from scorekeeper.leagues.rating_rows import (
    FinishedRow,
    Key,
    RatedRow,
    finished_from,
    history_of,
    rated_count,
    rated_from,
    tables_from,
)
from scorekeeper.leagues.ratings import Rated, Skill, rate

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Game:
    game: Key
    seq: int
    order: str
    players: tuple[int, ...]
    rated: Rated


def _order(day: date | str, season: int, round: int, table: int) -> str:
    """A game's place in the league's order, as a string that sorts so (a
    date as YYYY-MM-DD)."""
    return f"{day}:{season:010d}:{round:05d}:{table:05d}"


def _place_of(order: str) -> tuple[date, int, int, int]:
    """The place ``order`` names: a night's date and season, a round, a table."""
    day, season, round, table = order.split(":")
    return date.fromisoformat(day), int(season), int(round), int(table)


class _Night(NamedTuple):
    """A night of the league as its ratings see it: where its games start
    in the league's order, its tallies' revision (which moves with every
    change to its finished games, in the change's transaction) and the
    revision the ratings last took in."""

    pk: int
    start: str
    revision: int
    rated: int


def _nights(league: League) -> list[_Night]:
    """The league's nights, one query (a night never summed is summed
    first, as the season's page would)."""
    rows = Night.objects.filter(season__league=league).values_list(
        "pk", "date", "season", "projection__revision", "projection__rated"
    )
    nights = [
        _Night(pk, _order(day, season, 0, 0), revision, rated)
        for pk, day, season, revision, rated in rows
    ]
    missing = [night.pk for night in nights if night.revision is None]
    if missing:
        project_nights(missing)
        return _nights(league)
    return nights


def _version(league: League, nights: list[_Night]) -> str:
    """What the ratings read of the league's games, as text that changes
    whenever any of it changes: each night's revision and the roster."""
    marks = ",".join(f"{night.pk}.{night.revision}" for night in sorted(nights))
    digest = hashlib.sha256(marks.encode()).hexdigest()[:32]
    return f"{digest}:{league.roster_version}"


def _finished_games(league: League, since: str = "") -> list[_Game]:
    """The league's finished games in order, from the place ``since`` on."""
    games = []
    for table in tables_from(league.pk, _place_of(since) if since else None):
        if not table.finished:
            continue
        order = _order(*table.place)
        rated = Rated(
            tuple(map(str, table.players)),
            sides_of(table.preset, len(table.players), table.rules),
            frozenset(table.winners),
        )
        games.append(_Game(table.game, table.seq, order, table.players, rated))
    return games


def ratings_version(league: League) -> str:
    """The version of everything the ratings read of ``league`` now (one
    small query of its nights): the ratings are current when it is
    ``league.rated_version``."""
    return _version(league, _nights(league))


def ratings_refresh(league: League, *, rebuild: bool = False) -> int:
    """Bring the league's ratings up to date; returns how many games were
    (re)rated. When no night's revision moved (one small query says so)
    it does nothing; otherwise it compares the rated games with the games
    as they stand from the first changed night on, and redoes the ratings
    from the first game that differs (another game, log length or
    player), on from the ratings just before it; after a merge it compares
    from the first game. ``rebuild=True`` redoes them all from scratch,
    and equals the running result. Afterwards ``league.rated_version`` is
    the version of everything the ratings read now. Two requests at once:
    the league row's lock (PostgreSQL) or the immediate transaction
    (SQLite, config.settings) makes the second wait, and it then finds
    the work done: on one server or on several sharing the database, the
    work is done once (logged at DEBUG, each time it is)."""
    nights = _nights(league)
    version = _version(league, nights)
    if not rebuild and version == league.rated_version:
        return 0
    with transaction.atomic():
        locked = League.objects.select_for_update().get(pk=league.pk)
        if not rebuild and version == locked.rated_version:
            league.rated_version = version
            return 0  # another request did it meanwhile
        since = "" if rebuild else _first_change(league, locked, nights)
        rerated = _rate_from(league, since, rebuild)
        _mark_rated(nights)
        League.objects.filter(pk=league.pk).update(rated_version=version)
        league.rated_version = version
        logger.debug(
            "ratings of league %s brought to version %s: %d games rated",
            league.pk,
            version,
            rerated,
        )
    return rerated


def _first_change(league: League, rated: League, nights: list[_Night]) -> str:
    """Where the games to compare start: the first night whose revision
    moved since the ratings took it in; the first game ("") after a merge,
    or when a night is gone (none moved, yet the version did)."""
    if league.roster_version != _rated_roster(rated):
        return ""
    return min((n.start for n in nights if n.revision != n.rated), default="")


def _first_stale(rows: list[RatedRow], games: list[FinishedRow]) -> str:
    """The place of the first game whose rating must be redone, of the
    rated ``rows`` and the finished ``games`` from one place on: a rated
    game that changed (its log grew, or it is no longer finished or in
    the league) or a finished game not rated yet; "" when none. A seat
    credited to another player moves the roster, which compares them all."""
    now = {game.game: game.seq for game in games}
    rated = {row.game for row in rows}
    changed = [row.order for row in rows if now.get(row.game) != row.seq]
    new = [_order(*game.place) for game in games if game.game not in rated]
    return min(changed + new, default="")


def _mark_rated(nights: list[_Night]) -> None:
    """Each night's revision as the ratings just took it in (the one read
    before the games were: a change meanwhile is compared next time)."""
    moved: dict[int, list[int]] = defaultdict(list)
    for night in nights:
        if night.revision != night.rated:
            moved[night.revision].append(night.pk)
    for revision, pks in moved.items():
        NightProjection.objects.filter(night__in=pks).update(rated=revision)


def _unchanged(rows: list[RatedRow], games: list[_Game]) -> int:
    """How many of the rated ``rows`` lead ``games`` unchanged: the same
    game, as long, with the same players."""
    same = 0
    for row, game in zip(rows, games, strict=False):
        players = set(map(int, row.players()))
        if (row.game, row.seq) != (game.game, game.seq) or players != set(game.players):
            break
        same += 1
    return same


def _rate_from(league: League, since: str, rebuild: bool = False) -> int:
    """Redo the ratings of the games from the first that differs from its
    rating, from the place ``since`` on (all of them when ``rebuild``):
    only the players of those games (as rated before, and now) move. Three
    plain queries read the rated games, the finished games' lengths (to
    find the first that changed) and the games from there as they stand."""
    rows = rated_from(league.pk, since)
    if since and not rebuild:
        since = _first_stale(rows, finished_from(league.pk, _place_of(since)))
        if not since:
            return 0
        rows = [row for row in rows if row.order >= since]
    games = _finished_games(league, since)
    # The ratings before ``since`` stay: as many as the first redone's
    # position (positions follow the order), or all of them.
    before = rows[0].position if rows else rated_count(league.pk)
    same = 0 if rebuild else _unchanged(rows, games)
    if same == len(rows) == len(games):
        return 0
    start, games = before + same, games[same:]
    # Games rated per player: those before ``start`` stay; the tail's are
    # taken off (as rated before) and put back (as rated now).
    counted: dict[str, int] = defaultdict(int)
    for row in rows[same:] if start else ():  # from the start: afresh
        for pid in row.players():
            counted[pid] -= 1
    for game in games:
        for pk in game.players:
            counted[str(pk)] += 1
    touched = set(counted)
    if start == 0:
        touched.update(str(pk) for pk in league.players.values_list("pk", flat=True))
    skills = _skills_before(league, start, before + len(rows), touched)
    Rating.objects.filter(league=league, position__gte=start).delete()
    rows_made: list[Rating] = []
    for position, game in enumerate(games, start=start):
        after = rate(skills, game.rated)
        skills.update(after)
        rows_made.append(
            Rating(
                league=league,
                position=position,
                game_id=game.game,
                seq=game.seq,
                order=game.order,
                skills={f"p{pid}": [s.mu, s.sigma] for pid, s in after.items()},
            )
        )
    Rating.objects.bulk_create(rows_made, batch_size=2000)
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


_PLAYER_TABLE = (Player._meta.db_table, str(Player._meta.pk.column))


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
    each has rated (all of them, when ``fresh``). Only the players whose
    numbers moved are written, by one statement run for each of them (a
    Django ``bulk_update`` of 40 players builds a CASE a column and cost
    ten times as much: a page's first view after a change waits for it)."""
    found = league.players.filter(pk__in=[int(pid) for pid in touched])
    moved = []
    for pk, mu, sigma, games in found.values_list("pk", "mu", "sigma", "rated_games"):
        skill = skills.get(str(pk))
        now = (
            skill.mu if skill else None,
            skill.sigma if skill else None,
            (0 if fresh else games) + counted.get(str(pk), 0),
        )
        if now != (mu, sigma, games):
            moved.append((*now, pk))
    table, key = (connection.ops.quote_name(name) for name in _PLAYER_TABLE)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET mu = %s, sigma = %s, rated_games = %s "
            f"WHERE {key} = %s",
            moved,
        )


def rating_history(player: Player) -> list[tuple[date, Skill]]:
    """The player's skill after each of their rated games, in order, with
    the date of the game's night (one plain query: ``history_of``)."""
    return [(day, Skill(mu, sigma)) for day, (mu, sigma) in history_of(player.pk)]
