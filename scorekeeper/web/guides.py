"""The guides in ``docs/`` as pages of the app, rendered from the same
markdown files a reader opens in the repository (the `markdown` package:
tables, fenced code, and heading ids made as GitHub makes them, so a
link's anchor is the same in the repository and in the app).

In the app a guide's own pictures are served beside its page (a relative
``league-desk.png`` is asked for there); a link to another guide the app
serves (the players' and the organizers') opens its page, at the same
heading; a link to any other file of the repository (the operators' and
contributors' guides, a test) is kept as its words only.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from markdown.extensions import Extension
from markdown.extensions.toc import TocExtension
from markdown.treeprocessors import Treeprocessor

# A picture a guide shows: docs/<name>.png, its name made of these only.
PICTURE = re.compile(r"[a-z0-9][a-z0-9-]*\.png")
WIDE = 600  # px: wider than a phone's screen
_NOT_IN_A_SLUG = re.compile(r"[^\w\- ]")
# The guides the app serves as pages (web/guide_pages.py): their file and the
# page's URL name.
IN_THE_APP = {"players.md": "player_guide", "organizers.md": "organizer_guide"}


def docs_folder() -> Path:
    return Path(settings.BASE_DIR) / "docs"


def heading_slug(text: str, separator: str = "-") -> str:
    """A heading's anchor as GitHub makes it: lower case, every character
    but letters, digits, spaces, hyphens and underscores dropped, each
    space a hyphen ("Every player's own phone" -> every-players-own-phone)."""
    return _NOT_IN_A_SLUG.sub("", text.strip().lower()).replace(" ", separator)


class _LinksInTheApp(Treeprocessor):
    """A link to another guide the app serves opens its page; a link to
    any other file of the repository (a guide for operators, a test) has
    no page in the app: its words stay, the link goes."""

    def run(self, root: etree.Element) -> None:
        for link in root.iter("a"):
            href = link.get("href", "")
            if href.startswith(("/", "#", "http://", "https://", "mailto:")):
                continue
            name, _, anchor = href.partition("#")
            if name in IN_THE_APP:
                page = reverse(IN_THE_APP[name])
                link.set("href", f"{page}#{anchor}" if anchor else page)
            else:
                link.tag = "span"
                link.attrib.clear()


class _PicturesSized(Treeprocessor):
    """Each picture with its size (no jump while it loads) and its kind: a
    phone's screen (``shot-phone``, shown at a phone's width and, when it
    is a whole long page, its top only) or a wide one (``shot-wide``)."""

    def run(self, root: etree.Element) -> None:
        for image in root.iter("img"):
            path = guide_picture(image.get("src", ""))
            if path is None:
                continue
            width, height = png_size(path)
            image.set("width", str(width))
            image.set("height", str(height))
            image.set("class", "shot-wide" if width > WIDE else "shot-phone")


class _InTheApp(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (markdown's name)
        md.treeprocessors.register(_LinksInTheApp(md), "links_in_the_app", 1)
        md.treeprocessors.register(_PicturesSized(md), "pictures_sized", 2)


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR, bytes 16-24)."""
    with path.open("rb") as picture:
        header = picture.read(24)
    return int.from_bytes(header[16:20]), int.from_bytes(header[20:24])


def render_guide(text: str, *, in_the_app: bool = True) -> str:
    """The guide's markdown as HTML (no inline style or script: the site's
    Content-Security-Policy allows neither)."""
    extensions: list[str | Extension] = [
        "tables",
        "fenced_code",
        TocExtension(slugify=heading_slug, permalink=False),
    ]
    if in_the_app:
        extensions.append(_InTheApp())
    return markdown.markdown(text, extensions=extensions, output_format="html")


@functools.cache
def _rendered(path: Path, modified: float) -> str:
    return render_guide(path.read_text(encoding="utf-8"))


def guide_html(name: str) -> str:
    """docs/<name>.md rendered, once per process and version of the file."""
    path = docs_folder() / f"{name}.md"
    return _rendered(path, path.stat().st_mtime)


def guide_picture(name: str) -> Path | None:
    """docs/<name> when it is one of the guides' pictures, else None (no
    other file of the checkout is ever served)."""
    if not PICTURE.fullmatch(name):
        return None
    path = docs_folder() / name
    return path if path.is_file() else None
