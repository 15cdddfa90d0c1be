"""Django's template steps as plain functions: what a compiled template
(``scorekeeper.web.compiled``) calls where Django's engine would call a
node's method. Each follows Django's own code step by step, and says
which: a compiled render must give Django's output byte for byte."""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable, Mapping
from typing import Any, cast
from uuid import UUID

from django.conf import settings
from django.template import Context
from django.template.base import VariableDoesNotExist
from django.template.context import BaseContext
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]
from django.utils.translation import get_language

from scorekeeper.web.templatetags.kept import kept_reverse

# The names every Context holds beneath the template's own.
_BUILTINS = {"True": True, "False": False, "None": None}


class Unbound:
    """A loop variable the item gave no value for (``unpack``): Django
    leaves the name unbound, so it is found where the loop found it."""

    def __repr__(self) -> str:
        return "UNBOUND"


UNBOUND = Unbound()


def top(scope: Mapping[str, Any], name: str) -> Any:
    """A Context's look-up of a name: the template's names, then the
    builtins (True, False, None)."""
    try:
        return scope[name]
    except KeyError:
        if name in _BUILTINS:
            return _BUILTINS[name]
        raise VariableDoesNotExist(
            "Failed lookup for key [%s] in %r", (name, scope)
        ) from None


def step(current: Any, bit: str) -> Any:
    """One look-up after the first (``_resolve_lookup``'s loop): a key, else
    an attribute, else an index."""
    if hasattr(type(current), "__getitem__"):  # Django raises TypeError if not
        try:
            return current[bit]
        except (TypeError, AttributeError, KeyError, ValueError, IndexError):
            pass
    try:  # attribute lookup
        if isinstance(current, BaseContext) and getattr(type(current), bit):
            raise AttributeError
        return getattr(current, bit)
    except (TypeError, AttributeError):
        if not isinstance(current, BaseContext) and bit in dir(current):
            raise  # raised by a property
        try:  # list-index lookup
            return current[int(bit)]
        except (IndexError, ValueError, KeyError, TypeError):
            raise VariableDoesNotExist(
                "Failed lookup for key [%s] in %r", (bit, current)
            ) from None


def silenced(error: Exception) -> str:
    """A look-up that raised ``error`` (``Variable._resolve_lookup``): ""
    for a silent failure, else the error itself."""
    if getattr(error, "silent_variable_failure", False):
        return ""  # string_if_invalid
    raise error


def failed(error: Exception, missing: object) -> object:
    """A variable's look-up that raised ``error`` (``FilterExpression.
    resolve``): ``missing`` for a missing name or key (None where Django
    ignores failures, as an ``if`` does), else as ``silenced``."""
    if isinstance(error, VariableDoesNotExist) and not getattr(
        error, "silent_variable_failure", False
    ):
        return missing
    return silenced(error)


def called(current: Any) -> Any:
    """A callable value called with no arguments, as ``_resolve_lookup``
    calls it (or not: ``do_not_call_in_templates``, ``alters_data``)."""
    if not callable(current) or getattr(current, "do_not_call_in_templates", False):
        return current
    if getattr(current, "alters_data", False):
        return ""  # string_if_invalid
    try:
        return current()
    except TypeError:
        try:
            signature = inspect.signature(current)
        except ValueError:  # no signature found
            return ""
        try:
            signature.bind()
        except TypeError:  # arguments were required: an invalid call
            return ""
        raise


def filtered(value: Any, function: Callable[..., Any], *arguments: Any) -> Any:
    """One filter of ``FilterExpression.resolve``."""
    if getattr(function, "expects_localtime", False):
        value = template_localtime(value, None)
    if getattr(function, "needs_autoescape", False):
        result = function(value, *arguments, autoescape=True)
    else:
        result = function(value, *arguments)
    if getattr(function, "is_safe", False) and isinstance(value, SafeData):
        return mark_safe(result)
    return result


def show(value: Any, use_l10n: bool | None) -> str:
    """``render_value_in_context`` with autoescaping on; a plain or safe
    string (most values) straight away."""
    kind = type(value)
    if kind is str:
        return html.escape(value)
    if kind is SafeString:
        return cast(str, value)
    value = localize(template_localtime(value, use_tz=None), use_l10n=use_l10n)
    if not issubclass(type(value), str):
        value = str(value)
    return str(conditional_escape(value))


def count(forloop: dict[str, Any], index: int, length: int) -> None:
    """``ForNode.render``'s counters for the item at ``index``."""
    forloop["counter0"] = index
    forloop["counter"] = index + 1
    forloop["revcounter"] = length - index
    forloop["revcounter0"] = length - index - 1
    forloop["first"] = index == 0
    forloop["last"] = index == length - 1


def unpack(loopvars: tuple[str, ...], item: Any) -> dict[str, Any]:
    """``ForNode.render``'s unpacking of an item into its loop variables;
    those it gives no value for (its ``len`` said more) are ``UNBOUND``."""
    try:
        length = len(item)
    except TypeError:  # not an iterable
        length = 1
    if len(loopvars) != length:
        raise ValueError(
            f"Need {len(loopvars)} values to unpack in for loop; got {length}. "
        )
    values: dict[str, Any] = dict.fromkeys(loopvars, UNBOUND)
    values.update(zip(loopvars, item, strict=False))
    return values


# The arguments an address is kept for: those whose equal values are
# written alike (1, 1.0 and True are equal, and written "1", "1.0" and
# "True"; two equal decimals may be written apart).
_PLAIN = frozenset({int, str, UUID})


def url(view_name: str, args: list[Any], kwargs: dict[str, Any]) -> str:
    """``URLNode.render`` with no request (so no current app) and no
    ``as``: the address, escaped. Kept (``kept_reverse``) per URLconf,
    script prefix and language, when its arguments are plain ints,
    strings or UUIDs (a page's keys)."""
    if all(type(value) in _PLAIN for value in [*args, *kwargs.values()]):
        urlconf = get_urlconf() or settings.ROOT_URLCONF
        where = (urlconf, get_script_prefix(), get_language())
        named = tuple(sorted(kwargs.items()))
        address = kept_reverse(view_name, tuple(args), named, where)
    else:
        address = reverse(view_name, args=args, kwargs=kwargs, current_app=None)
    return str(conditional_escape(address))


def by_django(
    node: Any,
    template: Any,
    scope: dict[str, Any],
    names: dict[str, Any],
    use_l10n: bool | None,
) -> str:
    """A node rendered by Django, in a Context of the same names."""
    bound = {name: value for name, value in names.items() if value is not UNBOUND}
    context = Context(scope, use_l10n=use_l10n)
    with (
        context.render_context.push_state(template),
        context.bind_template(template),
        context.push(bound),
    ):
        return str(node.render_annotated(context))


# What the generated source calls each step (its own names, bound as the
# function's locals).
HELPERS: dict[str, object] = {
    "VariableDoesNotExist": VariableDoesNotExist,
    "_UNBOUND": UNBOUND,
    "_escape": html.escape,
    "_top": top,
    "_step": step,
    "_failed": failed,
    "_silenced": silenced,
    "_called": called,
    "_filtered": filtered,
    "_show": show,
    "_count": count,
    "_unpack": unpack,
    "_url": url,
    "_by_django": by_django,
}
