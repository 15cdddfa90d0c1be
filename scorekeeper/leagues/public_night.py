"""A night's results published: the public page of one night, reached only
through its season's public link (``Season.public_token``), so that a new
link or *Stop sharing* cuts off every night page of the old one too.

It reads one night and nothing else of the league: its tables and their
games' rows, its seats' players, its substitutes, its games' events
(replayed for the side awards, ``side_awards``) and its own tally rows.
One query finds the night by the link with the version of all it shows;
the page's body is cached under that version, as the season's public
page is (``public_page``), so readers reloading it cost that one query.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, NamedTuple

from django.db import connection
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from scorekeeper.eventstore import stored_entry
from scorekeeper.gamelog import GameLog, game_variant
from scorekeeper.games.fragments import drawn_by
from scorekeeper.leagues.awards import awards
from scorekeeper.leagues.models import (
    League,
    Night,
    NightProjection,
    Player,
    Round,
    Season,
    Seat,
    Substitution,
    Table,
)
from scorekeeper.leagues.presenters import games_played, standing_rows
from scorekeeper.leagues.prizes import TIES, places_of, prizes_given
from scorekeeper.leagues.results import cached, season_nights, season_settings
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.side_awards import Played, side_awards
from scorekeeper.leagues.standings import night_rows_from
from scorekeeper.leagues.substitutes import night_substitutions
from scorekeeper.models import Game, GameEvent
from scorekeeper.projections.boards import scoreboard
from scorekeeper.rules.engine import Scoreboard

KEPT_SECONDS = 24 * 60 * 60
TEMPLATE = "leagues/public_night.html"

_NAMES = {
    "postgresql": "string_agg(p.id || ':' || p.name, ',' ORDER BY p.id)",
    "sqlite": "group_concat(p.id || ':' || p.name, ',')",
}
_T, _G, _R = Table._meta.db_table, Game._meta.db_table, Round._meta.db_table
_GAMES = f"{_T} t JOIN {_G} g ON g.id = t.game_id JOIN {_R} r ON r.id = t.round_id"
# The night by its season's link, and what its page shows changes with:
# the night (its name, prizes, closing), the season's ranking order and
# the league's tie rule, its rows' revision, its games (how many, their
# logs' lengths, called rounds), its substitutes and its players' names.
_VERSION_SQL = (
    'SELECT n.id, n.date, n.label, n.closed_at, n.prizes, s."order", s.name,'
    " l.name, l.prize_ties,"
    f" (SELECT j.revision FROM {NightProjection._meta.db_table} j"
    "  WHERE j.night_id = n.id),"
    " (SELECT COUNT(*) || ':' || COALESCE(SUM(g.last_seq), 0)"
    f"  FROM {_GAMES} WHERE r.night_id = n.id),"
    f" (SELECT COUNT(*) FROM {_R} r WHERE r.night_id = n.id"
    "  AND r.called_at IS NOT NULL),"
    f" (SELECT COUNT(*) FROM {Substitution._meta.db_table} b"
    f"  JOIN {_T} t ON t.id = b.table_id JOIN {_R} r ON r.id = t.round_id"
    "  WHERE r.night_id = n.id),"
    " (SELECT {names} FROM"
    f" {Player._meta.db_table} p WHERE p.id IN (SELECT e.player_id"
    f"  FROM {Seat._meta.db_table} e JOIN {_T} t ON t.id = e.table_id"
    f"  JOIN {_R} r ON r.id = t.round_id WHERE r.night_id = n.id"
    f"  UNION SELECT b.substitute_id FROM {Substitution._meta.db_table} b"
    f"  JOIN {_T} t ON t.id = b.table_id JOIN {_R} r ON r.id = t.round_id"
    "  WHERE r.night_id = n.id))"
    f" FROM {Night._meta.db_table} n JOIN {Season._meta.db_table} s"
    f" ON s.id = n.season_id JOIN {League._meta.db_table} l ON l.id = s.league_id"
    " WHERE n.id = %s AND s.public_token = %s"
)


class Published(NamedTuple):
    night: int
    title: str  # the page's title: "2026-11-19 Back room · Autumn"
    version: str

    @property
    def key(self) -> str:
        return f"public-night:{self.night}:{self.version}"


def published_night(token: str, night_id: int) -> Published | None:
    """The night, if the season's public link is ``token``, and its page's
    version, in one query; None: no such night under that link."""
    names = _NAMES.get(connection.vendor, _NAMES["sqlite"])
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL.replace("{names}", names), [night_id, token])
        row = cursor.fetchone()
    if row is None:
        return None
    text = json.dumps([row, token], default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    day = " ".join(filter(None, [str(row[1]), row[2]]))
    return Published(row[0], f"{day} · {row[6]}", digest)


def night_html(found: Published, token: str) -> SafeString:
    """The page's body, from the cache under the night's version and what
    draws it (its templates and the code: a deploy that changes them is
    never shown the old page, kept 24 h), or computed and cached."""

    def drawn() -> str:
        night = Night.objects.select_related("season__league").get(pk=found.night)
        context = night_results(night) | {"token": token}
        return str(render_to_string(f"{TEMPLATE}#results", context))

    key = f"{found.key}:{drawn_by(TEMPLATE)}"
    html = cached(key, drawn, timeout=KEPT_SECONDS)
    return SafeString(html)  # our own template's output, escaped when rendered


def night_results(night: Night) -> dict[str, Any]:
    """What the night's public page shows: each round's tables with their
    scores, the night's standings and its prizes, and its awards."""
    season, league = night.season, night.season.league
    [(_, summary)] = season_nights(season, night)
    tables = list(
        Table.objects.filter(round__night=night)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )
    seats = _seats(tables)
    people = _people(seats, summary.tallies)
    names = {pid: person.name for pid, person in people.items()}
    boards = _boards(tables)
    rows = night_rows_from(summary.tallies, people, season_settings(season).order)
    played = [Played([pid for pid, _ in seats[t.pk]], boards[t.pk]) for t in tables]
    return {
        "night": night,
        "season": season,
        "league": league,
        "closed": night.closed_at is not None,
        "rounds": _rounds(tables, seats, boards, night),
        "rows": standing_rows(rows),
        "prizes": prizes_given(night.prizes, places_of(rows), league.prize_ties),
        "prize_ties": TIES.get(league.prize_ties, ""),
        "awards": awards(summary.feats, names, games_played(rows))
        + side_awards(played, names),
    }


def _people(
    seats: dict[int, list[tuple[str, str]]], tallied: Iterable[str]
) -> dict[str, Person]:
    """The night's players by id, named by their seats (a tally is of the
    player a seat counts for); any other is looked up."""
    named = {pid: name for players in seats.values() for pid, name in players}
    others = [int(pid) for pid in tallied if pid not in named]
    if others:
        found = Player.objects.filter(pk__in=others).values_list("pk", "name")
        named |= {str(pk): name for pk, name in found}
    return {pid: Person(pid, name) for pid, name in named.items()}


def _seats(tables: list[Table]) -> dict[int, list[tuple[str, str]]]:
    """Each table's (player id, name), clockwise: the player it counts for."""
    seats: dict[int, list[tuple[str, str]]] = defaultdict(list)
    found = Seat.objects.filter(table__in=tables).order_by("table", "position")
    for table, pid, name in found.values_list("table", "player", "player__name"):
        seats[table].append((str(pid), name))
    return seats


def _boards(tables: list[Table]) -> dict[int, Scoreboard]:
    """Each table's game replayed, its events read in one query."""
    entries = defaultdict(list)
    events = GameEvent.objects.filter(game__in=[t.game_id for t in tables])
    for game_id, payload in events.order_by("game", "seq").values_list(
        "game", "payload"
    ):
        entries[game_id].append(stored_entry(payload))
    boards = {}
    for table in tables:
        game = table.game
        variant = game_variant(game.preset, len(game.seats), game.overrides)
        log = GameLog(
            variant, tuple(game.seats), game.first_dealer, tuple(entries[game.pk])
        )
        boards[table.pk] = scoreboard(game.pk, log)
    return boards


def _rounds(
    tables: list[Table],
    seats: dict[int, list[tuple[str, str]]],
    boards: dict[int, Scoreboard],
    night: Night,
) -> list[dict[str, Any]]:
    """Each round's score cards, its tables in order."""
    substituted = {
        (change.table_id, change.position): change.label
        for change in night_substitutions(night)
    }
    rounds: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        named = [
            substituted.get((table.pk, seat), name)
            for seat, (_, name) in enumerate(seats[table.pk])
        ]
        card = _card(table, named, boards[table.pk])
        rounds.setdefault(table.round.number, []).append(card)
    return [{"number": number, "tables": found} for number, found in rounds.items()]


def _card(table: Table, named: list[str], board: Scoreboard) -> dict[str, Any]:
    """A table's score card: its sides (a substitute's seat says so), their
    totals, the hands played and how the game ended."""
    variant = board.variant
    sides = [
        " & ".join(n for seat, n in enumerate(named) if variant.side_of(seat) == side)
        for side in range(variant.sides)
    ]
    return {
        "number": table.number,
        "sides": [
            {"names": name, "total": total, "won": side in board.winners}
            for side, (name, total) in enumerate(zip(sides, board.totals, strict=True))
        ],
        "hands": len(board.hands),
        "state": _state(board, table.round.called_at is not None),
    }


def _state(board: Scoreboard, called: bool) -> str:
    """Finished, called as it stood (ended when its round was called), in
    play, or unplayed (its round called with nothing recorded)."""
    if not board.hands:
        return "unplayed" if called else "not started"
    if board.decided == "ended":
        return "called as it stood"
    return "finished" if board.winners else "in play"
