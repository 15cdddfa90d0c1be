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


class Series(models.Model):
    """Games played one after another by the same players in the same
    seats, "best of 3" or "first to 2 games" (``rules.series``). Each game
    is a game of its own, with its own log and links; a game row names its
    series (``Game.series_id``). The next game is added only against the
    number of games this row holds, so two phones tapping "Next game" at
    once start one."""

    id = models.UUIDField(primary_key=True)
    rule = models.CharField(max_length=20)  # "best-of-3", "first-to-2"
    created_at = models.DateTimeField()
    games = models.JSONField(default=list)  # the games' ids (hex), in order
    # How many games ``games`` holds: the next game is added only against
    # the count its phone read (of two phones at once, the first wins).
    game_count = models.PositiveSmallIntegerField(default=1)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return f"{self.rule} series {self.pk}"
