"""A board's copies on the club's broker: state (retained), events and verdicts, QoS 1, from the journal.

``BoardPublisher(config, service, data_dir).start()`` hooks into the referee service (kiosk/service.py):
after each event is journaled and ruled on, the event and its verdicts go out at once (the live path); on
start, after each reconnection, and when the director asks for a match again, whatever the broker has not
acknowledged is read back from the journal and sent in order (the catch-up path), its verdicts ruled again
by a fresh referee (the referee is deterministic, so they are the ones the board gave). What the broker
acknowledged is marked in the outbox (club/outbox.py). The broker holds a last will that marks the board
offline. Nothing here can stop the board: a broker that is down, slow or refusing only delays the copies.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from club.auth import AuthError, private_key, seal, sign
from club.commands import KIND, RESEND, CommandGate
from club.config import ClubConfig, board_topic, make_client
from club.outbox import FILE, Outbox
from club.replay import Referee, feed

log = logging.getLogger(__name__)
HEARTBEAT = 30.0  # seconds: an idle board republishes its state this often (the director's sign of life)
LOG_EVERY = 10.0  # seconds: one log line for refused director commands at most this often
ALERTS = ("dice_lost", "camera_bumped")  # hardware trouble a human must see to (with the referee's own calls)


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """The part of the public state the club's page needs (the whole state, less the move list)."""
    return {k: v for k, v in state.items() if k not in ("moves", "position_at_turn_start")}


@dataclass
class _Sent:
    match: int
    index: int
    infos: tuple[Any, ...]


class BoardPublisher:
    def __init__(self, config: ClubConfig, service: Any, data_dir: str | Path,
                 clock: Callable[[], float] = time.time) -> None:
        self.config = config
        # the board's own Ed25519 key (club/auth.py ``seal``: the league checks it end to end), when it was given one
        self._private = private_key(config.sign_key) if config.sign_key else None
        self.service = service
        self.journal = service.journal
        self.outbox = Outbox(Path(data_dir) / FILE)
        #: the board's one gate for the director's commands, resend or start alike (club/commands.py)
        self.gate = CommandGate(config.club, config.board, config.key, self.outbox.obeyed)
        self.clock = clock
        self.client: Any = None
        self.connected = threading.Event()
        #: the broker acknowledged this connection's subscription to the director's commands (SUBACK): a command
        #: sent from now on reaches the board (tests and bench wait for it, not for a time)
        self.commands_heard = threading.Event()
        self._command_mid: int | None = None
        self._sub_lock = threading.Lock()
        self.alerts: set[str] = set()
        self.stats = {"published": 0, "acked": 0, "catch_up": 0, "resend_requests": 0, "connections": 0,
                      "refused_commands": 0}
        self._refusal_logged = -LOG_EVERY
        self._live: deque[tuple[int, int, dict[str, Any], list[dict[str, Any]], float]] = deque()
        self._next: dict[int, int] = {}       # match -> next index to publish on this connection
        self._inflight: deque[_Sent] = deque()
        self._rewinds: deque[tuple[int, int]] = deque()
        self._catch_up = True
        self._state_dirty = True
        self._state_sent = 0.0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"club-{config.board}", daemon=True)
        self._will: int | None = None
        self._commands: list[Callable[[str, bytes], None]] = []  # the director's signed commands (club/commands.py)
        self.will = b""  # the will the broker holds (or will hold) for the current connection
        self._lesson: Callable[[], dict[str, Any] | None] | None = None  # the teacher's table (kiosk/drills.py)

    # ----- topics and payloads --------------------------------------------------------------------------
    def topic(self, kind: str) -> str:
        return board_topic(self.config.club, self.config.board, kind)

    def _signed(self, kind: str, obj: dict[str, Any]) -> bytes:
        """The message as sent: signed with the board's key (club/auth.py) when it was paired."""
        if self.config.key is None:
            return dumps(obj)
        topic, body = self.topic(kind), dumps({**obj, "seq": self.outbox.next_seq()})
        if self._private is not None:
            body = seal(topic, body, self._private)
        return sign(topic, body, self.config.key)

    def _offline(self) -> bytes:
        return self._signed("state", {"board": self.config.board, "club": self.config.club, "online": False,
                                      "updated": None})

    def _state_payload(self) -> bytes:
        matches = self.journal.matches()[-3:]
        return self._signed("state", {"board": self.config.board, "club": self.config.club, "online": True,
                                      "updated": self.clock(), "alerts": sorted(self.alerts), "will": self._will,
                                      "journal": [[m["id"], self.journal.count(m["id"])] for m in matches],
                                      "state": summary(self.service.state()), "lesson": self._lesson_now()})

    def teach(self, lesson: Callable[[], dict[str, Any] | None] | None) -> Callable[[], None]:
        """Send the board's lesson in its state (the director's class view, docs/CONTRACTS.md): ``lesson()`` gives
        it (kiosk.drills.DrillRoom.lesson) or None; returns what to call when it changed (the state goes out again
        at once; it must return at once). ``teach(None)`` stops."""
        self._lesson = lesson
        self._dirty()
        return self._dirty

    def _lesson_now(self) -> dict[str, Any] | None:
        if self._lesson is None:
            return None
        try:
            return self._lesson()
        except Exception:  # the lesson never keeps the board's state from the director
            log.exception("club publisher: the lesson")
            return None

    # ----- life -------------------------------------------------------------------------------------------
    def start(self) -> BoardPublisher:
        b = self.config.broker
        # A fixed client id per board: a second process claiming the board takes over the session.
        self.client = make_client(f"gamao-{self.config.club}-{self.config.board}", b)
        self._arm_will()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = lambda *a: self._wake.set()
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.service.on_journaled(self._on_journaled)
        self.service.subscribe(lambda state: self._dirty())
        self.client.connect_async(b.host, b.port, keepalive=b.keepalive)
        self.client.loop_start()
        self._thread.start()
        return self

    def _arm_will(self) -> None:
        """The last will the broker holds for the next connection: a fresh one each time. The director accepts
        a will older than the newest state only if the board's states name it (club/auth.py), so a will of a
        connection that ended before this one, arriving late (or replayed), cannot show a live board offline."""
        self.will = self._offline()
        self._will = json.loads(self.will).get("seq")
        self.client.will_set(self.topic("state"), self.will, qos=1, retain=True)

    def close(self, timeout: float = 3.0) -> None:
        """Say offline, give the last copies a moment, and stop (the outbox keeps what is not acknowledged)."""
        if self.client is None:
            return
        if self.connected.is_set():
            deadline = time.monotonic() + timeout
            while (self._live or self._inflight) and time.monotonic() < deadline:
                self._wake.set()
                time.sleep(0.02)
        # The sending thread stops before the board says it is offline: a state it sent after (a lesson ended or
        # the match changed during the shutdown) would show a board that is gone as online until it comes back.
        self._stop.set()
        self._wake.set()
        self._thread.join(5)
        if self.connected.is_set():
            try:
                self.client.publish(self.topic("state"), self._offline(), qos=1, retain=True).wait_for_publish(1)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()
        self.client = None
        self.outbox.close()

    def alert(self, name: str, on: bool) -> None:
        """Hardware trouble the director must see (``dice_lost``, ``camera_bumped``), on or off."""
        if name not in ALERTS:
            raise ValueError(f"unknown alert {name!r}; known: {', '.join(ALERTS)}")
        (self.alerts.add if on else self.alerts.discard)(name)
        self._dirty()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """True once every journaled event is acknowledged by the broker (tests, bench, clean shutdown)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.pending() == 0:
                return True
            self._wake.set()
            time.sleep(0.02)
        return False

    def pending(self) -> int:
        marks = self.outbox.marks()
        return sum(max(0, self.journal.count(m["id"]) - 1 - marks.get(m["id"], -1)) for m in self.journal.matches())

    # ----- callbacks (paho's network thread, the service's threads) ---------------------------------------
    def _dirty(self) -> None:
        self._state_dirty = True
        self._wake.set()

    def _on_journaled(self, match: int, index: int, event: dict[str, Any], verdicts: list[dict[str, Any]]) -> None:
        self._live.append((match, index, event, verdicts, self.clock()))
        self._wake.set()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("club broker %s refused board %s: %s", self.config.broker.display(), self.config.board, reason)
            return
        client.subscribe(self.topic(RESEND), qos=1)
        if self._commands:
            self._subscribe_commands(client)
        self.stats["connections"] += 1
        self._catch_up = True
        self._state_dirty = True
        self.connected.set()
        self._wake.set()

    def _subscribe_commands(self, client: Any) -> None:
        with self._sub_lock:
            self.commands_heard.clear()
            _, self._command_mid = client.subscribe(self.topic(KIND), qos=1)

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, codes: Any, properties: Any) -> None:
        with self._sub_lock:
            if mid == self._command_mid and not any(c.is_failure for c in codes):
                self.commands_heard.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        self.commands_heard.clear()
        if not self._stop.is_set():
            try:
                self._arm_will()  # paho reconnects from this thread after this call, with the new will
            except Exception:  # the outbox cannot give a counter (disk full): the last will serves again
                log.exception("club publisher: no new last will for the next connection")
        self._wake.set()

    def on_command(self, listener: Callable[[str, bytes], None]) -> None:
        """Hear the director's commands (topic, payload as received: the listener checks them through ``gate``).
        Called from paho's thread: the listener must return at once."""
        self._commands.append(listener)
        if self.client is not None and self.connected.is_set():
            self._subscribe_commands(self.client)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        """A director command: ``.../command`` goes to its listeners (they take it through ``gate``); ``resend`` is
        obeyed when the gate takes it (signed with the board's key for this topic, newer than the last command
        obeyed, not retained, in bounds). Whatever a message holds, it is refused or obeyed here and never raises
        into paho's thread."""
        if msg.topic == self.topic(KIND) and not msg.retain:  # a retained one: refused by the gate below
            for listener in self._commands:
                try:
                    listener(msg.topic, bytes(msg.payload))
                except Exception:  # never the link
                    log.exception("club: a command listener failed")
            return
        try:
            cmd = self.gate.take(msg.topic, bytes(msg.payload), retained=bool(msg.retain))
        except AuthError as exc:
            why = exc.reason
        except Exception:  # never the link's end (paho suppresses too, see club.config.make_client)
            log.exception("club: a director command")
            why = "malformed"
        else:
            self._rewinds.append((cmd["match"], cmd["from"]))
            self.stats["resend_requests"] += 1
            self._wake.set()
            return
        self.stats["refused_commands"] += 1
        now = time.monotonic()
        if now - self._refusal_logged >= LOG_EVERY:
            self._refusal_logged = now
            log.warning("club: refused a director command (%s): %r (%d refused so far)", why, msg.payload[:80],
                        self.stats["refused_commands"])

    # ----- the sender ---------------------------------------------------------------------------------------
    def _loop(self) -> None:
        was_connected = False
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            try:
                if not self.connected.is_set():
                    if was_connected:  # what was in flight may be lost: start again from the marks
                        self._reset()
                    was_connected = False
                    self._live.clear()  # the journal has them; the catch-up on reconnection reads them there
                    continue
                was_connected = True
                self._settle()
                while self._rewinds:
                    match, start = self._rewinds.popleft()
                    self.outbox.rewind(match, start)
                    self._catch_up = True
                if self._catch_up:
                    self._reset()
                    self._catch_up = False
                    self._send_journal()
                self._send_live()
                if self._state_dirty or time.monotonic() - self._state_sent > HEARTBEAT:
                    self._state_dirty = False
                    self._state_sent = time.monotonic()
                    self.client.publish(self.topic("state"), self._state_payload(), qos=1, retain=True)
                self._settle()
            except Exception:  # the board goes on; the outbox still has everything
                log.exception("club publisher")
                self._catch_up = True
                self._stop.wait(0.5)

    def _reset(self) -> None:
        self._inflight.clear()
        self._next.clear()

    def _next_index(self, match: int) -> int:
        if match not in self._next:
            self._next[match] = self.outbox.acked(match) + 1
        return self._next[match]

    def _publish(self, match: int, index: int, event: dict[str, Any], verdicts: list[dict[str, Any]],
                 ruled: float | None) -> None:
        head = {"board": self.config.board, "club": self.config.club, "match": match, "index": index}
        sent = self.clock()
        e = self.client.publish(self.topic("events"), self._signed("events", {**head, "event": event, "sent": sent}),
                                qos=1)
        v = self.client.publish(self.topic("verdicts"), self._signed("verdicts", {**head, "verdicts": verdicts,
                                                                                  "ruled": ruled, "sent": sent}), qos=1)
        self._inflight.append(_Sent(match, index, (e, v)))
        self._next[match] = index + 1
        self.stats["published"] += 1

    def _send_journal(self) -> None:
        """Everything the broker has not acknowledged, match by match, in order (ruled again by the referee the
        board's service holds, a chouette's too)."""
        for m in self.journal.matches():
            match = m["id"]
            start, count = self._next_index(match), self.journal.count(match)
            if start >= count:
                continue
            ref = Referee()
            for index, event in enumerate(islice(self.journal.events(match), count)):
                verdicts = feed(ref, event)
                if index >= start:
                    self._publish(match, index, event, verdicts, None)
                    self.stats["catch_up"] += 1
                    self._settle()

    def _send_live(self) -> None:
        while self._live:
            match, index, event, verdicts, ruled = self._live[0]
            expected = self._next_index(match)
            if index < expected:
                self._live.popleft()  # already sent from the journal
                continue
            if index > expected:  # a gap (e.g. the journal's default first event): fill it from the journal
                self._send_journal()
                continue
            self._live.popleft()
            self._publish(match, index, event, verdicts, ruled)

    def _settle(self) -> None:
        """Mark what the broker acknowledged, in order: a mark never skips an unacknowledged event."""
        last: dict[int, int] = {}
        while self._inflight and all(_acked(i) for i in self._inflight[0].infos):
            sent = self._inflight.popleft()
            last[sent.match] = sent.index
            self.stats["acked"] += 1
        for match, index in last.items():
            self.outbox.mark(match, index)


def _acked(info: Any) -> bool:
    """The broker acknowledged the message; False also when the connection it went out on is gone (paho raises
    then: the catch-up after the next connection sends it again), which is no failure of the board's."""
    try:
        return bool(info.is_published())
    except RuntimeError:
        return False


def start_publisher(settings: Any, service: Any) -> BoardPublisher | None:
    """The publisher for `gamao run`/`gamao demo`, or None when the settings name no broker."""
    config = ClubConfig.from_dict(getattr(settings, "club", None) or {})
    if config is None:
        return None
    publisher = BoardPublisher(config, service, settings.data_dir).start()
    service.club_publisher = publisher  # the app's teacher's table sends its lesson with it (kiosk/main.py)
    if hasattr(service, "on_alert"):
        service.on_alert(publisher.alert)  # the appliance's dice unit lost, camera bumped
    service.at_close(publisher.close)
    return publisher
