"""Each of the seeds' other games (R30-R32) walked at 800x480 from the chair (issue 37): a whole generated game of
Plakoto, Russian backgammon and Jacquet, with its own fault (refused, then put right), fed event by event to the
real referee service behind a real server, with the page open in headless Chromium from the new match to the
game's end (every verdict waited for with --soak; the default run waits at each phase, plays the middle of the
game with the page away and opens it again for the end). The page walks' checker (tests/kiosk/test_page_walk.py: 48 px targets, the essentials on screen) and
the chair's checks (tests/kiosk/chair.py: the 18 px floor, no code in a sentence, one language, no emoji, nothing
cut) run at each new verdict; each phase is shot (artifacts/screenshots/variants/). The variant's own words are
checked besides: the point named in its fault's sentence is the one labelled on the board (one numbering)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kiosk.demo_script import VARIANT_FAULTS, variant_script
from tests.kiosk.live import live_kiosk
from tests.kiosk.test_page_walk import _open, browser  # noqa: F401  (the module's shared Chromium fixture)
from tests.soak import soak

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots" / "variants"

# The phases shot: the set-up board, the opening roll, the first play, the variant's own fault, the put-right
# board, a double (Russian: the chain), the game's end.
RENDERS = "Number(document.body.dataset.renders)"
# The pins (physical points) whose board label the panel does not say: [] when the screen has one numbering.
ONE_NUMBERING = """(pins) => pins.map((p) => document.querySelector(`[data-testid=board] polygon[data-point="${p}"]`)
  .getAttribute("data-own")).filter((own) => !new RegExp(`(^|[^0-9])${own}([^0-9]|$)`)
  .test(document.getElementById("variant-info").textContent.split(":").slice(1).join(":")))"""


def _phase(name: str, state: dict[str, Any], verdicts: list[dict[str, Any]], seen: set[str]) -> str | None:
    """Which phase this step shows, the first time it is seen (None: nothing new to shoot)."""
    kinds = {v["verdict"] for v in verdicts}
    phase = None
    if state.get("phase") == "opening" and "opening" not in seen:
        phase = "opening"
    elif "opening" in kinds:
        phase = "opening-roll"
    elif any(v.get("reason") == VARIANT_FAULTS[name][0] for v in verdicts):
        phase = "fault"
    elif "fault" in seen and "put-right" not in seen and kinds & {"in_progress", "legal", "play"}:
        phase = "put-right"
    elif state.get("chain") and "chain" not in seen:
        phase = "chain"
    elif "play" in kinds and "first-play" not in seen:
        phase = "first-play"
    elif "game_over" in kinds:
        phase = "game-over"
    if phase in seen:
        return None
    if phase:
        seen.add(phase)
    return phase


@pytest.mark.parametrize("name", ["plakoto", "russian", "jacquet"])
def test_r30_r31_r32_each_variant_walked_from_the_chair_at_800x480(browser: Any, tmp_path: Path,  # noqa: F811
                                                                     name: str) -> None:
    with live_kiosk(tmp_path, coach_engine=None) as (url, service, _app):
        page = _open(browser, url + "/?lang=pt", 800, 480)
        page.wait_for_function(f"{RENDERS} > 0")
        SHOTS.mkdir(parents=True, exist_ok=True)
        seen: set[str] = set()
        fault: dict[str, Any] = {}
        found: dict[str, list[str]] = {}
        # Every verdict waits for its render with --soak. The default run waits until each phase has been seen, plays
        # the middle of the game with the page away (its findings so far kept), and opens it again for the end.
        phases = {"opening", "opening-roll", "first-play", "fault", "put-right"} | ({"chain"} if name == "russian" else set())
        away = False
        for step in variant_script(name):
            n = 0 if away else page.evaluate(RENDERS)
            if step.kind == "roll":
                verdicts = service.submit({"event": "roll", **step.data})
            elif step.kind in ("board", "hand"):
                verdicts = service.submit({**step.data, "stable": step.kind == "board"})
            else:
                verdicts = service.submit(step.data)
            state = service.state()
            phase = _phase(name, state, verdicts, seen)
            if not away and not phase and not soak() and phases <= seen:
                found.update(page.evaluate("window.__walk.verdicts"))
                page.goto("about:blank")
                away = True
            if away:
                if phase != "game-over":
                    continue
                page.goto(url + "/?lang=pt")
                page.wait_for_function(f"{RENDERS} > 0")
                away = False
            elif not verdicts and not phase:
                continue
            else:
                page.wait_for_function(f"{RENDERS} > {n}")
            if phase:
                page.wait_for_timeout(150)  # the render's paint
                page.screenshot(path=str(SHOTS / f"{name}-{phase}.png"))
                # One numbering on the screen: each pinned checker's point in the panel is the board's label there.
                pins = [pin["point"] for pin in (state.get("position") or {}).get("pinned") or []]
                assert page.evaluate(ONE_NUMBERING, pins) == [], (phase, page.inner_text("[data-testid=variant-info]"))
            if phase == "fault":
                fault = {"head": page.inner_text("#verdict-head"), "detail": page.inner_text("#verdict-detail"),
                         "labels": page.eval_on_selector_all("[data-testid=board] text", "(t) => t.map((e) => e.textContent)")}
        found.update(page.evaluate("window.__walk.verdicts"))
        page.context.close()
    assert {"opening", "fault", "game-over"} <= seen, seen
    kinds = {k.split(":")[0] for k in found}
    assert {"illegal", "game_over"} <= kinds, kinds
    problems = {k: v for k, v in found.items() if v}
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)[:3000]
    # The fault's sentence names the point with the board's own label (the mover's numbering), no rule code.
    assert fault and "(R3" not in fault["detail"], fault
