"""The director's intake: the boards' messages taken in from the broker, authenticated, put in order and replayed.

``Intake(broker, data_dir).start()`` subscribes to ``gamao/<club>/+/{state,events,verdicts}`` (QoS 1, a
persistent session, so the broker keeps what arrives while the director is away). paho's thread only checks a
message's size and queues it; the intake's worker authenticates it (a paired board's own, fresh, signed
message: club/auth.py), archives each event once by (club, board, match, index) and feeds it, in index order,
to the intake's own referee for that match: the grid, the results and the .mat files come from the same events
as the board's journal. When a board's retained state says its journal holds more than the archive has in a
row, and nothing has arrived for a moment, the intake asks that board to send the match again from the first
missing index (topic ``.../resend``); duplicates are ignored.

What it keeps (``views``: a BoardView per board, ``matches``: a BoardMatch per match, the archive, the counters)
is what the page's views (club/director.py) read, under ``lock``; ``listen(callback)`` tells them when a board
changed.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from club.archive import FILE, Archive, match_summary
from club.auth import AuthError, Counter, ReplayGuard, bounded, payload_mac
from club.boards import BoardMatch, BoardView, Key, for_director, lesson_of
from club.commands import RESEND, signed_command
from club.commands import topic as command_topic
from club.config import KINDS, NAME, PREFIX, Broker, board_topic, make_client, parse_topic
from club.league import ASK_PREFIX, ask_topic, check_ask, read_link, signed_ask
from club.pairing import MAX_MESSAGE, Pairing
from club.replay import Referee, feed

log = logging.getLogger(__name__)
GAP_GRACE = 1.0      # seconds without progress before a gap is asked for again
ASK_EVERY = 2.0      # seconds between two resend requests for the same match
LEAGUE_ASK_EVERY = 1.0  # seconds: a club's director obeys the league's asks for one match at most this often
STALE = 5.0          # seconds a board's current match may stand still before the director asks it for more
# Bounds on what one (paired) board can make the director hold (docs/CONTRACTS.md, issue 22)
MAX_MATCH_ID = 2**53         # journal match ids are small integers; SQLite keeps up to 2**63
MAX_EVENTS = 20_000          # events per match (a 25-point match is about 3,000)
MAX_PENDING = 2_000          # events kept in memory ahead of a gap (the rest wait in the archive)
MAX_MATCHES = 1_000          # matches per board and night
MAX_ALERTS = len(("dice_lost", "camera_bumped"))
MAX_INBOX = 100_000          # messages waiting for the director's worker; beyond, dropped (resend fetches them)
MAX_INBOX_BYTES = 64 * 2**20  # bytes waiting for the worker, all boards together (issue 34: a flood of 255 kB)
MAX_BOARD_WAITING = 16 * 2**20  # bytes of one board (by its topic) waiting: a flood waits behind no other board
MAX_COPY = 72 * 1024         # bytes of an events or verdicts copy: the kiosk journals no event over 64 kB (its body
                             # limit); a state may take the broker's whole MAX_MESSAGE
JOURNAL_LIST = 3             # matches a board's state lists (its last three)
KNOWN_ALERTS = ("dice_lost", "camera_bumped")
REFUSALS = ("too_large", "bad_topic", "unpaired", "unsigned", "forged", "replayed", "malformed", "over_limit")
NOTIFY_EVERY = 0.2          # seconds: the page hears of a backlog's progress at least this often
COMMAND_BLOCK = 4096        # command counters reserved in the archive at a time
LOG_EVERY = 10.0             # seconds: one log line per refusal reason and board at most this often
class Intake:
    """The boards' messages in: the broker client (paho's thread sizes and queues them), the worker that
    authenticates, archives, replays and asks for gaps, and what it keeps for the views."""

    def __init__(self, broker: Broker | None, data_dir: str | Path, club: str = "+",
                 client_id: str | None = None, pairing: Pairing | None = None) -> None:
        self.broker = broker
        self.club = club
        self.data_dir = Path(data_dir)
        self.archive = Archive(self.data_dir / FILE)
        #: the paired boards and their keys: only a paired board's signed messages are taken in (club/auth.py)
        self.pairing = pairing if pairing is not None else Pairing(self.data_dir)
        self.guards: dict[tuple[str, str], ReplayGuard] = {}
        self.refused = dict.fromkeys(REFUSALS, 0)
        self.refused_by: dict[str, int] = {}   # board name (as the topic says, paired or not) -> refusals; bounded
        self._logged: dict[tuple[str, str], float] = {}
        self.order: list[tuple[str, str]] = []  # the views' keys, sorted (made again when a board appears)
        self.client_id = client_id or f"gamao-director-{'all' if club == '+' else club}"
        self.client: Any = None
        self.connected = threading.Event()
        self.views: dict[tuple[str, str], BoardView] = {}
        self.matches: dict[Key, BoardMatch] = {}
        self.stats = {"messages": 0, "events": 0, "duplicates": 0, "verdicts": 0, "resend_requests": 0,
                      "league_asks": 0, "league_asks_skipped": 0}
        # (received, seconds from a board's verdict to the director), for bench/bench_club.py
        self.latencies: deque[tuple[float, float]] = deque(maxlen=100_000)
        self.results_version = 0
        self._dirty: set[tuple[str, str]] = set()
        self._listeners: list[Callable[[], object]] = []
        self.lock = threading.RLock()   # the views read under it
        self._inbox: queue.Queue[tuple[str, bytes] | None] = queue.Queue(MAX_INBOX)
        self._waiting: dict[str, int] = {}     # bytes in the inbox by the board its topic names
        self._waiting_total = 0
        self._waiting_lock = threading.Lock()
        #: the director's own link to the broker: connections, disconnections nobody asked for, and sessions the
        #: broker no longer had when the director came back (another client took its session with a clean one)
        self.link = {"connections": 0, "disconnections": 0, "sessions_lost": 0, "refused": 0}
        self._had_session = False
        #: the director's one command counter, resend or start alike (club/commands.py): reserved COMMAND_BLOCK at
        #: a time in the archive, it only goes up across restarts, so a board refuses an older command as a replay
        self.commands = Counter(lambda: self.archive.setting("command_seq"),
                                lambda top: self.archive.set_setting("command_seq", top), COMMAND_BLOCK)
        #: the league (club/league.py): a club's director obeys the league's signed asks for what the league missed
        #: ("send board B's match M again from I") by asking its board with its own counter; the league's counter
        #: (its asks' ``seq``, a different signer and key) is checked apart, above the last ask obeyed
        self.league_link = read_link(self.data_dir)
        self._league_asked: dict[tuple[str, int], float] = {}   # (board, match) -> when a league ask was obeyed
        if self.league_link is not None and club not in ("+", self.league_link["club"]):
            self.league_link = None
        #: at the league director: its own counter for its asks to the clubs (it holds no board's key)
        self.asks = (Counter(lambda: self.archive.setting("league_ask_seq"),
                             lambda top: self.archive.set_setting("league_ask_seq", top), COMMAND_BLOCK)
                     if getattr(self.pairing, "link_key", None) is not None else None)
        self._closing = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="club-director", daemon=True)

    # ----- life ---------------------------------------------------------------------------------------------
    def start(self) -> Intake:
        self._restore()
        self._thread.start()
        if self.broker is not None:
            b = self.broker
            self.client = make_client(self.client_id, b, clean=False)
            self.client.on_connect = self._on_connect
            self.client.on_disconnect = self._on_disconnect
            self.client.on_message = lambda c, u, msg: self._receive(msg.topic, msg.payload)
            self.client.connect_async(b.host, b.port, keepalive=b.keepalive)
            self.client.loop_start()
        return self

    def close(self) -> None:
        self._closing = True
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
            self.client = None
        self._stop.set()
        self._inbox.put(None)
        self._thread.join(5)
        self.archive.close()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.link["refused"] += 1
            log.warning("the broker refused the director: %s", reason)
            return
        self.link["connections"] += 1
        if self._had_session and not flags.session_present:
            # The broker kept the director's session (clean_session false) and has it no more: another client
            # connected as the director and replaced it, or the broker lost its state. What came meanwhile is
            # asked for again (the boards' retained states say how far each journal is).
            self.link["sessions_lost"] += 1
            log.warning("the broker no longer had the director's session (connection %d): another client with the "
                        "director's broker user took it, or the broker lost its state; asking the boards again for "
                        "what is missing", self.link["connections"])
        self._had_session = True
        for kind in ("state", "events", "verdicts"):
            client.subscribe(f"{PREFIX}/{self.club}/+/{kind}", qos=1)
        if self.league_link is not None:
            client.subscribe(ask_topic(self.league_link["club"]), qos=1)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        if not self._closing:
            self.link["disconnections"] += 1
            now = time.monotonic()
            if now - self._logged.get(("disconnected", ""), -LOG_EVERY) >= LOG_EVERY:  # one line per 10 s at most
                self._logged[("disconnected", "")] = now
                log.warning("the director lost the broker (%s; %d times so far); connecting again", reason,
                            self.link["disconnections"])

    def _restore(self) -> None:
        """After a restart: labels, results, and every match's place from the archive."""
        labels = self.archive.labels()
        done = {(r["club"], r["board"], r["match"]) for r in self.archive.results()}
        latest: dict[tuple[str, str], int] = {}
        for club, board, match in self.archive.matches():
            latest[(club, board)] = max(latest.get((club, board), match), match)
        for club, board, match in self.archive.matches():
            view = self._view(club, board)
            view.label = labels.get((club, board))
            view.match = latest[(club, board)]
            replay = (club, board, match) not in done or match == latest[(club, board)]
            m = BoardMatch(Referee() if replay else None, result_saved=(club, board, match) in done)
            indexes = self.archive.indexes(club, board, match)
            for index in self.archive.verdict_indexes(club, board, match):
                m.got_verdicts(index)
            if replay:
                for event in self.archive.events(club, board, match):
                    m.last_verdict = self._last(feed(m.ref, event), m.last_verdict)  # type: ignore[arg-type]
                    m.next += 1
                # Copies that arrived after a gap wait for it (the gap is asked for again, see _ask_for_gaps).
                m.pending = self.archive.events_after(club, board, match, m.next, MAX_PENDING + 1)
                if len(m.pending) > MAX_PENDING:
                    m.pending.pop(max(m.pending))
                    m.spilled = True
            else:
                while m.next < len(indexes) and indexes[m.next] == m.next:
                    m.next += 1
            m.progress = time.monotonic()
            self.matches[(club, board, match)] = m
            view.nmatches += 1
        for (club, board), label in labels.items():
            self._view(club, board).label = label

    # ----- messages (the director's worker thread) -----------------------------------------------------------
    def _loop(self) -> None:
        last_check = 0.0
        while not self._stop.is_set():
            try:
                item = self._inbox.get(timeout=0.25)
            except queue.Empty:
                item = None
            try:
                if item is not None:
                    self._taken(*item)
                    self._handle(*item)
                    drained = time.monotonic()
                    # drain what is waiting before telling the page, but tell it at least every NOTIFY_EVERY s
                    # while a backlog is taken in (the page shows the newest of each board)
                    while time.monotonic() - drained < NOTIFY_EVERY:
                        try:
                            nxt = self._inbox.get_nowait()
                        except queue.Empty:
                            break
                        if nxt is None:
                            break
                        self._taken(*nxt)
                        self._handle(*nxt)
                        # a moment for the page's threads between two messages of a backlog: without it they wait
                        # for Python's switch interval (5 ms) at each of a request's turns
                        time.sleep(0)
                if self._dirty:
                    self.notify()
                if time.monotonic() - last_check > 0.5:
                    last_check = time.monotonic()
                    self._ask_for_gaps()
            except Exception:  # a bad copy must not stop the director
                log.exception("director")

    def _view(self, club: str, board: str) -> BoardView:
        view = self.views.get((club, board))
        if view is None:
            view = self.views[(club, board)] = BoardView(club, board)
            self.order = sorted(self.views)
        return view

    # ----- what a board may say --------------------------------------------------------------------------------
    def _receive(self, topic: str, payload: bytes) -> None:
        """paho's thread: the size is checked, and what waits for the worker bounded in bytes (each board's and all
        together), before anything is kept; the worker does the rest. Nothing is parsed here."""
        size = len(payload)
        if size > MAX_MESSAGE or (size > MAX_COPY and topic.endswith(("/events", "/verdicts"))):
            self._refuse("too_large", topic, f"{size} bytes")
            return
        who = self._who(topic)
        with self._waiting_lock:
            mine = self._waiting.get(who, 0)
            if mine + size > MAX_BOARD_WAITING or self._waiting_total + size > MAX_INBOX_BYTES:
                full = True
            else:
                full = False
                self._waiting[who] = mine + size
                self._waiting_total += size
        if full:
            self._refuse("over_limit", topic, "the director's inbox holds enough of this board's messages")
            return
        try:
            self._inbox.put_nowait((topic, payload))
        except queue.Full:
            self._taken(topic, payload)
            self._refuse("over_limit", topic, "the director's inbox is full")

    @staticmethod
    def _who(topic: str) -> str:
        parts = topic.split("/", 3)
        return parts[2][:40] if len(parts) > 2 else "?"

    def _taken(self, topic: str, payload: bytes) -> None:
        """A message left the inbox: its bytes no longer count against its board."""
        who = self._who(topic)
        with self._waiting_lock:
            left = self._waiting.get(who, 0) - len(payload)
            if left > 0:
                self._waiting[who] = left
            else:
                self._waiting.pop(who, None)
            self._waiting_total -= len(payload)

    def _refuse(self, reason: str, topic: str, detail: str = "") -> None:
        """Count (and, at most every LOG_EVERY seconds per reason and board, log) a message not taken in."""
        self.refused[reason] += 1
        who = self._who(topic)
        if who in self.refused_by or len(self.refused_by) < 1024:
            self.refused_by[who] = self.refused_by.get(who, 0) + 1
        now = time.monotonic()
        if now - self._logged.get((reason, ""), -LOG_EVERY) >= LOG_EVERY:
            if len(self._logged) > 4096:
                self._logged.clear()
            self._logged[(reason, "")] = now
            log.warning("refused a message on %.120r: %s %s (%d %s so far)", topic, reason, detail,
                        self.refused[reason], reason)

    def _guard(self, club: str, board: str) -> ReplayGuard:
        guard = self.guards.get((club, board))
        if guard is None:
            guard = self.guards[(club, board)] = self.archive.guard(club, board)
        return guard

    def _authentic(self, topic: str, payload: bytes) -> tuple[str, str, str, dict[str, Any]] | None:
        """(club, board, kind, message) for a paired board's own, fresh, signed message; None (counted) otherwise."""
        parsed = parse_topic(topic)
        if parsed is None or not NAME.match(parsed[0]) or not NAME.match(parsed[1]) or parsed[2] not in KINDS:
            self._refuse("bad_topic", topic)
            return None
        club, board, kind = parsed
        if self.club not in ("+", club):
            self._refuse("bad_topic", topic, f"not club {self.club}")
            return None
        opener = self.pairing.opener(club, board)
        if opener is None:
            self.pairing.refresh()
            opener = self.pairing.opener(club, board)
        if opener is None:
            self._refuse("unpaired", topic, "(pair it: gamao director pair NAME)")
            return None
        try:
            msg = opener(topic, payload)  # the board's MAC at its club, its public-key signature at the league
        except AuthError as exc:
            self._refuse(exc.reason, topic)
            return None
        guard = self._guard(club, board)
        if kind == "state":
            online = msg.get("online") is True
            fresh = guard.state(msg["seq"], payload_mac(payload), online)
            if fresh is None:
                self._refuse("replayed", topic, f"counter {msg['seq']}")
                return None
            if fresh == "new":
                if online and isinstance(msg.get("will"), int):
                    guard.will = msg["will"]
                self.archive.save_guard(club, board, guard)
        elif not guard.copy(msg["seq"]):
            self._refuse("replayed", topic, f"counter {msg['seq']}")
            return None
        return club, board, kind, msg

    def _handle(self, topic: str, payload: bytes) -> None:
        if topic.startswith(ASK_PREFIX + "/"):
            self._league_ask(topic, payload)
            return
        got = self._authentic(topic, payload)
        if got is None:
            return
        club, board, kind, msg = got
        self.stats["messages"] += 1
        with self.lock:
            try:
                self._take(club, board, kind, msg)
            except (KeyError, TypeError, ValueError, OverflowError) as exc:  # e.g. int(1e999) in a journal list
                self._refuse("malformed", topic, str(exc)[:80])

    @staticmethod
    def _place(msg: dict[str, Any]) -> tuple[int, int]:
        match, index = msg["match"], msg["index"]
        for what, n, top in (("match", match, MAX_MATCH_ID), ("index", index, MAX_EVENTS)):
            if not bounded(n, 0, top):
                raise ValueError(f"{what} must be an integer 0-{top - 1}")
        return match, index

    def _take(self, club: str, board: str, kind: str, msg: dict[str, Any]) -> None:
        view = self._view(club, board)
        if kind == "state":
            try:  # a lesson the director cannot show is left out (counted); the board's state is taken all the same
                lesson = lesson_of(msg.get("lesson")) if msg.get("online") is True else None
            except ValueError as exc:
                lesson = None
                self._refuse("malformed", board_topic(club, board, kind), str(exc)[:80])
            view.updated = time.time()
            view.online = msg.get("online") is True
            view.lesson = lesson
            if view.online:
                alerts = msg.get("alerts") or []
                view.alerts = [a for a in alerts if a in KNOWN_ALERTS][:MAX_ALERTS] if isinstance(alerts, list) else []
                journal = msg.get("journal") or []
                if not isinstance(journal, list):
                    raise ValueError("journal must be a list")
                view.journal = [(int(m), int(c)) for m, c in journal[-JOURNAL_LIST:]
                                if 0 <= int(m) < MAX_MATCH_ID and 0 <= int(c) <= MAX_EVENTS]
        elif kind == "events":
            match, index = self._place(msg)
            if not isinstance(msg.get("event"), dict):
                raise ValueError("event must be an object")
            if (club, board, match) not in self.matches and view.nmatches >= MAX_MATCHES:
                self._refuse("over_limit", board_topic(club, board, kind), f"more than {MAX_MATCHES} matches")
                return
            view.updated = time.time()
            self._on_event(view, match, index, msg["event"])
        else:
            match, index = self._place(msg)
            verdicts = msg.get("verdicts") or []
            if not isinstance(verdicts, list):
                raise ValueError("verdicts must be a list")
            if (club, board, match) not in self.matches and view.nmatches >= MAX_MATCHES:
                self._refuse("over_limit", board_topic(club, board, kind), f"more than {MAX_MATCHES} matches")
                return
            view.updated = time.time()
            self.stats["verdicts"] += 1
            self.archive.add(club, board, match, index, None, verdicts)
            self._match_of((club, board, match)).got_verdicts(index)
            ruled = msg.get("ruled")
            if isinstance(ruled, (int, float)) and not isinstance(ruled, bool) and math.isfinite(ruled) and verdicts:
                view.ruled, view.received = float(ruled), time.time()
                self.latencies.append((view.received, view.received - view.ruled))
        self.changed(view)

    def _on_event(self, view: BoardView, match: int, index: int, event: dict[str, Any]) -> None:
        key = (view.club, view.board, match)
        if not self.archive.add(view.club, view.board, match, index, event, None):
            self.stats["duplicates"] += 1
            return
        self.stats["events"] += 1
        view.moved = time.time()
        m = self._match_of(key)
        if view.match is None or match > view.match:
            previous = self.matches.get((view.club, view.board, view.match)) if view.match is not None else None
            view.match = match
            if previous is not None and previous.result_saved:
                previous.ref = None  # a finished match no longer shown: its archive is enough
        if m.ref is None:  # an archived, finished match: keep the count only
            # copies that came ahead of a gap are in the archive already: the count runs on through them (a
            # resent copy of one of them is a duplicate and never comes here)
            while index == m.next or self.archive.event(view.club, view.board, match, m.next) is not None:
                m.next += 1
            return
        if index >= m.next and index - m.next < MAX_PENDING:
            m.pending[index] = event
        elif index > m.next:
            m.spilled = True
        self._advance(view, match, m)

    def _advance(self, view: BoardView, match: int, m: BoardMatch) -> None:
        assert m.ref is not None
        while True:
            event = m.pending.pop(m.next, None)
            if event is None:
                # an event that came while too far ahead waits in the archive, not in memory
                event = self.archive.event(view.club, view.board, match, m.next) if m.spilled else None
                if event is None:
                    break
            m.last_verdict = self._last(feed(m.ref, event), m.last_verdict)
            m.next += 1
            m.progress = time.monotonic()
        if m.ref.phase == "match_over" and not m.result_saved:
            self.archive.save_result(view.club, view.board, match, match_summary(m.ref), "finished")
            m.result_saved = True
            self.results_version += 1
            if match != view.match:
                m.ref = None

    def _match_of(self, key: tuple[str, str, int]) -> BoardMatch:
        """The match's record, a new one (its referee at the start) the first time anything of it comes."""
        m = self.matches.get(key)
        if m is None:
            m = self.matches[key] = BoardMatch(Referee(), progress=time.monotonic())
            self._view(key[0], key[1]).nmatches += 1
        return m

    @staticmethod
    def _last(verdicts: list[dict[str, Any]], previous: dict[str, Any] | None) -> dict[str, Any] | None:
        # A verdict addressed to the players alone (issue 36: a hint while the turn is open) is not the director's.
        shown = [v for v in verdicts if for_director(v)]
        return shown[-1] if shown else previous

    def _ask_for_gaps(self) -> None:
        """Ask each online board for what the director lacks: of the matches its state lists (their counts), and of
        a current match that stopped moving before its end (STALE seconds): the broker may have dropped the board's
        last messages, its state among them, for a director that was away or slow beyond its queue's bound (issue
        34); a board with nothing more sends nothing."""
        if self.client is None or not self.connected.is_set():
            return
        now = time.monotonic()
        with self.lock:
            for view in self.views.values():
                if not view.online:
                    continue
                for match, count in view.journal:
                    m = self.matches.get((view.club, view.board, match))
                    have = min(m.next, m.ruled_next) if m is not None else 0
                    if have >= count:
                        continue
                    if m is None:
                        m = self._match_of((view.club, view.board, match))
                    if now - m.progress < GAP_GRACE or now - m.asked < ASK_EVERY:
                        continue
                    self._resend(view, match, m, have, now)
                current = self.matches.get((view.club, view.board, view.match)) if view.match is not None else None
                if (current is not None and current.ref is not None and current.ref.phase != "match_over"
                        and now - current.progress >= STALE and now - current.asked >= STALE):
                    assert view.match is not None
                    self._resend(view, view.match, current, min(current.next, current.ruled_next), now)

    def _resend(self, view: BoardView, match: int, m: BoardMatch, start: int, now: float) -> None:
        """Ask the board to send `match` again from `start` (at the league: ask the board's club, which asks it)."""
        if self.asks is not None:
            sent = self._ask_club(view.club, view.board, match, start)
        else:
            sent = self.send_command(view.club, view.board, {"match": match, "from": start}, RESEND)
        if sent:
            m.asked = now
            self.stats["resend_requests"] += 1

    def _ask_club(self, club: str, board: str, match: int, start: int) -> bool:
        """The league director's ask to a club's director (club/league.py ``signed_ask``: the club's link key, the
        league's own counter); False when the club has no link key or the league no broker."""
        key, client = self.pairing.link_key(club), self.client  # type: ignore[attr-defined]
        if key is None or client is None or self.asks is None:
            return False
        client.publish(ask_topic(club), signed_ask(club, key, board, match, start, self.asks.next()), qos=1)
        return True

    def _league_ask(self, topic: str, payload: bytes) -> None:
        """A club's director: the league asks for a board's match again from an index. Obeyed when signed with the
        club's link key, above the last league ask obeyed (kept in the archive, apart from the director's own
        command counter) and for a board of this club: the director asks the board with its own counter."""
        link = self.league_link
        if link is None or topic != ask_topic(link["club"]):
            self._refuse("bad_topic", topic, "not this club's league asks")
            return
        try:
            ask = check_ask(link["club"], payload, bytes.fromhex(link["key"]))
        except AuthError as exc:
            self._refuse(exc.reason, topic, "(a league ask)")
            return
        if ask["seq"] <= int(self.archive.setting("league_ask_obeyed", -1)):
            self._refuse("replayed", topic, f"league ask {ask['seq']}")
            return
        self.archive.set_setting("league_ask_obeyed", ask["seq"])
        if self.pairing.key(link["club"], ask["board"]) is None:
            self._refuse("unpaired", topic, f"the league asked for board {ask['board']!r}")
            return
        now, which = time.monotonic(), (ask["board"], ask["match"])
        if now - self._league_asked.get(which, -LEAGUE_ASK_EVERY) < LEAGUE_ASK_EVERY:
            # the league's asks made while the link was down arrive together when it is back (the league asks a
            # stalled match every few seconds): one resend a second per match is enough; more is no refusal
            self.stats["league_asks_skipped"] += 1
            return
        if len(self._league_asked) > 4096:
            self._league_asked.clear()
        self._league_asked[which] = now
        self.stats["league_asks"] += 1
        self.send_command(link["club"], ask["board"], {"match": ask["match"], "from": ask["from"]}, RESEND)

    def send_command(self, club: str, board: str, body: dict[str, Any], kind: str = "command") -> bool:
        """Send a board a command (club/commands.py: `kind` "command" or "resend"), signed with its key and the
        director's one command counter; False (nothing sent) when the board is not paired (it obeys nothing the
        director cannot sign) or the director has no link."""
        key, client = self.pairing.key(club, board), self.client
        if key is None or client is None:
            return False
        payload = signed_command(club, board, key, body, self.commands.next(), kind=kind)
        client.publish(command_topic(club, board, kind), payload, qos=1)
        return True

    # ----- telling the views -----------------------------------------------------------------------------
    def listen(self, callback: Callable[[], object]) -> Callable[[], None]:
        with self.lock:
            self._listeners.append(callback)

        def stop() -> None:
            with self.lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)
        return stop

    def changed(self, view: BoardView) -> None:
        """A message (or the owner) changed the board: its page hears of it at the next notice, and a read before
        that makes the board's entry again (a cached entry from before the message would show, say, the score a
        game ago)."""
        view.changes += 1
        self._dirty.add((view.club, view.board))

    def notify(self) -> None:
        with self.lock:
            self._dirty.clear()
            listeners = list(self._listeners)
        for callback in listeners:
            try:
                callback()
            except Exception:
                log.exception("a director listener failed")

