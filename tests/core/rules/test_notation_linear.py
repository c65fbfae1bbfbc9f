"""Writing and replaying a play line of many moves takes work in proportion to its length (issue 16).

A damaged or hostile .mat can hold one play line of megabytes; ``Play.text()`` once compared every step with
every chain built so far, so 128 KB took 17 s and 10 MB never ended. Time is not asserted (the machine is
shared): the tests count the lines of ``core`` that Python runs, which is the same on every machine, for a
play of n moves and of 2n moves. Linear work doubles; the old quadratic work quadrupled.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import core
from core.match.formats.mat import read_mat
from core.match.replay import replay
from core.rules.notation import Move, Play

CORE = str(Path(core.__file__).resolve().parent)
HEAD = " 3 point match\n\n Game 1\n ana : 0                         bruno : 0\n"


def lines_run_in_core(work: Callable[[], object]) -> int:
    """How many lines of code under core/ Python runs while doing ``work``."""
    count = 0

    def in_core(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal count
        if event == "line":
            count += 1
        return in_core

    def on_call(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        return in_core if frame.f_code.co_filename.startswith(CORE) else None

    sys.settrace(on_call)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def grows_linearly(make: Callable[[int], Callable[[], object]], n: int) -> tuple[int, int]:
    return lines_run_in_core(make(n)), lines_run_in_core(make(2 * n))


def test_text_of_many_separate_checkers_is_linear() -> None:
    # 24/23 again and again: every step starts a chain of its own (the old code's worst case).
    small, big = grows_linearly(lambda n: Play((Move(24, 23),) * n).text, 400)
    assert big <= 2.2 * small, (small, big)
    assert Play((Move(24, 23),) * 800).text() == "24/23(800)"


def test_text_of_long_chains_and_mixed_steps_is_linear() -> None:
    def play(n: int) -> Callable[[], object]:
        steps = [Move(f, f - d, (f + d) % 3 == 0) for f in range(24, 0, -1) for d in (1, 2, 5) if f - d >= 0]
        return Play(tuple(steps[k % len(steps)] for k in range(n))).text

    small, big = grows_linearly(play, 400)
    assert big <= 2.2 * small, (small, big)


def test_replay_of_a_play_line_of_many_moves_is_linear() -> None:
    def replay_of(n: int) -> Callable[[], object]:
        record = read_mat(HEAD + "  1) 31: " + " ".join(["24/23"] * n) + "\n")
        return lambda: replay(record)

    small, big = grows_linearly(replay_of, 400)
    assert big <= 2.2 * small, (small, big)
    report = replay(read_mat(HEAD + "  1) 31: " + " ".join(["24/23"] * 400) + "\n"))
    assert [p.kind for p in report.problems] == ["illegal_play"]
    assert report.problems[0].message.startswith("illegal play '24/23(400)' with 31")
