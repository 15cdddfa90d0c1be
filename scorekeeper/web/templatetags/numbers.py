"""``{{ total|signed }}``: a number as every page prints it, a true minus
sign for a negative (``scorekeeper.tablewords.signed``, the phone's too)."""

from __future__ import annotations

from django import template

from scorekeeper import tablewords

register = template.Library()
register.filter("signed", tablewords.signed)
