"""The README and the guides as a reader's browser sees them: rendered by
the app's own renderer (without its in-app changes), their links, their
pictures and their headings' anchors."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from scorekeeper.web.guides import heading_slug, render_guide

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def guide_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def has_every_section(page: str, name: str) -> None:
    """``page`` holds each section's heading of docs/<name> as the app
    renders it, with its anchor (as GitHub makes it)."""
    lines = (DOCS / name).read_text().splitlines()
    headings = [
        f'<h2 id="{heading_slug(line[3:])}">' for line in lines if line[:3] == "## "
    ]
    assert len(headings) >= 8, f"{name}: its sections were not found"
    for heading in headings:
        assert heading in page, heading


@dataclass
class Page(HTMLParser):
    links: list[str] = field(default_factory=list)
    pictures: list[str] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.links.append(found["href"] or "")
        if tag == "img" and found.get("src"):
            self.pictures.append(found["src"] or "")
        if found.get("id"):
            self.anchors.add(found["id"] or "")


@functools.cache
def read(path: Path) -> Page:
    page = Page()
    page.feed(render_guide(path.read_text(encoding="utf-8"), in_the_app=False))
    return page
