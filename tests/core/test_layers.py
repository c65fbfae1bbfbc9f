"""core's layers: imports only point down, and core imports nothing outside the standard library.

rules (with the base modules errors and messages) < match < referee and coach, side by side. A module
imports its own package, the packages below it and the base modules; never one above it or beside it.
Inside a package no module imports another that (through others) imports it again (no import cycle), and
no import is made inside a function (a cycle hidden from the module's head). Imports under
``if TYPE_CHECKING:`` are never run and are not counted.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core"
BASE = {"core.errors", "core.messages", "core.page_words", "core.page_words_js", "core.rules_card"}
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


def _typing_only(tree: ast.AST) -> set[int]:
    """The import nodes under ``if TYPE_CHECKING:`` (for the type checker only, never run)."""
    nodes: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            nodes.update(id(n) for n in ast.walk(node))
    return nodes


def _imports(path: Path, module: str, run_only: bool = False) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _typing_only(tree) if run_only else set()
    names = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
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


# ----- import cycles and imports inside functions ------------------------------------------------------------
def _graph(modules: list[tuple[str, Path]]) -> dict[str, set[str]]:
    """Each module's imports of other core modules that run when it is imported (its package's face, the
    ``__init__`` re-exports, counted as the package)."""
    names = {m for m, _ in modules}
    graph: dict[str, set[str]] = {}
    for module, path in modules:
        targets = set()
        for target in _imports(path, module, run_only=True):
            if target in names and target != module:
                targets.add(target)
        graph[module] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle (strongly connected modules), ignoring a package's ``__init__`` importing its own
    modules that import the package back (its face), which Python allows."""
    def real(a: str, b: str) -> bool:
        return not (b.startswith(a + ".") or a.startswith(b + "."))  # a package and its own module

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if not real(v, w):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _inner_imports(module: str, path: Path) -> list[str]:
    """Imports made inside a function or method (a cycle the module's head does not show)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    bad.append(f"{module}: import inside {fn.name}() (line {node.lineno}): import at the top")
    return bad


def test_no_import_cycle_in_core() -> None:
    assert _cycles(_graph(_modules())) == []


def test_no_import_inside_a_function_in_core() -> None:
    assert [msg for module, path in _modules() for msg in _inner_imports(module, path)] == []


def _fake_core(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, Path]]:
    modules = []
    for name, source in files.items():
        path = tmp_path / (name.replace(".", "_") + ".py")
        path.write_text(source)
        modules.append((name, path))
    return modules


def test_the_check_catches_a_cycle(tmp_path: Path) -> None:
    """Today's two former circles, as they were: referee.faults -> inference -> variants -> faults, and
    rules.explain <-> rules.position."""
    modules = _fake_core(tmp_path, {
        "core.referee.faults": "from core.referee.inference import TurnModel\n",
        "core.referee.inference": "from core.referee.variants import VariantTurnModel\n",
        "core.referee.variants": "from core.referee.faults import classify\n",
        "core.rules.explain": "from core.rules.position import Position\n",
        "core.rules.position": "from core.rules.explain import explain_play\n",
        "core.rules.notation": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from core.rules.position import P\n",
    })
    assert _cycles(_graph(modules)) == [
        ["core.referee.faults", "core.referee.inference", "core.referee.variants"],
        ["core.rules.explain", "core.rules.position"]]


def test_the_check_catches_an_import_inside_a_function(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("class TurnModel:\n    def __new__(cls):\n        from core.referee.variants import V\n"
                    "        return V\n")
    assert _inner_imports("core.referee.inference", path) == [
        "core.referee.inference: import inside __new__() (line 3): import at the top"]


# ----- each game in one place ------------------------------------------------------------------------------------
GAME_PLACES = ("core.rules.variants", "core.referee.games")
GAME_CLASSES = {"PlakotoPosition", "RussianPosition", "JacquetPosition", "PlakotoSettings", "RussianSettings",
                "JacquetSettings"}
GAME_NAMES = {"plakoto", "russian", "jacquet"}


def _names_a_game(module: str, path: Path) -> list[str]:
    """Where a module outside the games' own places names a particular game: imports its classes or modules,
    or compares something with its name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {a.name for a in node.names}
            if names & GAME_CLASSES or node.module.rsplit(".", 1)[-1] in GAME_NAMES or names & GAME_NAMES:
                bad.append(f"{module}:{node.lineno} imports {node.module} {sorted(names)}")
        elif isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                if isinstance(operand, ast.Constant) and operand.value in GAME_NAMES:
                    bad.append(f"{module}:{node.lineno} compares with {operand.value!r}")
    return bad


def test_no_module_outside_the_games_places_names_a_game() -> None:
    """Each game's rules live in core/rules/variants/, its referee behaviour in core/referee/games/ (issue 23)."""
    bad = [msg for module, path in _modules() if not module.startswith(GAME_PLACES)
           for msg in _names_a_game(module, path)]
    assert bad == []


def test_the_check_catches_a_module_that_names_a_game(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("from core.rules.variants import RussianPosition\n\n\ndef f(pos, name):\n"
                    "    return isinstance(pos, RussianPosition) or name == 'plakoto'\n")
    assert _names_a_game("core.referee.machine", path) == [
        "core.referee.machine:1 imports core.rules.variants ['RussianPosition']",
        "core.referee.machine:5 compares with 'plakoto'"]


# ----- the floors above core: the web guard, then the edges (docs/LAYOUT.md) ---------------------------------------
PROJECT = {"core", "webguard", "vision", "firmware_bridge", "engine", "club", "kiosk", "cli"}
#: What each package outside core may import of the project besides itself (issue 35: one web guard, one floor
#: down, that both the kiosk and the club import; an edge never imports another edge or the kiosk).
FLOORS: dict[str, set[str]] = {
    "webguard": {"core"},
    "vision": {"core"},
    "firmware_bridge": {"core"},
    "engine": {"core"},
    "club": {"core", "webguard"},
}


def _floor_violations(package: str, allowed: set[str]) -> list[str]:
    bad = []
    root = CORE.parent / package
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(CORE.parent).with_suffix("").parts).removesuffix(".__init__")
        for target in _imports(path, module, run_only=True):
            top = target.split(".")[0]
            if top in PROJECT and top != package and top not in allowed:
                bad.append(f"{module} imports {target}: {package} imports {sorted(allowed)} at most")
    return bad


@pytest.mark.parametrize("package", sorted(FLOORS))
def test_the_web_guard_and_the_edges_import_only_what_is_below_them(package: str) -> None:
    assert _floor_violations(package, FLOORS[package]) == []
