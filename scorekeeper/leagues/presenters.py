"""What the league pages show, worked out from the models and the
standings; the views only render it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from scorekeeper.gamelog import game_variant
from scorekeeper.games.sharing import qr_code
from scorekeeper.leagues import schedule
from scorekeeper.leagues.models import Night, Player, Season, Seat, Table
from scorekeeper.leagues.results import season_standings
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.services import played_rounds
from scorekeeper.leagues.standings import Row, Tally, ranked
from scorekeeper.presenters import points
from scorekeeper.rules.referee import turn_of


@dataclass(frozen=True)
class Standing:
    rank: int | None
    player: str  # the player's id (pk)
    name: str
    tally: dict[str, Any]

    @property
    def win_pct(self) -> str:
        played = self.tally["played"]
        return f"{round(100 * self.tally['won'] / played)}%" if played else "–"


def standing_rows(rows: list[dict[str, Any]]) -> list[Standing]:
    return [Standing(r["rank"], r["player"], r["name"], r) for r in rows]


def season_page(season: Season) -> dict[str, Any]:
    document = season_standings(season)
    nights = list(season.nights.all())
    season_rows: list[dict[str, Any]] = document["season"]["rows"]  # type: ignore[index]
    return {
        "season": season,
        "league": season.league,
        "rows": standing_rows(season_rows),
        "nights": nights,
        "order": ", ".join(season.order),
    }


@dataclass(frozen=True)
class TableView:
    table: Table
    names: list[str]
    teams: str
    hands: int
    score: str
    finished: bool
    dealer: str
    link: str

    @property
    def qr(self) -> str:
        """Drawn only where a page shows it (an open table, the sheet)."""
        return qr_code(self.link)


def table_view(table: Table, names: list[str], base: str) -> TableView:
    """A table as the night, desk and sheet show it, from the game's row:
    no replay (the next dealer follows from the hands played)."""
    game = table.game
    variant = game_variant(game.preset, len(game.seats), game.overrides)
    turn = turn_of(variant, game.first_dealer, game.hands_played + 1, pepper=False)
    return TableView(
        table,
        names,
        f"{' & '.join(names[0::2])} v {' & '.join(names[1::2])}",
        game.hands_played,
        " to ".join(points(total) for total in game.totals),
        game.finished,
        "" if game.finished else names[turn.dealer],
        base + reverse("join", args=[game.edit_token]),
    )


def _seated(night: Night) -> dict[int, list[str]]:
    seats = Seat.objects.filter(table__round__night=night).select_related("player")
    seated: dict[int, list[str]] = {}
    for seat in seats.order_by("table", "position"):
        seated.setdefault(seat.table_id, []).append(seat.player.name)
    return seated


def rounds_view(night: Night, base: str) -> list[dict[str, Any]]:
    seated = _seated(night)
    shown = []
    for played in night.rounds.prefetch_related("sitting_out"):
        tables = played.tables.select_related("game")
        shown.append(
            {
                "round": played,
                "tables": [table_view(t, seated[t.pk], base) for t in tables],
                "sitting_out": [p.name for p in played.sitting_out.all()],
                "unfinished": sum(1 for t in tables if not t.game.finished),
            }
        )
    return shown


def night_page(night: Night, base: str) -> dict[str, Any]:
    season = night.season
    checkins = night.checkins.select_related("player")
    here = {c.player_id: c for c in checkins}
    document = season_standings(season, night)
    nights: list[dict[str, Any]] = document["nights"]  # type: ignore[assignment]
    rows = nights[0]["rows"] if nights else []
    rounds = rounds_view(night, base)
    ids = {str(p.pk): p.name for p in season.league.players.all()}
    report = schedule.fairness(played_rounds(night), (str(k) for k in here))
    return {
        "night": night,
        "season": season,
        "league": season.league,
        "present": [c.player for c in checkins if c.present],
        "gone": [c.player for c in checkins if not c.present],
        "absent": [p for p in season.league.players.all() if p.pk not in here],
        "rounds": rounds,
        "current": rounds[-1] if rounds else None,
        "rows": standing_rows(rows),
        "teams": _team_rows(night, rows, ids),
        "teams_named": [" & ".join(ids[pid] for pid in team) for team in night.teams],
        "fairness": report.lines() if rounds else [],
        "changes": night.changes.select_related("by", "game__table__round"),
        "closed": night.closed_at is not None,
    }


def _team_rows(
    night: Night, rows: list[dict[str, Any]], names: dict[str, str]
) -> list[Standing]:
    """Partnership standings of a fixed-teams night: a team's measures are
    its players' own (they played every game together); bids are summed."""
    by_player = {row["player"]: row for row in rows}
    team_rows = []
    for team in night.teams:
        counted = [by_player[pid] for pid in team if pid in by_player]
        if not counted:
            continue
        first = counted[0]
        tally = Tally(
            played=first["played"],
            won=first["won"],
            points=first["points"],
            margin=first["margin"],
            bids=sum(r["bids"] for r in counted),
            made=sum(r["made"] for r in counted),
        )
        label = " & ".join(names.get(pid, "?") for pid in team)
        team_rows.append(Row(Person(team[0], label), tally))
    listed = ranked(team_rows, tuple(night.season.order))
    return [
        Standing(row.rank, row.player.id, row.player.name, vars(row.tally))
        for row in listed
    ]


def player_page(player: Player) -> dict[str, Any]:
    seats = (
        Seat.objects.filter(player=player)
        .select_related("table__round__night__season", "table__game")
        .order_by("-table__round__night__date", "-table__round__number")
    )
    others = Seat.objects.filter(table__in=[s.table_id for s in seats]).select_related(
        "player"
    )
    at_table: dict[int, list[Seat]] = {}
    for seat in others.order_by("position"):
        at_table.setdefault(seat.table_id, []).append(seat)
    games = [_game_line(seat, at_table[seat.table_id]) for seat in seats]
    seasons = []
    for season in {seat.table.round.night.season for seat in seats}:
        rows = season_standings(season)["season"]["rows"]  # type: ignore[index]
        mine = [r for r in rows if r["player"] == str(player.pk)]
        if mine:
            seasons.append({"season": season, "row": standing_rows(mine)[0]})
    return {
        "player": player,
        "league": player.league,
        "games": games,
        "seasons": seasons,
        "nights": len({seat.table.round.night_id for seat in seats}),
    }


def _game_line(seat: Seat, seated: list[Seat]) -> dict[str, Any]:
    game, table = seat.table.game, seat.table
    side = seat.position % 2
    partners = [s.player.name for s in seated if s.position % 2 == side and s != seat]
    opponents = [s.player.name for s in seated if s.position % 2 != side]
    totals = list(game.totals)
    result = "unfinished"
    if game.finished:
        result = "won" if side in game.winners else "lost"
    return {
        "night": table.round.night,
        "round": table.round.number,
        "table": table.number,
        "partners": ", ".join(partners),
        "opponents": ", ".join(opponents),
        "score": f"{points(totals[side])} to {points(totals[1 - side])}",
        "result": result,
    }
