"""League nights under way, for the multi-server test and bench/scale.py:
``NIGHTS`` clubs (a league each, with an organizer, a season with a
public standings link, a night of ``TABLES`` tables in its first round),
printed as JSON: what each browser needs to play its part, its session
cookie included (made here as the app makes it: the sessions are signed
cookies, so any server with the same SECRET_KEY reads them).

    DATABASE_URL=... SECRET_KEY=... python bench/seed_nights.py NIGHTS TABLES [TARGET]

TARGET: the score that ends a game (classic; default 5000, so that the
bench's games never end).
"""

from __future__ import annotations

import json
import os
import random
import sys
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

# isort: split
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
)
from django.contrib.auth.models import User  # noqa: E402
from django.contrib.sessions.backends.signed_cookies import SessionStore  # noqa: E402
from django.utils import timezone  # noqa: E402

from scorekeeper.leagues import rounds, services  # noqa: E402
from scorekeeper.leagues.models import Night  # noqa: E402
from scorekeeper.web.access import RIGHTS, fingerprint  # noqa: E402


def cookie(values: dict[str, Any]) -> str:
    """A session cookie's value holding ``values``."""
    session = SessionStore()
    session.update(values)
    session.save()
    return str(session.session_key)


def organizer_cookie(user: User) -> str:
    return cookie(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )


def club(number: int, tables: int, target: int) -> dict[str, Any]:
    now = timezone.now()
    user = User.objects.create_user(f"organizer-{number}-{random.random()}")
    user.set_unusable_password()  # signed in by its cookie: no slow hashing
    user.save()
    league = services.league_create(name=f"Club {number}", organizer=user, now=now)
    season = services.season_create(
        league=league,
        name="Spring",
        preset="classic",
        overrides={"target_score": target},
        now=now,
    )
    public = services.season_link_new(season=season)
    for seat in range(4 * tables):
        services.player_add(league=league, name=f"Player {seat + 1}")
    night = services.night_create(
        season=season, day=date(2027, 3, 2), format=Night.PROGRESSIVE, now=now
    )
    for player in league.players.order_by("pk"):
        services.check_in(night=night, player=player, now=now)
    played = rounds.round_start(night=night, rng=random.Random(number), now=now)
    games = [
        table.game for table in played.tables.select_related("game").order_by("pk")
    ]
    return {
        "league": league.pk,
        "season": season.pk,
        "night": night.pk,
        "public": public,
        "organizer": organizer_cookie(user),
        "tables": [
            {
                "game": str(game.pk),
                "edit": game.edit_token,
                "cookie": cookie({RIGHTS: {game.pk.hex: fingerprint(game.edit_token)}}),
            }
            for game in games
        ],
    }


def main() -> None:
    nights, tables = int(sys.argv[1]), int(sys.argv[2])
    target = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    json.dump([club(n, tables, target) for n in range(nights)], sys.stdout)


if __name__ == "__main__":
    main()
