"""``python manage.py call_due_rounds``: call every round whose clock ran
out and that was to be called then. The task worker does this itself
(each such round queues its call for its end); this is for a task backend
that cannot wait for a time, run every minute (cron, a systemd timer)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from scorekeeper.leagues.round_clock import rounds_call_due


class Command(BaseCommand):
    help = "Call the rounds whose time is up and that the organizer asked to be called."

    def handle(self, *args: Any, **options: Any) -> None:
        ended = rounds_call_due(now=timezone.now())
        self.stdout.write(f"{ended} games ended as they stood")
