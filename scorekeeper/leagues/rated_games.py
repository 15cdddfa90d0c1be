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

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from uuid import UUID

from django.db import transaction
from django.db.models import Count, Q, Sum

from scorekeeper.leagues.models import League, Player, Rating, Seat, Table
from scorekeeper.leagues.ratings import Rated, Skill, rate
from scorekeeper.leagues.results import sides_of


@dataclass(frozen=True)
class _Game:
    game: UUID
    seq: int
    players: tuple[int, ...]
    rated: Rated


def _version(league: League) -> str:
    """Changes whenever anything the ratings read changes: every append to
    any of the league's games adds to the sum of their logs' lengths."""
    found = Table.objects.filter(round__night__season__league=league).aggregate(
        games=Count("pk"),
        finished=Count("pk", filter=Q(game__finished=True)),
        seq=Sum("game__last_seq"),
    )
    return (
        f"{found['games']}:{found['finished']}:{found['seq']}:{league.roster_version}"
    )


def _finished_games(league: League) -> list[_Game]:
    tables = Table.objects.filter(
        round__night__season__league=league, game__finished=True
    ).order_by("round__night__date", "round__night__season", "round__number", "number")
    seated: dict[int, list[int]] = defaultdict(list)
    seats = Seat.objects.filter(table__in=tables).order_by("table", "position")
    for table_id, player_id in seats.values_list("table", "player"):
        seated[table_id].append(player_id)
    games = []
    for table_id, game_id, seq, winners, preset, overrides in tables.values_list(
        "pk",
        "game",
        "game__last_seq",
        "game__winners",
        "round__night__season__preset",
        "round__night__season__overrides",
    ):
        players = tuple(seated[table_id])
        rules = json.dumps(overrides, sort_keys=True)
        rated = Rated(
            tuple(map(str, players)),
            sides_of(preset, len(players), rules),
            frozenset(winners),
        )
        games.append(_Game(game_id, seq, players, rated))
    return games


def ratings_refresh(league: League, *, rebuild: bool = False) -> int:
    """Bring the league's ratings up to date; returns how many games were
    (re)rated. Two requests at once: the league row's lock (PostgreSQL) or
    the immediate transaction (SQLite, config.settings) makes the second
    wait, and it then finds the work done."""
    version = _version(league)
    if not rebuild and version == league.rated_version:
        return 0
    with transaction.atomic():
        locked = League.objects.select_for_update().get(pk=league.pk)
        if not rebuild and version == locked.rated_version:
            return 0  # another request did it meanwhile
        games = _finished_games(league)
        rated = {
            position: (game, seq)
            for position, game, seq in Rating.objects.filter(league=league).values_list(
                "position", "game", "seq"
            )
        }
        start = 0
        if not rebuild and league.roster_version == _rated_roster(locked):
            while start < len(games) and rated.get(start) == (
                games[start].game,
                games[start].seq,
            ):
                start += 1
        skills = _skills_before(league, start, len(rated))
        Rating.objects.filter(league=league, position__gte=start).delete()
        rows: list[Rating] = []
        for position, game in enumerate(games[start:], start=start):
            after = rate(skills, game.rated)
            skills.update(after)
            rows.append(
                Rating(
                    league=league,
                    position=position,
                    game_id=game.game,
                    seq=game.seq,
                    skills={f"p{pid}": [s.mu, s.sigma] for pid, s in after.items()},
                )
            )
        Rating.objects.bulk_create(rows, batch_size=2000)
        _current(league, skills, games)
        League.objects.filter(pk=league.pk).update(rated_version=version)
        league.rated_version = version
    return len(games) - start


def _skills_before(league: League, start: int, rated: int) -> dict[str, Skill]:
    """Every player's skill before the game at ``start``: the players'
    current ratings when every rated game stays, else replayed from the
    stored rows before it (each player's last one)."""
    if start and start == rated:
        current = league.players.values_list("pk", "mu", "sigma")
        return {
            str(pk): Skill(mu, sigma)
            for pk, mu, sigma in current
            if mu is not None and sigma is not None
        }
    skills: dict[str, Skill] = {}
    earlier = Rating.objects.filter(league=league, position__lt=start)
    for after in earlier.values_list("skills", flat=True):  # in order
        skills.update({key[1:]: Skill(mu, sigma) for key, (mu, sigma) in after.items()})
    return skills


def _rated_roster(league: League) -> int:
    """The roster version the stored ratings were computed under."""
    return int(league.rated_version.rsplit(":", 1)[-1] or -1)


def _current(league: League, skills: dict[str, Skill], games: list[_Game]) -> None:
    """Each player's latest rating and games rated, kept on the player."""
    counts: dict[int, int] = defaultdict(int)
    for game in games:
        for pk in game.players:
            counts[pk] += 1
    players = list(league.players.all())
    for player in players:
        skill = skills.get(str(player.pk))
        player.mu = skill.mu if skill else None
        player.sigma = skill.sigma if skill else None
        player.rated_games = counts[player.pk]
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
