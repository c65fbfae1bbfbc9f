"""The web guard type-checks under pyproject.toml's [tool.mypy] settings (strict where cheap), as core does
(tests/core/test_types.py): it is what both servers trust against the network."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_over_the_web_guard_is_clean() -> None:
    assert importlib.util.find_spec("mypy") is not None, "mypy is not installed: it is in the 'test' extra"
    out = subprocess.run([sys.executable, "-m", "mypy", "webguard"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "Success: no issues found" in out.stdout
