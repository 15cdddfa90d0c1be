from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A closed night's game only reads, but its league's organizers may
        # still correct it: the league hands that check to the platform.
        from scorekeeper.leagues.access import ORGANIZERS
        from scorekeeper.web import access

        if ORGANIZERS not in access.overseers:
            access.overseers.append(ORGANIZERS)
        # A substitute's name on the game's page, where it says who plays now.
        from scorekeeper.games import seat_players
        from scorekeeper.leagues.substitutes import takeovers

        if takeovers not in seat_players.finders:
            seat_players.finders.append(takeovers)
