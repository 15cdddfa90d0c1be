"""What the league's plain queries share: the connection, and a model's
table and columns quoted for it.

Some reads of the league pages' first views are plain SQL, built once per
process and database (``rating_rows``, ``player_rows``): through the ORM,
building each query took longer than the database took to answer it.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from scorekeeper.leagues.models import Night, Round, Table


def db() -> BaseDatabaseWrapper:
    """The thread's connection itself."""
    return connections[DEFAULT_DB_ALIAS]


def names(model: type[Model], *fields: str) -> tuple[str, ...]:
    """The quoted table of ``model`` and its quoted columns of ``fields``,
    each named with its table (two tables may have a column of one name)."""
    quote = db().ops.quote_name
    columns = []
    for name in fields:
        field = model._meta.get_field(name)
        assert isinstance(field, Field)
        columns.append(quote(str(field.column)))
    table = quote(model._meta.db_table)
    return (table, *(f"{table}.{column}" for column in columns))


def json_text(column: str) -> str:
    """A JSON column as its JSON text, on either database."""
    return f"CAST({column} AS TEXT)"


def json_at(vendor: str, column: str, at: str, *, index: bool = False) -> str:
    """The member ``at`` (an SQL expression: a key, or an array index when
    ``index``) of a JSON column, as JSON text: the database's own look-up
    (PostgreSQL's ``->`` on jsonb, SQLite's ``json_extract``, the two the
    project runs on), so that only that member is read."""
    if vendor == "postgresql":
        return f"CAST({column} -> {at} AS TEXT)"
    path = f"'$[' || {at} || ']'" if index else f"'$.\"' || {at} || '\"'"
    return f"json_extract({column}, {path})"


def table_to_night() -> str:
    """The joins from a league table to its round and night."""
    round_, r_id, r_night = names(Round, "id", "night")
    night, n_id = names(Night, "id")
    t_round = names(Table, "round")[1]
    return (
        f"INNER JOIN {round_} ON {t_round} = {r_id} "
        f"INNER JOIN {night} ON {r_night} = {n_id} "
    )
