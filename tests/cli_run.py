"""The `gamao` command for tests: in this process where a test is about its output, as a real process where
the process itself is the point (exit status of the interpreter, signals, `gamao run`).

``gamao(*args, stdin=None, env=None)`` calls ``cli.main.main`` with its own stdin, stdout and stderr (with
``.buffer``, as the real ones have), ``os.environ`` updated by ``env`` for the call, the terminal width a pipe
gives, and the interpreter's behaviour at the end: an uncaught exception prints its traceback on stderr and
exits 1, ``SystemExit`` gives its code. ``gamao_process`` runs ``python -m cli`` with the same arguments and
returns the same ``Result``.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from typing import Any

from cli.main import main

GAMAO = [sys.executable, "-m", "cli"]


@dataclass
class Result:
    """What ``subprocess.run(..., capture_output=True)`` returns, for both ways of running the command."""

    returncode: int
    stdout: Any  # str, or bytes with text=False
    stderr: Any
    args: list[str] = field(default_factory=list)


@contextmanager
def _environ(env: dict[str, str] | None) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(env or {})
    os.environ.setdefault("COLUMNS", "80")  # argparse wraps help as for a pipe, whatever pytest's terminal
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _stream(data: bytes = b"", errors: str = "strict") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors=errors, newline=None)


#: How the interpreter decodes its stdin here (surrogateescape under the C and C.UTF-8 locales, PEP 540).
STDIN_ERRORS = getattr(sys.__stdin__, "errors", None) or "strict"


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # sys.exit("message"): the interpreter prints it and exits 1
    return 1


def gamao(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
          text: bool = True) -> Result:
    """``gamao ARGS`` in this process; ``stdin`` as text or bytes; output as text (or bytes with ``text=False``)."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    fin, fout, ferr = _stream(data, STDIN_ERRORS), _stream(), _stream()
    saved_stdin = sys.stdin
    sys.stdin = fin
    try:
        with _environ(env), redirect_stdout(fout), redirect_stderr(ferr):
            try:
                code = int(main(list(args)) or 0)
            except SystemExit as exc:
                code = _exit_code(exc.code)
            except BaseException:  # what the interpreter does with an uncaught exception
                traceback.print_exc()
                code = 1
    finally:
        sys.stdin = saved_stdin
    out, err = _read(fout), _read(ferr)
    if text:
        return Result(code, _text(out), _text(err), list(args))
    return Result(code, out, err, list(args))


def _read(stream: io.TextIOWrapper) -> bytes:
    stream.flush()
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    return raw.getvalue()


def _text(data: bytes) -> str:
    # As subprocess.run(text=True) reads a pipe: universal newlines.
    return data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def gamao_process(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
                  text: bool = True, timeout: float = 300, **kwargs: Any) -> Result:
    """``python -m cli ARGS`` as a real process (``env`` added to this process's environment)."""
    if text and isinstance(stdin, bytes):
        stdin = stdin.decode("utf-8")
    if not text and isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    done = subprocess.run([*GAMAO, *args], input=stdin, capture_output=True, text=text, timeout=timeout,
                          env=None if env is None else {**os.environ, **env}, **kwargs)
    return Result(done.returncode, done.stdout, done.stderr, list(args))
