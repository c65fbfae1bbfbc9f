"""Playing against GNU Backgammon on the real board, as picochess plays an engine on a DGT board.

A player chooses the engine's strength (gnubg's named levels, ``LEVELS``) and side. ``Versus`` follows the
referee service's states on a thread of its own (the referee never waits on the engine) and, for the
engine's side:

- before its roll (phase ``awaiting_roll``, the opponent's play committed by the end-turn button): doubles
  when its own cube analysis says so (the kiosk sends the cube event; the player turns the cube);
- when the opponent doubles (``cube_offered``): takes or passes by its cube analysis;
- after the roll the player made for it (the same dice): chooses its play (``Brain.play``: the best at the
  level's depth, with the level's noise), shows and says it (``instruction``: the play, each checker's move
  in physical points for the arrows, the board after it) - the player moves its checkers;
- checks what the camera sees: a complete play other than the engine's is answered "mova a peça da casa X
  para a casa Y" (``correction``), until the board shows the engine's play.

The record names the engine's side ``GNU Backgammon (LEVEL)`` (``engine_name``). ``speak`` is the voice:
kiosk/voice.py's ``say`` when that module is present, else nothing (the hook ``Versus(speak=...)``).
"""

from __future__ import annotations

import logging
import random
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable
from typing import Any

from core.coach.cube import should_take
from core.rules.position import Position, Side
from engine.base import Engine, EngineError, RankedPlay
from kiosk.subscribers import Subscribers

log = logging.getLogger(__name__)
State = dict[str, Any]
ENGINE_TIMEOUT = 60.0     # seconds one decision may take (grandmaster, 3 plies, on a Pi 4: a few seconds)
RETRY_FIRST, RETRY_MOST = 2.0, 30.0  # a failed decision is tried again after 2 s, then 4, 8, ... up to 30 s
PROBLEM = {"pt": "GNU Backgammon não respondeu; tentando de novo.",
           "en": "GNU Backgammon did not answer; trying again."}

# gnubg's predefined players (its "Settings > Players" levels): depth in plies and evaluation noise.
LEVELS: dict[str, tuple[int, float]] = {
    "beginner": (0, 0.060), "casual": (0, 0.050), "intermediate": (0, 0.040), "advanced": (0, 0.015),
    "expert": (0, 0.0), "worldclass": (2, 0.0), "supremo": (2, 0.0), "grandmaster": (3, 0.0),
}
LEVEL_WORDS = {
    "beginner": ("iniciante", "beginner"), "casual": ("casual", "casual"),
    "intermediate": ("intermediário", "intermediate"), "advanced": ("avançado", "advanced"),
    "expert": ("especialista", "expert"), "worldclass": ("classe mundial", "world class"),
    "supremo": ("supremo", "supremo"), "grandmaster": ("grande mestre", "grandmaster"),
}


def engine_name(level: str) -> str:
    """The engine's name in the match record: ``GNU Backgammon (expert)``."""
    return f"GNU Backgammon ({LEVEL_WORDS[level][1]})"


def default_speaker() -> Callable[[str], None] | None:
    """kiosk/voice.py's ``say(text)`` when the voice module is there (another part of the kiosk), else None."""
    try:
        from kiosk import voice  # type: ignore[attr-defined]
    except ImportError:
        return None
    say = getattr(voice, "say", None) or getattr(voice, "speak", None)
    return say if callable(say) else None


class Brain:
    """gnubg's decisions at a named level: its checker play and its cube actions."""

    def __init__(self, engine: Engine, level: str, seed: int = 0, timeout: float = ENGINE_TIMEOUT) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
        self.engine = engine
        self.level = level
        self.plies, self.noise = LEVELS[level]
        self.seed = seed
        self.timeout = timeout

    def play(self, position_id: str, dice: tuple[int, int], match_id: str | None) -> RankedPlay | None:
        """The level's play (None: no legal play, R25). Without noise the engine's best at the level's depth;
        with noise, gnubg's way: each play's equity plus a normal draw of the noise's size (the same for the
        same position and roll: deterministic noise)."""
        ranked = self.engine.rank_plays(position_id, dice, match_id, plies=self.plies, timeout=self.timeout)
        if not ranked:
            return None
        if not self.noise:
            return ranked[0]
        rng = random.Random(zlib.crc32(f"{self.seed}:{position_id}:{dice}".encode()))
        return max(ranked, key=lambda rp: (rp.equity or 0.0) + rng.gauss(0.0, self.noise))

    def doubles(self, position_id: str, match_id: str | None) -> bool:
        try:
            advice = self.engine.cube_advice(position_id, match_id, plies=self.plies, timeout=self.timeout)
        except ValueError:
            return False
        return advice.action in ("double_take", "double_pass")

    def takes(self, doubler_position_id: str, match_id: str | None) -> bool:
        """Whether to take the double of the player on roll in ``doubler_position_id``."""
        try:
            advice = self.engine.cube_advice(doubler_position_id, match_id, plies=self.plies, timeout=self.timeout)
        except ValueError:
            return True
        answer = should_take(advice.equities)
        return True if answer is None else answer


def moves_of(before: Position, dice: tuple[int, int], play: str) -> list[dict[str, Any]]:
    """Each checker step of ``play`` in physical points (1-24, 0/25 the bar, "off"), for the board's arrows."""
    side = before.turn
    lp = before.parse_play(play, dice)
    ways = lp.ways()
    steps = ways[0].moves if ways else lp.play.moves
    out = []
    for mv in steps:
        def phys(own: int) -> int | str:
            if own == 25:
                return "bar"
            if own <= 0:
                return "off"
            return own if side is Side.LIGHT else 25 - own
        out.append({"from": phys(mv.frm), "to": phys(mv.to), "hit": bool(getattr(mv, "hit", False))})
    return out


def correction(expected: Position, shown: Position, side: Side) -> dict[str, str] | None:
    """What the player must change for the board to show the engine's play: "mova a peça da casa X para a
    casa Y" (points in the engine's numbering), or None when the engine's checkers stand as they should."""
    want, got = expected.own(side), shown.own(side)
    extra = [p for p in range(25, -1, -1) for _ in range(max(0, got[p] - want[p]))]
    missing = [p for p in range(25, -1, -1) for _ in range(max(0, want[p] - got[p]))]
    if not extra and not missing:
        return None

    def origin(p: int) -> tuple[str, str]:
        return (("da barra", "the bar") if p == 25 else ("de fora", "off the board") if p == 0
                else (f"da casa {p}", f"point {p}"))

    def target(p: int) -> tuple[str, str]:
        return (("para a barra", "to the bar") if p == 25 else ("para fora", "off") if p == 0
                else (f"para a casa {p}", f"to point {p}"))

    pairs = list(zip(extra, missing, strict=False))
    if pairs:
        pt = "; ".join(f"mova a peça {origin(x)[0]} {target(y)[0]}" for x, y in pairs)
        en = "; ".join(f"move the checker from {origin(x)[1]} {target(y)[1]}" for x, y in pairs)
    else:
        pt = "confira as peças de GNU Backgammon"
        en = "check GNU Backgammon's checkers"
    return {"pt": pt[0].upper() + pt[1:] + ".", "en": en[0].upper() + en[1:] + "."}


class Versus:
    """The engine's side of the match on the real board (see the module's words)."""

    def __init__(self, service: Any, brain: Brain, side: Side, speak: Callable[[str], None] | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.service = service
        self.brain = brain
        self.side = side
        self.name = engine_name(brain.level)
        self.speak = speak if speak is not None else default_speaker()
        self.say = say or (lambda text: None)
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._inbox: deque[State] = deque()
        self._busy = False
        self._stop = False
        self._done: set[tuple[Any, ...]] = set()  # decisions already made (cube, plays)
        self.instruction: dict[str, Any] | None = None
        self.correction: dict[str, str] | None = None
        # The engine failed (killed, stopped, timed out): told on the page, the decision tried again (finding 8).
        self.problem: dict[str, str] | None = None
        self.failures = 0
        self._retry_at: float | None = None
        self._last: State | None = None
        self.plays: list[dict[str, Any]] = []  # every play the engine chose: position, dice, match id, play
        self._subs: Subscribers[[dict[str, Any]]] = Subscribers(log, "a versus subscriber")
        self._unsubscribe: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Versus:
        self._unsubscribe = self.service.subscribe(self._on_state)
        self._thread = threading.Thread(target=self._run, name="versus", daemon=True)
        self._thread.start()
        self._on_state(self.service.state())
        return self

    def close(self, wait: float = 5.0) -> None:
        """Stop following the match. A decision the engine is still working on is left to the engine's own
        close (which ends its process); this waits at most `wait` seconds for the thread."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        with self._lock:
            self._stop = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=wait)

    def stop(self) -> None:
        """End the match against the engine at once (DELETE /api/versus, a new match, the kiosk's end): the
        engine's process is ended first, so a decision waiting on a stopped or hung gnubg returns now."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        with self._lock:
            self._stop = True
            self._wake.notify_all()
        try:
            self.brain.engine.close()
        except Exception:
            log.exception("closing GNU Backgammon failed")
        self.close(wait=2.0)

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        return self._subs.add(callback)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"side": self.side.value, "level": self.brain.level, "name": self.name,
                    "instruction": self.instruction, "correction": self.correction, "problem": self.problem}

    def _on_state(self, state: State) -> None:
        with self._lock:
            self._inbox.append(state)
            self._wake.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                def ready() -> bool:
                    due = self._retry_at is not None and time.monotonic() >= self._retry_at
                    return self._stop or bool(self._inbox) or due
                while not ready():
                    left = None if self._retry_at is None else max(0.0, self._retry_at - time.monotonic())
                    self._wake.wait(left)
                if self._stop:
                    return
                if self._inbox:
                    while len(self._inbox) > 1:  # only the newest state matters
                        self._inbox.popleft()
                    state = self._inbox.popleft()
                else:  # the retry of a decision the engine failed
                    assert self._last is not None
                    state = self._last
                self._retry_at = None
                self._last = state
                self._busy = True
            try:
                self._act(state)
                if self.problem is not None:
                    with self._lock:
                        self.problem, self.failures = None, 0
                    self._changed()
            except EngineError as exc:
                self._failed(exc)
            except ValueError:
                log.exception("GNU Backgammon could not decide")
            except Exception:
                log.exception("the versus module failed on a state")
            finally:
                with self._lock:
                    self._busy = False
                    self._wake.notify_all()

    def _failed(self, exc: Exception) -> None:
        """The engine failed on a decision: say so on the page (once), and try the newest state again later
        (the engine restarts its process on the next request)."""
        with self._lock:
            if self._stop:
                return
            self.failures += 1
            delay = min(RETRY_MOST, RETRY_FIRST * 2 ** (self.failures - 1))
            self._retry_at = time.monotonic() + delay
            first = self.problem is None
            self.problem = dict(PROBLEM)
        log.warning("GNU Backgammon failed (%s); trying again in %.0f s", exc, delay)
        if first:
            self._tell(PROBLEM["pt"], PROBLEM["en"])
        self._changed()

    def idle(self, timeout: float = 60.0) -> bool:
        """Wait until every state pushed so far has been acted on (True), or the timeout passes."""
        with self._lock:
            return self._wake.wait_for(lambda: not self._inbox and not self._busy, timeout)

    def _tell(self, pt: str, en: str) -> None:
        self.say(en)
        if self.speak is not None:
            try:
                self.speak(pt)
            except Exception:  # the voice must never stop the game
                log.exception("the voice failed")

    def _changed(self) -> None:
        self._subs.tell(self.snapshot())

    def _act(self, state: State) -> None:
        phase, turn = state.get("phase"), state.get("turn")
        start = state.get("position_at_turn_start") or state.get("position") or {}
        pid, mid = start.get("position_id"), start.get("match_id")
        me = self.side.value
        if phase != "moving" or turn != me:
            if self.instruction is not None or self.correction is not None:
                with self._lock:
                    self.instruction = self.correction = None
                self._changed()
        if not pid:
            return
        cube = state.get("cube") or {}
        if phase == "awaiting_roll" and turn == me and self._may_double(state):
            key = ("double", pid, mid, state.get("match", {}).get("game"))
            if key not in self._done:
                doubles = self.brain.doubles(pid, mid)  # an EngineError leaves the key open: tried again
                self._done.add(key)
                if doubles:
                    self._tell("GNU Backgammon dobra.", "GNU Backgammon doubles.")
                    self.service.submit({"event": "cube", "action": "double", "side": me})
            return
        if phase == "cube_offered" and cube.get("offered_by") not in (None, me):
            key = ("answer", pid, mid, cube.get("value"))
            if key not in self._done:
                take = self.brain.takes(pid, mid)
                self._done.add(key)
                self._tell("GNU Backgammon aceita." if take else "GNU Backgammon recusa.",
                           "GNU Backgammon takes." if take else "GNU Backgammon passes.")
                self.service.submit({"event": "cube", "action": "take" if take else "drop", "side": me})
            return
        dice = tuple((state.get("dice") or {}).get("values") or ())
        if phase == "moving" and turn == me and len(dice) == 2:
            before = Position.from_position_id(pid, turn=self.side)
            key = ("play", pid, mid, dice, state.get("match", {}).get("game"))
            if key not in self._done:
                chosen = self.brain.play(pid, (int(dice[0]), int(dice[1])), mid)
                self._done.add(key)
                self.plays.append({"position_id": pid, "match_id": mid, "dice": list(dice),
                                   "play": chosen.play if chosen else None})
                with self._lock:
                    if chosen is None:
                        self.instruction = {"play": None, "moves": [], "board": None, "expected": pid}
                    else:
                        after = Position.from_position_id(chosen.result, turn=self.side)
                        self.instruction = {"play": chosen.play, "dice": list(dice),
                                            "moves": moves_of(before, (int(dice[0]), int(dice[1])), chosen.play),
                                            "board": after.to_dict(), "expected": chosen.result}
                if chosen is None:
                    self._tell("GNU Backgammon não tem jogada.", "GNU Backgammon has no play.")
                else:
                    self._tell(f"GNU Backgammon joga {chosen.play}.", f"GNU Backgammon plays {chosen.play}.")
                self._changed()
            self._check_board(state)

    def _check_board(self, state: State) -> None:
        """The board against the engine's play: a complete other play is answered with what to move."""
        instruction = self.instruction
        shown_id = (state.get("position") or {}).get("position_id")
        if instruction is None or not instruction.get("play") or not shown_id:
            return
        expected = Position.from_position_id(instruction["expected"], turn=self.side)
        shown = Position.from_position_id(shown_id, turn=self.side)
        verdicts = state.get("verdicts") or []
        complete = bool(verdicts) and verdicts[-1].get("verdict") == "in_progress" and verdicts[-1].get("complete")
        wrong = correction(expected, shown, self.side) if complete and shown_id != instruction["expected"] else None
        if wrong != self.correction:
            with self._lock:
                self.correction = wrong
            if wrong is not None:
                self._tell(wrong["pt"], wrong["en"])
            self._changed()

    def _may_double(self, state: State) -> bool:
        return _may_double(state, self.side)


# ----- `gamao demo --versus gnubg --level LEVEL`: a whole match on simulated hardware -------------------------
def versus_steps(service: Any, versus: Versus, other: Brain, length: int = 3, seed: int = 1,
                 other_name: str = "Demo") -> Any:
    """The demo's table: the demo's own player (``other``, a Brain of its own) plays the side the engine does
    not, rolls the dice for both sides and moves the engine's checkers as ``versus`` says (its instruction),
    pressing end turn after each play so the next player can double before rolling. Yields kiosk.demo_script
    Steps for kiosk.demo.DemoRunner (dice through the simulated unit, boards through the simulated camera)."""
    from kiosk.demo_script import Step, board

    rng = random.Random(seed)
    eng, human = versus.side, versus.side.other
    players = {eng.value: versus.name, human.value: other_name}
    yield Step("event", {"event": "new_match", "length": length, "players": players,
                         "rules": {"crawford": True, "mode": "casual", "tournament": False}},
               say=f"new {length}-point match: {players['light']} (light) v {players['dark']} (dark)")
    yield Step("board", board(Position.start()), say="game 1: checkers set up", setup=True)
    played: tuple[Any, ...] | None = None
    asked: set[tuple[Any, ...]] = set()
    for _ in range(20000):
        versus.idle()
        st = service.state()
        phase, turn = st.get("phase"), st.get("turn")
        game = (st.get("match") or {}).get("game")
        start = st.get("position_at_turn_start") or st.get("position") or {}
        pid, mid = start.get("position_id"), start.get("match_id")
        if phase == "match_over":
            return
        if phase in ("game_over", "opening"):
            if phase == "game_over":
                yield Step("board", board(Position.start()), say=f"game {int(game or 0) + 1}: checkers set up",
                           setup=True)
            d1 = rng.randint(1, 6)
            d2 = rng.choice([d for d in range(1, 7) if d != d1])
            yield Step("roll", {"dice": [d1, d2], "cocked": [False, False]}, say=f"opening roll {d1}{d2}")
            continue
        if phase == "cube_offered":
            if (st.get("cube") or {}).get("offered_by") == eng.value:
                take = other.takes(pid, mid)
                yield Step("event", {"event": "cube", "action": "take" if take else "drop", "side": human.value},
                           wait=1.5, say=f"{other_name} {'takes' if take else 'passes'}")
            continue  # the engine answers the demo's double on its own thread
        if phase == "awaiting_roll":
            key = ("double", game, pid, mid)
            if turn == human.value and key not in asked and _may_double(st, human):
                asked.add(key)
                if other.doubles(pid, mid):
                    yield Step("event", {"event": "cube", "action": "double", "side": human.value}, wait=1.5,
                               say=f"{other_name} doubles")
                    continue
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            yield Step("roll", {"dice": dice, "cocked": [False, False]},
                       say=f"{turn} rolls {dice[0]}{dice[1]}" + (" (for GNU Backgammon)" if turn == eng.value else ""))
            continue
        if phase != "moving" or not pid or turn is None:
            continue
        dice = tuple(int(d) for d in (st.get("dice") or {}).get("values") or ())
        key = (game, pid, dice)
        if played == key:
            played = None
            yield Step("event", {"event": "button", "name": "end_turn"}, wait=0.5, say="end turn")
            continue
        mover = Side(turn)
        if mover is eng:
            instruction = versus.instruction
            if instruction is None or instruction.get("dice") not in (None, list(dice)):
                continue  # the engine is still choosing
            play = instruction.get("play")
        else:
            chosen = other.play(pid, (dice[0], dice[1]), mid)
            play = chosen.play if chosen is not None else None
        played = key
        if not play:
            continue  # no legal play (R25): end turn
        before = Position.from_position_id(pid, turn=mover)
        after = before.play((dice[0], dice[1]), play)
        yield Step("hand", board(before), wait=0.3)
        yield Step("board", board(after), say=f"{turn} plays {play}" + (" (GNU Backgammon's play)" if mover is eng else ""))
    raise RuntimeError("the versus demo did not finish its match")


def _may_double(state: State, side: Side) -> bool:
    cube, match = state.get("cube") or {}, state.get("match") or {}
    length = int(match.get("length") or 0)
    score = (match.get("score") or {}).get(side.value, 0)
    return (not match.get("crawford") and cube.get("owner") in (None, side.value) and not cube.get("offered_by")
            and (not length or score + int(cube.get("value") or 1) < length))


class VersusDemo:
    """`gamao demo --versus gnubg`: GNU Backgammon at ``level`` on ``side`` (following the service as on the
    appliance) against the demo's own player (gnubg at the beginner level, an engine of its own)."""

    def __init__(self, service: Any, level: str, side: str = "dark", say: Callable[[str], None] | None = None,
                 length: int = 3, seed: int = 1, engine_factory: Callable[[], Engine] | None = None) -> None:
        if engine_factory is None:
            from engine.gnubg import GnubgEngine

            def engine_factory() -> Engine:
                return GnubgEngine(plies=0, timeout=120)
        self.service = service
        self.length, self.seed = length, seed
        self._engines = [engine_factory(), engine_factory()]
        self.versus = Versus(service, Brain(self._engines[0], level, seed), Side(side), say=say).start()
        self.other = Brain(self._engines[1], "beginner", seed + 1)

    def steps(self) -> Any:
        return versus_steps(self.service, self.versus, self.other, self.length, self.seed)

    def close(self) -> None:
        self.versus.close()
        for engine in self._engines:
            try:
                engine.close()
            except Exception:
                log.exception("closing an engine failed")
