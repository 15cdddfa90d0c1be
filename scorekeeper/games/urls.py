"""The table's pages: a game, its hands, its links, its log, its API."""

from __future__ import annotations

from django.urls import path

from scorekeeper.games import (
    api,
    changes,
    live,
    pages,
    series_views,
    sharing,
    table_views,
)

urlpatterns = [
    path("", pages.home, name="home"),
    path("games/new", pages.game_new, name="game_new"),
    path("games/import", sharing.game_import, name="game_import"),
    path("games/<uuid:game_id>/", pages.game_detail, name="game"),
    path("games/<uuid:game_id>/hands", changes.hand_create, name="hand_create"),
    path("games/<uuid:game_id>/poll", live.game_poll, name="game_poll"),
    path("games/<uuid:game_id>/table", table_views.table_poll, name="table_poll"),
    path("games/<uuid:game_id>/table/seat", table_views.table_seat, name="table_seat"),
    path("games/<uuid:game_id>/table/call", table_views.table_call, name="table_call"),
    path("games/<uuid:game_id>/tv", live.game_tv, name="game_tv"),
    path(
        "games/<uuid:game_id>/tv/next",
        series_views.series_tv_next,
        name="series_tv_next",
    ),
    path("games/<uuid:game_id>/chart", live.game_chart, name="game_chart"),
    path(
        "games/<uuid:game_id>/links/replace",
        sharing.links_replace,
        name="links_replace",
    ),
    path("join/<token:token>", sharing.join, name="join"),
    path("join/<token:token>/recap", series_views.join_recap, name="join_recap"),
    path("games/<uuid:game_id>/next", series_views.series_next, name="series_next"),
    path(
        "games/<uuid:game_id>/series/<id:number>",
        series_views.series_game,
        name="series_game",
    ),
    path("games/<uuid:game_id>/recap", series_views.game_recap, name="game_recap"),
    path(
        "games/<uuid:game_id>/series.json", series_views.series_log, name="series_log"
    ),
    path("games/<uuid:game_id>/end", changes.game_end, name="game_end"),
    path(
        "games/<uuid:game_id>/hands/<id:target>/void",
        changes.hand_void,
        name="hand_void",
    ),
    path(
        "games/<uuid:game_id>/hands/<id:target>/correct",
        changes.hand_correct,
        name="hand_correct",
    ),
    path("games/<uuid:game_id>/log.json", sharing.game_log, name="game_log"),
    path(
        "games/<uuid:game_id>/offline.json", sharing.game_offline, name="game_offline"
    ),
    path("games/<uuid:game_id>/score.json", sharing.game_score, name="game_score"),
    path("api/games/<uuid:game_id>", api.game_score, name="api_game"),
    path("api/games/<uuid:game_id>/events", api.game_events, name="api_events"),
]
