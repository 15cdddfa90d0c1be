"""Players' names: up to 60 characters, compared by a key (NFKC,
case-folded) that is the same on SQLite and PostgreSQL, in adding,
renaming, a newcomer and an import; the migration that keys the players
of a database made before it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.leagues import services
from scorekeeper.leagues.models import League, Player, Season
from scorekeeper.leagues.names import distinct_names, name_key
from tests.leagues.nights import progressive_night
from tests.records import NOW


def test_names_that_differ_only_in_case_or_form_share_a_key() -> None:
    assert name_key("Émile") == name_key("émile") == name_key("E\u0301MILE")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("ﬁona") == name_key("Fiona")  # a ligature spelled out
    assert name_key("Ann") != name_key("Anne")


def test_repeated_names_are_told_apart_in_their_order() -> None:
    assert distinct_names(["Ann", "ann", "Ann (2)", "Ann"]) == [
        "Ann",
        "ann (3)",  # "(2)" is listed already
        "Ann (2)",
        "Ann (4)",
    ]
    long = "L" * 60
    assert distinct_names([long, long]) == [long, "L" * 56 + " (2)"]


def test_telling_thousands_of_one_name_apart_tries_each_number_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Linear, not quadratic: each repeat tries the next number only (its
    work counted in keys made, not timed: a busy machine must not fail
    it). Trying every number from 2 each time would make ~12.5 million."""
    made: list[str] = []

    def counted(name: str) -> str:
        made.append(name)
        return name_key(name)

    monkeypatch.setattr("scorekeeper.leagues.names.name_key", counted)
    told = distinct_names(["Ann"] * 5000)
    assert len(set(told)) == 5000
    assert told[:3] == ["Ann", "Ann (2)", "Ann (3)"] and told[-1] == "Ann (5000)"
    assert len(made) <= 4 * 5000


@pytest.mark.django_db
def test_a_name_equal_but_for_an_accented_capital_is_refused(league: League) -> None:
    services.player_add(league=league, name="Émile")
    with pytest.raises(services.LeagueError, match="Émile is already a player"):
        services.player_add(league=league, name="émile")
    zoe = services.player_add(league=league, name="Zoë")
    with pytest.raises(services.LeagueError, match="already a player"):
        services.player_rename(player=zoe, name="ÉMILE")
    assert services.player_rename(player=zoe, name="ZOË").name_key == name_key("zoë")


@pytest.mark.django_db
def test_a_newcomer_is_compared_by_the_key_too(season: Season) -> None:
    night = progressive_night(season)
    services.newcomer_check_in(night=night, name="Straße", now=NOW)
    with pytest.raises(services.LeagueError, match="already a player"):
        services.newcomer_check_in(night=night, name="STRASSE", now=NOW)


@pytest.mark.django_db
def test_names_up_to_60_characters(league: League) -> None:
    name = "Maria Guadalupe Fernández de la Cruz y Villanueva-Ortega III"
    assert len(name) == 60
    assert services.player_add(league=league, name=name).name == name
    with pytest.raises(services.LeagueError, match="longer than 60 characters"):
        services.player_add(league=league, name=name + "I")


def _migrate(target: tuple[str, str]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = [target] if target[1] else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_the_players_of_a_database_made_before_it() -> None:
    old = _migrate(("leagues", "0004_rating_order"))
    league = old.get_model("leagues", "League").objects.create(
        name="Before", created_at=NOW
    )
    made = old.get_model("leagues", "Player").objects
    for name in ("Straße", "Ann", "STRASSE"):  # lower() tells these apart
        made.create(league=league, name=name)
    _migrate(("leagues", ""))
    keyed = Player.objects.order_by("pk").values_list("name", "name_key")
    assert list(keyed) == [
        ("Straße", "strasse"),
        ("Ann", "ann"),
        ("STRASSE (2)", "strasse (2)"),
    ]
