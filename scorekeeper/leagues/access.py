"""Who may correct a league's game once its night is closed, and how."""

from __future__ import annotations

from django.http import HttpRequest

from scorekeeper.leagues.models import Table
from scorekeeper.leagues.rounds import closed_game_change
from scorekeeper.models import Game
from scorekeeper.web.access import Overseer


def organizer_of_game(request: HttpRequest, game: Game) -> bool:
    """Is the signed-in user an organizer of the league that seated ``game``?"""
    return Table.objects.filter(
        game=game, round__night__season__league__organizers=request.user.pk
    ).exists()


ORGANIZERS = Overseer(oversees=organizer_of_game, change=closed_game_change)
