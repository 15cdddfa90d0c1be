from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A closed night's game only reads, but its league's organizers may
        # still correct it: the league hands that check to the platform.
        from scorekeeper import eventstore
        from scorekeeper.leagues.access import ORGANIZERS
        from scorekeeper.leagues.results import game_row_moved
        from scorekeeper.web import access

        if ORGANIZERS not in access.overseers:
            access.overseers.append(ORGANIZERS)
        # A substitute's name on the game's page, where it says who plays now.
        from scorekeeper.games import seat_players
        from scorekeeper.leagues.substitutes import takeovers

        if takeovers not in seat_players.finders:
            seat_players.finders.append(takeovers)
        # Each night's tallies move with its games' rows, in their transaction.
        if game_row_moved not in eventstore.row_watchers:
            eventstore.row_watchers.append(game_row_moved)
