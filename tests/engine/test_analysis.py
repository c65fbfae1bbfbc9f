"""engine.analysis against gnubg's own ``analyse match`` (the Debian gnubg, same depth, default run).

Per play: the same plays in the same order, the same label (doubtful / bad / very bad) and the loss within
0.002; per side: the same unforced plays, label counts, and the error rate within 0.5 thousandths.
Matches from the corpus, replayed with core.match.replay (R23: plays stand as played).
"""

from __future__ import annotations

import pytest

from core import Side, read_mat
from core.match.formats import decode_text
from engine.analysis import analyse_record
from engine.gnubg import GnubgEngine
from tests.engine.oracle import analyse_match, corpus_files

MATCHES = 20


def _matches(n: int) -> list:
    files = corpus_files()
    return files[:: len(files) // n][:n]


@pytest.fixture(scope="module")
def engine():
    with GnubgEngine(timeout=60) as e:
        yield e


@pytest.mark.parametrize("path", _matches(MATCHES), ids=lambda p: p.stem[:40])
def test_labels_and_error_rates_equal_gnubgs_analyse_match(engine, path):
    record = read_mat(decode_text(path.read_bytes()))
    ours = analyse_record(record, engine, plies=0)
    want = analyse_match(path, plies=0)
    assert not ours.skipped
    plays = want["plays"]
    assert len(ours.plays) == len(plays)
    for mine, theirs in zip(ours.plays, plays, strict=True):
        assert mine.game == theirs["game"]
        assert mine.side == (Side.LIGHT if theirs["player"] == "X" else Side.DARK)
        assert set(mine.dice) == set(theirs["dice"])
        assert mine.label == (theirs["skill"].replace(" ", "_") if theirs["skill"] else None), (mine, theirs)
        assert abs(mine.loss - theirs["loss"]) <= 0.002
        assert mine.forced == theirs["forced"]
    for player, side in (("X", Side.LIGHT), ("O", Side.DARK)):
        stats, summary = want["stats"][player], ours.summary[side]
        assert summary.plays == stats["unforced"]
        rate = 1000 * stats["error"] / stats["unforced"] if stats["unforced"] else 0.0
        assert abs(summary.error_rate - rate) <= 0.5
        assert summary.labels == {"doubtful": stats["marked"]["doubtful"], "bad": stats["marked"]["bad"],
                                  "very_bad": stats["marked"]["very bad"]}


@pytest.mark.parametrize("path", _matches(MATCHES)[::4], ids=lambda p: p.stem[:40])
def test_the_exported_sgf_loads_into_gnubg_with_our_analysis(engine, path, tmp_path):
    from engine.analysis import export_sgf
    from tests.engine.oracle import load_sgf

    record = read_mat(decode_text(path.read_bytes()))
    ours = analyse_record(record, engine, plies=0)
    sgf = tmp_path / "analysed.sgf"
    sgf.write_text(export_sgf(record, ours))
    back = load_sgf(sgf)
    assert [p["skill"] for p in back["plays"]] == [
        r.label.replace("_", " ") if r.label else None for r in ours.plays]
    for player, side in (("X", Side.LIGHT), ("O", Side.DARK)):
        stats = back["stats"][player]
        assert stats["unforced"] == ours.summary[side].plays
        rate = 1000 * stats["error"] / stats["unforced"] if stats["unforced"] else 0.0
        assert abs(ours.summary[side].error_rate - rate) <= 0.01
