"""The referee's pages: the rules, a game's rules and what-ifs, a log
verified, a trick settled."""

from __future__ import annotations

from django.urls import path

from scorekeeper.referee import rules_pages, views

urlpatterns = [
    path("rules/", rules_pages.rules_index, name="rules"),
    path("rules/<slug:preset>/", rules_pages.rules_detail, name="rules_detail"),
    path("games/<uuid:game_id>/rules", rules_pages.game_rules, name="game_rules"),
    path("games/<uuid:game_id>/what-if", rules_pages.game_what_if, name="game_what_if"),
    path("verify", views.verify, name="verify"),
    path("trick", views.trick, name="trick"),
]
