"""The models and their migrations agree: moving modules between rooms
needs no migration, so a database made before the move keeps working."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command


@pytest.mark.django_db
def test_the_models_need_no_migration_that_is_not_written() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_the_tables_keep_their_apps_labels() -> None:
    # A model's table is named by its app's label: a room that took a model
    # under another label would need its tables renamed.
    assert {
        m._meta.db_table for m in apps.get_app_config("scorekeeper").get_models()
    } == {
        "scorekeeper_game",
        "scorekeeper_gameevent",
    }
    assert list(apps.get_app_config("web").get_models()) == []
