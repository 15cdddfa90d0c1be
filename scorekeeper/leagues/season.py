"""A season in the pepper-league v1 format (contract pepper-league-v1 §1),
read and refereed: every game's log is replayed as the pepper-log contract
says. A refusal is a ``SeasonError`` whose message names where:
``log: ...`` (the header and players), ``night N: ...`` or
``night N game M: event K: ...``. Pure: the standard library and the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from scorekeeper.gamelog import GameLog, LogError, parse_log, read_json, replay_log
from scorekeeper.rules.engine import Scoreboard

FORMAT, VERSION = "pepper-league", 1
MEASURES = ("played", "won", "points", "margin", "bids", "made", "win_pct", "made_pct")
DEFAULT_ORDER = ("points", "won", "margin")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class SeasonError(Exception):
    """A season refused; the message says where and why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Player:
    id: str
    name: str


@dataclass(frozen=True)
class LeagueGame:
    table: int
    round: int
    players: tuple[str, ...]  # the player id in each seat
    board: Scoreboard
    log: GameLog  # as read (an import stores it without replaying again)


@dataclass(frozen=True)
class Night:
    date: str
    games: tuple[LeagueGame, ...]


@dataclass(frozen=True)
class Settings:
    order: tuple[str, ...] = DEFAULT_ORDER
    best_nights: int = 0
    min_nights: int = 0


@dataclass(frozen=True)
class Season:
    name: str
    players: dict[str, Player]
    settings: Settings
    nights: tuple[Night, ...]


def read_season(text: str | bytes) -> Season:
    try:
        document = read_json(text)
    except LogError as error:
        raise SeasonError(str(error)) from None
    return parse_season(document)


def _whole(value: object, low: int) -> bool:
    return type(value) is int and value >= low


def parse_season(document: object) -> Season:
    if not isinstance(document, dict):
        raise SeasonError("log: a pepper league season is a JSON object")
    if document.get("format") != FORMAT:
        raise SeasonError(f'log: "format" must be "{FORMAT}"')
    if type(document.get("version")) is not int or document.get("version") != VERSION:
        raise SeasonError(f"log: this app reads version {VERSION} of the pepper league")
    name = document.get("name", "")
    if not isinstance(name, str):
        raise SeasonError('log: "name" must be text')
    players = _players(document.get("players"))
    settings = parse_settings(document.get("standings", {}))
    raw_nights = document.get("nights")
    if not isinstance(raw_nights, list):
        raise SeasonError('log: "nights" must be a list (it may be empty)')
    nights: list[Night] = []
    for n, raw in enumerate(raw_nights, start=1):
        night = _night(raw, n, players)
        if nights and night.date <= nights[-1].date:
            raise SeasonError(
                f"night {n}: the nights must be in date order, each after the one "
                f"before ({night.date} is not after {nights[-1].date})"
            )
        nights.append(night)
    return Season(name, players, settings, tuple(nights))


def _players(raw: object) -> dict[str, Player]:
    if not isinstance(raw, list):
        raise SeasonError('log: "players" must be a list of {"id", "name"}')
    players: dict[str, Player] = {}
    for n, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict):
            raise SeasonError(f'log: player {n} must be {{"id": ..., "name": ...}}')
        pid, name = entry.get("id"), entry.get("name")
        if not isinstance(pid, str) or not pid:
            raise SeasonError(f'log: player {n} needs an "id" (text)')
        if not isinstance(name, str) or not name.strip():
            raise SeasonError(f'log: player {n} ({pid!r}) needs a "name" (text)')
        if pid in players:
            raise SeasonError(f"log: the player id {pid!r} is used twice")
        players[pid] = Player(pid, name.strip())
    return players


def parse_settings(raw: object) -> Settings:
    if not isinstance(raw, dict):
        raise SeasonError('log: "standings" must be an object')
    order = raw.get("order", list(DEFAULT_ORDER))
    if (
        not isinstance(order, list)
        or not order
        or not all(isinstance(m, str) and m in MEASURES for m in order)
    ):
        raise SeasonError(
            f'log: "standings.order" must be a list of measures: {", ".join(MEASURES)}'
        )
    for key in ("best_nights", "min_nights"):
        if key in raw and not _whole(raw[key], 0):
            raise SeasonError(
                f'log: "standings.{key}" must be a whole number of at least 0'
            )
    return Settings(tuple(order), raw.get("best_nights", 0), raw.get("min_nights", 0))


def _night(raw: object, n: int, players: dict[str, Player]) -> Night:
    where = f"night {n}"
    if not isinstance(raw, dict):
        raise SeasonError(f"{where}: a night must be an object")
    day = raw.get("date")
    if not isinstance(day, str) or not _DATE.match(day):
        raise SeasonError(f'{where}: "date" must be a date, YYYY-MM-DD')
    try:
        date.fromisoformat(day)
    except ValueError:
        raise SeasonError(f'{where}: "date" {day} is not a real date') from None
    games = raw.get("games")
    if not isinstance(games, list):
        raise SeasonError(f'{where}: "games" must be a list (it may be empty)')
    return Night(
        day, tuple(_game(game, n, m, players) for m, game in enumerate(games, start=1))
    )


def _game(raw: object, n: int, m: int, players: dict[str, Player]) -> LeagueGame:
    where = f"night {n} game {m}"
    if not isinstance(raw, dict):
        raise SeasonError(f"{where}: a game must be an object")
    for key in ("table", "round"):
        if not _whole(raw.get(key), 1):
            raise SeasonError(f'{where}: "{key}" must be a whole number of at least 1')
    seated = raw.get("players")
    if not isinstance(seated, list) or not all(isinstance(p, str) for p in seated):
        raise SeasonError(f'{where}: "players" must be the player id in each seat')
    for pid in seated:
        if pid not in players:
            raise SeasonError(f"{where}: {pid!r} is not one of the season's players")
    if len(set(seated)) != len(seated):
        raise SeasonError(f"{where}: a player sits at most once in a game")
    try:
        log = parse_log(raw.get("log"))
        board = replay_log(log)
    except LogError as error:
        raise SeasonError(f"{where}: {error}") from None
    if len(seated) != len(log.seats):
        raise SeasonError(
            f'{where}: "players" must name one player per seat of its log '
            f"({len(log.seats)}, not {len(seated)})"
        )
    return LeagueGame(raw["table"], raw["round"], tuple(seated), board, log)
