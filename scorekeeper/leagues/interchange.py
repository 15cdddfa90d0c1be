"""A season out and in as pepper-league v1 (contract pepper-league-v1 §1).

The export writes every game's stored log; a player's id is their name
(unique in a league), so an export imported into another league and
exported again gives the same document. Two optional fields, ``rules``
(the season's preset, seats and house rules) and a night's ``format``,
carry what the contract leaves out.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Max, QuerySet

from scorekeeper.gamelog import LogError, game_variant, read_json
from scorekeeper.games import services
from scorekeeper.games.services import digest_of
from scorekeeper.leagues import substitutes
from scorekeeper.leagues.models import League, Night, Player, Round, Season, Seat, Table
from scorekeeper.leagues.names import name_key
from scorekeeper.leagues.night_rows import project_nights
from scorekeeper.leagues.season import (
    FORMAT,
    VERSION,
    LeagueGame,
    SeasonError,
    parse_season,
)
from scorekeeper.leagues.season import Night as ParsedNight
from scorekeeper.leagues.season import Season as ParsedSeason
from scorekeeper.leagues.season_checks import Stored, check_season, check_size
from scorekeeper.leagues.services import SEATS, LeagueError, season_create
from scorekeeper.models import Game
from scorekeeper.rules.variants import overrides_of


def season_export(*, season: Season) -> dict[str, object]:
    tables = (
        Table.objects.filter(round__night__season=season)
        .select_related("round__night", "game")
        .prefetch_related("seats__player", "substitutions")
        .order_by(
            "round__night__date", "round__number", "round__night__label", "number"
        )
    )
    # The contract's nights are one a date: two rooms of one date go out
    # as one night, a later room's tables numbered after the earlier's in
    # each round (each player's night reads the same either way).
    offsets = _room_offsets(season)
    firsts: dict[date, Night] = {}
    for night in season.nights.all():
        firsts.setdefault(night.date, night)
    nights: dict[Night, list[dict[str, object]]] = {n: [] for n in firsts.values()}
    people: dict[str, None] = {}
    names = dict(season.league.players.values_list("pk", "name"))
    for table in tables:
        seated = [seat.player.name for seat in table.seats.all()]
        people.update(dict.fromkeys(seated))
        played = table.round
        game = {
            "table": table.number + offsets.get((played.night_id, played.number), 0),
            "round": played.number,
            "players": seated,
            "log": services.game_export(game=table.game),
        }
        replaced = substitutes.exported(table, names)
        if replaced:  # optional: who played which hands of a seat
            game["substitutes"] = replaced
            people.update(dict.fromkeys(str(s["started"]) for s in replaced))
            people.update(dict.fromkeys(str(s["substitute"]) for s in replaced))
        nights[firsts[played.night.date]].append(game)
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


def _room_offsets(season: Season) -> dict[tuple[int, int], int]:
    """Per (night, round), the tables of the same round in the rooms of
    that date before it (by label): 0 for a date's only night."""
    maxima = (
        Table.objects.filter(round__night__season=season)
        .values_list("round__night__date", "round__night__label", "round__night")
        .annotate(number=F("round__number"), tables=Max("number"))
        .order_by("round__night__date", "round__night__label")
    )
    offsets: dict[tuple[int, int], int] = {}
    before: dict[tuple[date, int], int] = defaultdict(int)
    for day, _, night, number, tables in maxima:
        offsets[(night, number)] = before[(day, number)]
        before[(day, number)] += tables
    return offsets


def season_import(*, league: League, text: str | bytes, now: datetime) -> Season:
    """A new season of ``league`` from a pepper-league v1 file: refereed
    whole and checked first (``LeagueError`` naming where, as the
    ``standings`` command does), refused when its games are in the league
    already; its nights arrive closed, their games read-only. Each game
    keeps its own log's rules; players are the league's players of the
    same name (``names.name_key``), or new ones."""
    try:
        document: Any = read_json(text)
        check_size(document)
        parsed = parse_season(document)
        stored = check_season(document, parsed)
        rules = _rules(document, parsed)
    except LogError as error:
        raise LeagueError(str(error)) from None  # "log: ..."
    except SeasonError as error:
        raise LeagueError(error.message) from None
    hands = [[len(game.board.rows) for game in night.games] for night in parsed.nights]
    substitutes.check_document(document, hands)
    digests = [[digest_of(game.log) for game in night.games] for night in parsed.nights]
    with transaction.atomic():
        # Decided under the league's lock, in the transaction that writes:
        # the same file sent twice at once waits for the first import, then
        # finds its games in the league and is refused, never stored twice.
        League.objects.select_for_update().values_list("pk").get(pk=league.pk)
        _refuse_repeat(league, parsed, stored, digests)
        season = season_create(
            league=league,
            name=stored.name or "Imported season",
            order=parsed.settings.order,
            best_nights=parsed.settings.best_nights,
            min_nights=parsed.settings.min_nights,
            now=now,
            **rules,
        )
        players = _players(league, stored.names)
        for night, form, night_digests, raw in zip(
            parsed.nights, stored.formats, digests, document["nights"], strict=True
        ):
            _night(season, night, form, players, night_digests, now, raw["games"])
        Game.objects.filter(table__round__night__season=season).update(locked=True)
        project_nights(season.nights.values_list("pk", flat=True))
    return season


def _rules(document: dict[str, Any], parsed: ParsedSeason) -> dict[str, Any]:
    """The season's own rules (what its new rounds play): the optional
    ``rules`` field, else the rules most of its games were played under
    at a league table (4, 6 or 8 seats), else classic at 4. Each imported
    game keeps its own log's rules whatever these are."""
    raw = document.get("rules")
    if raw is not None:
        return _rules_field(raw)
    played: Counter[str] = Counter()
    for night in parsed.nights:
        for game in night.games:
            variant = game.log.variant
            if variant.seats in SEATS:
                rules = [variant.preset, variant.seats, overrides_of(variant)]
                played[json.dumps(rules, sort_keys=True)] += 1
    if not played:
        return {"preset": "classic", "seats": 4, "overrides": {}}
    preset, seats, overrides = json.loads(played.most_common(1)[0][0])
    return {"preset": preset, "seats": seats, "overrides": overrides}


def _rules_field(raw: object) -> dict[str, Any]:
    """The export's own ``rules`` field, checked as the season form checks
    a new season's rules."""
    if not isinstance(raw, dict):
        raise LogError('"rules" must be an object')
    preset, seats = raw.get("preset", "classic"), raw.get("seats", 4)
    house = raw.get("house_rules") or {}
    if not isinstance(preset, str) or not isinstance(house, dict):
        raise LogError('"rules" needs a preset (text) and house_rules (an object)')
    if type(seats) is not int or seats not in SEATS:
        raise LogError('"rules.seats": league tables have 4, 6 or 8 seats')
    try:
        game_variant(preset, seats, house)
    except LogError as error:
        raise LogError(f'"rules": {error.message}') from None
    return {"preset": preset, "seats": seats, "overrides": house}


def _players(league: League, names: dict[str, str]) -> dict[str, Player]:
    """Per player id of the file, the league's player of that name (told
    apart already), or a new one: one query to look them up, one (or a
    few) to add the new ones, however many players."""
    keys = {pid: name_key(name) for pid, name in names.items()}
    found = {
        player.name_key: player
        for player in league.players.filter(name_key__in=set(keys.values()))
    }
    new = [
        Player(league=league, name=names[pid], name_key=key)
        for pid, key in keys.items()
        if key not in found
    ]
    found.update(
        (player.name_key, player) for player in Player.objects.bulk_create(new)
    )
    return {pid: found[key] for pid, key in keys.items()}


def _refuse_repeat(
    league: League, parsed: ParsedSeason, stored: Stored, digests: list[list[str]]
) -> None:
    """Refuse a file whose games are in the league already (imported or
    exported from it): it would count every game twice. A game is there
    when one of the league's games came from the same log, or sits at the
    same night, round and table with the same players in the same seats."""
    every = [d for night in digests for d in night]
    league_games = Table.objects.filter(round__night__season__league=league)
    same_log = dict(
        league_games.filter(game__import_digest__in=every).values_list(
            "game__import_digest", "round__night__season__name"
        )
    )
    seated = _seated_at(league_games, {night.date for night in parsed.nights})
    keys = {pid: name_key(name) for pid, name in stored.names.items()}
    repeated = []
    for n, night in enumerate(parsed.nights, start=1):
        for m, game in enumerate(night.games, start=1):
            place = (night.date, game.round, game.table)
            there = seated.get((*place, tuple(keys[pid] for pid in game.players)))
            season = same_log.get(digests[n - 1][m - 1]) or there
            if season is not None:
                repeated.append((n, m, season))
    if repeated:
        n, m, season = repeated[0]
        more = (
            f" (and {len(repeated) - 1} more of its games)" if len(repeated) > 1 else ""
        )
        raise LeagueError(
            f"night {n} game {m}: this game is in the league already, in the "
            f"season “{season}”{more}. Importing it again would count it twice: "
            "to replace that season, delete it first (on its page)"
        )


def _seated_at(
    tables: QuerySet[Table], dates: set[str]
) -> dict[tuple[str, int, int, tuple[str, ...]], str]:
    """The league's games on those dates: (date, round, table, the seated
    players' name keys) -> the season's name."""
    seats = (
        Seat.objects.filter(table__in=tables, table__round__night__date__in=dates)
        .order_by("table", "position")
        .values_list(
            "table",
            "table__round__night__date",
            "table__round__number",
            "table__number",
            "table__round__night__season__name",
            "player__name_key",
        )
    )
    places: dict[int, tuple[str, int, int, str]] = {}
    players: dict[int, list[str]] = defaultdict(list)
    for table, day, round_number, number, season, key in seats:
        places[table] = (day.isoformat(), round_number, number, season)
        players[table].append(key)
    return {
        (day, round_number, number, tuple(players[table])): season
        for table, (day, round_number, number, season) in places.items()
    }


def _night(
    season: Season,
    parsed: ParsedNight,
    form: str | None,
    players: dict[str, Player],
    digests: list[str],
    now: datetime,
    written: list[dict[str, Any]],
) -> None:
    """``written``: the night's games as the file has them (for their
    optional ``substitutes``)."""
    if form is None:
        form = Night.PROGRESSIVE if season.seats == 4 else Night.FIXED
    night = Night.objects.create(
        season=season,
        date=date.fromisoformat(parsed.date),
        format=form,
        closed_at=now,
        created_at=now,
    )
    by_round: dict[int, list[tuple[LeagueGame, str, list[Any]]]] = defaultdict(list)
    for game, digest, raw in zip(parsed.games, digests, written, strict=True):
        by_round[game.round].append((game, digest, raw.get("substitutes", [])))
    for number in sorted(by_round):
        played = Round.objects.create(
            night=night, number=number, started_at=now, called_at=now
        )
        for game, digest, replaced in by_round[number]:
            table = _table(played, game, digest, players, now)
            substitutes.imported(table, replaced, players, now)


def _table(
    played: Round,
    parsed: LeagueGame,
    digest: str,
    players: dict[str, Player],
    now: datetime,
) -> Table:
    """The game as the season's referee read it (not replayed again)."""
    game = services.game_store(
        log=parsed.log, board=parsed.board, digest=digest, now=now
    )
    table = Table.objects.create(round=played, number=parsed.table, game=game)
    Seat.objects.bulk_create(
        Seat(table=table, position=i, player=players[pid])
        for i, pid in enumerate(parsed.players)
    )
    return table
