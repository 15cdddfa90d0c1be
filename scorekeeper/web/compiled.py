"""A few hot templates rendered as Python, not interpreted node by node.

Django's template engine walks a template's nodes at every render: a
variable costs a few µs in a request (its look-up, localizing, escaping:
a dozen calls), an ``{% if %}`` about as much. A hand save answers with
some eighty such nodes (the score, the record form's changed parts, the
new hand's row): a quarter of the save's instructions (issue 22). Here a
template's (or a named partial's) nodes are translated once per process
into the source of one Python function, which is compiled and kept beside
the template; rendering runs it over the context's dict. The templates
stay Django's: the page renders them as before, and a save renders the
same partials of the same files, through ``render_compiled``.

Translated: text, variables with their filters, ``if``/``elif``/``else``,
``for`` (with ``forloop``, unpacking, ``reversed``, ``empty``),
comments, ``{% load %}``, ``{% localize %}`` and inline ``{% partialdef %}``. An
``include``, ``with``, ``partial`` or ``csrf_token`` is rendered by
Django itself, in a ``Context`` holding the same names. Any other tag
(one that keeps state across a render, as ``cycle`` does, or sets a name
for the nodes after it, as ``url ... as`` does) is refused when the
template is compiled: ``Unsupported`` names it, so a hot template never
silently renders differently.

Each rule follows Django's own code, step by step (``Variable.
_resolve_lookup``, ``FilterExpression.resolve``, ``render_value_in_context``,
``smartif``'s operators, ``ForNode.render``), so the output is Django's,
byte for byte: with ``settings.COMPILED_TEMPLATES_CHECK`` (on in the
tests) every compiled render is compared with Django's render of the same
template and context, and a difference is an error. Only the default
engine's settings are supported (autoescaping on, an empty
``string_if_invalid``): anything else is refused too.

No text of a template becomes code: the generated source holds only names
made here; the template's text, constants, look-up names and nodes reach
the function through a table (``K``).
"""

from __future__ import annotations

import difflib
import html
import inspect
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from django.conf import settings
from django.template import Context, TemplateSyntaxError
from django.template.base import (
    TextNode,
    VariableDoesNotExist,
    VariableNode,
)
from django.template.context import BaseContext
from django.template.defaulttags import (
    CommentNode,
    CsrfTokenNode,
    ForNode,
    IfNode,
    LoadNode,
    PartialDefNode,
    PartialNode,
    TemplateLiteral,
    WithNode,
)
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.templatetags.l10n import LocalizeNode
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]

Render = Callable[[Mapping[str, Any]], str]
# A Template or a PartialTemplate (the stubs give the latter no engine);
# Django's nodes are typed Any below for the same reason: their parts are
# read as Django's own code reads them.
Compiled = Any

# Rendered by Django in a Context of the same names: none keeps state
# across the render or sets a name for the nodes after it.
_BY_DJANGO = (IncludeNode, WithNode, PartialNode, CsrfTokenNode)
# The names every Context holds beneath the template's own.
_BUILTINS = {"True": True, "False": False, "None": None}
# smartif's comparisons, as Python writes them (the code is ours, not the
# template's: an operator the template names only picks one of these).
_COMPARISONS = {
    "in": "in",
    "not in": "not in",
    "is": "is",
    "is not": "is not",
    "==": "==",
    "!=": "!=",
    ">": ">",
    ">=": ">=",
    "<": "<",
    "<=": "<=",
}
_KEPT: weakref.WeakKeyDictionary[Compiled, Render] = weakref.WeakKeyDictionary()


class Unsupported(TemplateSyntaxError):
    """A template uses what compiled rendering does not translate."""


def render_compiled(template_name: str, context: dict[str, Any]) -> SafeString:
    """``render_to_string(template_name, context)``, as compiled Python
    (no request: a page's context processors are not run). A partial is
    named as for ``get_template``: ``"games/game_detail.html#lean"``."""
    loaded: Any = get_template(template_name)  # the loader keeps it
    template: Compiled = loaded.template
    render = _KEPT.get(template)
    if render is None:
        render = _KEPT[template] = compile_template(template)
    text = render(context)
    if getattr(settings, "COMPILED_TEMPLATES_CHECK", False):
        _check(template_name, context, text)
    return mark_safe(text)  # every value in it was escaped as Django does


def compile_template(template: Compiled) -> Render:
    """One Python function rendering ``template`` over a context's dict."""
    engine = template.engine
    if not engine.autoescape or engine.string_if_invalid:
        raise Unsupported(
            "compiled rendering needs autoescaping on and no string_if_invalid"
        )
    writer = _Writer(template)
    writer.nodes(template.nodelist, {}, None)
    return writer.function()


def _check(template_name: str, context: dict[str, Any], text: str) -> None:
    """The tests' guard: Django's own render of the same must be the same."""
    expected = get_template(template_name).render(context)
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), "django", "compiled", lineterm=""
        )
        raise AssertionError(
            f"compiled {template_name} differs from Django's:\n" + "\n".join(diff)
        )


class _Writer:
    """The generated function's source, its table of values, its names.

    ``names`` maps a template name bound by an enclosing ``for`` (its loop
    variables, ``forloop``) to the Python local holding it; every other
    name is read from the context's dict (``scope``)."""

    def __init__(self, template: Compiled) -> None:
        self.template = template
        # The table and the helpers are bound as the function's own locals.
        helpers = ", ".join(f"{name}={name}" for name in _HELPERS)
        self.lines = [
            f"def render(scope, *, K=K, {helpers}):",
            "    out = []",
            "    w = out.append",
        ]
        self.table: list[object] = []
        self.depth = 1
        self.made = 0
        self.text: list[str] = []  # written at once, before the next line

    def function(self) -> Render:
        self.flush()
        source = "\n".join([*self.lines, '    return "".join(out)'])
        namespace: dict[str, Any] = {**_HELPERS, "K": tuple(self.table)}
        try:
            code = compile(source, f"<compiled {self.template.name}>", "exec")
        except SyntaxError as error:  # e.g. more nested blocks than Python takes
            raise Unsupported(f"{self.template.name}: {error}") from None
        exec(code, namespace)  # our own source: no template text in it
        render: Render = namespace["render"]
        return render

    def line(self, text: str) -> None:
        self.flush()
        self.lines.append("    " * self.depth + text)

    def flush(self) -> None:
        """Write the text met since the last line, as one value."""
        if self.text:
            joined, self.text = "".join(self.text), []
            self.line(f"w({self.value(joined)})")

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self.line(header)
        self.depth += 1
        self.line("pass")
        yield
        self.flush()
        self.depth -= 1

    def value(self, value: object) -> str:
        self.table.append(value)
        return f"K[{len(self.table) - 1}]"

    def local(self, stem: str) -> str:
        self.made += 1
        return f"{stem}{self.made}"

    # Nodes ---------------------------------------------------------------

    def nodes(
        self, nodelist: Iterable[Any], names: dict[str, str], l10n: bool | None
    ) -> None:
        for node in nodelist:
            self.node(node, names, l10n)

    def node(self, node: Any, names: dict[str, str], l10n: bool | None) -> None:
        if isinstance(node, TextNode):
            self.text.append(node.s)
        elif isinstance(node, VariableNode):
            shown = self.local("x")
            with self.block("try:"):
                found = self.expression(node.filter_expression, names, missing='""')
                self.line(f"{shown} = {found}")
            with self.block("except UnicodeDecodeError:"):  # Django's quiet failure
                self.line(f'{shown} = ""')
            # A string escaped, a whole number unlocalized printed as is (its
            # digits need no escaping); anything else as Django shows it.
            plain = f"_escape({shown}) if type({shown}) is str else "
            if l10n is False:
                plain += f"str({shown}) if type({shown}) is int else "
            self.line(f"w({plain}_show({shown}, {l10n!r}))")
        elif isinstance(node, IfNode):
            self.branches(node.conditions_nodelists, names, l10n)
        elif isinstance(node, ForNode):
            self.loop(node, names, l10n)
        elif isinstance(node, LocalizeNode):
            self.nodes(node.nodelist, names, node.use_l10n)
        elif isinstance(node, PartialDefNode):
            if node.inline:
                self.nodes(node.nodelist, names, l10n)
        elif isinstance(node, CommentNode | LoadNode):
            pass  # both render nothing
        elif isinstance(node, _BY_DJANGO):
            bound = (
                "{" + ", ".join(f"{self.value(k)}: {v}" for k, v in names.items()) + "}"
            )
            self.line(
                f"w(_by_django({self.value(node)}, {self.value(self.template)}, "
                f"scope, {bound}, {l10n!r}))"
            )
        else:
            raise Unsupported(
                f"{self.template.name}: compiled rendering does not translate "
                f"{type(node).__name__} ({node!r})"
            )

    def branches(
        self,
        conditions: list[tuple[Any, Any]],
        names: dict[str, str],
        l10n: bool | None,
    ) -> None:
        """``IfNode.render``: the first clause whose condition holds."""
        if not conditions:
            return
        (condition, nodelist), rest = conditions[0], conditions[1:]
        if condition is None:  # else
            self.nodes(nodelist, names, l10n)
            return
        match = self.local("c")
        with self.block("try:"):
            self.condition(condition, match, names)
        with self.block("except VariableDoesNotExist:"):
            self.line(f"{match} = None")
        with self.block(f"if {match}:"):
            self.nodes(nodelist, names, l10n)
        if rest:
            with self.block("else:"):
                self.branches(rest, names, l10n)

    def condition(self, node: Any, target: str, names: dict[str, str]) -> None:
        """Set ``target`` to what ``node.eval(context)`` gives (smartif)."""
        if isinstance(node, TemplateLiteral):
            found = self.expression(node.value, names, missing="None")
            self.line(f"{target} = {found}")
            return
        operator = getattr(node, "id", None)
        first, second = self.local("a"), self.local("b")
        with self.block("try:"):
            self.condition(node.first, first, names)
            if operator in ("or", "and"):
                test = first if operator == "or" else f"not {first}"
                with self.block(f"if {test}:"):
                    self.line(f"{target} = {first}")
                with self.block("else:"):
                    self.condition(node.second, second, names)
                    self.line(f"{target} = {second}")
            elif operator == "not":
                self.line(f"{target} = not {first}")
            elif operator in _COMPARISONS:
                self.condition(node.second, second, names)
                self.line(f"{target} = {first} {_COMPARISONS[operator]} {second}")
            else:
                raise Unsupported(f"{self.template.name}: the if operator {operator!r}")
        with self.block("except Exception:"):  # smartif: an error is False
            self.line(f"{target} = False")

    def loop(self, node: Any, names: dict[str, str], l10n: bool | None) -> None:
        """``ForNode.render``, its loop variables and ``forloop`` as locals."""
        parent, values, count = self.local("p"), self.local("s"), self.local("n")
        if "forloop" in names:
            self.line(f"{parent} = {names['forloop']}")
        else:
            self.line(f"{parent} = scope['forloop'] if 'forloop' in scope else {{}}")
        sequence = self.expression(node.sequence, names, missing="None")
        self.line(f"{values} = {sequence}")
        with self.block(f"if {values} is None:"):
            self.line(f"{values} = []")
        with self.block(f"if not hasattr({values}, '__len__'):"):
            self.line(f"{values} = list({values})")
        self.line(f"{count} = len({values})")
        with self.block(f"if {count} < 1:"):
            self.nodes(node.nodelist_empty, names, l10n)
        with self.block("else:"):
            if node.is_reversed:
                self.line(f"{values} = reversed({values})")
            forloop, index, item = self.local("f"), self.local("i"), self.local("v")
            self.line(f"{forloop} = {{'parentloop': {parent}, 'length': {count}}}")
            inner = {**names, "forloop": forloop}
            with self.block(f"for {index}, {item} in enumerate({values}):"):
                self.line(f"_count({forloop}, {index}, {count})")
                if len(node.loopvars) == 1:
                    inner[node.loopvars[0]] = item
                else:
                    unpacked = self.local("u")
                    loopvars = self.value(tuple(node.loopvars))
                    self.line(f"{unpacked} = _unpack({loopvars}, {item})")
                    for name in node.loopvars:
                        inner[name] = f"{unpacked}[{self.value(name)}]"
                self.nodes(node.nodelist_loop, inner, l10n)

    # Values --------------------------------------------------------------

    def expression(
        self, expression: Any, names: dict[str, str], *, missing: str
    ) -> str:
        """A local holding ``expression.resolve(context)``; a missing
        variable gives ``missing`` (None where Django ignores failures)."""
        result = self.local("x")
        if expression.is_var:
            with self.block("try:"):
                self.looked_up(expression.var, names, result)
            with self.block("except Exception as error:"):
                self.line(f"{result} = _failed(error, {missing})")
        else:
            self.line(f"{result} = {self.value(expression.var)}")
        for function, arguments in expression.filters:
            values = []
            for lookup, argument in arguments:
                if lookup:
                    values.append(self.variable(argument, names))
                else:
                    values.append(self.value(mark_safe(argument)))
            call = ", ".join([result, self.value(function), *values])
            self.line(f"{result} = _filtered({call})")
        return result

    def looked_up(self, variable: Any, names: dict[str, str], target: str) -> None:
        """Set ``target`` to ``variable._resolve_lookup(context)``, a key of
        a dict straight away (most look-ups), anything else as Django does
        it (``_step``); a failure raises, as Django's does."""
        if variable.translate or variable.message_context or variable.lookups is None:
            self.line(f"{target} = {self.variable(variable, names)}")
            return
        first, *rest = variable.lookups
        if first in names:
            self.line(f"{target} = {names[first]}")
        else:
            key = self.value(first)
            with self.block("try:"):
                self.line(f"{target} = scope[{key}]")
            with self.block("except KeyError:"):
                self.line(f"{target} = _top(scope, {key})")
        self.line(f"if callable({target}): {target} = _called({target})")
        for bit in rest:
            key = self.value(bit)
            self.line(
                f"{target} = {target}[{key}] if type({target}) is dict and {key} in {target}"
                f" else _step({target}, {key})"
            )
            self.line(f"if callable({target}): {target} = _called({target})")

    def variable(self, variable: Any, names: dict[str, str]) -> str:
        """An expression of ``variable.resolve(context)`` (it may raise
        ``VariableDoesNotExist``, as Django's does)."""
        if variable.translate or variable.message_context:
            raise Unsupported(f"{self.template.name}: translated variable {variable}")
        if variable.lookups is None:
            return self.value(variable.literal)
        first, *rest = variable.lookups
        start = names[first] if first in names else f"_top(scope, {self.value(first)})"
        return f"_resolve({start}, {self.value(tuple(rest))})"


# The generated function's helpers: Django's steps, as functions. --------


def _top(scope: Mapping[str, Any], name: str) -> Any:
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


def _resolve(current: Any, bits: tuple[str, ...]) -> Any:
    """``Variable._resolve_lookup`` after its first look-up: each value
    called if callable, each further bit looked up as a key, an attribute,
    then an index."""
    try:
        current = _called(current)
        for bit in bits:
            current = _called(_step(current, bit))
    except Exception as error:
        if getattr(error, "silent_variable_failure", False):
            return ""  # string_if_invalid
        raise
    return current


def _step(current: Any, bit: str) -> Any:
    """One look-up after the first: a key, else an attribute, else an index."""
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


def _failed(error: Exception, missing: object) -> object:
    """A look-up that raised ``error``: "" for a silent failure, ``missing``
    for a missing name or key (None where Django ignores failures, as an
    ``if`` does), else the error itself."""
    if getattr(error, "silent_variable_failure", False):
        return ""  # string_if_invalid
    if isinstance(error, VariableDoesNotExist):
        return missing
    raise error


def _called(current: Any) -> Any:
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


def _filtered(value: Any, function: Callable[..., Any], *arguments: Any) -> Any:
    """One step of ``FilterExpression.resolve``."""
    if getattr(function, "expects_localtime", False):
        value = template_localtime(value, None)
    if getattr(function, "needs_autoescape", False):
        result = function(value, *arguments, autoescape=True)
    else:
        result = function(value, *arguments)
    if getattr(function, "is_safe", False) and isinstance(value, SafeData):
        return mark_safe(result)
    return result


def _show(value: Any, use_l10n: bool | None) -> str:
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


def _count(forloop: dict[str, Any], index: int, count: int) -> None:
    forloop["counter0"] = index
    forloop["counter"] = index + 1
    forloop["revcounter"] = count - index
    forloop["revcounter0"] = count - index - 1
    forloop["first"] = index == 0
    forloop["last"] = index == count - 1


def _unpack(loopvars: tuple[str, ...], item: Any) -> dict[str, Any]:
    try:
        length = len(item)
    except TypeError:  # not an iterable
        length = 1
    if len(loopvars) != length:
        raise ValueError(
            f"Need {len(loopvars)} values to unpack in for loop; got {length}. "
        )
    return dict(zip(loopvars, item, strict=False))


def _by_django(
    node: Any,
    template: Compiled,
    scope: dict[str, Any],
    names: dict[str, Any],
    use_l10n: bool | None,
) -> str:
    """A node rendered by Django, in a Context of the same names."""
    context = Context(scope, use_l10n=use_l10n)
    with (
        context.render_context.push_state(template),
        context.bind_template(template),
        context.push(names),
    ):
        return str(node.render_annotated(context))


_HELPERS: dict[str, object] = {
    "VariableDoesNotExist": VariableDoesNotExist,
    "_escape": html.escape,
    "_failed": _failed,
    "_step": _step,
    "_called": _called,
    "_top": _top,
    "_resolve": _resolve,
    "_filtered": _filtered,
    "_show": _show,
    "_count": _count,
    "_unpack": _unpack,
    "_by_django": _by_django,
}
