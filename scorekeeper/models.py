"""The event store's tables: a game and its append-only log of events.

``GameEvent.payload`` holds the event exactly as pepper-log v1 writes it,
so a game's export is its stored log. Rows are only ever inserted, through
``eventstore.append``; nothing updates one, and they are deleted only with
their game, when an organizer deletes the league season it was played in
(``leagues.deletion``).
"""

from __future__ import annotations

import math
import secrets
import uuid

from django.db import models

TOKEN_BYTES = 24
# What ``new_token`` gives: URL-safe base64 of TOKEN_BYTES bytes, unpadded.
TOKEN_LENGTH = math.ceil(TOKEN_BYTES * 4 / 3)
TOKEN_PATTERN = f"[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}"


def new_token() -> str:
    """An unguessable capability: 192 bits from ``secrets``."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    preset = models.CharField(max_length=20)
    overrides = models.JSONField(default=dict, blank=True)
    seats = models.JSONField()  # player names, clockwise
    first_dealer = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField()
    # Capabilities: who holds the edit token may change the game; the view
    # token only reads it. Replacing one revokes the old at once.
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    # A projection of the log, kept in the append's transaction, so that
    # lists of games need no replay: how far the log goes and where it stands.
    last_seq = models.PositiveIntegerField(default=0)
    hands_played = models.PositiveIntegerField(default=0)
    totals = models.JSONField(default=list)
    finished = models.BooleanField(default=False)
    winners = models.JSONField(default=list)  # the winning sides, when finished
    # Per seat: the effective hands it bid, and of those the ones made
    # (what league standings count; contract pepper-league-v1 §2).
    seat_bids = models.JSONField(default=list)
    seat_made = models.JSONField(default=list)
    # Per seat, what player pages and awards count (``seatstats.SeatStats``).
    seat_stats = models.JSONField(default=list)
    # A league night's game once the night is closed: its edit link only
    # reads; an organizer's correction is the only change (with a reason).
    locked = models.BooleanField(default=False)
    updated_at = models.DateTimeField()
    # An imported game: the SHA-256 of the log it came from, so that the
    # same log imported again can be recognised.
    import_digest = models.CharField(max_length=64, blank=True, db_index=True)
    # An optional name ("Thursday at Ann's"), shown in lists of games.
    name = models.CharField(max_length=60, blank=True)
    # Lines shown under the score about who sits where, when that changed
    # in the middle of the game ("Ann → Eve from hand 5": a league night's
    # substitute). The seats' names and the log stay the game's own; a
    # note is kept on the row so that the game page still reads one row.
    seat_notes = models.JSONField(default=list, blank=True)
    # The same changes as the pages use them: [seat, name, from_hand] each
    # (``tablewords.Takeover``), written with the note by the capability
    # that seats a substitute, so the table reads who plays from its own
    # row (no hook into the league, no query, no cache).
    takeovers = models.JSONField(default=list, blank=True)
    # The engine's state after event ``snapshot_seq`` (``snapshots.py``),
    # written with the event in its transaction: the next hand is refereed
    # against it instead of a replay of the whole log. Trusted only while
    # its engine version, seq and keyed checksum (HMAC-SHA-256) all match.
    snapshot = models.JSONField(default=dict, blank=True)
    snapshot_seq = models.PositiveIntegerField(default=0)
    snapshot_version = models.PositiveSmallIntegerField(default=0)
    snapshot_sum = models.CharField(max_length=64, blank=True)
    # The series this game is one game of ("best of 3" between the same
    # players and seats), if any: the table's own ``games.Series`` row, by
    # its id. App data beside the log, which stays a game's own: kept on
    # the row so that a game page knows it is in a series without asking.
    series_id = models.UUIDField(null=True, blank=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["finished", "-updated_at"])]

    def __str__(self) -> str:
        return f"{self.preset}: {', '.join(self.seats)}"


class GameEvent(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()  # 1-based: "event N" of the log
    event_id = models.CharField(max_length=64)
    type = models.CharField(max_length=10)  # hand, void, correct
    payload = models.JSONField()
    recorded_at = models.DateTimeField()
    recorded_by = models.CharField(max_length=60, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_event_per_seq"),
            models.UniqueConstraint(
                fields=["game", "event_id"], name="event_id_once_per_game"
            ),
        ]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"event {self.seq} of {self.game_id}: {self.type}"
