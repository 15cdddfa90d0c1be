from __future__ import annotations

from django.contrib.auth.views import LogoutView
from django.urls import path

from scorekeeper.leagues import (
    door,
    nights,
    paper,
    published,
    screens,
    sharing,
    tables,
    views,
)

urlpatterns = [
    path("accounts/signup", views.signup, name="signup"),
    path("accounts/login", views.signin, name="login"),
    path("accounts/logout", LogoutView.as_view(), name="logout"),
    path("leagues/", views.leagues, name="leagues"),
    path("leagues/<id:league_id>/", views.league, name="league"),
    path("leagues/<id:league_id>/players", views.player_add, name="player_add"),
    path(
        "leagues/<id:league_id>/players/paste",
        views.players_paste,
        name="players_paste",
    ),
    path("leagues/<id:league_id>/merge", views.player_merge, name="player_merge"),
    path("leagues/<id:league_id>/invite", views.invite_create, name="invite_create"),
    path(
        "leagues/<id:league_id>/time-zone",
        views.league_time_zone,
        name="league_time_zone",
    ),
    path("leagues/<id:league_id>/import", views.season_upload, name="season_import"),
    path("invite/<token:token>", views.invite_accept, name="invite"),
    path("players/<id:player_id>/", views.player, name="player"),
    path("players/<id:player_id>/rename", views.player_rename, name="player_rename"),
    path("seasons/<id:season_id>/", views.season, name="season"),
    path("seasons/<id:season_id>/delete", views.season_delete, name="season_delete"),
    path(
        "seasons/<id:season_id>/season.json",
        views.season_download,
        name="season_export",
    ),
    path(
        "seasons/<id:season_id>/standings.csv",
        sharing.season_standings_csv,
        name="season_standings_csv",
    ),
    path(
        "seasons/<id:season_id>/hands.csv",
        sharing.season_hands_csv,
        name="season_hands_csv",
    ),
    path(
        "seasons/<id:season_id>/changes.csv",
        sharing.season_changes_csv,
        name="season_changes_csv",
    ),
    path("seasons/<id:season_id>/public", sharing.season_public, name="season_public"),
    path("standings/<token:token>", sharing.public_standings, name="public_standings"),
    path(
        "standings/<token:token>/nights/<id:night_id>",
        published.public_night,
        name="public_night",
    ),
    path(
        "seasons/<id:season_id>/prizes", published.season_prizes, name="season_prizes"
    ),
    path("nights/<id:night_id>/prizes", published.night_prizes, name="night_prizes"),
    path("nights/<id:night_id>/rules", published.rules_sheet, name="rules_sheet"),
    path("nights/<id:night_id>/", nights.night, name="night"),
    path(
        "nights/<id:night_id>/standings.csv",
        sharing.night_standings_csv,
        name="night_standings_csv",
    ),
    path("nights/<id:night_id>/check-in", nights.check_in, name="check_in"),
    path(
        "nights/<id:night_id>/check-in/last-night",
        nights.check_in_regulars,
        name="check_in_regulars",
    ),
    path("nights/<id:night_id>/newcomer", nights.newcomer, name="newcomer"),
    path("nights/<id:night_id>/teams", nights.teams, name="teams"),
    path("nights/<id:night_id>/rounds", nights.round_start, name="round_start"),
    path("rounds/<id:round_id>/call", nights.round_call, name="round_call"),
    path(
        "rounds/<id:round_id>/call/undo",
        nights.round_call_undo,
        name="round_call_undo",
    ),
    path("nights/<id:night_id>/close", nights.night_close, name="night_close"),
    path(
        "nights/<id:night_id>/close/undo",
        nights.night_close_undo,
        name="night_close_undo",
    ),
    path("nights/<id:night_id>/sheet", nights.sheet, name="sheet"),
    path("nights/<id:night_id>/links", door.checkin_sheet, name="checkin_sheet"),
    path("nights/<id:night_id>/door", door.door_switch, name="door_switch"),
    path("door/<token:token>", door.door, name="door"),
    path("me/<token:token>", door.mine, name="my_night"),
    path("me/<token:token>/seated", door.seated, name="my_seated"),
    path("nights/<id:night_id>/movement", nights.movement_card, name="movement_card"),
    path("nights/<id:night_id>/desk", screens.desk, name="desk"),
    path("nights/<id:night_id>/tv", screens.tv, name="night_tv"),
    path("nights/<id:night_id>/tv-link", screens.night_tv_link, name="night_tv_link"),
    path("tv/<token:token>", screens.tv_by_link, name="tv_by_link"),
    path("tables/<id:table_id>/substitute", tables.substitute, name="substitute"),
    path("tables/<id:table_id>/card", paper.card, name="score_card"),
    path("tables/<id:table_id>/card/enter", paper.enter_table, name="card_enter"),
    path("rounds/<id:round_id>/cards", paper.cards, name="score_cards"),
    path("rounds/<id:round_id>/cards/enter", paper.enter, name="card_entry"),
]
