"""An organizer deletes a season: a season imported twice, or by mistake,
must not count for ever. Its nights, rounds, tables, games (with their
logs) and change log go; the league's players stay in its registry.

The league's ratings are redone without its games, by the worker once
the deletion commits (every game of the league is rated again: league-wide
work, never a request's); meanwhile the pages show the players' ratings as
they stood and say they are being brought up to date. The deletion bumps
the league's roster version, as a merge does: every cache of the
league's numbers (a night's, a season's, a player's) is keyed on a
version that then differs, so none is read again (the league's game
counts alone could come back to an earlier value after a deletion).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from scorekeeper.leagues.models import Change, League, Rating, Season, Table
from scorekeeper.leagues.tasks import ratings_ask
from scorekeeper.models import Game, GameEvent


def season_delete(*, season: Season) -> None:
    """Delete ``season`` and everything played in it, and ask the worker to
    redo the league's ratings."""
    league = season.league
    with transaction.atomic():
        games = list(
            Table.objects.filter(round__night__season=season).values_list(
                "game", flat=True
            )
        )
        Change.objects.filter(night__season=season).delete()
        Rating.objects.filter(league=league).delete()  # all redone by the task
        season.delete()  # its nights, check-ins, rounds, tables and seats
        # A game's log is append-only while the game exists: it goes only
        # with its game, when the season it was played in goes.
        GameEvent.objects.filter(game__in=games).delete()
        Game.objects.filter(pk__in=games).delete()
        League.objects.filter(pk=league.pk).update(
            roster_version=F("roster_version") + 1, rated_version=""
        )
        ratings_ask(league_id=league.pk)
    league.refresh_from_db(fields=["roster_version", "rated_version"])
