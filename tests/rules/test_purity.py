"""The rules engine imports only the standard library (and itself)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"


def _imports(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found


def test_rules_import_only_the_standard_library() -> None:
    outside = [
        f"{path.name}: {module}"
        for path in sorted(RULES.glob("*.py"))
        for module, level in _imports(path)
        if level == 0
        and module.split(".")[0] not in sys.stdlib_module_names
        and module != "__future__"
    ]
    assert outside == []


def test_the_purity_check_sees_a_foreign_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("import django\nfrom .cards import Card\n")
    assert _imports(module) == [("django", 0), ("cards", 1)]
    assert "django" not in sys.stdlib_module_names


def test_every_refusal_says_what_would_make_it_legal() -> None:
    missing = [
        f"{path.name}:{node.lineno}"
        for path in sorted(RULES.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "Violation"
        and "remedy" not in [keyword.arg for keyword in node.keywords]
    ]
    assert missing == []
