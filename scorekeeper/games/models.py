"""The table's shared state, kept in the database so that every phone and
every server sees one table: which phone holds each seat, and the auction
of the hand being bid. The auction is not the log: it becomes part of the
log only with the hand it belongs to, when that hand is saved."""

from __future__ import annotations

from django.db import models

from scorekeeper.models import Game


class LiveTable(models.Model):
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="live_table"
    )
    # Per seat, the phone that holds it ("": nobody, any phone calls for it).
    phones = models.JSONField(default=list)
    # The auction of the hand after event ``hand_seq``: stale (and empty)
    # once the log has moved on from that event.
    hand_seq = models.PositiveIntegerField(default=0)
    calls = models.JSONField(default=list)  # [[seat, call], ...] in order
    trump = models.CharField(max_length=10, blank=True)  # named by the bidder
    # Raised by every change: a change is made only against the version
    # its phone saw, so of two phones at once the first wins.
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"live table of {self.game_id}"
