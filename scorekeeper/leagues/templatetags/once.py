"""``{% once_field %}``: the hidden one-time key of a create form
(``scorekeeper.leagues.repeats``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scorekeeper.leagues.repeats import FIELD, new_key

register = template.Library()


@register.simple_tag
def once_field() -> SafeString:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
