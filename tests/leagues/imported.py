"""A season file imported through the league's page, and its standings
compared with the ``standings`` command's (pepper-standings v1) number by
number: the season page, each night page, the CSV files and every player
page. Players are matched by where they sat (night, round, table, seat),
not by name, so the test does not repeat the import's naming."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper.leagues.models import League, Night, Season, Seat

ROOT = Path(__file__).resolve().parents[2]
MEASURES = ("played", "won", "points", "margin", "bids", "made")


def upload(client: Client, league: League, text: str) -> Season:
    """The organizer uploads the file with the league page's import form."""
    file = SimpleUploadedFile("season.json", text.encode(), "application/json")
    response = client.post(f"/leagues/{league.pk}/import", {"upload": file})
    assert response.status_code == 302, _alert(response.content.decode())
    season_id = int(response["Location"].strip("/").split("/")[-1])
    return Season.objects.get(pk=season_id)


def _alert(page: str) -> str:
    return page.split('role="alert">', 1)[-1].split("</", 1)[0]


def command_standings(text: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "manage.py", "standings", "-", "--json"],
        cwd=ROOT,
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def seated(document: dict[str, Any], season: Season) -> dict[str, str]:
    """Each player id of the file -> the league player's id (pk, as text),
    read off the seats of the imported tables."""
    seats = Seat.objects.filter(table__round__night__season=season).values_list(
        "table__round__night__date",
        "table__round__number",
        "table__number",
        "position",
        "player",
    )
    at = {(day.isoformat(), r, t, p): str(pk) for day, r, t, p, pk in seats}
    found: dict[str, str] = {}
    for night in document["nights"]:
        for game in night["games"]:
            for position, pid in enumerate(game["players"]):
                place = (night["date"], game["round"], game["table"], position)
                assert found.setdefault(pid, at[place]) == at[place], pid
    return found


def _numbers(row: dict[str, Any], *extra: str) -> tuple[Any, ...]:
    return tuple(row[key] for key in ("rank", *extra, *MEASURES))


def _expected(
    rows: list[dict[str, Any]], ids: dict[str, str], *extra: str
) -> dict[str, tuple[Any, ...]]:
    return {ids[row["player"]]: _numbers(row, *extra) for row in rows}


def _csv_rows(client: Client, url: str, names: dict[str, str]) -> dict[str, tuple]:  # type: ignore[type-arg]
    response = client.get(url)
    assert response.status_code == 200, url
    text = b"".join(response.streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
    rows = list(csv.DictReader(io.StringIO(text)))
    found = {}
    for row in rows:
        values = {k: (int(v) if v.lstrip("-").isdigit() else v) for k, v in row.items()}
        values["rank"] = values["rank"] or None
        extra = ("nights",) if "nights" in row else ()
        found[names[row["player"]]] = _numbers(values, *extra)
    assert len(found) == len(rows), "a name shown twice in a CSV"
    return found


def assert_same_standings(client: Client, text: str, season: Season) -> None:
    """The imported season's pages and CSVs show the command's numbers."""
    document = json.loads(text)
    expected = command_standings(text)
    ids = seated(document, season)
    names = {str(p.pk): p.name for p in season.league.players.all()}
    by_name = {name: pk for pk, name in names.items()}
    assert len(by_name) == len(names), "two league players share a name"
    want = _expected(expected["season"]["rows"], ids, "nights")
    page = client.get(f"/seasons/{season.pk}/")
    assert page.status_code == 200
    shown = {
        row.player: _numbers({"rank": row.rank, **row.tally}, "nights")
        for row in page.context["rows"]
    }
    assert shown == want
    csv_url = f"/seasons/{season.pk}/standings.csv"
    assert _csv_rows(client, csv_url, by_name) == want
    nights = {n.date.isoformat(): n for n in Night.objects.filter(season=season)}
    for night in expected["nights"]:
        want_night = _expected(night["rows"], ids)
        found = nights[night["date"]]
        page = client.get(f"/nights/{found.pk}/")
        assert page.status_code == 200
        shown = {
            row.player: _numbers({"rank": row.rank, **row.tally})
            for row in page.context["rows"]
        }
        assert shown == want_night, night["date"]
        url = f"/nights/{found.pk}/standings.csv"
        assert _csv_rows(client, url, by_name) == want_night
    for pk in set(ids.values()):
        response = client.get(f"/players/{pk}/")
        assert response.status_code == 200
        mine = [s["row"] for s in response.context["seasons"] if s["season"] == season]
        if pk in want:
            assert (
                _numbers({"rank": mine[0].rank, **mine[0].tally}, "nights") == want[pk]
            )
