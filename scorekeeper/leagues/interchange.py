"""A season out and in as pepper-league v1 (contract pepper-league-v1 §1).

The export writes every game's stored log; a player's id is their name
(unique in a league), so an export imported into another league and
exported again gives the same document. Two optional fields, ``rules``
(the season's preset, seats and house rules) and a night's ``format``,
carry what the contract leaves out.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date, datetime
from typing import Any

from django.db import transaction

from scorekeeper import services
from scorekeeper.gamelog import parse_log
from scorekeeper.leagues.models import League, Night, Player, Round, Season, Seat, Table
from scorekeeper.leagues.season import (
    FORMAT,
    VERSION,
    LeagueGame,
    SeasonError,
    parse_season,
)
from scorekeeper.leagues.season import Night as ParsedNight
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.services import LeagueError, season_create
from scorekeeper.models import Game
from scorekeeper.rules.variants import overrides_of


def season_export(*, season: Season) -> dict[str, object]:
    tables = (
        Table.objects.filter(round__night__season=season)
        .select_related("round__night", "game")
        .prefetch_related("seats__player")
        .order_by("round__night__date", "round__number", "number")
    )
    nights: dict[Night, list[dict[str, object]]] = {
        night: [] for night in season.nights.all()
    }
    people: dict[str, None] = {}
    for table in tables:
        seated = [seat.player.name for seat in table.seats.all()]
        people.update(dict.fromkeys(seated))
        nights[table.round.night].append(
            {
                "table": table.number,
                "round": table.round.number,
                "players": seated,
                "log": services.game_export(game=table.game),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": season.name,
        "rules": {
            "preset": season.preset,
            "seats": season.seats,
            "house_rules": season.overrides,
        },
        "players": [{"id": name, "name": name} for name in sorted(people)],
        "standings": {
            "order": season.order,
            "best_nights": season.best_nights,
            "min_nights": season.min_nights,
        },
        "nights": [
            {"date": night.date.isoformat(), "format": night.format, "games": games}
            for night, games in nights.items()
        ],
    }


def season_import(*, league: League, text: str | bytes, now: datetime) -> Season:
    """A new season of ``league`` from an export: refereed whole first
    (``LeagueError`` naming where, as the ``standings`` command does);
    its nights arrive closed, their games read-only."""
    try:
        document: Any = json.loads(text)
        parsed = parse_season(document)
    except (ValueError, RecursionError):
        raise LeagueError("log: this is not a JSON document") from None
    except SeasonError as error:
        raise LeagueError(error.message) from None
    rules = _rules(document)
    with transaction.atomic():
        season = season_create(
            league=league,
            name=parsed.name or "Imported season",
            order=parsed.settings.order,
            best_nights=parsed.settings.best_nights,
            min_nights=parsed.settings.min_nights,
            now=now,
            **rules,
        )
        players = _players(league, parsed.players)
        for raw, night in zip(document["nights"], parsed.nights, strict=True):
            _night(season, raw, night, players, now)
    return season


def _rules(document: dict[str, Any]) -> dict[str, Any]:
    """The season's rules: the optional ``rules`` field, else its first game's."""
    raw = document.get("rules")
    if isinstance(raw, dict):
        house = raw.get("house_rules") or {}
        if not isinstance(house, dict):
            raise LeagueError('log: "rules.house_rules" must be an object')
        return {
            "preset": str(raw.get("preset", "classic")),
            "seats": raw.get("seats", 4),
            "overrides": house,
        }
    for night in document["nights"]:
        for game in night["games"]:
            variant = parse_log(game["log"]).variant  # refereed already
            return {
                "preset": variant.preset,
                "seats": variant.seats,
                "overrides": overrides_of(variant),
            }
    return {"preset": "classic", "seats": 4, "overrides": {}}


def _players(league: League, listed: dict[str, Person]) -> dict[str, Player]:
    found: dict[str, Player] = {}
    names: dict[str, str] = {}
    for pid, person in listed.items():
        name = person.name
        if name.lower() in names:
            raise LeagueError(
                f"log: players {names[name.lower()]!r} and {pid!r} have the same name"
            )
        names[name.lower()] = pid
        existing = league.players.filter(name__iexact=name).first()
        found[pid] = existing or Player.objects.create(league=league, name=name[:30])
    return found


def _night(
    season: Season,
    raw: dict[str, Any],
    parsed: ParsedNight,
    players: dict[str, Player],
    now: datetime,
) -> None:
    form = raw.get("format")
    if form not in Night.FORMATS:
        form = Night.PROGRESSIVE if season.seats == 4 else Night.FIXED
    night = Night.objects.create(
        season=season,
        date=date.fromisoformat(parsed.date),
        format=form,
        closed_at=now,
        created_at=now,
    )
    by_round: dict[int, list[LeagueGame]] = defaultdict(list)
    for game in parsed.games:
        by_round[game.round].append(game)
    for number in sorted(by_round):
        played = Round.objects.create(
            night=night, number=number, started_at=now, called_at=now
        )
        for game in by_round[number]:
            _table(played, game, players, now)


def _table(
    played: Round, parsed: LeagueGame, players: dict[str, Player], now: datetime
) -> None:
    """The game as the season's referee read it (not replayed again)."""
    game = services.game_store(log=parsed.log, board=parsed.board, now=now)
    Game.objects.filter(pk=game.pk).update(locked=True)
    table = Table.objects.create(round=played, number=parsed.table, game=game)
    Seat.objects.bulk_create(
        Seat(table=table, position=i, player=players[pid])
        for i, pid in enumerate(parsed.players)
    )
