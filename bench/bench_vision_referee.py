"""Vision with the referee on whole matches: each game of a match record is rendered as a video on one board
(hands while a play is made, then a still board), run through the vision pipeline and fed to the referee
with the rolls and cube actions; counts the plays the referee infers correctly (the position after each
equals the record's), plays ruled legal but wrong, and illegal/uncertain verdicts.

    .venv/bin/python bench/bench_vision_referee.py [MATCH.mat ...] [--size 640x360] [--game N] [--seed S]
        [--seeds K] [--varied] [--corpus N] [-v]

tests/vision/test_with_referee.py runs a few single games of this in the default test run.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from core.match.formats.mat import read_mat
from core.match.record import ACCEPT, DOUBLE, DROP, MOVE, REJECT, RESIGN, TAKE
from core.match.replay import replay
from core.referee import Referee
from core.rules.position import Position, Side
from core.rules.variants import VariantPosition
from vision.pipeline import Pipeline
from vision.render import Options, Scene, render
from vision.synthetic import SensorNoise, random_options

VERBOSE = False
DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "matches" / "samples" / "gnubg"


def _scene(pos: Position) -> Scene:
    if isinstance(pos, VariantPosition):  # R30-R32: pins drawn under their pinners; Russian waiting in the tray
        j = pos.to_json()
        waiting = j.get("waiting", {"light": 0, "dark": 0})
        return Scene(j["light"], j["dark"], j["bar"], {s: j["off"][s] + waiting[s] for s in ("light", "dark")},
                     [(p["point"], p["side"]) for p in j.get("pinned", ())])
    return Scene(list(pos.light), list(pos.dark), {"light": pos.bar[Side.LIGHT], "dark": pos.bar[Side.DARK]},
                 {"light": pos.off[Side.LIGHT], "dark": pos.off[Side.DARK]})


class Video:
    """One board filmed by one camera; ``varied`` draws the camera and lighting from the synthetic test's
    ranges (perspective, rotation, blur, noise, glare, gradient, bar width...), else a mild fixed view.
    Dice are never on the board: they are thrown in the dice unit's tray."""

    def __init__(self, seed: int, size: tuple[int, int], varied: bool = False,
                 start: tuple[list[int], list[int]] | None = None) -> None:
        self.seed, self.size, self.t, self.key = seed, size, 0.0, None
        base = Options(size=size, rotate=3.0, perspective=0.03, dice=False)
        if varied:
            base = replace(random_options(np.random.default_rng([seed, 7]), size), dice=False)
        self.base = base
        _, corners = render(Scene.start(), seed, self.opts(False))
        self.pipe = Pipeline(corners=corners, start=start)  # start: a variant's, to learn the colours from
        self.noise = SensorNoise(np.random.default_rng(seed), 1.5)

    def opts(self, hand: bool) -> Options:
        return replace(self.base, hand=hand)

    def show(self, pos: Position, ref: Referee, out: list[dict], hand: bool = False, frames: int = 12,
             until_still: bool = False) -> None:
        """``frames`` frames of ``pos`` (30 a second); ``until_still``: no more once vision calls it still."""
        img = render(_scene(pos), self.seed, self.opts(hand))[0]
        for _ in range(frames):
            frame = self.noise(img)
            ev = self.pipe.process(frame, self.t)
            self.t += 1 / 30
            key = (ev["stable"], ev["light"], ev["dark"], ev["bar"])
            if key != self.key:
                self.key = key
                got = ref.feed(ev)
                out.extend(got)
                if self.trace and ev["stable"] and not hand:
                    seen = (ev["light"], ev["dark"], ev["bar"])
                    truth = (list(pos.light), list(pos.dark), {"light": pos.bar[Side.LIGHT], "dark": pos.bar[Side.DARK]})
                    if seen != truth:
                        print(f"    misread: {_misread(seen, truth)}")
                    _trace(got)
            if until_still and ev["stable"] and not hand:
                break

    trace = False


def _misread(seen: tuple, truth: tuple) -> str:
    out = [f"{side} {p + 1}: {t} seen as {s}" for side, a, b in (("light", seen[0], truth[0]), ("dark", seen[1], truth[1]))
           for p, (s, t) in enumerate(zip(a, b, strict=True)) if s != t]
    out += [f"{side} bar: {truth[2][side]} seen as {seen[2][side]}" for side in ("light", "dark")
            if seen[2][side] != truth[2][side]]
    return "; ".join(out)


def _trace(verdicts: list[dict]) -> None:
    for v in verdicts:
        extra = v.get("play", v.get("candidates", v.get("reason", "")))
        print(f"    {v['verdict']} {v.get('side', '')} {v.get('dice', '')} {extra}"
              f"{' (pending)' if v.get('pending') else ''}{' legal' if v.get('legal') else ''}")


@dataclass
class MatchRun:
    """What the referee made of a rendered match: plays expected, plays inferred and right (the position
    after each equals the record's), plays ruled legal but wrong, and the illegal/uncertain verdicts."""

    expected: int = 0
    right: int = 0
    wrong_plays: int = 0
    flagged: int = 0
    resets: int = 0  # New game pressed because the referee had not seen the last game end
    problems: list[tuple] = field(default_factory=list)


def _same(v: dict, truth: tuple[Side, Position]) -> bool:
    side, after = truth
    if v["side"] != side.value or not v["legal"]:
        return False
    got = Position.from_position_id(v["position_id"], side.other)
    return (got.light, got.dark, got.bar, got.off) == (after.light, after.dark, after.bar, after.off)


def replay_match(path: Path, size: tuple[int, int], seed: int, games: list[int] | None = None,
                 varied: bool = False, trace: tuple[int, ...] = ()) -> MatchRun:
    record = read_mat(path.read_text())
    replay(record)
    ref = Referee()
    ref.feed({"event": "new_match", "length": record.length, "players": {"light": "L", "dark": "D"}})
    video = Video(seed, size, varied)
    run = MatchRun()
    for g, game in enumerate(record.games, start=1):
        if games and g not in games:
            continue
        if games:  # a game on its own, from a fresh referee (the match score is not carried over)
            ref = Referee()
            ref.feed({"event": "new_match", "length": record.length, "players": {"light": "L", "dark": "D"}})
        video.trace = g in trace
        out: list[dict] = []
        truths: list[tuple[Side, Position, bool]] = []  # (mover, position after, a play that must be seen)
        video.show(Position.start(), ref, out, frames=120)  # setting up a new game takes a few seconds
        if ref.public_state()["phase"] in ("moving", "awaiting_roll", "cube_offered"):
            # the referee lost the last game: the players see it say so and press New game
            out.extend(ref.feed({"event": "button", "name": "new_game"}))
            run.resets += 1
        first = True
        for action in game.actions:
            side = action.side.value if action.side else None
            if action.kind == MOVE and action.dice and action.position is not None:
                d1, d2 = action.dice
                if first:  # the referee takes the opener from the dice order
                    d1, d2 = (max(d1, d2), min(d1, d2)) if side == "light" else (min(d1, d2), max(d1, d2))
                first = False
                got = ref.feed({"event": "roll", "dice": [d1, d2], "cocked": [False, False]})
                out.extend(got)
                if video.trace:
                    print(f"  {side} rolls {d1}{d2}, plays {action.play}")
                    _trace(got)
                after = action.position.play(action.dice, action.play) if action.play else action.position
                # a roll the player resigned on instead of playing is not counted as a play (the referee may
                # record it as an empty one, as the file does); a dance (no legal play) is one
                required = bool(action.play) or not action.position.legal_plays(action.dice).count()
                truths.append((action.position.turn, after, required))
                video.show(action.position, ref, out, hand=True, frames=6)
                video.show(after, ref, out)
            elif action.kind in (DOUBLE, TAKE, DROP):
                out.extend(ref.feed({"event": "cube", "action": action.kind, "side": side}))
            elif action.kind == RESIGN:
                # Galaxy's "Losses N points" counts the cube in; the event wants 1, 2 or 3
                level = game.result.value if game.result is not None and game.result.how == "resign" else 1
                out.extend(ref.feed({"event": "resign", "side": side, "value": level}))
            elif action.kind in (ACCEPT, REJECT):
                out.extend(ref.feed({"event": "resign_reply", "accept": action.kind == ACCEPT}))
        result = game.result
        rolled_then_resigned = bool(truths) and not truths[-1][2]
        if ref.public_state()["phase"] == "moving" and not rolled_then_resigned:
            out.extend(ref.feed({"event": "button", "name": "end_turn"}))  # the last play, committed by hand
        if ref.public_state()["phase"] not in ("game_over", "match_over") and result is not None \
                and result.how == "resign":  # the file states the resignation only in its result
            loser = result.winner.other.value
            out.extend(ref.feed({"event": "resign", "side": loser, "value": result.value or 1}))
            out.extend(ref.feed({"event": "resign_reply", "accept": True}))
        right = j = 0
        for v in (v for v in out if v["verdict"] == "play"):
            k = next((k for k in range(j, len(truths)) if _same(v, truths[k][:2])), None)
            if k is None:
                run.wrong_plays += 1
                run.problems.append((g, v["at"], "wrong play", v["play"]))
            else:
                right, j = right + truths[k][2], k + 1
        expected = sum(t[2] for t in truths)
        run.expected += expected
        run.right += right
        odd = [(g, v["at"], v["verdict"], v.get("reason") or v.get("candidates"))
               for v in out if v["verdict"] in ("illegal", "uncertain")]
        run.flagged += len(odd)
        run.problems += odd
        if VERBOSE:
            print(f"  game {g}: {right} of {expected} plays inferred; first problems {odd[:4]}")
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("matches", nargs="*", type=Path)
    parser.add_argument("--size", default="640x360")
    parser.add_argument("--seed", type=int, default=None, help="render seed (default: the match's index)")
    parser.add_argument("--game", type=int, action="append", help="only this game (1-based), from a fresh referee")
    parser.add_argument("--corpus", type=int, default=0, help="also N matches drawn from ../shared/matches")
    parser.add_argument("--draw", type=int, default=2026, help="random seed of the corpus draw")
    parser.add_argument("--varied", action="store_true", help="camera and lighting drawn per match")
    parser.add_argument("--seeds", type=int, default=1, help="render each match this many times")
    parser.add_argument("--trace", type=int, action="append", default=[], help="print every verdict of game N")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    cv2.setNumThreads(1)
    size = tuple(int(v) for v in args.size.split("x"))
    paths = args.matches or sorted(DEFAULT.glob("*.mat"))[:2]
    if args.corpus:
        corpus = sorted((DEFAULT.parents[1] / "corpus").rglob("*.txt"))
        paths = paths + random.Random(args.draw).sample(corpus, args.corpus)
    runs = [(i * args.seeds + k, path) for i, path in enumerate(paths) for k in range(args.seeds)]
    total = MatchRun()
    for i, path in runs:
        t0 = time.perf_counter()
        seed = i if args.seed is None else args.seed
        run = replay_match(path, size, seed=seed, games=args.game, varied=args.varied,
                           trace=tuple(args.trace))
        for name in ("expected", "right", "wrong_plays", "flagged", "resets"):
            setattr(total, name, getattr(total, name) + getattr(run, name))
        print(f"{path.name} (seed {seed}): {run.right} of {run.expected} plays inferred, {run.wrong_plays} wrong, "
              f"{run.flagged} illegal/uncertain verdicts, {run.resets} New game presses "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    if len(runs) > 1:
        print(f"all ({len(runs)} videos): {total.right} of {total.expected} plays inferred, {total.wrong_plays} wrong, "
              f"{total.flagged} illegal/uncertain verdicts, {total.resets} New game presses")


if __name__ == "__main__":
    main()
