"""A game's snapshot as its row keeps it: the engine's state after the
game's last event (``rules.engine.Snapshot``), written in the same
transaction as that event, so that the next hand is refereed against it
instead of a replay of the whole log.

A snapshot is read back only when it can be trusted: written by this
engine version, at the game's current seq, and with a checksum that
matches the game, the version and the state. The checksum is an HMAC
(SHA-256) keyed with the server's SECRET_KEY, so only this app (a replay
or an append) can make one: a state edited in the database, even with a
plain checksum worked out again, is not trusted. Anything else (an older
engine, a row written by hand, a damaged field, another key) is ignored:
the game is replayed from its log, and the snapshot written again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.crypto import salted_hmac

from scorekeeper.models import Game
from scorekeeper.rules.engine import ENGINE_VERSION, Snapshot
from scorekeeper.rules.variants import Variant

# What the row holds of its snapshot, read with its seq in one query.
FIELDS = ("snapshot", "snapshot_seq", "snapshot_version", "snapshot_sum")


def document(state: Snapshot) -> dict[str, object]:
    """The state as the row's JSON field holds it (the game's rules, seats
    and first dealer are the row's own columns)."""
    return {
        "seq": state.seq,
        "played": state.played,
        "totals": list(state.totals),
        "winners": list(state.winners),
        "tied": list(state.tied),
        "pepper_round_until": state.pepper_round_until,
        "decided": state.decided,
        "end_reason": state.end_reason,
        "ended": state.ended,
    }


def checksum(game: Game, version: int, state: object) -> str:
    """What binds a stored state to its game, its seq and the engine, keyed
    with the server's secret key."""
    material = [
        str(game.pk),
        game.preset,
        game.overrides,
        len(game.seats),
        game.first_dealer,
        version,
        state,
    ]
    text = json.dumps(material, sort_keys=True, separators=(",", ":"))
    return salted_hmac(_SALT, text, algorithm="sha256").hexdigest()


_SALT = "scorekeeper.snapshots"


def stored(game: Game, state: Snapshot) -> dict[str, object]:
    """The row's snapshot fields for ``state``."""
    written = document(state)
    return {
        "snapshot": written,
        "snapshot_seq": state.seq,
        "snapshot_version": ENGINE_VERSION,
        "snapshot_sum": checksum(game, ENGINE_VERSION, written),
    }


def trusted(
    game: Game, variant: Variant, last_seq: int, row: Mapping[str, Any]
) -> Snapshot | None:
    """The row's snapshot, if it is this engine's state after event
    ``last_seq`` of this game and nothing in it changed; else None."""
    written = row["snapshot"]
    if (
        row["snapshot_version"] != ENGINE_VERSION
        or row["snapshot_seq"] != last_seq
        or row["snapshot_sum"] != checksum(game, ENGINE_VERSION, written)
    ):
        return None
    try:
        state = _read(game, variant, written)
    except (KeyError, TypeError, ValueError):  # a checksum made for a bad state
        return None
    return state if state.seq == last_seq else None


def _read(game: Game, variant: Variant, written: Mapping[str, Any]) -> Snapshot:
    totals = tuple(int(total) for total in written["totals"])
    if len(totals) != variant.sides:
        raise ValueError("one total a side")
    return Snapshot(
        variant,
        tuple(game.seats),
        game.first_dealer,
        int(written["seq"]),
        int(written["played"]),
        totals,
        tuple(int(side) for side in written["winners"]),
        tuple(int(side) for side in written["tied"]),
        int(written["pepper_round_until"]),
        str(written["decided"]),
        str(written["end_reason"]),
        int(written["ended"]),
    )
