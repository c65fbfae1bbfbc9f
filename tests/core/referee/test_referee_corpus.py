"""Every recorded match, seen through the camera, is refereed exactly like ``gamao replay`` reads it.

Streams come from tests/core/referee/referee_streams.py: rolls, boards halfway through each play, unstable
boards between them and the exact board after each play. The default run takes a deterministic spread
of the corpus; ``--soak`` (GAMAO_SOAK=1) takes all 1,777 files (about 190,000 plays).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.referee import Referee
from core.rules.position import Side
from tests.core.referee.referee_streams import CORPUS, corpus_files, load, match_stream, subset
from tests.soak import soak

SOAK = soak()
FILES = corpus_files() if SOAK else subset(40)
FAULTS = ("illegal", "unplayed_die", "uncertain", "reroll")


def _ids(files: list[Path]) -> list[str]:
    return [f.name[:40] for f in files]


@pytest.fixture(autouse=True)
def _need_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is missing: put the project's shared/ folder beside the checkout")


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_corpus_match_refereed_like_replay(path: Path) -> None:
    record = load(path)
    tagged, expected = match_stream(record, seed=len(path.name))
    ref = Referee()
    verdicts = []
    for t in tagged:
        verdicts += ref.feed(t.event)
    false = [v for v in verdicts if v["verdict"] in FAULTS]
    assert false == [], f"{path.name}: false verdicts {false[:3]}"
    plays = [(v["side"], v["position_id"]) for v in verdicts if v["verdict"] == "play"]
    assert plays == [(side, pid) for _, side, _, pid in expected.plays]
    results = [(v["winner"], v["points"]) for v in verdicts if v["verdict"] == "game_over"]
    assert results == expected.results
    score = ref.public_state()["match"]["score"]
    assert [score["light"], score["dark"]] == expected.score
    report_score = record.final_score
    if record.length and max(expected.score) >= record.length:
        assert [v for v in verdicts if v["verdict"] == "match_over"][-1]["score"] == expected.score
        assert [report_score[Side.LIGHT], report_score[Side.DARK]] == expected.score


def test_subset_is_deterministic_and_spread() -> None:
    if SOAK:
        pytest.skip("the soak run takes every file")
    assert subset(40) == FILES
    folders = {f.parent.name for f in FILES}
    assert folders == {"lasse", "Llabba"}
