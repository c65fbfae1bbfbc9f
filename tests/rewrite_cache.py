"""pytest's rewritten test modules, written once on every core before the run (`./dev test` calls it).

pytest rewrites the asserts of each test module (test_*.py, conftest.py) when it imports it, and keeps the result
beside it in __pycache__ (<name>.cpython-311-pytest-<version>.pyc, keyed by the source's hash). In a fresh clone
every pytest-xdist worker collects every module at the same moment, finds no such file and rewrites all of them
itself: four workers did the same 4.6 s of CPU each (collecting took 8.4 s of CPU with nothing rewritten yet,
3.7 s with it). This writes the files first, with pytest's own functions, so every worker reads them.

Best effort: a module already written is left alone, and anything that fails (a pytest whose internals moved, a
read-only checkout, a syntax error) is left to pytest, which rewrites it as before and reports what is wrong.
    python -m tests.rewrite_cache [folder ...]     (default: tests)
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any


class _Quiet:
    """The assert-rewriting state's trace, which _write_pyc calls when it cannot write."""

    def trace(self, *args: Any) -> None:
        pass


def rewrite(path: str) -> bool:
    """Write `path`'s rewritten module if pytest would rewrite it and it is not written yet; True when written."""
    try:
        from _pytest.assertion import rewrite as pytest_rewrite

        source = Path(path)
        cache = pytest_rewrite.get_cache_dir(source)
        pyc = cache / (source.name[:-3] + pytest_rewrite.PYC_TAIL)
        if pytest_rewrite._read_pyc(source, pyc) is not None or not pytest_rewrite.try_makedirs(cache):
            return False
        source_hash, code = pytest_rewrite._rewrite_test(source, None)  # type: ignore[arg-type]  # no ini options
        return bool(pytest_rewrite._write_pyc(_Quiet(), code, source_hash, pyc))  # type: ignore[arg-type]
    except Exception:
        return False


def modules(folders: list[str]) -> list[str]:
    """The modules pytest rewrites under `folders` (its default python_files, which pyproject.toml keeps)."""
    found = []
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
            found += [os.path.join(root, f) for f in files
                      if f == "conftest.py" or (f.endswith(".py") and (f.startswith("test_") or f.endswith("_test.py")))]
    return sorted(found)


def main(argv: list[str]) -> int:
    paths = modules(argv or ["tests"])
    if sys.dont_write_bytecode or not paths:
        return 0
    with ProcessPoolExecutor(max_workers=min(os.cpu_count() or 1, 8)) as pool:
        list(pool.map(rewrite, paths, chunksize=8))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
