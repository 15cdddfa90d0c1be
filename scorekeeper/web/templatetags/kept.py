"""``{% asset "app.css" %}`` and ``{% address "home" %}``: a static file's
address and a page's address (by its URL name, no arguments), each worked
out once per process (and ``kept_reverse``, any page's address by its
name and arguments, for compiled templates). Every page's head and header asks for ten of them,
and each ``{% static %}`` or ``{% url %}`` took 10-20 µs: a tenth of a game
page. They change only with the settings (a new deploy restarts the
process; a test that changes the settings clears them)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.urls import reverse

register = template.Library()


@register.simple_tag
@lru_cache(maxsize=256)
def asset(path: str) -> str:
    return static(path)


@register.simple_tag
@lru_cache(maxsize=256)
def address(name: str) -> str:
    return reverse(name)


@lru_cache(maxsize=10_000)
def kept_reverse(
    name: str,
    args: tuple[Any, ...],
    kwargs: tuple[tuple[str, Any], ...],
    where: tuple[Any, ...],
) -> str:
    """``reverse(name, args, kwargs)``, kept: ``where`` names what else it
    reads (the URLconf, script prefix and language), and the arguments
    must be values written alike when equal (ints, strings, UUIDs: 1,
    1.0 and True are equal and written apart). Compiled ``{% url %}``
    asks for some 160 on a season page."""
    return reverse(name, args=args, kwargs=dict(kwargs))


@receiver(setting_changed)
def _forget(**kwargs: Any) -> None:
    asset.cache_clear()
    address.cache_clear()
    kept_reverse.cache_clear()
