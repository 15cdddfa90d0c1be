from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig

if TYPE_CHECKING:
    from scorekeeper.projections.registry import Committed


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A closed night's game only reads, but its league's organizers may
        # still correct it: the league hands that check to the platform.
        from scorekeeper.leagues.access import ORGANIZERS
        from scorekeeper.projections import registry
        from scorekeeper.web import access

        if ORGANIZERS not in access.overseers:
            access.overseers.append(ORGANIZERS)
        # Each night's tallies move with its games' rows, in their transaction.
        registry.register("night tallies", _night_tallies)
        # The ratings follow the nights' rows (the task worker redoes them).
        from scorekeeper.leagues import night_rows, tasks

        night_rows.nights_moved.connect(
            tasks.nights_moved, dispatch_uid="ratings follow nights"
        )


def _night_tallies(change: Committed) -> None:
    """The projector of a league night's rows (``night_rows``)."""
    from scorekeeper.leagues.night_rows import game_row_moved

    game_row_moved(change.game, change.was_finished)
