"""The app as a phone installs it: the service worker (at the root, so it
keeps every page a table needs), the web manifest, the list of files the
offline engine loads, and the page shown for what works only online."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from scorekeeper.rules.variants import PRESETS
from scorekeeper.web.offline_files import (
    ENGINE_FILES,
    ENGINE_PREFIX,
    IDB_PREFIX,
    PYODIDE_PREFIX,
    offline_missing,
)

THEME = "#0b5d3b"  # the icon's green
# What every page needs, kept by the service worker when it installs.
SHELL = (
    "app.css",
    "favicon.svg",
    "icon-192.png",
    "icon-512.png",
    "retry.js",
    "record.js",
    "table.js",  # the live auction falls back to the form with no signal
    "offline.js",
    "offline/engine.js",
    "offline/draw.js",
    "offline/idb/umd.js",
    "offline/store.js",
    "offline/worker.js",
    "phone_games.js",
    "new_game.js",  # the new-game form chooses its game's id (offline too)
    "django_htmx/htmx-2.min.js",  # as {% htmx_script %} writes it
)


def _shell() -> list[str]:
    return [static(name) for name in SHELL]


# What Pyodide itself loads, by these names, beside the module imported.
LOADED_BY_NAME = (
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)


def engine_urls() -> dict[str, object]:
    """Where the phone fetches Pyodide and the engine's source from: the
    module by its hashed name, what it loads itself by the plain names it
    asks for (beside it), the standard library the engine imports (passed
    to Pyodide by its hashed name) and the engine's source by hashed names.
    ``runtime`` is what the service worker keeps."""
    module = static(f"{PYODIDE_PREFIX}/pyodide.mjs")
    index = static(f"{PYODIDE_PREFIX}/pyodide-lock.json").rsplit("/", 1)[0] + "/"
    stdlib = static(f"{PYODIDE_PREFIX}/python_stdlib.zip")
    return {
        "pyodide": module,
        "index": index,
        "stdlib": stdlib,
        "runtime": [module, stdlib, *(index + name for name in LOADED_BY_NAME)],
        "source": {name: static(f"{ENGINE_PREFIX}/{name}") for name in ENGINE_FILES},
    }


def _pages() -> list[str]:
    """The pages a phone keeps when the worker installs: the start page
    (this phone's games), the new-game form (a game can be started with no
    connection), and the rules. The worker keeps the "No connection" page
    and the page of a game started offline itself."""
    rules = [reverse("rules_detail", args=[name]) for name in PRESETS]
    return [
        reverse("home"),
        reverse("game_new"),
        reverse("rules"),
        *rules,
        reverse("trick"),
    ]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: at the root, so its scope is the whole site; never cached
    by the browser (a new version is picked up at the next page open, and
    waits for the table's "Update now"). With OFFLINE_OFF, or on a server
    without the phone's engine (set up without Node.js), the worker that
    removes itself and its caches."""
    if settings.OFFLINE_OFF or offline_missing():
        return _script(render_to_string("offline/sw_off.js", {"version": "off"}))
    shell = _shell()
    pages = _pages()
    version = hashlib.sha256(
        json.dumps([shell, pages, engine_urls()]).encode()
    ).hexdigest()
    body = render_to_string(
        "offline/sw.js",
        {
            "shell_json": json.dumps(shell),
            "pages_json": json.dumps(pages),
            "idb_json": json.dumps(static(f"{IDB_PREFIX}/umd.js")),
            "version": version[:12],
        },
    )
    return _script(body)


def _script(body: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    document = {
        "name": "Pepper scorekeeper",
        "short_name": "Pepper",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {"src": static("icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(document, content_type="application/manifest+json")
    return response


@require_GET
def engine_files(request: HttpRequest) -> JsonResponse:
    if offline_missing():
        raise Http404("offline play is off on this server")
    return JsonResponse(engine_urls())


@require_GET
def no_connection(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page that cannot work offline."""
    return render(request, "offline/no_connection.html")


@require_GET
def offline_game(request: HttpRequest) -> HttpResponse:
    """The page of a game this phone started with no connection, kept by
    the service worker and shown for such a game until the server has it:
    the phone's engine draws it from the game's setup in the outbox."""
    return render(request, "offline/game.html")


def offline_switch(request: HttpRequest) -> dict[str, object]:
    """Pages register no service worker while the kill switch is on, nor
    on a server without the phone's engine, and then load none of the
    offline scripts (``offline_unbuilt``: why, said on the home page)."""
    missing = offline_missing()
    return {
        "offline_off": settings.OFFLINE_OFF or bool(missing),
        "offline_unbuilt": missing,
    }
