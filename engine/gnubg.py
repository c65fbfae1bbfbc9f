"""GNU Backgammon as the coach's engine: the Debian package's ``gnubg`` driven as one long-lived process.

``GnubgEngine`` starts ``gnubg -t -q -p engine/gnubg_worker.py``: gnubg runs our small worker script in its
embedded Python (``gnubg.hint`` for checker play, the ``hint`` command's cube analysis, ``show analysis``
for the thresholds). Requests and answers are JSON lines: requests on gnubg's standard input, answers on a
pipe of their own (gnubg's chatter on its standard output is thrown away). gnubg's GPL stays on its side
of the pipe: nothing here imports gnubg.

- One request at a time (a lock): the kiosk may call from several threads.
- A request that takes longer than its timeout is abandoned: the process is killed (EngineTimeout) and a
  new one is started at once in the background. A process that died is restarted on the next request.
- No gnubg: EngineUnavailable, whose message says how to install it.

Plays and results are ours: the legal plays come from ``core.rules.position`` and are matched to gnubg's
moves by the position after the play, so the notation and the Position IDs are exactly those of
``gamao plays``. Equities and losses are the cubeful, normalised money equities gnubg's ``hint`` prints
(in match play too: gnubg converts match winning chances to equivalent money equity).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import IO

from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side, check_dice
from engine.base import (
    CUBE_ACTIONS,
    CubeAdvice,
    EngineError,
    EngineTimeout,
    EngineUnavailable,
    RankedPlay,
    Thresholds,
)

INSTALL_HINT = ("GNU Backgammon is not installed: install it with 'sudo apt install gnubg' "
                "(Debian and Raspberry Pi OS, amd64 and arm64), then try again")
WORKER = Path(__file__).with_name("gnubg_worker.py")
MAX_PLIES = 4
CLOSE_WAIT = 0.5  # seconds close() waits for a request to end before killing gnubg under it
START_TIMEOUT = 30.0  # loading the neural nets and bear-off databases; a Pi 4 needs about a second


def find_gnubg(path: str | None = None) -> str:
    """The gnubg executable: ``path`` if given, else $GAMAO_GNUBG, else ``gnubg`` on PATH, else
    /usr/games/gnubg (where Debian puts it, outside most users' PATH)."""
    if path is None:
        path = os.environ.get("GAMAO_GNUBG") or None
    if path is not None:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise EngineUnavailable(f"{INSTALL_HINT} (no gnubg program at {path})")
    found = shutil.which("gnubg")
    if found:
        return found
    for candidate in ("/usr/games/gnubg", "/usr/bin/gnubg", "/usr/local/bin/gnubg"):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise EngineUnavailable(INSTALL_HINT)


def match_state(match_id: str | None, dice: tuple[int, int] = (0, 0)) -> MatchIdState:
    """The match state of a request: the Match ID's score, cube and Crawford, the player on roll about to
    play ``dice`` (0, 0: before the roll). A money game with the cube centred when ``match_id`` is None."""
    state = MatchIdState() if match_id is None else MatchIdState.decode(match_id)
    if state.match_length and max(state.score) >= state.match_length:
        raise ValueError(f"Match ID {match_id}: the match is over ({state.score[0]}-{state.score[1]} "
                         f"in a {state.match_length}-point match)")
    return replace(state, turn=state.on_roll, game_state="playing", doubled=False, resigned=0, dice=dice)


def cube_action(text: str) -> str:
    """gnubg's 'Proper cube action' in our words (one of CUBE_ACTIONS)."""
    t = text.strip().lower()
    if t.startswith("too good"):
        return "too_good_pass" if "pass" in t else "too_good_take"
    if t.startswith(("no double", "no redouble", "never")):
        return "no_double"
    if t.startswith(("double", "redouble", "optional")):
        return "double_pass" if "pass" in t else "double_take"
    raise EngineError(f"gnubg's cube advice {text!r} is not one this program knows")


class GnubgEngine:
    """engine.base.Engine over one gnubg process (started on the first request)."""

    name = "gnubg"

    def __init__(self, path: str | None = None, plies: int = 0, timeout: float = 10.0) -> None:
        self.path = path
        self.plies = plies
        self.timeout = timeout
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._answers: int | None = None  # our end of the answer pipe
        self._buffer = b""
        self._stderr: IO[bytes] | None = None
        self._thresholds: Thresholds | None = None
        self.version = ""
        self.starts = 0  # how many gnubg processes this engine started (restarts show here)
        self._closed = False  # close() was called: no restart in the background

    # ----- the process ----------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _start(self) -> None:
        exe = find_gnubg(self.path)
        read_end, write_end = os.pipe()
        self._stderr = tempfile.TemporaryFile()
        env = dict(os.environ, GAMAO_ANSWER_FD=str(write_end), LANG="C", LC_ALL="C")
        try:
            self._proc = subprocess.Popen(
                [exe, "-t", "-q", "-p", str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=self._stderr, pass_fds=(write_end,), env=env, cwd=tempfile.gettempdir(),
                start_new_session=True,
            )
        except OSError as exc:
            os.close(read_end)
            raise EngineUnavailable(f"{INSTALL_HINT} ({exe} would not start: {exc})") from None
        finally:
            os.close(write_end)
        self._answers = read_end
        self._buffer = b""
        self.starts += 1
        hello = self._exchange({"op": "hello"}, max(START_TIMEOUT, self.timeout))
        marks = hello["thresholds"]
        assert isinstance(marks, list), hello
        self._thresholds = Thresholds(*(float(x) for x in marks))
        self.version = str(hello.get("version", ""))

    def start(self) -> None:
        """Start gnubg now (else it starts on the first request): EngineUnavailable when it is missing."""
        with self._lock:
            self._closed = False
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()

    def _restart_soon(self) -> None:
        """After an abandoned request, start a new gnubg in the background so the next request finds it ready."""
        def warm() -> None:
            with self._lock:
                if self._closed or (self._proc is not None and self._proc.poll() is None):
                    return
                try:
                    self._stop()
                    self._start()
                except EngineError:
                    self._stop()  # the next request tries again and reports it

        threading.Thread(target=warm, name="gnubg-restart", daemon=True).start()

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    proc.kill()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
                pass
            if proc.stdin is not None:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
        if self._answers is not None:
            os.close(self._answers)
            self._answers = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        lines = [line for line in self._stderr.read().decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1].strip() if lines else ""

    def _exchange(self, request: dict[str, object], timeout: float) -> dict[str, object]:
        """Send one request and wait for its answer; on any failure the process is stopped."""
        proc, fd = self._proc, self._answers
        assert proc is not None and proc.stdin is not None and fd is not None
        deadline = time.monotonic() + timeout
        try:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._stop()
                    self._restart_soon()
                    raise EngineTimeout(f"gnubg took more than {timeout:g} s to answer; the request was "
                                        "abandoned and gnubg will be restarted")
                ready, _, _ = select.select([fd], [], [], left)
                if ready:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        tail = self._stderr_tail()
                        self._stop()
                        raise EngineError("gnubg stopped" + (f" ({tail})" if tail else "")
                                          + "; it will be restarted on the next request")
                    self._buffer += chunk
        except OSError as exc:  # a broken pipe: gnubg is gone
            self._stop()
            raise EngineError(f"gnubg stopped ({exc}); it will be restarted on the next request") from None
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            answer = json.loads(line)
        except ValueError:
            self._stop()
            raise EngineError(f"gnubg answered something unreadable ({line[:80]!r}); it will be restarted") from None
        if not answer.get("ok"):
            raise EngineError(f"gnubg: {answer.get('error', 'failed')}")
        return answer

    def _request(self, request: dict[str, object], timeout: float | None) -> dict[str, object]:
        with self._lock:
            self._closed = False
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
            return self._exchange(request, self.timeout if timeout is None else timeout)

    # ----- the interface --------------------------------------------------------------------------------
    def _plies(self, plies: int | None) -> int:
        n = self.plies if plies is None else plies
        if not isinstance(n, int) or not 0 <= n <= MAX_PLIES:
            raise ValueError(f"plies must be 0 to {MAX_PLIES}, not {n!r}")
        return n

    def thresholds(self) -> Thresholds:
        """gnubg's doubtful / bad / very bad thresholds, as its ``show analysis`` prints them."""
        if self._thresholds is None:
            with self._lock:
                if self._thresholds is None:
                    self._stop()
                    self._start()
        assert self._thresholds is not None
        return self._thresholds

    def rank_plays(
        self, position_id: str, dice: tuple[int, int], match_id: str | None = None, plies: int | None = None,
        timeout: float | None = None,
    ) -> list[RankedPlay]:
        pos = Position.from_position_id(position_id, turn=Side.LIGHT)
        dice = check_dice(dice)
        state = match_state(match_id, dice)
        n = self._plies(plies)
        ours = {lp.result.position_id(Side.LIGHT): lp.play.text() for lp in pos.legal_plays(dice)}
        if not any(ours.values()):
            return []  # no legal play: the roll is played by not moving (R25)
        answer = self._request({"op": "hint", "gnubgid": f"{position_id}:{state.encode()}", "plies": n}, timeout)
        moves = answer["moves"]
        assert isinstance(moves, list)
        thresholds = self.thresholds()
        ranked: list[RankedPlay] = []
        best = float(moves[0]["equity"]) if moves else 0.0
        for move in moves:
            text = ours.pop(move["result"], None)
            if text is None:
                raise EngineError(f"gnubg's play {move['move']} from {position_id} with {dice[0]}{dice[1]} "
                                  "is not a legal play here")
            equity = float(move["equity"])
            loss = max(0.0, best - equity)
            probs = tuple(float(x) for x in move["probs"]) if move.get("probs") else None
            ranked.append(RankedPlay(play=text, result=move["result"], equity=round(equity, 6),
                                     loss=round(loss, 6), label=thresholds.label(loss), probs=probs))
        if ours:
            raise EngineError(f"gnubg did not rank the legal play(s) {', '.join(ours.values())} "
                              f"from {position_id} with {dice[0]}{dice[1]}")
        return ranked

    def cube_advice(
        self, position_id: str, match_id: str | None = None, plies: int | None = None,
        timeout: float | None = None,
    ) -> CubeAdvice:
        if Position.from_position_id(position_id, turn=Side.LIGHT).is_game_over():
            raise ValueError(f"the game of {position_id} is over: there is no cube decision")
        state = match_state(match_id)
        if state.cube_owner is not None and state.cube_owner != state.on_roll:
            raise ValueError("the player on roll cannot double: the opponent owns the cube")
        if state.crawford:
            raise ValueError("the player on roll cannot double: this is the Crawford game (R15)")
        n = self._plies(plies)
        answer = self._request({"op": "cube", "gnubgid": f"{position_id}:{state.encode()}", "plies": n}, timeout)
        action = cube_action(str(answer["action"]))
        assert action in CUBE_ACTIONS
        equities = {key: float(answer[key]) for key in ("no_double", "double_take", "double_pass")}  # type: ignore[arg-type]
        return CubeAdvice(action=action, equities=equities)

    def close(self) -> None:
        """Quit gnubg. When a request holds the engine (gnubg stopped with SIGSTOP, or hung), its process is
        killed under it at once, so the request fails now and close() never waits for its time-out (issue 34,
        finding 8: one DELETE /api/versus took 83 s while gnubg was stopped)."""
        self._closed = True
        if not self._lock.acquire(timeout=CLOSE_WAIT):
            proc = self._proc
            if proc is not None and proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # a stopped process dies of SIGKILL too
                except (ProcessLookupError, PermissionError):
                    proc.kill()
            if not self._lock.acquire(timeout=5.0):  # the request sees the pipe close and stops the process itself
                return
        try:
            self._closed = True
            if self._proc is not None and self._proc.poll() is None and self._proc.stdin is not None:
                try:
                    self._proc.stdin.write(b'{"op": "quit"}\n')
                    self._proc.stdin.flush()
                    self._proc.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            self._stop()
        finally:
            self._lock.release()

    def __enter__(self) -> GnubgEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        try:
            self._stop()
        except Exception:  # noqa: BLE001
            pass
