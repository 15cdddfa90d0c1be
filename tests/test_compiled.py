"""Compiled rendering (scorekeeper.web.compiled) gives what Django's
template engine gives, for every construct it translates, and refuses
what it does not translate."""

from __future__ import annotations

import datetime
import gc
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.template import Context, Engine, TemplateDoesNotExist, engines
from django.template.loader import get_template
from django.test import override_settings
from django.urls import path, set_script_prefix
from django.utils.functional import lazy
from django.utils.safestring import mark_safe
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.web import compiled
from scorekeeper.web.compiled import Unsupported, compile_template, render_compiled
from tests.hypothesis_profiles import examples


class Silent(Exception):
    silent_variable_failure = True


@dataclass
class Player:
    name: str
    seat: int

    def greeting(self) -> str:
        return f"Hello <{self.name}>"

    def needs(self, argument: int) -> str:
        return "never shown"

    def delete(self) -> str:
        return "deleted"

    delete.alters_data = True  # type: ignore[attr-defined]

    @property
    def broken(self) -> str:
        raise AttributeError("a property that fails")

    @property
    def hushed(self) -> str:
        raise Silent()


class NotCalled:
    do_not_call_in_templates = True
    label = "kept as it is"


def _pairs() -> Iterator[tuple[str, int]]:
    yield ("a", 1)
    yield ("b", 2)


CONTEXT: dict[str, Any] = {
    "text": "Ann & Cat <b>\"quoted\"</b> 'single'",
    "safe": mark_safe("<em>kept</em>"),
    "lazy": lazy(lambda: "lazy & <text>", str)(),
    "number": 1234567,
    "negative": -6,
    "fraction": 1234.5,
    "yes": True,
    "no": False,
    "nothing": None,
    "empty": "",
    "when": datetime.datetime(2026, 11, 25, 22, 30, tzinfo=datetime.UTC),
    "day": datetime.date(2026, 11, 25),
    "items": ["one", "<two>", "three"],
    "numbers": [3, 1, 2],
    "pairs": [("a", 1), ("b", 2)],
    "triples": [("a", 1, True)],
    "mapping": {"key": "value", "items": "a key named items", "nested": {"deep": 7}},
    "scores": {"Ann": 12, "Bob": -6},
    "player": Player("Bob", 2),
    "players": [Player("Ann", 0), Player("Bob <1>", 1)],
    "not_called": NotCalled,
    "make": lambda: "made <here>",
    "generator": _pairs,
    "role": "edit",
    "game_id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "reason": "a <late> fix",
    "partner": "games/_closed_reason.html",
    "forloop": {"outer": "a forloop of the context's own"},
}

RENDERED = [
    "plain text, nothing else",
    "{{ text }}|{{ safe }}|{{ lazy }}|{{ empty }}|{{ nothing }}",
    "{{ number }} {{ negative }} {{ fraction }} {{ yes }} {{ no }}",
    "{% load l10n %}{% localize off %}{{ number }} {{ fraction }}{% endlocalize %}",
    "{% load l10n %}{% localize on %}{{ number }} {{ fraction }}{% endlocalize %}",
    "{{ when }} {{ day }} {{ when|date:'Y-m-d H:i' }}",
    "{{ items }} {{ items.1 }} {{ items.9 }} {{ mapping.key }} {{ mapping.items }}",
    "{{ mapping.nested.deep }} {{ mapping.missing }} {{ missing }} {{ missing.deeper }}",
    "{{ player.name }} {{ player.greeting }} {{ player.needs }} {{ player.delete }}",
    "{{ player.hushed }}|{{ not_called.label }}|{{ make }}",
    "{{ True }} {{ False }} {{ None }} {{ 'a literal' }} {{ 42 }}",
    "{{ nothing|default_if_none:'-' }} {{ items|join:', ' }} {{ text|lower }}",
    "{{ number|add:negative }} {{ text|length }} {{ safe|upper }} {{ text|safe }}",
    "{{ safe|slice:':4' }} {{ text|slice:':4' }} {{ safe|center:'20' }}",
    "{{ empty|default:player.hushed }}|{{ empty|default:mapping.nested.deep }}"
    "{% for p in players %}{{ empty|default:p.name }}{{ p.seat|add:forloop.counter }}{% endfor %}",
    "{% if yes %}yes{% endif %}{% if no %}no{% elif nothing %}nothing{% else %}else{% endif %}",
    "{% if missing %}m{% elif missing.deeper %}d{% else %}neither{% endif %}",
    "{% if yes and text %}1{% endif %}{% if no or empty %}2{% endif %}{% if not no %}3{% endif %}",
    "{% if role == 'edit' or role == 'correct' %}edit{% endif %}",
    "{% if yes and no %}and{% endif %}{% if no and missing %}and{% endif %}{% if empty or no %}or{% endif %}",
    "{% if number > 5 %}>{% endif %}{% if number < 5 %}<{% endif %}{% if negative <= -6 %}<={% endif %}",
    "{% if 'one' in items %}in{% endif %}{% if 'x' not in items %}not in{% endif %}",
    "{% if nothing is None %}is{% endif %}{% if yes is not None %}is not{% endif %}",
    "{% if number != 3 %}!={% endif %}{% if text in 5 %}never{% else %}error is False{% endif %}",
    "{% if items|length > 2 %}long{% endif %}{% if not missing %}absent{% endif %}",
    "{% for item in items %}{{ forloop.counter }}:{{ item }}{% if not forloop.last %}, {% endif %}{% endfor %}",
    "{% for n in numbers %}{{ forloop.counter0 }}{{ forloop.revcounter }}{{ forloop.revcounter0 }}{{ forloop.first }}{{ forloop.length }}{% endfor %}",
    "{% for n in numbers %}{{ forloop.parentloop.outer }}{% endfor %}",
    "{% for n in numbers reversed %}{{ n }}{% endfor %}|{% for n in missing %}{{ n }}{% empty %}none{% endfor %}",
    "{% for p in players %}{% for i in items %}{{ forloop.parentloop.counter }}.{{ forloop.counter }} {{ p.name }} {% endfor %}{% endfor %}",
    "{% for key, value in pairs %}{{ key }}={{ value }};{% endfor %}{% for k, v in generator %}{{ k }}{{ v }}{% endfor %}",
    "{% for key, value in scores.items %}{{ key }}:{{ value }} {% endfor %}",
    "{% for x in nothing %}x{% empty %}empty{% endfor %}{% for c in text %}{% endfor %}",
    "before{% comment %}not shown {{ text }}{% endcomment %}after{# nor this #}",
    "{% partialdef shown inline %}[{{ text }}]{% endpartialdef %}{% partialdef hidden %}never{% endpartialdef %}{% partial hidden %}",
    "{% with word=text|upper %}{{ word }}{% endwith %}{% for p in players %}{% with n=p.name %}{{ n }}{% endwith %}{% endfor %}",
    "{% csrf_token %}|{% include 'games/_closed_reason.html' %}",
    "{% include 'games/_closed_reason.html' with reason=text %}{{ reason }}",
    "{% include 'games/_closed_reason.html' with reason=text only %}",
    "{% include partner %}{% for p in players %}{% include partner with reason=p.name %}{% endfor %}",
    "{% url 'home' %} {% url 'game' game_id %} {% url 'game' game_id=game_id %}",
    "{% for p in players %}{% url 'player' p.seat %};{% endfor %}",
    "{% partialdef part %}[{{ text }}]{% endpartialdef %}{% partial part %}{% with text=number %}{% partial part %}{% endwith %}",
]


def _both(source: str, scope: dict[str, Any] = CONTEXT) -> tuple[str, str]:
    """``source`` rendered compiled, then by Django, each over a copy of
    ``scope``."""
    template = _template(source)
    return compile_template(template.template)(dict(scope)), template.render(
        dict(scope)
    )


def _template(source: str) -> Any:
    """A template made from ``source`` by the default engine: Django's
    backend wrapper (``render``) and the template it wraps (``template``)."""
    return engines["django"].from_string(source)


@pytest.mark.parametrize("source", RENDERED)
def test_each_construct_renders_as_django_renders_it(source: str) -> None:
    by_compiled, by_django = _both(source)
    assert by_compiled == by_django


@override_settings(USE_THOUSAND_SEPARATOR=True, NUMBER_GROUPING=3)
def test_numbers_are_localized_as_django_localizes_them() -> None:
    by_compiled, expected = _both(RENDERED[2] + RENDERED[3] + RENDERED[4])
    assert "1,234,567" in expected  # localized where Django localizes
    assert by_compiled == expected


@override_settings(TIME_ZONE="America/Chicago")
def test_times_are_shown_in_the_time_zone_as_django_shows_them() -> None:
    by_compiled, expected = _both(
        "{{ when }} {{ when|date:'Y-m-d H:i' }} {{ when|time }}"
    )
    assert "2026-11-25 16:30" in expected  # 22:30 UTC, in Chicago
    assert by_compiled == expected


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("{% url 'game' missing %}", Exception),
        ("{{ player.broken }}", AttributeError),
        ("{{ number|add:missing }}", Exception),
        ("{% for a, b in triples %}{% endfor %}", ValueError),
        ("{% for key, value in mapping.items %}{% endfor %}", ValueError),
        ("{% for n in number %}{% endfor %}", TypeError),
    ],
)
def test_an_error_is_raised_where_django_raises_it(
    source: str, error: type[Exception]
) -> None:
    template = _template(source)
    with pytest.raises(error) as by_django:
        template.render(dict(CONTEXT))
    with pytest.raises(error) as by_compiled:
        compile_template(template.template)(dict(CONTEXT))
    assert type(by_compiled.value) is type(by_django.value)


@pytest.mark.parametrize(
    "source",
    [
        "{% for item in items %}{% cycle 'odd' 'even' %}{% endfor %}",
        "{% url 'home' as address %}{{ address }}",
        "{% now 'Y' %}",
        "{% autoescape off %}{{ text }}{% endautoescape %}",
    ],
)
def test_a_tag_it_does_not_translate_is_refused_by_name(source: str) -> None:
    with pytest.raises(Unsupported, match="does not translate"):
        compile_template(_template(source).template)


@pytest.mark.parametrize(
    "source",
    [
        "{% if nothing %}{% include 'no/such/template.html' %}{% endif %}ok",
        "{% if nothing %}{% partial nowhere %}{% endif %}ok",
        "{% if nothing %}{% include '_base.html' %}{% endif %}ok",  # it extends
        "{% partialdef node %}[{% if number > 0 %}{% with number=number|add:-1 %}"
        "{% partial node %}{% endwith %}{% endif %}]{% endpartialdef %}"
        "{% with number=2 %}{% partial node %}{% endwith %}",
    ],
)
def test_what_an_include_names_is_found_when_rendered_as_django_finds_it(
    source: str,
) -> None:
    """A missing template, one that extends another, or a partial that
    includes itself: Django looks only when the node is rendered."""
    by_compiled, by_django = _both(source)
    assert by_compiled == by_django


def test_a_missing_template_fails_where_django_fails() -> None:
    template = _template("{% include 'no/such/template.html' %}")
    with pytest.raises(TemplateDoesNotExist):
        template.render({})
    with pytest.raises(TemplateDoesNotExist):
        compile_template(template.template)({})


def test_an_include_that_includes_itself_through_a_loader_that_keeps_nothing() -> None:
    engine = Engine(
        loaders=[
            (
                "django.template.loaders.locmem.Loader",
                {
                    "tree.html": "{% partialdef node %}[{% if n %}{% include "
                    "'tree.html#node' with n=n|add:-1 %}{% endif %}]{% endpartialdef %}"
                },
            )
        ]
    )
    template = engine.from_string("{% include 'tree.html#node' with n=2 %}")
    assert compile_template(template)({}) == template.render(Context({})) == "[[[]]]"


class ShortRow:
    """Says it holds two values, gives one."""

    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[str]:
        return iter(["only one"])


def test_a_loop_variable_the_item_gives_no_value_for_is_unbound() -> None:
    source = (
        "{% for text, number in rows %}[{{ text }}|{{ number }}|{{ number|add:1 }}"
        "{% include 'games/_closed_reason.html' with reason=number %}]{% endfor %}"
    )
    by_compiled, by_django = _both(source, dict(CONTEXT, rows=[ShortRow()]))
    assert "only one" in by_django
    assert by_compiled == by_django


def test_a_kept_function_does_not_keep_its_template_alive() -> None:
    template = _template("{% csrf_token %}{% include partner only %}{{ text }}")
    compiled._KEPT[template.template] = compile_template(template.template)
    before = len(compiled._KEPT)
    del template
    gc.collect()
    assert len(compiled._KEPT) == before - 1


def test_a_template_that_extends_another_is_refused() -> None:
    source = "{% extends '_base.html' %}{% block main %}x{% endblock %}"
    with pytest.raises(Unsupported):
        compile_template(_template(source).template)


@pytest.mark.parametrize(
    "name",
    [
        "games/game_detail.html#lean",
        "games/_hand_row.html",
        "leagues/_season_numbers.html",
        "leagues/public.html#numbers",
    ],
)
def test_the_hot_templates_compile(name: str) -> None:
    compile_template(_loaded(name))


def test_a_difference_from_django_is_an_error_in_the_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The suite's guard: with COMPILED_TEMPLATES_CHECK on, every compiled
    render is compared with Django's, so no test passes over a difference."""
    name = "games/_hand_row.html"
    render_compiled(name, _row())  # compiled and kept
    monkeypatch.setitem(compiled._KEPT, _loaded(name), lambda scope: "something else")
    with pytest.raises(AssertionError, match="differs from Django's"):
        render_compiled(name, _row())


def _loaded(name: str) -> Any:
    """The template the loader keeps for ``name`` (a partial: its own)."""
    backend: Any = get_template(name)
    return backend.template


def _row(**changed: object) -> dict[str, Any]:
    row: dict[str, Any] = {
        "number": 7,
        "target": 9,
        "pepper": False,
        "dealer": "Cat",
        "summary": "Bob bid 3 ♠, took 4",
        "totals": "12 to −6",
        "deltas": ["+4", "−6"],
        "points": "+4, −6",
        "auction": "",
        "explanation": "Bob & Dan bid 3 and took 4: made.",
        "changes": [],
    }
    row.update(changed)
    return {"row": row, "game_url": "/games/x/", "role": "edit"}


words = st.text(alphabet=st.sampled_from("ab <>&\"'−♠é\n"), max_size=12)
values = st.one_of(
    words,
    st.integers(-1000, 10**7),
    st.booleans(),
    st.none(),
    st.lists(words, max_size=3),
)


@settings(max_examples=examples(200), deadline=None)
@given(
    row=st.fixed_dictionaries(
        {
            "number": st.integers(-5, 500),
            "target": st.integers(0, 900),
            "pepper": st.booleans(),
            "dealer": words,
            "summary": words,
            "totals": words,
            "points": words,
            "auction": words,
            "explanation": words,
            "changes": st.lists(
                st.fixed_dictionaries({"by": words, "at": words, "reason": words}),
                max_size=2,
            ),
        }
    ),
    role=st.sampled_from(["edit", "view", "correct", ""]),
)
def test_a_hand_row_renders_as_django_renders_it(
    row: dict[str, Any], role: str
) -> None:
    scope = {"row": row, "game_url": "/g/", "role": role}
    render = compile_template(_loaded("games/_hand_row.html"))
    assert render(scope) == get_template("games/_hand_row.html").render(scope)


KITCHEN = (
    "{% load l10n %}{{ a }}|{{ b.x }}|{{ a|default_if_none:'-' }}"
    "{% if a %}A{% elif b %}B{% else %}C{% endif %}"
    "{% if a == b or not c %}eq{% endif %}{% if a in c %}in{% endif %}"
    "{% for item in c %}{{ forloop.counter }}{{ item }}{% if forloop.last %}.{% endif %}"
    "{% empty %}none{% endfor %}{% localize off %}{{ a }}{{ b }}{% endlocalize %}"
)


@settings(max_examples=examples(300), deadline=None)
@given(
    scope=st.dictionaries(
        st.sampled_from(["a", "b", "c"]),
        st.one_of(values, st.dictionaries(st.just("x"), values, max_size=1)),
    )
)
def test_any_values_render_as_django_renders_them(scope: dict[str, Any]) -> None:
    template = _template(KITCHEN)
    by_compiled = _outcome(compile_template(template.template), scope)
    assert by_compiled == _outcome(template.render, scope)


def _outcome(render: Any, scope: dict[str, Any]) -> tuple[str, object]:
    """What rendering gives: its text, or the kind of error it raises."""
    try:
        return "text", render(dict(scope))
    except Exception as error:
        return "error", type(error)


class _Unhashable:
    """An argument a kept address cannot be filed under."""

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return "7"


def test_a_kept_address_follows_the_script_prefix_and_the_urlconf() -> None:
    """Addresses are kept once reversed, but never across a change of what
    ``reverse`` reads: the script prefix (a deployment under a path), the
    URLconf (the test's own); an argument of another type than an int, a
    string or a UUID (one equal to another and written otherwise, one that
    cannot be a key) is reversed each time."""
    source = "{% url 'player' pk %} {% url 'home' %}"
    scope = {"pk": 7}
    first = _both(source, scope)
    assert first == ("/players/7/ /", "/players/7/ /")
    try:
        set_script_prefix("/club/")
        assert _both(source, scope) == ("/club/players/7/ /club/",) * 2
    finally:
        set_script_prefix("/")
    assert _both(source, scope) == first
    with override_settings(ROOT_URLCONF=__name__):  # urlpatterns below
        assert _both("{% url 'home' %}", {}) == ("/few/",) * 2
        equal = ((1, "1"), (True, "True"), (1.0, "1.0"), (Decimal("1.00"), "1.00"))
        for value, shown in equal:
            for named in ("{% url 'named' v %}", "{% url 'named' name=v %}"):
                assert _both(named, {"v": value}) == (f"/few/{shown}/",) * 2
    assert _both(source, {"pk": _Unhashable()}) == first


def _nowhere(request: HttpRequest) -> HttpResponse:
    return HttpResponse()


urlpatterns = [  # the test's own URLconf
    path("few/", _nowhere, name="home"),
    path("few/<str:name>/", _nowhere, name="named"),
]
