"""Peak memory of `gamao replay` and `gamao referee` on large files (issue 16: both must stay bounded).

    .venv/bin/python bench/bench_memory.py                 # 50 MB .mat and 50 MB events file
    .venv/bin/python bench/bench_memory.py --mb 10 --json  # smaller, one JSON object

The .mat is a money session made of the real corpus's games (renumbered, the running score written on
each score line); the events file is the same games as the kiosk's referee sees them (roll, then the
board after the play; new_game between games). Each command runs as its own process; its peak resident
memory is read from the kernel (getrusage of the finished child), output thrown away.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.figures import print_figures  # noqa: E402
from core.match.formats import decode_text  # noqa: E402
from core.match.formats.mat import read_mat, write_mat  # noqa: E402
from core.match.record import MOVE, GameRecord, MatchRecord  # noqa: E402
from core.match.replay import replay  # noqa: E402
from core.referee.events import dumps  # noqa: E402
from core.rules.position import Side  # noqa: E402

CORPUS = ROOT.parent / "shared" / "matches" / "corpus"
if not CORPUS.is_dir():
    CORPUS = ROOT / "tests" / "data" / "corpus"  # the 101 matches shipped with the repository


_GAMES: list[GameRecord] = []


def corpus_games() -> Iterator[GameRecord]:
    """Every replayed game of the corpus that ended by a result, cube actions or not, over and over."""
    if not _GAMES:
        files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".mat", ".txt"))
        if not files:
            raise SystemExit(f"no match files under {CORPUS}")
        for path in files[:400]:
            try:
                record = read_mat(decode_text(path.read_bytes()))
                replay(record)
            except ValueError:
                continue
            _GAMES.extend(g for g in record.games
                          if g.result is not None and all(a.kind != MOVE or a.play is not None for a in g.actions))
    while True:
        yield from _GAMES


def build_mat(path: Path, size: int) -> int:
    score = {Side.LIGHT: 0, Side.DARK: 0}
    games = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(" 0 point match\n\n")
        for game in corpus_games():
            games += 1
            one = MatchRecord(0, players={Side.LIGHT: "Ana", Side.DARK: "Bia"},
                              games=[GameRecord(games, dict(score), game.actions, result=game.result)])
            text = write_mat(one)
            out.write(text[text.index(" Game "):])
            assert game.result is not None
            score[game.result.winner] += game.result.points
            if out.tell() >= size:
                return games
    return games


def build_events(path: Path, size: int) -> int:
    events = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(dumps({"event": "new_match", "length": 0, "players": {"light": "Ana", "dark": "Bia"}}) + "\n")
        for number, game in enumerate(corpus_games()):
            if any(a.kind != MOVE for a in game.actions):
                continue  # plays only: the referee's own cube and resignation flow is not what is measured
            if number:
                out.write(dumps({"event": "button", "name": "new_game"}) + "\n")
            moves = game.actions
            for action, following in zip(moves, moves[1:], strict=False):
                if following.position is None or action.dice is None:
                    break
                # the position before the next play is the board after this one
                out.write(dumps({"event": "roll", "dice": list(action.dice), "cocked": [False, False]}) + "\n")
                out.write(dumps({"event": "board", **following.position.to_dict(), "stable": True}) + "\n")
                events += 2
            if out.tell() >= size:
                return events
    return events


def peak_rss_mb(cmd: list[str], root: Path = ROOT) -> tuple[float, float, int]:
    """(peak RSS in MB, seconds, exit status) of `cmd` run in a fresh child process."""
    probe = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
             "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t, p.returncode)")
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, cwd=root)
    kb, seconds, status = out.stdout.split()
    return int(kb) / 1024, float(seconds), int(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of each file in MB (default 50)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="source tree whose `gamao` is measured (default this one), e.g. an older commit "
                             "unpacked with `git archive COMMIT | tar -x -C DIR`")
    args = parser.parse_args()
    size = int(args.mb * 1024 * 1024)
    gamao = [sys.executable, "-m", "cli"]
    code = args.code.resolve()
    baseline, _, _ = peak_rss_mb([*gamao, "plays", "4HPwATDgc/ABMA", "31", "--count"], code)
    figures: dict[str, object] = {"code": str(code), "mb": args.mb, "baseline_rss_mb": round(baseline, 1)}
    with tempfile.TemporaryDirectory(prefix="gamao-bench-memory-") as tmp:
        mat, events = Path(tmp) / "big.mat", Path(tmp) / "big.jsonl"
        t0 = time.perf_counter()
        figures["mat_games"] = build_mat(mat, size)
        figures["events"] = build_events(events, size)
        figures["build_s"] = round(time.perf_counter() - t0, 1)
        for name, cmd in (("replay", [*gamao, "replay", str(mat), "--json"]),
                          ("referee", [*gamao, "referee", str(events), "--json"])):
            rss, seconds, status = peak_rss_mb(cmd, code)
            figures[f"{name}_rss_mb"] = round(rss, 1)
            figures[f"{name}_s"] = round(seconds, 1)
            figures[f"{name}_exit"] = status
    print_figures(figures, args.json, "{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
