"""core's layers: imports only point down, and core imports nothing outside the standard library.

rules (with the base modules errors and messages) < match < referee and coach, side by side. A module
imports its own package, the packages below it and the base modules; never one above it or beside it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core"
BASE = {"core.errors", "core.messages"}
# What each package may import from core, besides itself and the base modules.
ALLOWED: dict[str, set[str]] = {
    "base": set(),
    "rules": set(),
    "match": {"rules"},
    "referee": {"rules", "match"},
    "coach": {"rules", "match"},
}


def _package(module: str) -> str:
    if module in BASE:
        return "base"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "core"


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        if name != "core":
            found.append((name, path))
    return found


def _imports(path: Path, module: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's package
                base = module.split(".")
                if not path.name == "__init__.py":
                    base = base[:-1]
                base = base[: len(base) - node.level + 1]
                prefix = ".".join(base)
                target = f"{prefix}.{node.module}" if node.module else prefix
            else:
                target = node.module or ""
            names.append(target)
            # "from core.rules import movegen" imports the module core.rules.movegen
            names += [f"{target}.{alias.name}" for alias in node.names if target in {"core", "core.rules",
                                                                                        "core.match",
                                                                                        "core.referee",
                                                                                        "core.coach"}]
    return names


def _check(module: str, path: Path, packages: set[str]) -> list[str]:
    """What is wrong with one module's imports."""
    bad = []
    own = _package(module)
    for target in _imports(path, module):
        top = target.split(".")[0]
        if top != "core":
            if top not in sys.stdlib_module_names and top != "__future__":
                bad.append(f"{module} imports {target}: core takes no third-party or project imports")
            continue
        if target == "core":
            bad.append(f"{module} imports the core package itself: import the module it needs")
            continue
        other = _package(target)
        if other not in packages and target not in BASE:
            continue  # a name imported from a package, not a module
        if other in (own, "base") or other in ALLOWED.get(own, set()):
            continue
        bad.append(f"{module} ({own}) imports {target} ({other}): imports must point down")
    return bad


def _violations() -> list[str]:
    packages = {p.name for p in CORE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    return [msg for module, path in _modules() for msg in _check(module, path, packages)]


def test_core_imports_point_down() -> None:
    assert _violations() == []


def test_every_core_module_is_in_a_known_layer() -> None:
    unknown = [m for m, _ in _modules() if _package(m) not in ALLOWED]
    assert unknown == [], f"modules outside rules/match/referee/coach and the base modules: {unknown}"


@pytest.mark.parametrize(
    ("module", "source", "expect"),
    [
        ("core.rules.position", "from core.referee.inference import TurnModel\n", "imports must point down"),
        ("core.match.cube", "import core.referee.machine\n", "imports must point down"),
        ("core.coach.explain", "from core.referee import Referee\n", "imports must point down"),
        ("core.rules.notation", "import numpy\n", "third-party"),
    ],
)
def test_the_check_catches_an_upward_import(tmp_path: Path, module: str, source: str, expect: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(source)
    messages = _check(module, path, set(ALLOWED))
    assert any(expect in m for m in messages), messages
