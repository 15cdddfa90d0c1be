"""Nothing of the long README was lost: each of its headings is listed in
docs/moved.md with its new home, and that home exists."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.docs.reading import DOCS, ROOT, read

MOVED = DOCS / "moved.md"
# The last commit with the whole README (the guides were made from it).
LONG_README = "32b7dc5"
ROW = re.compile(r"^\| (?P<old>[^|]+?) \| \[[^]]*\]\((?P<home>[^)]+)\) \|$")


def homes() -> dict[str, str]:
    """Old heading -> new home, from moved.md's first table."""
    table = MOVED.read_text().split("\n\n| old heading | new home |", 1)[1]
    rows = table.split("\n\n", 1)[0].splitlines()[2:]
    found = {}
    for row in rows:
        match = ROW.match(row)
        assert match, f"not a row of the table: {row}"
        found[match["old"]] = match["home"]
    return found


def headings(markdown: str) -> list[str]:
    """A markdown text's headings, not counting lines inside code blocks."""
    found, fenced = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            found.append(match[1].strip())
    return found


def test_every_new_home_exists() -> None:
    for old, home in homes().items():
        path, _, anchor = home.partition("#")
        target = (DOCS / path).resolve()
        assert target.is_file(), f"{old}: {path} is not a file"
        assert anchor in read(target).anchors, f"{old}: no #{anchor} in {path}"


def test_every_heading_of_the_long_readme_has_a_home() -> None:
    try:
        long_readme = subprocess.run(
            ["git", "show", f"{LONG_README}:README.md"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip(
            f"the long README ({LONG_README}) is not in this checkout's history"
        )
    old = headings(long_readme)
    assert len(old) == 16  # the shell comment in its code block is not one
    assert set(old) <= set(homes()), set(old) - set(homes())


def test_headings_in_code_blocks_are_not_headings() -> None:
    text = "# Title\n\n```sh\n# a comment\n```\n\n## Next\n"
    assert headings(text) == ["Title", "Next"]
