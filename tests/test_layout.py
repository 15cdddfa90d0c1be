"""Imports run one way: a capability (the table, the referee, the league)
stands on the web platform, which stands on the referee step (recording),
on the read model (projections), on the log core (the store), on the
rules engine; nothing imports upward, and of the capabilities only the
league and the referee use the table (the league seats games; the referee
shows hands as the table does)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"

# Each room and how high it stands; a room imports only rooms lower than
# itself, itself, and the rooms named in ``USES``. The management commands
# are doors into the house, as config/urls.py is: they may use any room.
FLOORS = {
    "rules": 0,
    "core": 1,  # the log (gamelog, the store, models) and the pure words
    "projections": 2,  # the read model, fed from the store
    "recording": 3,  # the referee step: refereed, stored, projected
    "web": 4,
    "games": 5,
    "referee": 5,
    "leagues": 5,
    "management": 6,
}
USES = {"leagues": {"games"}, "referee": {"games"}}
# Run on the phone under Pyodide too: the standard library and the rules only.
PURE_CORE = (
    "gamelog.py",
    "score_document.py",
    "refusals.py",
    "tablewords.py",
    "record_form.py",
    "disputes.py",
    "house_rules.py",
    "phone.py",
)


def room_of(module: str) -> str | None:
    """The room of a dotted module name of this project (None: not ours)."""
    parts = module.split(".")
    if parts[0] != "scorekeeper":
        return None
    if len(parts) > 1 and parts[1] in FLOORS:
        return parts[1]
    return "core"


def _module_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(module: str, source: str, package: bool = False) -> list[str]:
    """The absolute names ``module`` imports (relative imports resolved)."""
    parent = module.split(".") if package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = parent[: len(parent) - node.level + 1] if node.level else []
            found.append(".".join([*base, node.module] if node.module else base))
    return found


def wrong_way(module: str, source: str, package: bool = False) -> list[str]:
    room = room_of(module)
    assert room is not None
    wrong = []
    for name in imports_of(module, source, package):
        other = room_of(name)
        if other is None or other == room or other in USES.get(room, set()):
            continue
        if FLOORS[other] >= FLOORS[room]:
            wrong.append(f"{module} -> {name}")
    return wrong


def _modules() -> list[tuple[str, str, bool]]:
    return [
        (_module_of(path), path.read_text(), path.name == "__init__.py")
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def test_no_import_runs_up_or_across_between_rooms() -> None:
    modules = _modules()
    assert len(modules) > 100  # the whole package was read
    assert [line for found in modules for line in wrong_way(*found)] == []


@pytest.mark.parametrize("name", PURE_CORE)
def test_the_log_core_the_phone_runs_needs_only_the_rules(name: str) -> None:
    source = (PACKAGE / name).read_text()
    outside = [
        module
        for module in imports_of(f"scorekeeper.{name[:-3]}", source)
        if module.split(".")[0] not in sys.stdlib_module_names
        and room_of(module) != "rules"
        and f"{module.removeprefix('scorekeeper.')}.py" not in PURE_CORE
    ]
    assert outside == []


def test_the_phone_is_sent_every_module_its_engine_imports() -> None:
    """The static files the phone loads (scorekeeper/web/offline_files.py)
    hold every module phone.py reaches, and nothing of Django."""
    from scorekeeper.web.offline_files import ENGINE_FILES

    sent = {name.removeprefix("scorekeeper/") for name in ENGINE_FILES}
    reached, todo = set(), ["phone.py"]
    while todo:
        name = todo.pop()
        reached.add(name)
        module = f"scorekeeper.{name[:-3].replace('/', '.')}"
        for found in imports_of(module, (PACKAGE / name).read_text()):
            if found.startswith("scorekeeper."):
                path = found.removeprefix("scorekeeper.").replace(".", "/")
                target = (
                    f"{path}.py"
                    if (PACKAGE / f"{path}.py").exists()
                    else f"{path}/__init__.py"
                )
                if target not in reached:
                    todo.append(target)
    assert reached <= sent
    assert all(
        name.startswith("rules/") or name in (*PURE_CORE, "__init__.py")
        for name in sent
    )


def test_the_check_sees_an_import_up_and_one_across() -> None:
    source = "from scorekeeper.leagues import models\nfrom ..games import api\n"
    assert wrong_way("scorekeeper.web.probe", source) == [
        "scorekeeper.web.probe -> scorekeeper.leagues",
        "scorekeeper.web.probe -> scorekeeper.games",
    ]
    across = "from scorekeeper.referee import views\n"
    assert wrong_way("scorekeeper.games.probe", across) != []
    assert wrong_way("scorekeeper.leagues.probe", "from ..games import x\n") == []
    assert imports_of("scorekeeper.web", "from .qr import qr_code\n", True) == [
        "scorekeeper.web.qr"
    ]
    assert room_of("scorekeeper.models") == "core"
    assert room_of("django.db") is None
