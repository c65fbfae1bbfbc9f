"""core and the edges type-check: ``python -m mypy`` over pyproject.toml's [tool.mypy] files (core, vision,
firmware_bridge, engine, club) with its settings (untyped definitions refused, unused ``type: ignore`` comments
refused, casts that change nothing refused) exits 0."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


PACKAGES = ["core", "webguard", "vision", "firmware_bridge", "engine", "club"]


def test_mypy_over_core_and_the_edges_is_clean() -> None:
    assert importlib.util.find_spec("mypy") is not None, (
        "mypy is not installed: it is in the 'test' extra (`./dev test` installs it, or pip install -e '.[test]')")
    out = subprocess.run([sys.executable, "-m", "mypy", *PACKAGES],  # its cache: .mypy_cache in the checkout
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "Success: no issues found" in out.stdout


def test_the_settings_refuse_an_untyped_function_and_an_unused_ignore(tmp_path: Path) -> None:
    """The check can fail: a module with an untyped function and an unused ignore, under the same settings."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    return x\n\n\ny: int = 1  # type: ignore[assignment]\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), str(bad),
                          "--cache-dir", str(tmp_path / "cache")], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 1, out.stdout
    assert "no-untyped-def" in out.stdout and "unused-ignore" in out.stdout, out.stdout


def test_the_packages_are_pyprojects() -> None:
    """The list above is the one `python -m mypy` (no arguments) checks: pyproject.toml's ``files``."""
    import tomllib

    files = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]["files"]
    assert files == PACKAGES
