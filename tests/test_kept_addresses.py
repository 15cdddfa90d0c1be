"""``{% asset %}`` and ``{% address %}``: the addresses ``{% static %}`` and
``{% url %}`` give, worked out once, and again after the settings change."""

from __future__ import annotations

from django.template import Context, Template
from django.templatetags.static import static
from django.test import override_settings
from django.urls import reverse

HEAD = Template('{% load kept %}{% asset "app.css" %} {% address "home" %}')


def test_it_gives_what_static_and_url_give() -> None:
    expected = f"{static('app.css')} {reverse('home')}"
    assert HEAD.render(Context()) == expected
    assert HEAD.render(Context()) == expected  # kept: the same again


def test_it_follows_a_change_of_the_settings() -> None:
    before = HEAD.render(Context())
    with override_settings(STATIC_URL="/elsewhere/"):
        assert HEAD.render(Context()).startswith("/elsewhere/app.css ")
    assert HEAD.render(Context()) == before
