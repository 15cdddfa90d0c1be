"""A crawler of the site as an organizer sees it: every link and form of
every page it reaches from the leagues (through Django's test client), so
that a test can feed each one odd values."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

from django.test import Client
from django.urls import Resolver404, resolve

# Never followed: signing out ends the crawl's session; the admin and the
# static files are not the organizer's pages.
SKIPPED = ("/accounts/logout", "/admin/", "/static/")


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


class _Page(HTMLParser):
    """The links and forms of one page (fields with their values as sent)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "a" and "href" in found:
            self.links.append(found["href"])
        elif tag == "form":
            action = found.get("action") or self.url
            self._form = Form(action, found.get("method", "get").lower())
            self.forms.append(self._form)
        elif self._form is not None:
            self._field(tag, found, self._form)

    def _field(self, tag: str, found: dict[str, str], form: Form) -> None:
        name = found.get("name", "")
        if not name or name == "csrfmiddlewaretoken":
            return
        if tag == "input" and found.get("type") == "file":
            form.files.append(name)
        elif tag in ("input", "button", "textarea"):
            form.fields.setdefault(name, found.get("value", ""))
        elif tag == "select":
            self._select = name
            form.fields.setdefault(name, "")
        elif tag == "option" and self._select and not form.fields[self._select]:
            form.fields[self._select] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = ""


def page_forms(url: str, html: str) -> list[Form]:
    """The forms of a page (at ``url``), each with its fields as filled in."""
    page = _Page(url)
    page.feed(html)
    return page.forms


def route_of(url: str) -> str:
    """The URL pattern's name (pages of one kind are crawled once or twice,
    not once per id)."""
    try:
        return resolve(urlsplit(url).path).url_name or ""
    except Resolver404:
        return ""


def crawl(
    client: Client, start: list[str], per_route: int = 4
) -> tuple[dict[str, str], list[Form]]:
    """Every page reachable from ``start`` (``per_route`` of each kind, each
    query shape), and every form on them (one per action's kind and fields)."""
    pages: dict[str, str] = {}
    forms: dict[tuple[str, str, tuple[str, ...]], Form] = {}
    seen_routes: dict[tuple[str, tuple[str, ...]], int] = {}
    queue = deque(start)
    while queue:
        url = queue.popleft()
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver") or url in pages:
            continue
        local = parts.path + (f"?{parts.query}" if parts.query else "")
        shape = (route_of(local), tuple(sorted(k for k, _ in parse_qsl(parts.query))))
        if local.startswith(SKIPPED) or not shape[0] or local in pages:
            continue
        if seen_routes.get(shape, 0) >= per_route:
            continue
        seen_routes[shape] = seen_routes.get(shape, 0) + 1
        response = client.get(local)
        pages[local] = response.get("Content-Type", "")
        if response.status_code in (301, 302):
            queue.append(response["Location"])
        if response.status_code != 200 or "text/html" not in pages[local]:
            continue
        page = _Page(local)
        page.feed(response.content.decode())
        queue.extend(link.split("#")[0] for link in page.links if link.strip("#"))
        for form in page.forms:
            key = (route_of(form.action), form.method, tuple(sorted(form.fields)))
            if key[0] and not form.action.startswith(SKIPPED):
                forms.setdefault(key, form)
    return pages, list(forms.values())
