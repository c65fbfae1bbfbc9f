"""The referee heard: spoken calls in Brazilian Portuguese (or English) through Debian's ``espeak-ng``.

Players look at the board, not at the screen, so the verdicts that need them are also said aloud: an illegal
play, a die left unplayed, a cocked die, a double offered, taken or dropped, a game's and a match's end, an object
to take off the board before a roll counts.

``Voice`` never blocks the referee: ``say`` puts the call on a small queue and returns; one worker thread runs
``espeak-ng`` as a separate process for each call, one after the other. Where ``espeak-ng`` is missing the voice
says so once in the log (the page says so once too, from ``/api/kiosk``'s ``voice: "missing"``) and play goes on.

Every spoken string is in ``PHRASES`` (key -> Portuguese, English), the same table for the referee's calls and for
other parts of the kiosk (the clock's warnings): ``Voice.say("time_low", name="Ana", seconds=30)``; a part with
calls of its own adds them with ``add_phrases`` first. ``speak_to`` (``gamao demo --speak-to DIR``) also writes
each call as ``DIR/0001.wav`` with its text in ``DIR/0001.txt``, and one JSON line per call in ``DIR/calls.jsonl``
(docs/CONTRACTS.md, "The screen: spoken calls and the demo's start").
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
VOICES = {"pt": "pt-br", "en": "en"}
RATE = 165  # words a minute: clear from a metre away, still short
PLAY_TIMEOUT = 60.0   # seconds a call may play before its espeak-ng is ended
SYNTH_TIMEOUT = 30.0  # seconds to write a call's WAV
QUEUE = 16  # calls waiting at most; more are dropped (a call said a minute late helps nobody)
REPEAT = 4.0  # seconds in which the very same call is not said twice (a fault seen on several boards)

# key -> (Portuguese, English). Placeholders: {name} the player (or "as claras"), {value}, {points}, {how}, ...
PHRASES: dict[str, tuple[str, str]] = {
    "illegal": ("Jogada ilegal, {name}. Volte as peças.", "Illegal play, {name}. Take the checkers back."),
    "unplayed_die": ("{name}, faltou jogar um dado.", "{name}, a die is left unplayed."),
    "unplayed_dice": ("{name}, faltou jogar os dados.", "{name}, the dice are left unplayed."),
    "cocked_die": ("Dado inclinado. Lance de novo.", "Cocked die. Roll again."),
    "double": ("{name} dobra para {value}.", "{name} doubles to {value}."),
    "take": ("{name} aceita. O cubo vale {value}.", "{name} takes. The cube is on {value}."),
    "drop": ("{name} recusa a dobra.", "{name} drops the double."),
    "game_over": ("{name} ganha {points}, {how}.", "{name} wins {points}, {how}."),
    "draw": ("Empate. Ninguém ganha.", "A draw. Nobody wins."),
    "match_over": ("{name} ganha a partida, {score}.", "{name} wins the match, {score}."),
    "game_and_match": ("{name} ganha {points}, {how}, e a partida, {score}.",
                       "{name} wins {points}, {how}, and the match, {score}."),
    # for the clock (another part of the kiosk): spoken warnings
    "time_low": ("{name}, restam {seconds} segundos.", "{name}, {seconds} seconds left."),
    "time_up": ("{name}, o tempo acabou.", "{name}, time is up."),
    # the table's conventions (issue 36, core/referee/conventions.py)
    "bar_first": ("{name}, entre primeiro a peça da barra.", "{name}, enter the checker on the bar first."),
    "off_board": ("Peça fora do tabuleiro: sem penalidade, ponha no lugar.", "A checker is off the board: no penalty, put it back."),
    "touch_move": ("Peça tocada, {name}: jogue uma peça da casa {point}.", "Touch-move, {name}: play a checker from point {point}."),
    # an object on the field when a roll came (issue 33): core/messages.py's words up to the colon
    "point_covered": ("{words}.", "{words}."),
}
HOW = {"pt": {"single": "simples", "gammon": "gamão", "backgammon": "gamão triplo", "drop": "dobra recusada",
              "resign": "por desistência", "mother": "mãe presa"},
       "en": {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon",
              "drop": "double dropped", "resign": "by resignation", "mother": "mother pinned"}}
POINTS = {"pt": ("um ponto", "{n} pontos"), "en": ("one point", "{n} points")}
SIDES = {"pt": {"light": "Claras", "dark": "Escuras"}, "en": {"light": "Light", "dark": "Dark"}}
DEFAULT_NAMES = {"light": "Light", "dark": "Dark"}


def add_phrases(phrases: Mapping[str, tuple[str, str]]) -> None:
    """Add another part's calls (key -> Portuguese, English) to the one table; a key already there is refused."""
    taken = sorted(set(phrases) & set(PHRASES))
    if taken:
        raise ValueError(f"voice phrases already defined: {', '.join(taken)}")
    PHRASES.update(phrases)


def phrase(language: str, key: str, **params: Any) -> str:
    """The call's words in ``language`` ("pt" or "en"); KeyError for an unknown key."""
    pt, en = PHRASES[key]
    return (en if language == "en" else pt).format(**params)


def calls_for(verdicts: list[dict[str, Any]], players: Mapping[str, str], language: str) -> list[tuple[str, dict[str, Any]]]:
    """The calls (key, params) the referee's verdicts ask for, in order."""
    def name(side: str | None) -> str:
        given = players.get(side or "", "")
        if given and given != DEFAULT_NAMES.get(side or ""):
            return given
        return SIDES["en" if language == "en" else "pt"].get(side or "", "")

    lang = "en" if language == "en" else "pt"
    out: list[tuple[str, dict[str, Any]]] = []
    for v in verdicts:
        kind = v.get("verdict")
        if kind == "illegal" and v.get("reason") != "new_setup_mid_game":
            out.append(("illegal", {"name": name(v.get("side"))}))
        elif kind == "unplayed_die":
            many = len(v.get("unplayed") or ()) > 1
            out.append(("unplayed_dice" if many else "unplayed_die", {"name": name(v.get("side"))}))
        elif kind == "reroll" and v.get("reason") == "cocked_die":
            out.append(("cocked_die", {}))
        elif kind == "cube" and v.get("action") in ("double", "take", "drop"):
            out.append((v["action"], {"name": name(v.get("side")), "value": v.get("value", "")}))
        elif kind == "game_over":
            if v.get("how") == "draw" or not v.get("winner"):
                out.append(("draw", {}))
                continue
            n = int(v.get("points") or 1)
            one, many = POINTS[lang]
            out.append(("game_over", {"name": name(v.get("winner")), "points": one if n == 1 else many.format(n=n),
                                      "how": HOW[lang].get(v.get("how", "single"), v.get("how", ""))}))
        elif kind == "uncertain" and v.get("reason") == "point_covered":  # "Tire o copo da casa 15"
            words = str((v.get("message") or {}).get(lang, "")).split(":")[0]
            if words:
                out.append(("point_covered", {"words": words}))
        elif kind == "bar_first_hint":  # issue 36: the conventions' own calls
            out.append(("bar_first", {"name": name(v.get("side"))}))
        elif kind == "checker_off_board":
            out.append(("off_board", {}))
        elif kind == "touch_move_upheld":
            out.append(("touch_move", {"name": name(v.get("side")), "point": v.get("point", "")}))
        elif kind == "clock_warning":  # issue 21: one minute, then ten seconds left
            out.append(("time_low", {"name": name(v.get("side")), "seconds": v.get("level", "")}))
        elif kind == "time_out":
            out.append(("time_up", {"name": name(v.get("side"))}))
        elif kind == "match_over":
            score = v.get("score") or [0, 0]
            said = f"{score[0]} a {score[1]}" if lang == "pt" else f"{score[0]} to {score[1]}"
            if out and out[-1][0] == "game_over" and out[-1][1]["name"] == name(v.get("winner")):
                # The match's last game: one call for both, said at once rather than one after the other.
                out[-1] = ("game_and_match", {**out[-1][1], "score": said})
            else:
                out.append(("match_over", {"name": name(v.get("winner")), "score": said}))
    return out


@dataclass
class Call:
    """One call: its number (1, 2, ...), key, words, and when it was asked for and when it started (monotonic)."""

    number: int
    key: str
    text: str
    asked: float
    started: float | None = None
    synthesised: float | None = None
    params: dict[str, Any] = field(default_factory=dict)


class Voice:
    """Spoken calls on a worker thread. ``status``: "on", "off" (silent by the owner's choice) or "missing"."""

    def __init__(self, language: str = "pt", *, enabled: bool = True, speak_to: str | Path | None = None,
                 play: bool = True, command: str = ESPEAK, rate: int = RATE) -> None:
        self.language = "en" if language == "en" else "pt"
        self.command = shutil.which(command)  # None: not installed here
        self.enabled = enabled
        self.speak_to = Path(speak_to) if speak_to else None
        self.play = play
        self.rate = rate
        self.calls: list[Call] = []
        self.players: dict[str, str] = {}
        self._queue: queue.Queue[Call | None] = queue.Queue(QUEUE)
        self._count = 0
        self._recent: dict[str, float] = {}
        self._lock = threading.Lock()
        self._no_sound_told = False
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()
        self._running: set[subprocess.Popen[bytes]] = set()  # espeak-ng processes now, ended by close()
        if enabled and self.command is None:
            log.warning("voice: %s is not installed (apt-get install espeak-ng): the calls stay silent", ESPEAK)
        if self.speak_to is not None:
            self.speak_to.mkdir(parents=True, exist_ok=True)
        if self.status == "on":
            self._thread = threading.Thread(target=self._work, name="gamao-voice", daemon=True)
            self._thread.start()

    @property
    def status(self) -> str:
        if not self.enabled:
            return "off"
        return "on" if self.command else "missing"

    # ----- asking for calls (never blocks) ----------------------------------------------------------------------
    def say(self, key: str, *, asked: float | None = None, **params: Any) -> bool:
        """Queue the call ``key`` (PHRASES) with its params; False when silent, repeated or the queue is full."""
        text = phrase(self.language, key, **params)
        if self.status != "on":
            return False
        now = time.monotonic()
        with self._lock:
            if now - self._recent.get(text, -REPEAT) < REPEAT:
                return False
            self._recent[text] = now
            self._count += 1
            call = Call(self._count, key, text, asked if asked is not None else now, params=params)
        try:
            self._queue.put_nowait(call)
        except queue.Full:
            log.warning("voice: call %r dropped, %d calls already waiting", text, QUEUE)
            return False
        return True

    def on_verdicts(self, verdicts: list[dict[str, Any]], asked: float | None = None) -> None:
        """Say what these verdicts ask for (see calls_for)."""
        asked = time.monotonic() if asked is None else asked
        for key, params in calls_for(verdicts, self.players, self.language):
            self.say(key, asked=asked, **params)

    def listen(self, service: Any) -> Voice:
        """Follow a referee service (kiosk.service.RefereeService): players' names from its states, calls from the
        verdicts of each journaled event."""
        service.subscribe(self._on_state)
        service.on_journaled(lambda _match, _index, _event, verdicts: self.on_verdicts(verdicts))
        self._on_state(service.state())
        return self

    def _on_state(self, state: dict[str, Any]) -> None:
        self.players = dict((state.get("match") or {}).get("players") or {})

    # ----- the worker --------------------------------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            call = self._queue.get()
            if call is None or self._closing.is_set():
                return
            try:
                self._speak(call)
            except Exception:  # a broken voice must not take the worker down: the next call tries again
                log.exception("voice: call %r failed", call.text)

    def _espeak(self, *extra: str, text: str) -> list[str]:
        assert self.command is not None
        return [self.command, "-v", VOICES[self.language], "-s", str(self.rate), *extra, text]

    def _start(self, args: list[str], stderr: int) -> subprocess.Popen[bytes] | None:
        """espeak-ng in its own process group (it, or a stand-in, may start others), remembered until it ends so
        that close() can end it: a hung one must not outlive its owner (issue 34, finding 11)."""
        with self._lock:
            if self._closing.is_set():
                return None
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                                    start_new_session=True)
            self._running.add(proc)
        return proc

    def _finish(self, proc: subprocess.Popen[bytes], timeout: float) -> bytes:
        """Wait for `proc` at most `timeout` seconds (or until close()), then end its whole group."""
        err = b""
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            log.warning("voice: espeak-ng took more than %.0f s: ended", timeout)
        finally:
            _end(proc)
            with self._lock:
                self._running.discard(proc)
        return err or b""

    def _speak(self, call: Call) -> None:
        player = None
        if self.play:
            player = self._start(self._espeak(text=call.text), subprocess.PIPE)
            call.started = time.monotonic()
        if self.speak_to is not None:
            stem = self.speak_to / f"{call.number:04d}"
            if call.started is None:
                call.started = time.monotonic()
            writer = self._start(self._espeak("-w", str(stem.with_suffix(".wav")), text=call.text),
                                 subprocess.DEVNULL)
            if writer is not None:
                self._finish(writer, SYNTH_TIMEOUT)
            call.synthesised = time.monotonic()
            stem.with_suffix(".txt").write_text(call.text + "\n", encoding="utf-8")
        started_ms = (call.started - call.asked) * 1000 if call.started is not None else None
        log.info("voice: call %d %r started %.0f ms after the verdict", call.number, call.text, started_ms or 0)
        with self._lock:
            self.calls.append(call)
        if self.speak_to is not None:
            line = {"number": call.number, "key": call.key, "text": call.text, "language": self.language,
                    "started_ms": round(started_ms, 1) if started_ms is not None else None,
                    "wav_ms": round((call.synthesised - call.asked) * 1000, 1) if call.synthesised else None}
            with (self.speak_to / "calls.jsonl").open("a", encoding="utf-8") as f:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        if player is not None:
            err = self._finish(player, PLAY_TIMEOUT)
            if err and b"error" in err.lower() and not self._no_sound_told:
                self._no_sound_told = True
                log.warning("voice: espeak-ng cannot play on this machine's sound device (%s); calls are still "
                            "made%s", err.decode(errors="replace").strip().splitlines()[-1],
                            " and written" if self.speak_to else "")

    def wait_idle(self, seconds: float = 10.0) -> bool:
        """True once every queued call has been said (for tests and the demo's end)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._lock:
                done = len(self.calls) >= self._count
            if done and self._queue.empty():
                return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        """Stop the worker and end any espeak-ng still running (its whole process group), at once."""
        with self._lock:
            self._closing.set()
            running = list(self._running)
        for proc in running:
            _end(proc)
        if self._thread is not None:
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                pass  # the worker sees _closing at its next call
            self._thread.join(timeout=5)
            self._thread = None


def _end(proc: subprocess.Popen[bytes]) -> None:
    """End `proc` and everything in its process group (it was started in a session of its own)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # a child it left behind in its group
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
        pass


def timings(calls: list[Call]) -> dict[str, float]:
    """Median and worst milliseconds from verdict to the call's start (and to its WAV, when written)."""
    def stats(values: list[float]) -> tuple[float, float]:
        values = sorted(values)
        return (values[len(values) // 2], values[-1]) if values else (0.0, 0.0)

    started = [(c.started - c.asked) * 1000 for c in calls if c.started is not None]
    wav = [(c.synthesised - c.asked) * 1000 for c in calls if c.synthesised is not None]
    (m, w), (mw, ww) = stats(started), stats(wav)
    return {"calls": float(len(calls)), "start_median_ms": m, "start_worst_ms": w, "wav_median_ms": mw,
            "wav_worst_ms": ww}

