"""Every picture in docs/ is made by a browser test, which writes it there
when asked (UPDATE_DOCS=1): none is drawn by hand, none is left behind."""

from __future__ import annotations

import re

from tests.docs.reading import DOCS, ROOT, guide_files, read


def _written_by_tests() -> set[str]:
    return {
        name
        for test in (ROOT / "tests" / "e2e").glob("*.py")
        for name in re.findall(r'DOCS / "([a-z0-9-]+\.png)"', test.read_text())
    }


def test_every_picture_of_the_guides_is_made_by_a_browser_test() -> None:
    assert {path.name for path in DOCS.glob("*.png")} <= _written_by_tests()


def test_every_picture_a_test_makes_is_shown_by_a_guide() -> None:
    shown = {
        src.rsplit("/", 1)[-1] for path in guide_files() for src in read(path).pictures
    }
    assert _written_by_tests() <= shown
