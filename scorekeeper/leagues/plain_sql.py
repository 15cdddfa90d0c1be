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
