"""Pages reach a phone on a slow link compressed (gzip) when its browser
says it takes them so, and plain otherwise; static files are WhiteNoise's
to answer, with its own compressed copies."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/games/new", "/rules/classic/", "/help/"])
def test_a_page_is_gzipped_for_a_browser_that_takes_it(
    client: Client, url: str
) -> None:
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) < len(plain.content) / 2
    assert b"</html>" in gzip.decompress(packed.content)


def test_a_static_file_is_whitenoises_to_answer_not_gzipped_again(
    client: Client,
) -> None:
    """WhiteNoise answers a static file before the gzip step sees it: its
    own brotli copy where it has one (tests/offline checks Pyodide's),
    never a copy compressed again at each request."""
    home = client.get("/").content.decode()
    css = home[home.index("/static/app.") :].split('"')[0]
    answer = client.get(css, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert answer.status_code == 200
    assert answer.get("Content-Encoding") != "gzip"
