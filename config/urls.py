"""Each capability's routes, from its own urls.py (no names are
namespaced: a page's name is unique across the project)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("scorekeeper.web.urls")),
    path("", include("scorekeeper.games.urls")),
    path("", include("scorekeeper.referee.urls")),
    path("", include("scorekeeper.leagues.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "scorekeeper.web.limits.bad_request"
