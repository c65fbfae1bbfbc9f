"""The club's modules import one another in one direction (issue 35): no import circle, and no import inside a
function (the way the old circle config -> pairing -> mosquitto -> pairing was held together: each function
imported its module when it ran, so the module heads showed no circle)."""

from __future__ import annotations

import ast
from pathlib import Path

CLUB = Path(__file__).resolve().parents[2] / "club"


def _modules(folder: Path = CLUB) -> dict[str, Path]:
    return {f"club.{p.stem}": p for p in sorted(folder.glob("*.py")) if p.stem != "__init__"}


def _edges(path: Path, names: set[str]) -> set[str]:
    """The club modules `path` imports (anywhere in it, `if TYPE_CHECKING:` blocks left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found & names


def _back_to(start: str, graph: dict[str, set[str]], m: str, seen: set[str], path: list[str]) -> bool:
    """Depth first from `m`: True (and `path` holds the way) when an import leads back to `start`."""
    for nxt in sorted(graph[m]):
        if nxt == start:
            path.append(nxt)
            return True
        if nxt not in seen:
            seen.add(nxt)
            path.append(nxt)
            if _back_to(start, graph, nxt, seen, path):
                return True
            path.pop()
    return False


def circles(modules: dict[str, Path]) -> list[list[str]]:
    """Each module from which an import path leads back to itself, with the path."""
    graph = {m: _edges(p, set(modules)) - {m} for m, p in modules.items()}
    found = []
    for start in sorted(graph):
        path: list[str] = [start]
        if _back_to(start, graph, start, {start}, path):
            found.append(path)
    return found


def inner_imports(modules: dict[str, Path]) -> list[str]:
    bad = []
    for module, path in modules.items():
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                bad += [f"{module}: import inside {fn.name}() (line {node.lineno})" for node in ast.walk(fn)
                        if isinstance(node, (ast.Import, ast.ImportFrom))]
    return bad


def test_no_import_circle_in_the_club() -> None:
    assert circles(_modules()) == []


def test_no_import_inside_a_function_in_the_club() -> None:
    assert inner_imports(_modules()) == []


def test_the_checks_catch_the_old_circle(tmp_path: Path) -> None:
    """The circle as it was: config -> pairing (inside a function) -> mosquitto (inside a function) -> pairing."""
    (tmp_path / "config.py").write_text("def f():\n    from club.pairing import read_credentials\n")
    (tmp_path / "pairing.py").write_text("from club.config import NAME\n"
                                         "def g():\n    from club.mosquitto import make_ca\n")
    (tmp_path / "mosquitto.py").write_text("def h():\n    from club.pairing import write_broker_config\n")
    modules = _modules(tmp_path)
    assert circles(modules)[0] == ["club.config", "club.pairing", "club.config"]
    assert ["club.mosquitto", "club.pairing", "club.mosquitto"] in circles(modules)
    assert inner_imports(modules) == ["club.config: import inside f() (line 2)", "club.mosquitto: import inside h() "
                                      "(line 2)", "club.pairing: import inside g() (line 3)"]
