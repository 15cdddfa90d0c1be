"""What the league pages show, worked out from the models and the
standings; the views only render it."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from functools import partial
from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.template.defaultfilters import pluralize
from django.urls import reverse

from scorekeeper.leagues import schedule
from scorekeeper.leagues.awards import awards
from scorekeeper.leagues.charts import Chart, line_chart
from scorekeeper.leagues.checkin import (
    AWAY,
    arrivals,
    by_letter,
    previous_night,
    regulars,
)
from scorekeeper.leagues.collation import sort_key
from scorekeeper.leagues.controls import last_round, round_controls
from scorekeeper.leagues.models import Change, Night, Player, Season
from scorekeeper.leagues.prizes import TIES, places_of, prizes_given
from scorekeeper.leagues.rated_games import rating_history
from scorekeeper.leagues.ratings import SETTLED_GAMES, Skill, provisional_words
from scorekeeper.leagues.results import (
    SeasonNights,
    cached,
    night_numbers,
    player_nights,
    player_results,
    season_rows,
    season_view,
    standing_rows_of,
)
from scorekeeper.leagues.round_tables import rounds_view
from scorekeeper.leagues.season import Player as Person
from scorekeeper.leagues.season_totals import RulesPlayed, season_totals
from scorekeeper.leagues.seating import played_rounds
from scorekeeper.leagues.standings import Row, Tally, ranked
from scorekeeper.leagues.stats import Pairing, Played, PlayerStats, stats_of
from scorekeeper.leagues.substitutes import night_substitutions
from scorekeeper.leagues.tasks import ratings_current
from scorekeeper.tablewords import signed
from scorekeeper.web.qr import qr_code


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


RACE = 5  # players drawn in the season's standings race
_SUBSTITUTES = Count("rounds__tables__substitutions")


def season_changes(season: Season) -> QuerySet[Change]:
    """The season's log: every change after a night's close, oldest first."""
    changes = Change.objects.filter(night__season=season)
    return changes.select_related("by", "night").order_by("at", "pk")


def season_page(season: Season) -> dict[str, Any]:
    """The season's standings, ratings, awards and race: what the
    organizer's page and the public standings page both show. The ratings
    are as of the last rated game: when a change is still being rated (by
    the worker, never here), ``ratings_behind`` says so."""
    behind = not ratings_current(season.league)
    numbers = season_view(season, "page", partial(_season_numbers, season))
    players = [row["player"] for row in numbers["rows"]]
    ranked = places_of(numbers["rows"])
    ties = season.league.prize_ties
    return numbers | {
        "season": season,
        "league": season.league,
        "rows": standing_rows(numbers["rows"]),
        # Each night says how many seats took a substitute (its page says who).
        "nights": list(season.nights.annotate(substitutes=_SUBSTITUTES)),
        "order": ", ".join(season.order),
        "ratings": _season_ratings(season, players),
        # Said once there is something to rate: a season with no finished
        # game yet has no ratings to be behind (a registry paste alone
        # asks the worker, and the notice read as if results were late).
        "ratings_behind": behind and bool(numbers["rows"]),
        "prizes": prizes_given(season.prizes, ranked, ties),
        "prize_ties": TIES.get(ties, ""),
    }


def _season_numbers(
    season: Season, nights: SeasonNights, people: dict[str, Person]
) -> dict[str, Any]:
    rows = standing_rows_of(season, nights, people)
    totals = season_totals(season, nights)
    names = {pid: person.name for pid, person in people.items()}
    return {
        "rows": rows,
        "awards": awards(totals.feats, names, games_played(rows)),
        "race": _race(totals.points, rows[:RACE]),
        "mixed_rules": mixed_rules(season, totals.rules),
    }


def games_played(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Each player's finished games, as the standings count them (the
    awards need a few)."""
    return {row["player"]: row["played"] for row in rows}


def mixed_rules(season: Season, played: RulesPlayed) -> str:
    """The rules of the season's games when they are not all the season's
    own (an imported season may mix presets, seats and house rules): each
    preset and seat count with its number of games; "" when they are."""
    own = (season.preset, season.seats, json.dumps(season.overrides, sort_keys=True))
    if set(played) <= {own}:
        return ""
    by_seats: Counter[tuple[str, int]] = Counter()
    for (preset, seats, _), games in played.items():
        by_seats[preset, seats] += games
    listed = ", ".join(
        f"{preset} at {seats} seats ({games} game{pluralize(games)})"
        for (preset, seats), games in sorted(by_seats.items())
    )
    house = {overrides for _, _, overrides in played}
    return listed + ("; house rules vary from game to game" if len(house) > 1 else "")


def _season_ratings(season: Season, players: list[str]) -> list[dict[str, Any]]:
    """The season's players by rating (their league rating now); players
    with fewer than ``SETTLED_GAMES`` rated games follow, unranked, by
    name, their rating said to be still to come."""
    rated = season.league.players.filter(pk__in=[int(pid) for pid in players])
    skills = sorted(
        (
            (Skill(p.mu, p.sigma), p)
            for p in rated
            if p.mu is not None and p.sigma is not None
        ),
        key=lambda item: (
            item[1].rated_games < SETTLED_GAMES,
            -item[0].ordinal if item[1].rated_games >= SETTLED_GAMES else 0,
            sort_key(item[1].name),
        ),
    )
    listed, rank = [], 0
    for skill, player in skills:
        if player.rated_games < SETTLED_GAMES:
            words = provisional_words(player.rated_games, short=True)
            listed.append({"rank": "", "player": player, "ordinal": words, "sigma": ""})
            continue
        rank += 1
        listed.append(
            {
                "rank": rank,
                "player": player,
                "ordinal": signed(skill.ordinal, places=1),
                "sigma": f"{skill.sigma:.1f}",
            }
        )
    return listed


def _race(
    points: list[tuple[str, dict[str, int]]], leaders: list[dict[str, Any]]
) -> Chart | None:
    """The leaders' points, night after night (summed)."""
    series = []
    for row in leaders:
        total, line = 0, []
        for _, night in points:
            total += night.get(row["player"], 0)
            line.append(total)
        series.append((str(row["name"]), line))
    return line_chart(
        "The standings race: points after each night",
        "Night",
        [_short(day) for day, _ in points],
        series,
        from_zero=True,
    )


def door(night: Night, query: str = "") -> dict[str, Any]:
    """The night's door: every name by letter (found by ``query``) with
    whether they are here, the counts, last night's players, and the
    round's controls (which say how the players here would sit)."""
    listed = arrivals(night, list(night.season.league.players.all()))
    present = [each.player for each in listed if each.here]
    played, tables, unfinished = last_round(night)
    return {
        "listed": listed,
        "arrivals": by_letter(listed, query),
        "query": query,
        "counts": Counter(each.state for each in listed),
        "present": present,
        "last_night": _last_night(night, present),
        "controls": round_controls(night, played, tables, unfinished, len(present)),
    }


def night_page(
    night: Night, base: str, *, now: datetime, query: str = ""
) -> dict[str, Any]:
    """The night's page: the door, the rounds, the standings (finished
    games only), awards and the changes after closing."""
    season = night.season
    page = door(night, query)
    came = [str(e.player.pk) for e in page["listed"] if e.state != AWAY]
    rows, summary, people = night_numbers(night)
    substituted = night_substitutions(night)
    rounds = rounds_view(night, base, now, substituted)
    ids = {pid: person.name for pid, person in people.items()}
    report = schedule.fairness(played_rounds(night), came)
    door_link = base + reverse("door", args=[night.door_token])
    return page | {
        "door_link": door_link,
        "door_qr": qr_code(door_link),
        "night": night,
        "season": season,
        "league": season.league,
        "rounds": rounds,
        "current": rounds[-1] if rounds else None,
        "rows": standing_rows(rows),
        "awards": awards(summary.feats, ids, games_played(rows)),
        "teams": _team_rows(night, rows, ids),
        "teams_named": [" & ".join(ids[pid] for pid in team) for team in night.teams],
        "fairness": report.lines() if rounds else [],
        "changes": night.changes.select_related("by", "game__table__round"),
        "closed": night.closed_at is not None,
        "substitutions": substituted,
        "prizes": prizes_given(
            night.prizes,
            places_of(rows),
            season.league.prize_ties,
        ),
        "prize_ties": TIES.get(season.league.prize_ties, ""),
    }


def _last_night(night: Night, present: list[Player]) -> dict[str, Any] | None:
    """The season's previous night and how many of its players are not
    here yet (for "Check in everyone from last night")."""
    if night.closed_at is not None or night.teams:
        return None
    previous = previous_night(night)
    if previous is None:
        return None
    missing = regulars(previous) - {player.pk for player in present}
    return {"night": previous, "missing": len(missing)}


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


RECENT_GAMES = 20  # on a player's page, unless all are asked for


@dataclass(frozen=True)
class PlayerNumbers:
    """What a player's page computes from the games (ids, not names)."""

    stats: PlayerStats
    nightly: dict[date, Skill]  # the rating after each night's last game
    recent: list[Played]  # newest first: the latest RECENT_GAMES, or all
    games: int
    nights: int
    seasons: frozenset[int]


def player_numbers(player: Player, *, every_game: bool = False) -> PlayerNumbers:
    """The player's numbers, cached under the league's rated version, which
    changes each time the worker takes in a change to its finished games
    (``tasks.ratings_bring_up_to_date``), and under how many games the player
    sat in and how long their logs are (a hand at a game still being played
    shows in its list); names are put in when the page is shown."""
    # Per season and night date, the player's games (finished or not) and
    # their logs' lengths.
    sat = list(
        player.seats.values_list(
            "table__round__night__season", "table__round__night__date"
        )
        .annotate(games=Count("pk"), seq=Sum("table__game__last_seq"))
        .order_by()
    )
    games = sum(each[2] for each in sat)
    mine = f"{games}:{sum(each[3] or 0 for each in sat)}"
    key = f"player:{player.pk}:{every_game}:{player.league.rated_version}:{mine}"
    return cached(
        key,
        lambda: PlayerNumbers(
            stats=stats_of(player_nights(player)),
            nightly=dict(rating_history(player)),
            recent=player_results(player, None if every_game else RECENT_GAMES)[::-1],
            games=games,
            nights=len(sat),
            seasons=frozenset(each[0] for each in sat),
        ),
    )


def player_page(player: Player, *, every_game: bool = False) -> dict[str, Any]:
    behind = not ratings_current(player.league)
    player.refresh_from_db(fields=["mu", "sigma", "rated_games"])
    names = dict(player.league.players.values_list("pk", "name"))
    numbers = player_numbers(player, every_game=every_game)
    stats, nightly = numbers.stats, numbers.nightly
    seasons = []
    for season in Season.objects.filter(pk__in=numbers.seasons).select_related(
        "league"
    ):
        mine = [r for r in season_rows(season) if r["player"] == str(player.pk)]
        if mine:
            seasons.append({"season": season, "row": standing_rows(mine)[0]})
    rating_chart = line_chart(
        f"{player.name}'s rating after each night",
        "Night",
        [_short(day.isoformat()) for day in nightly],
        [("Rating", [skill.ordinal for skill in nightly.values()])],
    )
    nights_chart = line_chart(
        f"{player.name}'s points per night",
        "Night",
        [_short(day) for day, _ in stats.by_night],
        [("Points", [tally.points for _, tally in stats.by_night])],
        from_zero=True,
    )
    return {
        "player": player,
        "league": player.league,
        "rating": _rating(player),
        "rating_new": player.rated_games < SETTLED_GAMES,
        "ratings_behind": behind,
        "stats": stats,
        "win_pct": _pct(stats.win_pct),
        "average_margin": _average(stats.average_margin),
        "partner": _pairing(stats.partner, names),
        "opponent": _pairing(stats.opponent, names),
        "last_nights": [
            {"date": date.fromisoformat(day), "tally": tally}
            for day, tally in stats.by_night[-5:][::-1]
        ],
        "rating_chart": rating_chart,
        "nights_chart": nights_chart,
        "games": [_game_line(game, names) for game in numbers.recent],
        "all_games": numbers.games,
        # The header counts finished games, as "In numbers" and the
        # standings do; the games still in play (or never played) are said.
        "unfinished": max(0, numbers.games - stats.games),
        "seasons": seasons,
        "nights": numbers.nights,
    }


def _rating(player: Player) -> str:
    if player.mu is None or player.sigma is None:
        return ""
    if player.rated_games < SETTLED_GAMES:
        return provisional_words(player.rated_games)
    skill = Skill(player.mu, player.sigma)
    return f"{signed(skill.ordinal, places=1)} (± {skill.sigma:.1f})"


def _pct(rate: Fraction | None) -> str:
    return f"{round(100 * rate)}%" if rate is not None else "–"


def _average(value: Fraction | None) -> str:
    return signed(value, places=1, plus=True) if value is not None else "–"


def _short(day: str) -> str:
    return date.fromisoformat(day).strftime("%-d %b")


def _pairing(pairing: Pairing | None, names: dict[int, str]) -> str:
    if pairing is None:
        return ""
    return (
        f"{names[int(pairing.player)]}: won {pairing.won} of {pairing.games} "
        f"({_pct(pairing.rate)})"
    )


def _game_line(played: Played, names: dict[int, str]) -> dict[str, Any]:
    game, seat = played.game, played.seat
    side = game.sides[seat]
    partners = [
        names[int(pid)]
        for other, pid in enumerate(game.players)
        if game.sides[other] == side and other != seat
    ]
    opponents = [
        names[int(pid)]
        for other, pid in enumerate(game.players)
        if game.sides[other] != side
    ]
    totals = list(game.totals)
    others = ", ".join(signed(t) for other, t in enumerate(totals) if other != side)
    result = "unfinished"
    if game.finished:
        result = "won" if side in game.winners else "lost"
    return {
        "night": date.fromisoformat(played.night),
        "round": played.round,
        "table": played.table,
        "partners": ", ".join(partners),
        "opponents": ", ".join(opponents),
        "score": f"{signed(totals[side])} to {others}",
        "result": result,
    }
