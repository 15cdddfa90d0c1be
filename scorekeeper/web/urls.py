"""The installable app's own files: the service worker, the manifest, the
pages and engine a phone keeps for no connection; and the app's Help (the
guides in docs/)."""

from __future__ import annotations

from django.urls import path

from scorekeeper.web import guide_pages, installable

urlpatterns = [
    path("sw.js", installable.service_worker, name="service_worker"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("offline/", installable.no_connection, name="no_connection"),
    path("offline/game/", installable.offline_game, name="offline_game"),
    path("offline/engine.json", installable.engine_files, name="engine_files"),
    path("help/", guide_pages.player_guide, name="player_guide"),
    path("help/<slug:name>.png", guide_pages.guide_image, name="player_guide_image"),
    path("leagues/help/", guide_pages.organizer_guide, name="organizer_guide"),
    path(
        "leagues/help/<slug:name>.png",
        guide_pages.guide_image,
        name="organizer_guide_image",
    ),
]
