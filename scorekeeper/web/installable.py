"""The app as a phone installs it: the service worker (at the root, so it
keeps every page a table needs), the web manifest, the list of files the
offline engine loads, and the page shown for what works only online."""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from scorekeeper.web.offline_files import ENGINE_FILES, ENGINE_PREFIX, PYODIDE_PREFIX

THEME = "#0b5d3b"  # the icon's green
# What every page needs, kept by the service worker when it installs.
SHELL = (
    "app.css",
    "favicon.svg",
    "icon-192.png",
    "icon-512.png",
    "retry.js",
    "record.js",
    "offline.js",
    "offline/engine.js",
    "offline/draw.js",
    "offline/store.js",
    "offline/worker.js",
    "django_htmx/htmx-2.min.js",  # as {% htmx_script %} writes it
)


def _shell() -> list[str]:
    return [static(name) for name in SHELL]


# What Pyodide itself loads, by these names, beside the module imported.
LOADED_BY_NAME = (
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def engine_urls() -> dict[str, object]:
    """Where the phone fetches Pyodide and the engine's source from: the
    module by its hashed name, what it loads itself by the plain names it
    asks for (beside it), the engine's source by hashed names."""
    module = static(f"{PYODIDE_PREFIX}/pyodide.mjs")
    index = static(f"{PYODIDE_PREFIX}/pyodide-lock.json").rsplit("/", 1)[0] + "/"
    return {
        "pyodide": module,
        "index": index,
        "runtime": [module, *(index + name for name in LOADED_BY_NAME)],
        "source": {name: static(f"{ENGINE_PREFIX}/{name}") for name in ENGINE_FILES},
    }


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: at the root, so its scope is the whole site; never cached
    by the browser (a new version is picked up at the next page open)."""
    shell = _shell()
    version = hashlib.sha256(json.dumps([shell, engine_urls()]).encode()).hexdigest()
    body = render_to_string(
        "offline/sw.js",
        {"shell_json": json.dumps(shell), "version": version[:12]},
    )
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
    return JsonResponse(engine_urls())


@require_GET
def no_connection(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page that cannot work offline."""
    return render(request, "offline/no_connection.html")
