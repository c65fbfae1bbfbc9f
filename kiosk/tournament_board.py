"""A board's side of the tournament night (issue 39): the director's signed "start this match", said and done.

``TournamentBoard(service, publisher, data_dir, voice=...).start()`` hears the director's commands through the
board's club link (club/publisher.py ``on_command``), takes only those club/commands.py's gate verifies (signed
with the board's key, a counter above the last taken, fresh, fields in bounds), and for ``start_match``:

- shows and says the call: "Mesa 3: Ana x Bruno, partida de 5 pontos" (a notice on the screen, and the voice);
- starts the match with those names, that length and the rule set (its clock with it): a ``new_match`` event
  journaled like one from the touch screen;
- remembers which tournament match it started (``club_tournament.json``), so a copy of the command sent again
  (the director sends until it sees the match start) does not start it twice;
- refuses while a match of its own is under way (a human's match is never cut short by the network).

The result goes back by itself: the match is journaled and published like any other, and the director takes the
winner from the board's record. ``gamao demo --board NAME --tournament`` plays the started match from a recorded
match of that length (``play``), so a whole evening can be simulated.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from club.auth import AuthError
from club.commands import CommandGate
from kiosk.voice import add_phrases

log = logging.getLogger(__name__)
STARTED_FILE = "club_tournament.json"
KEEP_STARTED = 256
FREE = ("match_over",)
LOG_EVERY = 10.0

CALL = "tournament_call"
add_phrases({CALL: ("Mesa {table}: {light} x {dark}, partida de {points}.",
                    "Table {table}: {light} versus {dark}, a {length}-point match.")})


def call_text(cmd: dict[str, Any]) -> tuple[str, str]:
    """(Portuguese, English) words of the call."""
    n = cmd["length"]
    players = cmd["players"]
    pt = f"Mesa {cmd['table']}: {players['light']} x {players['dark']}, partida de {n} {'ponto' if n == 1 else 'pontos'}"
    en = f"Table {cmd['table']}: {players['light']} v {players['dark']}, a {n}-point match"
    return pt, en


def free_to_start(state: dict[str, Any]) -> bool:
    """No match, a match over, or one set up that nobody has played yet (no roll, no score)."""
    phase = state.get("phase")
    if phase in FREE:
        return True
    match = state.get("match") or {}
    score = match.get("score") or {}
    return phase == "opening" and not any(score.values()) and match.get("game", 1) == 1 and not state.get("moves")


class TournamentBoard:
    def __init__(self, service: Any, publisher: Any, data_dir: str | Path, *, voice: Any = None,
                 play: Callable[[dict[str, Any]], None] | None = None, say: Callable[[str], None] | None = None) -> None:
        self.service = service
        self.voice = voice
        self.play = play
        self.say = say or (lambda text: None)
        # the board's one gate for the director's commands, the resend's too (club/commands.py): a replay of either
        # is refused
        self.gate: CommandGate = publisher.gate
        self.path = Path(data_dir) / STARTED_FILE
        self.started: list[list[str]] = self._load()
        self.stats = {"started": 0, "again": 0, "busy": 0, "refused": 0}
        self._publisher = publisher
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(16)
        self._logged = 0.0
        self._thread = threading.Thread(target=self._work, name="tournament-board", daemon=True)

    def _load(self) -> list[list[str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return [[str(x) for x in k] for k in data["started"] if isinstance(k, list)][-KEEP_STARTED:]
        except (OSError, ValueError, KeyError, TypeError):
            return []

    def _save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps({"started": self.started[-KEEP_STARTED:]}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("tournament: cannot keep %s: %s", self.path, exc)

    def start(self) -> TournamentBoard:
        self._thread.start()
        self._publisher.on_command(self.heard)
        return self

    def close(self) -> None:
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass
        self._thread.join(2)

    # ----- paho's thread: check, then hand over -----------------------------------------------------------
    def heard(self, topic: str, payload: bytes) -> None:
        try:
            cmd = self.gate.take(topic, payload)
        except AuthError as exc:
            self.stats["refused"] += 1
            now = time.monotonic()
            if now - self._logged >= LOG_EVERY:
                self._logged = now
                log.warning("tournament: refused a director command on %.80r: %s (%d refused so far)", topic,
                            exc.reason, self.stats["refused"])
            return
        try:
            self._queue.put_nowait(cmd)
        except queue.Full:
            log.warning("tournament: too many director commands waiting; this one is dropped (it is sent again)")

    def _work(self) -> None:
        while True:
            cmd = self._queue.get()
            if cmd is None:
                return
            try:
                self.take(cmd)
            except Exception:
                log.exception("tournament: the director's command could not be carried out")

    # ----- the command ---------------------------------------------------------------------------------------
    def take(self, cmd: dict[str, Any]) -> str:
        """Carry out a verified start_match: "started", "again" (started before) or "busy"."""
        key = [cmd["tournament"], cmd["match"], str(cmd.get("attempt", 1))]
        if key in self.started:
            self.stats["again"] += 1
            return "again"
        state = self.service.state()
        if not free_to_start(state):
            self.stats["busy"] += 1
            log.warning("tournament: %s %s not started: this board's match is under way", *key)
            return "busy"
        pt, en = call_text(cmd)
        self.service.announce(CALL, en, pt)
        self.say(pt)
        if self.voice is not None:
            n = cmd["length"]
            self.voice.say(CALL, table=cmd["table"], light=cmd["players"]["light"], dark=cmd["players"]["dark"],
                           points=f"{n} {'ponto' if n == 1 else 'pontos'}", length=n)
        rules: dict[str, Any] = {"rule_set": cmd["rule_set"]} if cmd.get("rule_set") else \
            {"crawford": True, "mode": "strict", "tournament": False}
        event = {"event": "new_match", "length": cmd["length"], "players": dict(cmd["players"]), "rules": rules}
        self.service.submit(event)
        self.started.append(key)
        self._save()
        self.stats["started"] += 1
        if self.play is not None:
            self.play({**cmd, "event": event})
        return "started"


# ----- the demo's side: play the started match from a recorded one ---------------------------------------------
def records_by_length(folder: str | Path | None) -> dict[int, list[Any]]:
    """The recorded matches a demo board can play, by length: the .mat/.txt files of `folder` that replay, or
    the two bundled with the kiosk."""
    from core.errors import GamaoError
    from core.match.formats.mat import read_mat
    from core.match.replay import replay
    from kiosk.demo_script import MATCHES, load_match

    out: dict[int, list[Any]] = {}
    records = []
    if folder is not None:
        for path in sorted(Path(folder).glob("*")):
            if path.suffix not in (".mat", ".txt") or not path.is_file():
                continue
            try:
                record = read_mat(path.read_text(encoding="utf-8", errors="replace"))
                replay(record)
            except (OSError, GamaoError, ValueError):
                continue
            records.append(record)
    if not records:
        records = [load_match(name) for name in MATCHES]
    for record in records:
        out.setdefault(int(record.length), []).append(record)
    return out


def demo_steps(cmd: dict[str, Any], records: dict[int, list[Any]], service: Any) -> Callable[[], Iterator[Any]]:
    """The demo script of a recorded match of the command's length (the nearest longer one if none), its
    new_match the director's, played until the match is over."""
    from kiosk.demo_script import script

    length = cmd["length"]
    lengths = sorted(records)
    pick = length if length in records else next((n for n in lengths if n > length), lengths[-1])
    choices = records[pick]
    digest = hashlib.sha256(f"{cmd['tournament']}/{cmd['match']}".encode()).digest()
    record = choices[digest[0] % len(choices)]

    def steps() -> Iterator[Any]:
        first = True
        for step in script(record, faults=False):
            if first:
                first = False  # the director's new_match is journaled already
                continue
            if service.state().get("phase") == "match_over":
                return
            yield step
    return steps
