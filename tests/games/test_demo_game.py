"""`make run`'s demo game: created once, in progress, and reachable by the
link the command prints."""

from __future__ import annotations

import io
import re

from django.core.management import call_command
from django.test import Client

from scorekeeper.models import Game


def test_the_demo_game_is_in_progress_and_its_printed_link_opens_it(
    client: Client, db: None
) -> None:
    out = io.StringIO()
    call_command("demo_game", stdout=out)
    game = Game.objects.get()
    assert (game.finished, game.hands_played) == (False, 7)
    link = re.search(r"/join/\S+", out.getvalue())
    assert link is not None
    page = client.get(link.group(0), follow=True).content.decode()
    assert "Record hand 8" in page and "corrected" in page
    again = io.StringIO()
    call_command("demo_game", stdout=again)
    assert Game.objects.count() == 1 and link.group(0) in again.getvalue()
