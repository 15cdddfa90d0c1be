"""Every link of the README and the guides leads somewhere: a file of the
project, a heading of a guide, or a page of the app (by Django's own
resolve()); every picture they show is there."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.urls import Resolver404, resolve

from tests.docs.reading import DOCS, ROOT, guide_files, read

TEMPLATES = ROOT / "templates"


def _broken(source: Path, href: str) -> str | None:
    """Why ``href`` in ``source`` leads nowhere (None: it leads somewhere)."""
    parts = urlsplit(href)
    if parts.scheme in ("http", "https", "mailto"):
        return None  # outside the project: not followed here
    anchor = unquote(parts.fragment)
    if href.startswith("/"):
        return _broken_in_the_app(parts.path, anchor)
    target = (source.parent / unquote(parts.path)).resolve() if parts.path else source
    if not target.is_relative_to(ROOT):
        return f"{href}: outside the project"
    if not target.exists():
        return f"{href}: no such file"
    if anchor and anchor not in read(target).anchors:
        return f"{href}: no heading #{anchor} in {target.relative_to(ROOT)}"
    return None


def _broken_in_the_app(path: str, anchor: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return f"{path}: no page of the app"
    in_the_guide = read(DOCS / "organizers.md").anchors
    if anchor and match.url_name == "organizer_guide" and anchor not in in_the_guide:
        return f"{path}#{anchor}: no such heading in the organizers' guide"
    return None


@pytest.mark.parametrize("source", guide_files(), ids=lambda path: path.name)
def test_every_link_leads_somewhere(source: Path) -> None:
    page = read(source)
    assert page.links, "a guide with no link at all: is it read right?"
    broken = [why for href in page.links if (why := _broken(source, href))]
    assert broken == []


@pytest.mark.parametrize("source", guide_files(), ids=lambda path: path.name)
def test_every_picture_is_there(source: Path) -> None:
    missing = [
        src
        for src in read(source).pictures
        if not (source.parent / unquote(src)).resolve().is_file()
    ]
    assert missing == []


def test_the_app_help_links_open_a_heading_of_the_guide() -> None:
    """The league pages' Help links (templates/leagues/) point into the
    organizers' guide: each anchor they name is one of its headings."""
    named = {
        anchor
        for template in (TEMPLATES / "leagues").glob("*.html")
        for anchor in re.findall(
            r"\{% url 'organizer_guide' %\}#([\w-]+)", template.read_text()
        )
    }
    assert named, "the league pages link into the guide"
    assert named <= read(DOCS / "organizers.md").anchors


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    """The checks above can fail: a missing file, heading or page is named."""
    guide = DOCS / "players.md"
    assert _broken(guide, "nowhere.md") == "nowhere.md: no such file"
    assert _broken(guide, "organizers.md#no-such-step") is not None
    assert _broken(guide, "#no-such-heading") is not None
    assert _broken(guide, "/no/such/page") == "/no/such/page: no page of the app"
    assert _broken(guide, "/leagues/help/#no-such-step") is not None
    assert _broken(guide, "organizers.md#substitutes") is None
    assert _broken(guide, "/trick") is None
