"""The demo's script, fed straight into the real referee: every verdict appears, and the recorded match
is still the real one (the faults are corrected before play goes on)."""

from __future__ import annotations

from collections import Counter

import pytest

from core.match.record import MOVE
from core.referee import Referee
from kiosk.demo_script import load_match, script


def feed_all(name: str) -> tuple[Referee, Counter, list[dict]]:
    ref, seen, verdicts = Referee(), Counter(), []
    for step in script(load_match(name)):
        event = {"event": "roll", **step.data} if step.kind == "roll" else dict(step.data)
        if step.kind == "hand":
            event["stable"] = False
        for v in ref.feed(event):
            seen[v["verdict"]] += 1
            verdicts.append(v)
    return ref, seen, verdicts


@pytest.mark.parametrize("name", ["3pt", "2pt"])
def test_demo_script_shows_every_verdict_and_keeps_the_real_match(name: str) -> None:
    record = load_match(name)
    ref, seen, verdicts = feed_all(name)
    kinds = ["opening", "roll", "in_progress", "play", "illegal", "reroll", "cube", "game_over", "match_over"]
    if name == "3pt":  # the 2-point match's one game has no turn where a die left unplayed is unambiguous
        kinds.append("unplayed_die")
    for kind in kinds:
        assert seen[kind] >= 1, f"{kind} never appeared: {seen}"
    assert seen["uncertain"] == 0
    state = ref.public_state()
    assert state["phase"] == "match_over"
    expected = {s.value: 0 for s in record.players}
    for game in record.games:
        expected[game.result.winner.value] += game.result.points
    assert state["match"]["score"] == expected
    assert all(v["legal"] for v in verdicts if v["verdict"] == "play")


def test_r24_cocked_die_then_r09_unplayed_die_then_illegal_play_reasons() -> None:
    _, _, verdicts = feed_all("3pt")
    faults = [(v["verdict"], v.get("reason")) for v in verdicts if v["verdict"] in ("reroll", "illegal", "unplayed_die")]
    assert faults == [("reroll", "cocked_die"), ("illegal", "wrong_distance"), ("unplayed_die", "unplayed_die")]
    unplayed = next(v for v in verdicts if v["verdict"] == "unplayed_die")
    assert unplayed["message"]["en"].startswith("The ") and "left unplayed" in unplayed["message"]["en"]


def test_bundled_matches_have_attribution() -> None:
    from importlib import resources

    text = resources.files("kiosk.data").joinpath("ATTRIBUTION.md").read_text()
    assert "lassehjorthmadsen/bglab commit 671cb08d, MIT, Copyright (c) 2023 backgammon authors" in text
    assert sum(1 for g in load_match("3pt").games for a in g.actions if a.kind == MOVE) == 121
