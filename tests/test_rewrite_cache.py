"""tests/rewrite_cache.py writes the rewritten module pytest itself reads (its asserts explained), and only for the
modules pytest rewrites."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.assertion import rewrite as pytest_rewrite

from tests.rewrite_cache import modules, rewrite


def test_the_written_module_is_the_one_pytest_reads_with_its_asserts_explained(tmp_path: Path) -> None:
    source = tmp_path / "test_sample.py"
    source.write_text("def test_it():\n    x = [1, 2]\n    assert x == [1, 3]\n", "utf-8")
    assert rewrite(str(source)) is True
    pyc = pytest_rewrite.get_cache_dir(source) / ("test_sample" + pytest_rewrite.PYC_TAIL)
    code = pytest_rewrite._read_pyc(source, pyc)
    assert code is not None
    namespace: dict = {}
    exec(code, namespace)
    with pytest.raises(AssertionError) as failed:
        namespace["test_it"]()
    assert "assert [1, 2] == [1, 3]" in str(failed.value)  # the rewritten assert, not a bare AssertionError
    assert rewrite(str(source)) is False  # written already: left alone
    source.write_text("def test_it():\n    assert True\n", "utf-8")
    assert rewrite(str(source)) is True  # the source changed (the file is keyed by its hash): written again


def test_only_the_modules_pytest_rewrites(tmp_path: Path) -> None:
    for name in ("test_a.py", "b_test.py", "conftest.py", "helper.py", "test_data.json"):
        (tmp_path / name).write_text("", "utf-8")
    assert [Path(p).name for p in modules([str(tmp_path)])] == ["b_test.py", "conftest.py", "test_a.py"]
    assert rewrite(str(tmp_path / "missing_test.py")) is False  # anything wrong is left to pytest
