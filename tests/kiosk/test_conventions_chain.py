"""The table's conventions (R19-R22, issue 36) through the whole chain, in each rule set: scenes drawn by the
synthetic renderer with a hand over the board while a play is made (vision/render.py), read by the vision
pipeline, ruled on by the kiosk's referee service, and shown by the page in real headless Chromium at 800x480.

Each scene is filmed once (the camera does not know the rules): its board events, with the rolls and the claim
between them, are then played into a fresh kiosk per rule set, and at the moment each convention matters the
test checks the referee's verdict and the banner on the screen. docs/tournament.md's table points here.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import pytest

from bench.bench_vision_referee import Video, _scene
from core.referee.rulesets import NAMES
from core.rules.position import Position, Side
from kiosk.service import RefereeService
from tests.core.referee.scenarios import moved
from tests.kiosk.browser import SCREENSHOTS, chromium_page, screenshot
from tests.kiosk.live import live_kiosk
from tests.kiosk.test_conventions_page import claim_on_screen
from vision.render import render

START = Position.start()
SIZE = (640, 360)
SEED = 0
TOURNAMENT = ("tournament_usbgf", "tournament_ukbgf")
HEADS = {"step": "Captura em andamento na casa 7", "off_board": "Peça fora do tabuleiro: vai para a barra",
         "bar_first": "Entre primeiro a peça da barra"}


class Film:
    """One scene filmed: the pipeline's board events (a hand over the board, then the board still), with the
    rolls, the claims and the moments to check between them, in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.video = Video(SEED, SIZE)
        self.steps: list[tuple[str, Any]] = []
        self.frames = 0

    def feed(self, ev: dict[str, Any]) -> list[dict[str, Any]]:  # the Video's referee: record what vision sent
        self.steps.append(("event", dict(ev)))
        return []

    def board(self, pos: Position, keep: str | None = None) -> None:
        self.video.show(pos, self, [], hand=True, frames=6)  # type: ignore[arg-type]
        self.video.show(pos, self, [])  # type: ignore[arg-type]
        self.frames += 18
        if keep:  # the rendered frames of the moment, with and without the hand
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for hand in (True, False):
                img = render(_scene(pos), SEED, self.video.opts(hand))[0]
                cv2.imwrite(str(SCREENSHOTS / f"{self.name}-{keep}-{'hand' if hand else 'still'}.png"), img)

    def roll(self, a: int, b: int) -> None:
        self.steps.append(("event", {"event": "roll", "dice": [a, b], "cocked": [False, False]}))

    def claim(self, point: int) -> None:
        self.steps.append(("claim", point))

    def check(self, label: str) -> None:
        self.steps.append(("check", label))


OPENING = START.play((6, 4), "24/18 13/9")           # light's blot on its 18-point (dark's 7)
HIT = OPENING.play((6, 1), "13/7* 8/7")              # dark hits it
LIFTED = moved(OPENING, Side.LIGHT, 18, 25)          # the blot already on the bar, dark's checker not yet on it


@cache
def film(name: str) -> Film:
    f = Film(name)
    f.video.show(START, f, [], frames=120)  # type: ignore[arg-type]  # the board set up: vision learns the colours
    if name == "r19":
        f.roll(3, 1)
        f.board(moved(START, Side.LIGHT, 8, 5), keep="lifted")  # Ana's checker from 8, half a play
        f.board(START, keep="put-back")                         # ...and put back
        f.check("seen")
        f.claim(8)
        f.check("claim")
        f.board(START.play((3, 1), "13/10 6/5"))
        f.roll(6, 4)
        f.check("ignored")
    else:
        f.roll(6, 4)
        f.board(OPENING)
        f.roll(6, 1)
        f.board(LIFTED, keep="hit-half-made")
        f.check("step")
        if name == "r21":
            beside = moved(HIT, Side.LIGHT, 25, 0)  # the hit checker left beside the board, not on the bar
            for _ in range(4):
                f.board(beside, keep="beside")
            f.check("off_board")
            f.board(HIT)
            f.roll(4, 3)
            f.check("hit_stands")
        else:
            f.board(HIT)
            f.check("hit_done")
            f.roll(4, 3)
            f.board(moved(HIT, Side.LIGHT, 13, 9), keep="before-entering")
            f.check("bar_first")
            f.board(HIT.play((4, 3), "bar/21 13/10"))
            f.roll(5, 2)
            f.check("entered")
    return f


def expect(film_name: str, label: str, rule_set: str, verdicts: list[dict[str, Any]]) -> str:
    """Check the referee's verdicts since the last moment; the verdict the banner must show now."""
    names = [v["verdict"] for v in verdicts]
    last = verdicts[-1] if verdicts else {}
    touch = rule_set == "casual"
    if label == "seen":
        assert ("touch_move_seen" in names) == touch, names
        return "touch_move_seen" if touch else "in_progress"
    if label == "claim":
        return "touch_move_upheld" if touch else "touch_move_not_in_rules"
    if label == "ignored":
        play = next(v for v in verdicts if v["verdict"] == "play")
        assert play["play"] == "13/10 6/5" and play["legal"], names
        assert ("touch_move_ignored" in names) == touch, names
        return "touch_move_ignored" if touch else "roll"
    if label == "step":
        assert "illegal" not in names, names
        assert (last["verdict"], last.get("step")) == ("in_progress", "hit"), verdicts
        assert "to" not in last
        return "in_progress"
    if label == "off_board":
        said = [v for v in verdicts if v["verdict"] == "checker_off_board"]
        assert [(v["side"], v["point"]) for v in said] == [("light", "bar")], names
        assert "illegal" not in names and "to" not in said[0]
        return "checker_off_board"
    if label in ("hit_stands", "entered"):
        play = next(v for v in verdicts if v["verdict"] == "play")
        assert play["legal"] and play["play"] == ("13/7* 8/7" if label == "hit_stands" else "bar/21 13/10"), verdicts
        assert "illegal" not in names
        return "roll"
    if label == "hit_done":
        assert last["verdict"] == "in_progress" and last["complete"], verdicts
        return "in_progress"
    if label == "bar_first":
        hint = last
        assert (hint["verdict"], hint["to"]) == ("bar_first_hint", ["light"]), verdicts
        assert "answers" not in hint and "illegal" not in names
        return "bar_first_hint"
    raise AssertionError(label)


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[tuple[str, RefereeService]]:
    with live_kiosk(tmp_path) as (url, service, _):
        yield url, service


@pytest.mark.parametrize("rule_set", NAMES)
@pytest.mark.parametrize("convention", ["r19", "r20_r22", "r21"])
def test_conventions_through_renderer_vision_referee_and_page(kiosk: Any, convention: str, rule_set: str) -> None:
    url, service = kiosk
    f = film(convention)
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"rule_set": rule_set}})
    seen: list[dict[str, Any]] = []
    with chromium_page(800, 480) as page:
        page.set_default_timeout(60_000)  # the machine may be busy: every wait is for a push that will come
        page.goto(url + "/")
        page.wait_for_selector("body[data-renders]", state="attached")
        for kind, what in f.steps:
            if kind == "event":
                seen += service.submit(what)
            elif kind == "claim":
                claim_on_screen(page, what)  # the opponent, on the screen's board
                page.wait_for_function("(n) => (window.__gamao.state?.verdicts || []).some((v) => v.verdict.startsWith('touch_move_') && v.verdict !== 'touch_move_seen')", arg=None)
                seen += [v for v in service.state()["verdicts"] if v["verdict"].startswith("touch_move_")][-1:]
            else:
                want = expect(convention, what, rule_set, seen)
                page.wait_for_selector(f"[data-testid=verdict][data-verdict={want}]")
                if what in HEADS:  # the banner's words at the moment it matters
                    assert page.inner_text("#verdict-head") == HEADS[what], what
                if rule_set in ("casual", "tournament_usbgf"):
                    screenshot(page, f"chain-{convention}-{what}-{rule_set}-800x480")
                seen = []
