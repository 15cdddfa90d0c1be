"""The installable app's own files: the service worker, the manifest, the
pages and engine a phone keeps for no connection."""

from __future__ import annotations

from django.urls import path

from scorekeeper.web import installable

urlpatterns = [
    path("sw.js", installable.service_worker, name="service_worker"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("offline/", installable.no_connection, name="no_connection"),
    path("offline/game/", installable.offline_game, name="offline_game"),
    path("offline/engine.json", installable.engine_files, name="engine_files"),
]
