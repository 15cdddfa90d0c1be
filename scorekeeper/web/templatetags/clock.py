"""``{{ when|clock }}``: a time as every page writes it, "Fri 27 Nov 2026,
20:00", in the zone the page is shown in (the server's UTC, named so, or a
league's own); ``{{ when|clock:"time" }}``: the time of day alone, "20:00",
where the page already says the day (a night's rounds). The history's
times (``tablewords.clock``) and the phone's banner (static/offline.js)
write the same shape."""

from __future__ import annotations

from datetime import date, datetime

from django import template
from django.utils import dateformat, timezone

register = template.Library()

DAY_AND_TIME = "D j M Y, H:i"
TIME = "H:i"


@register.filter(expects_localtime=True)
def clock(value: datetime | date | None, part: str = "") -> str:
    if value is None or value == "":
        return ""
    text = dateformat.format(value, TIME if part == "time" else DAY_AND_TIME)
    return f"{text} UTC" if timezone.get_current_timezone_name() == "UTC" else text
