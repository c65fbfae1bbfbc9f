"""Vision and the referee together: a real match, rendered as a video on one board, is replayed through
the pipeline (hands while a play is made, then a still board) and the referee must infer every play."""

from __future__ import annotations

import numpy as np
import pytest

from core.formats.mat import read_mat
from core.position import Position
from core.record import MOVE
from core.referee import Referee
from core.replay import replay
from tests.vision.real_photos import SHARED
from vision.pipeline import Pipeline
from vision.render import Options, Scene, render

MATCH = SHARED.parent.parent / "matches" / "samples" / "gnubg" / "charlot1-charlot2_7p_2025-11-08-2305.mat"
FPS = 30.0
SIZE = (640, 360)


def _scene(pos: Position) -> Scene:
    from core.position import Side

    return Scene(list(pos.light), list(pos.dark), {"light": pos.bar[Side.LIGHT], "dark": pos.bar[Side.DARK]},
                 {"light": pos.off[Side.LIGHT], "dark": pos.off[Side.DARK]})


def _opts(hand: bool) -> Options:
    return Options(size=SIZE, hand=hand, rotate=3.0, perspective=0.03, dice=False)


@pytest.mark.slow
def test_every_play_of_a_rendered_real_game_is_inferred() -> None:
    if not MATCH.is_file():
        pytest.skip(f"match record not found at {MATCH} (../shared is absent)")
    record = read_mat(MATCH.read_text())
    replay(record)
    game = record.games[0]
    moves = [a for a in game.actions if a.kind == MOVE and a.play is not None and a.position is not None]
    seed = 5
    ref = Referee()
    image, corners = render(_scene(Position.start()), seed, _opts(False))
    pipe = Pipeline(corners=corners)
    t = 0.0
    last_key = None
    verdicts: list[dict] = []

    def show(img: np.ndarray, frames: int) -> None:
        nonlocal t, last_key
        noise = np.random.default_rng(int(t * 1000))
        for _ in range(frames):
            frame = np.clip(img + noise.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)
            ev = pipe.process(frame, t)
            t += 1 / FPS
            key = (ev["stable"], ev["light"], ev["dark"], ev["bar"])
            if key != last_key:
                last_key = key
                verdicts.extend(ref.feed(ev))

    show(image, 12)
    for i, action in enumerate(moves):
        before = action.position
        d1, d2 = action.dice
        if i == 0:  # the referee picks the opener from the dice order: higher die first for light
            hi, lo = max(d1, d2), min(d1, d2)
            d1, d2 = (hi, lo) if action.side.value == "light" else (lo, hi)
        verdicts.extend(ref.feed({"event": "roll", "dice": [d1, d2], "cocked": [False, False]}))
        after = before.play(action.dice, action.play)
        show(render(_scene(before), seed, _opts(True))[0], 6)  # the hand making the play
        show(render(_scene(after), seed, _opts(False))[0], 12)
    verdicts.extend(ref.feed({"event": "button", "name": "end_turn"}))
    plays = [v for v in verdicts if v["verdict"] == "play"]
    state = ref.public_state()
    final = moves[-1].position.play(moves[-1].dice, moves[-1].play)
    print(f"referee inferred {len(plays)} of {len(moves)} plays from rendered video")
    odd = [(v["at"], v["verdict"], v.get("reason"), v.get("play"), v.get("candidates")) for v in verdicts
           if v["verdict"] not in ("in_progress", "roll", "play")]
    assert len(plays) == len(moves), odd[:12]
    assert state["position"]["light"] == list(final.light) and state["position"]["dark"] == list(final.dark)
    assert all(v["legal"] for v in plays)
