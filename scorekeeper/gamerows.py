"""A game's row in plain SQL, on the paths every save and page takes.

Through the ORM, building the query to read one game by its key, to move
its row to the next event, took several times
longer than the database took to answer it; the live poll's ``head``
lives here for the same reason. The row is read whole and converted
exactly as the ORM converts it (each field's and the backend's
converters), so the ``Game`` given back is the one ``Game.objects.get``
gives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, NamedTuple
from uuid import UUID

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field
from django.db.models.expressions import Col

from scorekeeper.models import Game

Converter = Callable[[Any, Any, Any], Any]
_TABLE = Game._meta.db_table
_FIELDS: dict[str, Field[Any, Any]] = {
    field.name: field for field in Game._meta.concrete_fields
}
_NAMES = tuple(field.attname for field in _FIELDS.values())


def _db() -> BaseDatabaseWrapper:
    """The thread's connection itself: each attribute read through
    ``django.db.connection`` looks it up again (~1 µs), and a save read
    some thirty of them."""
    return connections[DEFAULT_DB_ALIAS]


@cache
def _reading(vendor: str) -> tuple[str, tuple[tuple[Col, list[Converter]], ...]]:
    """The SELECT of every column, and each column's converters (the
    backend's, then the field's), for the database ``vendor``."""
    connection = _db()
    fields = list(_FIELDS.values())
    columns = ", ".join(
        connection.ops.quote_name(str(field.column)) for field in fields
    )
    sql = f"SELECT {columns} FROM {connection.ops.quote_name(_TABLE)} WHERE id = %s"
    converters = []
    for field in fields:
        column = Col(_TABLE, field)
        found = connection.ops.get_db_converters(column)
        converters.append((column, [*found, *field.get_db_converters(connection)]))
    return sql, tuple(converters)


def _fetch_one(sql: str, game_id: UUID) -> tuple[Any, ...] | None:
    """The one row ``sql`` finds for the game's key (its only parameter)."""
    connection = _db()
    key = Game._meta.pk.get_db_prep_value(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row


def game_row(game_id: UUID) -> Game | None:
    """The game with this id, read whole in one plain query (None: none)."""
    connection = _db()
    sql, converters = _reading(connection.vendor)
    row = _fetch_one(sql, game_id)
    if row is None:
        return None
    values = []
    for value, (column, steps) in zip(row, converters, strict=True):
        for convert in steps:
            value = convert(value, column, connection)
        values.append(value)
    return Game.from_db(connection.alias, _NAMES, values)


@cache
def _moving(vendor: str, names: tuple[str, ...]) -> str:
    quote = _db().ops.quote_name
    columns = (str(_FIELDS[name].column) for name in names)
    assignments = ", ".join(f"{quote(column)} = %s" for column in columns)
    return f"UPDATE {quote(_TABLE)} SET {assignments} WHERE id = %s AND last_seq = %s"


def move_row(game_id: UUID, expected_seq: int, values: Mapping[str, object]) -> bool:
    """Set ``values`` on the game's row if it still stands at event
    ``expected_seq`` (the append's guard); whether it did."""
    connection = _db()
    names = tuple(values)
    params = [
        _FIELDS[name].get_db_prep_save(values[name], connection) for name in names
    ]
    key = Game._meta.pk.get_db_prep_value(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(_moving(connection.vendor, names), [*params, key, expected_seq])
        return bool(cursor.rowcount == 1)


class Head(NamedTuple):
    """How far a game's log goes, and who may read it (its tokens)."""

    pk: UUID
    last_seq: int
    edit_token: str
    view_token: str
    locked: bool


# The columns are the fields' names (Django's default for plain fields).
_HEAD_SQL = (
    "SELECT last_seq, edit_token, view_token, locked FROM "
    + Game._meta.db_table
    + " WHERE id = %s"
)


def head_with(game_id: UUID, sql: str) -> tuple[Head, tuple[Any, ...]] | None:
    """The head as ``sql`` reads it (its first four columns are the head's,
    its one parameter the game's key), with the columns it reads beyond
    them: one query for a poll that needs one more number."""
    row = _fetch_one(sql, game_id)
    if row is None:
        return None
    last_seq, edit_token, view_token, locked, *more = row
    return Head(game_id, last_seq, edit_token, view_token, bool(locked)), tuple(more)


def head(game_id: UUID) -> Head | None:
    """The live poll's one query. Plain SQL: through the ORM, building this
    query took several times longer than the database took to answer it."""
    found = head_with(game_id, _HEAD_SQL)
    return None if found is None else found[0]
