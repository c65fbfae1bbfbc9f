"""Vision with the referee on the seeds' other games (R30-R32): random self-play games of Plakoto, Russian
backgammon and Jacquet (core.referee.selfplay) rendered as a video on one board (a hand while a play is made,
then the still board), run through the vision pipeline and fed to the referee with the rolls. Counts the
turns the referee follows (its position before each roll equals the game's) and the illegal/uncertain
verdicts.

What the camera sees differs from backgammon's boards in three ways, all drawn by the renderer:
- Plakoto: a pinned checker lies under its pinner, so the camera sees only the pinner's colour there; the
  referee knows the pins from the plays (core.referee.games.plakoto).
- Plakoto and Jacquet start with all 15 on one point: a stack the camera cannot count (the referee's tall
  stack allowance, core.referee.inference).
- Russian: checkers waiting to enter are beside the board, in the tray, as the borne-off are.

    .venv/bin/python bench/bench_vision_variants.py [--variant NAME ...] [--games 5] [--first-seed 0]
        [--size 640x360] [--varied] [--trace SEED] [-v]

tests/vision/test_variants_with_referee.py runs one game per variant in the default test run.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_vision_referee import Video, _trace  # noqa: E402
from core.referee import Referee  # noqa: E402
from core.referee.selfplay import Game, random_game  # noqa: E402
from core.rules.position import Position  # noqa: E402
from core.rules.variants import VariantPosition, variant  # noqa: E402

VARIANTS = ("plakoto", "russian", "jacquet")
#: Frames of the still board after a play (30 a second), until vision calls it still: at most 1.5 s before the
#: next roll. A change to the pile in a corner beside the frame (Plakoto's and Jacquet's start point) looks like
#: an arm from the edge until the stillness takes it as the new board after a second (vision/stillness.py,
#: rebase_seconds).
AFTER_FRAMES = 45


@dataclass
class GameRun:
    """What the referee made of one rendered game: turns it followed, the first turn it lost, and its
    illegal/uncertain verdicts."""

    variant: str
    seed: int
    turns: int = 0
    followed: int = 0
    lost_at: int | None = None
    flagged: list[tuple[Any, ...]] = field(default_factory=list)
    corrections: int = 0  # unclear plays the players showed on the touch screen
    result: tuple[str | None, str] | None = None  # (winner, how) of the referee's game_over
    seconds: float = 0.0


def new_match(game: Game) -> dict[str, Any]:
    import dataclasses

    start = game.turns[0].before
    return {"event": "new_match", "length": 0, "players": {"light": "L", "dark": "D"}, "variant": game.variant,
            "variant_settings": dataclasses.asdict(start.settings)}


def replay_game(name: str, seed: int, size: tuple[int, int] = (640, 360), varied: bool = False,
                render_seed: int | None = None, trace: bool = False, max_turns: int | None = None) -> GameRun:
    """``max_turns``: stop after that many turns (the default test run's shorter version; no result then)."""
    game = random_game(variant(name), seed)
    run = GameRun(name, seed)
    t0 = time.perf_counter()
    ref = Referee()
    out: list[dict[str, Any]] = []
    ref.feed(new_match(game))
    start = game.turns[0].before
    video = Video(seed if render_seed is None else render_seed, size, varied, (list(start.light), list(start.dark)))
    if not any(start.light):
        # Russian (R31) starts on an empty board, which shows no colours: the players set up backgammon's start
        # once for the camera to learn them (docs/variants.md), then clear the board
        video.show(Position.start(), ref, [], frames=60)
    video.trace = trace
    video.show(start, ref, out, frames=120)  # setting up takes a few seconds
    for k, turn in enumerate(game.turns[:max_turns]):
        want = turn.before.with_turn(turn.side) if (turn.boards or turn.reroll) else turn.after
        if not turn.reroll:
            run.turns += 1
        d1, d2 = turn.dice
        if k == 0:  # the referee takes the opener from the dice order
            d1, d2 = (max(d1, d2), min(d1, d2)) if turn.side.value == "light" else (min(d1, d2), max(d1, d2))
        got = ref.feed({"event": "roll", "dice": [d1, d2], "cocked": [False, False]})
        out.extend(got)
        if trace:
            print(f"  {turn.side.value} rolls {d1}{d2}, plays {turn.text or '-'}")
            _trace(got)
        if ref.match_state.pos != want and not turn.reroll:
            run.lost_at = k
            if trace:
                print(f"  lost: the referee has {ref.match_state.pos!r}, the game {want!r}")
            break
        if not turn.reroll:
            run.followed += 1
        if turn.boards:
            video.show(turn.before, ref, out, hand=True, frames=6)
            if turn.dice[0] == turn.dice[1] and len(turn.boards) > 4:
                # a Russian chain (R31): the double's four moves stand still before the complement is played
                video.show(turn.boards[3], ref, out, frames=AFTER_FRAMES, until_still=True)
                video.show(turn.boards[3], ref, out, hand=True, frames=6)
            video.show(turn.after, ref, out, frames=AFTER_FRAMES, until_still=True)
            ts = ref.turn_state
            if ts.pending is not None or (ts.last_kind == "uncertain" and ts.model is not None and ts.last_turn_obs
                                          is not None and ts.model.explain(ts.last_turn_obs, committing=True).kind
                                          != "play"):
                # The kiosk says it cannot see which play was made (a pile it cannot count, a checker borne off
                # or entered that it cannot see go): the players show it on the touch screen, as the board is.
                board = {k: v for k, v in turn.after.to_json().items() if k != "turn"}
                out.extend(ref.feed({"event": "board", **board, "stable": True, "source": "manual"}))
                run.corrections += 1
    if run.lost_at is None and ref.public_state()["phase"] == "moving":
        out.extend(ref.feed({"event": "button", "name": "end_turn"}))  # the last play, committed by hand
    over = [v for v in out if v["verdict"] == "game_over"]
    if over:
        run.result = (over[-1].get("winner"), over[-1].get("how", ""))
    run.flagged = [(v["at"], v["verdict"], v.get("reason") or v.get("candidates")) for v in out
                   if v["verdict"] in ("illegal", "uncertain")]
    run.seconds = time.perf_counter() - t0
    return run


def expected_result(name: str, seed: int) -> tuple[str | None, str] | None:
    from core.referee.games import game_result

    game = random_game(variant(name), seed)
    res = game_result(game.final) if isinstance(game.final, VariantPosition) else None
    return None if res is None else (res[0].value if res[0] else None, res[2])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--games", type=int, default=5, help="games per variant")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--size", default="640x360")
    parser.add_argument("--varied", action="store_true", help="camera and lighting drawn per game")
    parser.add_argument("--trace", type=int, action="append", default=[], help="print every verdict of seed S")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    size = (int(args.size.split("x")[0]), int(args.size.split("x")[1]))
    for name in args.variant or VARIANTS:
        good = shown = 0
        for seed in range(args.first_seed, args.first_seed + args.games):
            run = replay_game(name, seed, size, args.varied, trace=seed in args.trace)
            want = expected_result(name, seed)
            same_end = run.result == want
            illegal = [f for f in run.flagged if f[1] == "illegal"]
            good += run.lost_at is None and run.followed == run.turns and same_end and not illegal
            shown += run.corrections
            print(f"{name} seed {seed}: {run.followed} of {run.turns} turns followed"
                  f"{'' if run.lost_at is None else f' (lost at turn {run.lost_at})'}, {len(illegal)} illegal, "
                  f"{len(run.flagged) - len(illegal)} uncertain verdicts {run.flagged[:2]}, {run.corrections} plays "
                  f"shown on the touch screen, result {run.result} (game: {want}) ({run.seconds:.0f} s)", flush=True)
        print(f"{name}: {good} of {args.games} games followed to the same result with no play called illegal; "
              f"{shown} unclear plays shown on the touch screen")


if __name__ == "__main__":
    main()
