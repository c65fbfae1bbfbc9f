"""The director's commands to a board, signed, and the board's one gate for them (issue 39: "start this match";
issue 34, finding 5: "send that match again").

A command is a JSON object signed like a board's own messages (club/auth.py) with the key the board was paired
with (only the director and that board hold it), over its topic, so a command for one board cannot be moved to
another's: ``gamao/<club>/<board>/command`` (``start_match``) or ``gamao/<club>/<board>/resend``. Its ``seq`` is
the director's one command counter (``Intake.send_command``: it only goes up, across restarts), and the board
obeys a command only above the last one it obeyed, resend or start alike (``Outbox.obeyed``, on the board's disk,
so a replay after a restart is refused too). Each carries ``issued`` (the director's clock): the board refuses a
start issued more than ``MAX_AGE`` seconds ago by its clock (queued for hours); a late resend only sends again
what the board has, so it need not be fresh. The board refuses a retained one (the director never retains one),
one it does not know, or whose fields are out of bounds (``FIELDS``, a check per command). Anything refused is
counted and logged, never obeyed, and never stops the board's link.

    {"command": "start_match", "tournament": "Quinta", "match": "M1-3", "table": "Mesa 3",
     "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": null, "attempt": 1, "seq": 17,
     "issued": 1764380000.5, "mac": "<64 hex>"}
    {"match": 4, "from": 120, "seq": 18, "issued": 1764380001.2, "mac": "<64 hex>"}     (on .../resend)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from club.auth import AuthError, bounded, open_signed, sign
from club.config import board_topic
from core.match.brackets import MAX_LENGTH, RULE_SETS, TournamentError, check_name

KIND = "command"
RESEND = "resend"
MAX_COMMAND = 4096         # bytes: a command is about 300
MAX_AGE = 600.0            # seconds: an older command is stale (a board that was off for long)
MAX_AHEAD = 120.0          # seconds: a command "issued" this far in the board's future is refused (clocks apart)
COMMANDS = ("start_match",)  # on the command topic (a resend has its own)
MAX_MATCH_ID = 2**53
MAX_INDEX = 20_000  # the director's bound on a match's events (club/intake.py MAX_EVENTS)


def topic(club: str, board: str, kind: str = KIND) -> str:
    return board_topic(club, board, kind)


def signed_command(club: str, board: str, key: bytes, body: dict[str, Any], seq: int,
                   now: float | None = None, kind: str = KIND) -> bytes:
    obj = {**body, "seq": seq, "issued": time.time() if now is None else now}
    return sign(topic(club, board, kind), json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode(), key)


def check_resend(msg: dict[str, Any]) -> dict[str, Any]:
    """The fields of a resend ("send match `match` again from index `from`"), checked; AuthError("malformed")."""
    if not bounded(msg.get("match"), 0, MAX_MATCH_ID) or not bounded(msg.get("from"), 0, MAX_INDEX):
        raise AuthError("malformed")
    return {"command": RESEND, "match": msg["match"], "from": msg["from"]}


def check_start(msg: dict[str, Any]) -> dict[str, Any]:
    """The fields of a start_match command, checked; AuthError("malformed") otherwise."""
    try:
        players = msg["players"]
        out = {"command": "start_match", "tournament": str(msg["tournament"])[:60], "match": str(msg["match"])[:16],
               "table": str(msg["table"])[:40],
               "players": {"light": check_name(players["light"]), "dark": check_name(players["dark"])},
               "length": msg["length"], "rule_set": msg.get("rule_set"), "attempt": msg.get("attempt", 1)}
    except (KeyError, TypeError, TournamentError):
        raise AuthError("malformed") from None
    if not bounded(out["length"], 1, MAX_LENGTH + 1) or not bounded(out["attempt"], 0, 10_000):
        raise AuthError("malformed")
    if out["rule_set"] not in (None, *RULE_SETS) or any(ord(c) < 32 for c in out["table"] + out["tournament"] + out["match"]):
        raise AuthError("malformed")
    return out


FIELDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {RESEND: check_resend, "start_match": check_start}


class CommandGate:
    """A board's side: which of the director's commands it takes (club/publisher.py holds the board's one gate).
    ``take(topic, payload)`` -> the checked command (``command``: "resend" or "start_match", its fields, ``seq``),
    or AuthError with the reason (retained, too_large, unpaired, unsigned, forged, malformed, replayed, stale,
    unknown), counted in ``refused``. ``obeyed(seq)`` is the board's command counter (club/outbox.py
    ``Outbox.obeyed``: records it, False when not above the last)."""

    def __init__(self, club: str, board: str, key: bytes | None, obeyed: Callable[[int], bool]) -> None:
        self.club, self.board, self.key = club, board, key
        self.obeyed = obeyed
        self.refused: dict[str, int] = {}
        self._topics = {topic(club, board): KIND, topic(club, board, RESEND): RESEND}
        self._lock = threading.Lock()

    def _refuse(self, reason: str) -> AuthError:
        with self._lock:
            self.refused[reason] = self.refused.get(reason, 0) + 1
        return AuthError(reason)

    def take(self, where: str, payload: bytes, now: float | None = None, retained: bool = False) -> dict[str, Any]:
        try:
            return self._take(where, payload, now, retained)
        except AuthError as exc:
            raise self._refuse(exc.reason) from None

    def _take(self, where: str, payload: bytes, now: float | None, retained: bool) -> dict[str, Any]:
        if retained:
            raise AuthError("retained")
        if len(payload) > MAX_COMMAND:
            raise AuthError("too_large")
        if self.key is None:
            raise AuthError("unpaired")  # nothing to check it with: a board obeys nothing it cannot verify
        kind = self._topics.get(where)
        if kind is None:
            raise AuthError("malformed")
        msg = open_signed(where, payload, self.key)
        name: Any = RESEND
        if kind != RESEND:
            now = time.time() if now is None else now
            issued = msg.get("issued")
            if not isinstance(issued, (int, float)) or isinstance(issued, bool):
                raise AuthError("malformed")
            if not now - MAX_AGE <= issued <= now + MAX_AHEAD:
                raise AuthError("stale")
            name = msg.get("command")
            if name not in COMMANDS:
                raise AuthError("unknown")
        cmd = FIELDS[name](msg)
        with self._lock:
            if not self.obeyed(msg["seq"]):
                raise AuthError("replayed")
        return {**cmd, "seq": msg["seq"]}
