"""The league's fixtures (an organizer, a league of nine, a season) for
the hardening tests too."""

from __future__ import annotations

from tests.leagues.conftest import league, organizer, season

__all__ = ["league", "organizer", "season"]
