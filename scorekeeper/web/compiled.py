"""A few hot templates rendered as Python, not interpreted node by node.

Django's template engine walks a template's nodes at every render: a
variable costs a few µs in a request (its look-up, localizing, escaping:
a dozen calls), an ``{% if %}`` about as much. A hand save answers with
some eighty such nodes (the score, the record form's changed parts, the
new hand's row): a quarter of the save's instructions (issue 22); a
season's standings, race, ratings and awards are some 2,800. Here a
template's (or a named partial's) nodes are translated once per process
into the source of one Python function, which is compiled and kept beside
the template; rendering runs it over the context's dict. The templates
stay Django's: a page renders them as before, and ``render_compiled``
renders the same files and partials.

Translated: text, variables with their filters, ``if``/``elif``/``else``,
``for`` (with ``forloop``, unpacking, ``reversed``, ``empty``),
``with``, ``url`` (no ``as``), an ``include`` of a named template (not
``only``) and ``partial`` (both in place), inline ``partialdef``,
``localize``, ``load`` and comments. ``csrf_token``, and an include or
partial that cannot be translated in place (``only``, a name known at
render time, a template that extends another, is missing or includes
itself), are rendered by Django itself, in a ``Context`` holding the
same names, when the node is rendered, as Django would. Any other tag
(one that keeps state across a render, as ``cycle`` does, or sets a name
for the nodes after it, as ``url ... as`` does) is refused when the
template is compiled: ``Unsupported`` names it, so a template never
silently renders differently.

Each rule follows Django's own code, step by step (``compiled_steps``),
so the output is Django's, byte for byte: with
``settings.COMPILED_TEMPLATES_CHECK`` (on in the tests) every compiled
render is compared with Django's render of the same template and
context, and a difference is an error. Only the default engine's
settings are supported (autoescaping on, an empty ``string_if_invalid``):
anything else is refused too.

Translating costs a few tens of milliseconds once per process (the
save's answer ~40 ms, on a slow machine), paid by its first render.

No text of a template becomes code: the generated source holds only names
made here; the template's text, constants, look-up names and nodes reach
the function through a table (``K``).
"""

from __future__ import annotations

import difflib
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.base import TextNode, VariableNode
from django.template.defaulttags import (
    CommentNode,
    CsrfTokenNode,
    ForNode,
    IfNode,
    LoadNode,
    PartialDefNode,
    PartialNode,
    TemplateLiteral,
    URLNode,
    WithNode,
)
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode, construct_relative_path
from django.templatetags.l10n import LocalizeNode
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.web.compiled_steps import HELPERS

Render = Callable[[Mapping[str, Any]], str]
# A Template or a PartialTemplate (the stubs give the latter no engine);
# Django's nodes are typed Any below for the same reason: their parts are
# read as Django's own code reads them.
Compiled = Any

# smartif's comparisons: Python writes them alike (an operator reaches the
# source only if it is one of these, not as the template's own text).
_COMPARISONS = frozenset(
    ("in", "not in", "is", "is not", "==", "!=", ">", ">=", "<", "<=")
)
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
    variables, ``forloop``), ``with`` or ``include ... with`` to the Python
    expression holding it; every other name is read from the context's
    dict (``scope``)."""

    def __init__(self, template: Compiled) -> None:
        self.template = template
        # The templates and partials being translated, by origin and name.
        self.within = [(getattr(template.origin, "name", None), template.name)]
        # The table and the helpers are bound as the function's own locals.
        helpers = ", ".join(f"{name}={name}" for name in HELPERS)
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
        namespace: dict[str, Any] = {**HELPERS, "K": tuple(self.table)}
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
        elif isinstance(node, WithNode):
            bound = self.bound(node.extra_context, names)
            self.nodes(node.nodelist, {**names, **bound}, l10n)
        elif isinstance(node, URLNode) and not node.asvar:
            self.address(node, names)
        elif isinstance(node, PartialNode | IncludeNode):
            self.in_place(node, names, l10n)
        elif isinstance(node, CsrfTokenNode):
            self.by_django(node, names, l10n)
        else:
            raise Unsupported(
                f"{self.template.name}: compiled rendering does not translate "
                f"{type(node).__name__} ({node!r})"
            )

    def by_django(self, node: Any, names: dict[str, str], l10n: bool | None) -> None:
        """``node`` rendered by Django, in a Context of the same names (the
        template is held weakly: the kept function must not keep it alive)."""
        held = ", ".join(f"{self.value(k)}: {v}" for k, v in names.items())
        template = self.value(weakref.ref(self.template))
        self.line(
            f"w(_by_django({self.value(node)}, {template}(), "
            f"scope, {{{held}}}, {l10n!r}))"
        )

    def in_place(self, node: Any, names: dict[str, str], l10n: bool | None) -> None:
        """An include of a named template (not ``only``) or a partial, its
        nodes translated in place, as Django renders them in the same
        context. Django finds the template only when the node is rendered:
        one that cannot be found or translated now (missing, extending
        another, including itself, named at render time) is left to Django,
        which finds it, or fails, only if the node is rendered."""
        mark = (len(self.lines), self.text[:], self.depth)
        try:
            if isinstance(node, PartialNode):
                template, bound = self.partial(node), {}
            elif self.named(node):
                template = self.included(node)
                bound = self.bound(node.extra_context, names)
            else:
                raise Unsupported("an include named at render time, or with only")
            self.inside(template, {**names, **bound}, l10n)
        except (Unsupported, TemplateDoesNotExist):
            del self.lines[mark[0] :]
            self.text, self.depth = mark[1], mark[2]
            self.by_django(node, names, l10n)

    def inside(self, template: Any, names: dict[str, str], l10n: bool | None) -> None:
        """An included template's or a partial's nodes, translated in place."""
        # By name, not object: a loader that keeps nothing loads a new one.
        key = (getattr(template.origin, "name", None), template.name)
        if key in self.within:
            raise Unsupported(f"{self.template.name}: {template.name} includes itself")
        self.within.append(key)
        try:
            self.nodes(template.nodelist, names, l10n)
        finally:
            self.within.pop()

    def partial(self, node: Any) -> Any:
        """The partial a ``{% partial %}`` names (a missing one is refused
        here, as Django refuses it when rendered)."""
        try:
            return node.partial_mapping[node.partial_name]
        except KeyError:
            raise Unsupported(
                f"{self.template.name}: no partial named {node.partial_name!r}"
            ) from None

    def named(self, node: Any) -> bool:
        """Whether an include names its template as a constant, and shares
        the context (no ``only``): translated in place."""
        name = node.template
        return not (node.isolated_context or name.is_var or name.filters)

    def included(self, node: Any) -> Any:
        """The template an include names, as ``IncludeNode.render`` finds it."""
        name = construct_relative_path(node.origin.template_name, node.template.var)
        return self.template.engine.select_template((name,))

    def bound(self, values: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
        """``with`` values (of ``with`` or ``include``), each resolved once
        into a local, before the names they are bound to are pushed."""
        return {
            name: self.expression(value, names, missing='""')
            for name, value in values.items()
        }

    def address(self, node: Any, names: dict[str, str]) -> None:
        """``URLNode.render``: its arguments, then its view's name, reversed."""
        args = [self.expression(arg, names, missing='""') for arg in node.args]
        kwargs = self.bound(node.kwargs, names)
        view = self.expression(node.view_name, names, missing='""')
        keywords = ", ".join(f"{self.value(k)}: {v}" for k, v in kwargs.items())
        self.line(f"w(_url({view}, [{', '.join(args)}], {{{keywords}}}))")

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
                self.line(f"{target} = {first} {operator} {second}")
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
                    self.unpacked(node.loopvars, item, names, inner)
                self.nodes(node.nodelist_loop, inner, l10n)

    def unpacked(
        self,
        loopvars: list[str],
        item: str,
        names: dict[str, str],
        inner: dict[str, str],
    ) -> None:
        """An item unpacked into its loop variables (``inner``): a name the
        item has no value for (its ``len`` said more than it gave) is left
        unbound, as Django leaves it, and found where the loop found it."""
        unpacked = self.local("u")
        self.line(f"{unpacked} = _unpack({self.value(tuple(loopvars))}, {item})")
        for name in loopvars:
            got = f"{unpacked}[{self.value(name)}]"
            outer = names.get(name, "_UNBOUND")
            inner[name] = f"({got} if {got} is not _UNBOUND else {outer})"

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
            values = [
                self.argument(lookup, value, names) for lookup, value in arguments
            ]
            call = ", ".join([result, self.value(function), *values])
            self.line(f"{result} = _filtered({call})")
        return result

    def argument(self, lookup: bool, argument: Any, names: dict[str, str]) -> str:
        """A filter's argument: a constant, or a variable resolved as
        ``Variable.resolve`` does (a missing one raises, unlike the value
        filtered)."""
        if not lookup:
            return self.value(mark_safe(argument))
        found = self.local("y")
        with self.block("try:"):
            self.looked_up(argument, names, found)
        with self.block("except Exception as error:"):
            self.line(f"{found} = _silenced(error)")
        return found

    def looked_up(self, variable: Any, names: dict[str, str], target: str) -> None:
        """Set ``target`` to ``variable._resolve_lookup(context)``, a key of
        a dict straight away (most look-ups), anything else as Django does
        it (``_step``); a failure raises, as Django's does."""
        if variable.translate or variable.message_context:
            raise Unsupported(f"{self.template.name}: translated variable {variable}")
        if variable.lookups is None:
            self.line(f"{target} = {self.value(variable.literal)}")
            return
        first, *rest = variable.lookups
        key = self.value(first)
        if first in names:
            self.line(f"{target} = {names[first]}")
            if "_UNBOUND" in names[first]:  # a loop variable left unbound
                self.line(f"if {target} is _UNBOUND: {target} = _top(scope, {key})")
        else:
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
