"""``python manage.py rebuild [--league ID]``: recompute what is kept from
the games' logs, from scratch: every game row's projection (totals,
winners, seat statistics), then each night's tallies and each league's
ratings. The pages keep these
up to date as games are played; this is for after an upgrade that changes
what is projected, or to prove that the running result equals a rebuild.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.leagues.models import League, Night
from scorekeeper.leagues.night_rows import project_nights
from scorekeeper.leagues.rated_games import ratings_refresh
from scorekeeper.models import Game
from scorekeeper.projections.game_rows import rebuild_rows


class Command(BaseCommand):
    help = (
        "Recompute every game row, night tally and league rating from the games' logs."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--league", type=int, help="only this league (its id)")

    def handle(self, *args: Any, **options: Any) -> None:
        leagues = League.objects.all()
        games = Game.objects.all()
        if options["league"] is not None:
            leagues = leagues.filter(pk=options["league"])
            if not leagues.exists():
                raise CommandError(f"no league {options['league']}")
            games = games.filter(table__round__night__season__league__in=leagues)
        rows = rebuild_rows(games)
        self.stdout.write(f"{rows} game rows rebuilt from their logs")
        nights = Night.objects.filter(season__league__in=leagues)
        project_nights(nights.values_list("pk", flat=True))
        self.stdout.write(f"{nights.count()} nights' tallies summed from their games")
        for league in leagues:
            rated = ratings_refresh(league, rebuild=True)
            self.stdout.write(f"{league.name}: {rated} games rated")
