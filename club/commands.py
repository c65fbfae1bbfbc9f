"""The director's commands to a board, signed: ``gamao/<club>/<board>/command`` (issue 39: "start this match").

The same mechanism as the director's ``resend`` (issue 34, finding 5; club/intake.py, club/publisher.py): a JSON
object signed like a board's own messages (club/auth.py) with the key the board was paired with (only the
director and that board hold it), over the topic, so a command for one board cannot be moved to another's; its
``seq`` is the director's one command counter (``Intake._command_seq``: it only goes up, across restarts), and
the board obeys a command only above the last one it obeyed, resend or start alike (``Outbox.obeyed``, on the
board's disk, so a replay after a restart is refused too). A start command also carries ``issued`` (the
director's clock): the board refuses one issued more than ``MAX_AGE`` seconds ago by its clock (queued for
hours), and one it does not know or whose fields are out of bounds. Anything refused is counted and logged,
never obeyed, and never stops the board's link.

    {"command": "start_match", "tournament": "Quinta", "match": "M1-3", "table": "Mesa 3",
     "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": null, "attempt": 1, "seq": 17,
     "issued": 1764380000.5, "mac": "<64 hex>"}
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from club.auth import AuthError, open_signed, sign
from club.config import board_topic
from core.match.brackets import MAX_LENGTH, RULE_SETS, TournamentError, check_name

KIND = "command"
MAX_COMMAND = 4096         # bytes: a command is about 300
MAX_AGE = 600.0            # seconds: an older command is stale (a board that was off for long)
MAX_AHEAD = 120.0          # seconds: a command "issued" this far in the board's future is refused (clocks apart)
COMMANDS = ("start_match",)


def topic(club: str, board: str) -> str:
    return board_topic(club, board, KIND)


def signed_command(club: str, board: str, key: bytes, body: dict[str, Any], seq: int,
                   now: float | None = None) -> bytes:
    obj = {**body, "seq": seq, "issued": time.time() if now is None else now}
    return sign(topic(club, board), json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode(), key)


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
    if not isinstance(out["length"], int) or isinstance(out["length"], bool) or not 1 <= out["length"] <= MAX_LENGTH:
        raise AuthError("malformed")
    if not isinstance(out["attempt"], int) or isinstance(out["attempt"], bool) or not 0 <= out["attempt"] < 10_000:
        raise AuthError("malformed")
    if out["rule_set"] not in (None, *RULE_SETS) or any(ord(c) < 32 for c in out["table"] + out["tournament"] + out["match"]):
        raise AuthError("malformed")
    return out


class CommandGate:
    """A board's side: which commands it takes. ``take(topic, payload)`` -> the checked command, or AuthError
    with the reason (too_large, unsigned, forged, malformed, replayed, stale, unknown). ``obeyed(seq)`` is the
    board's command counter (club/outbox.py ``Outbox.obeyed``: records it, False when not above the last)."""

    def __init__(self, club: str, board: str, key: bytes | None, obeyed: Callable[[int], bool]) -> None:
        self.club, self.board, self.key = club, board, key
        self.obeyed = obeyed
        self.refused: dict[str, int] = {}
        self._lock = threading.Lock()

    def _refuse(self, reason: str) -> AuthError:
        self.refused[reason] = self.refused.get(reason, 0) + 1
        return AuthError(reason)

    def take(self, where: str, payload: bytes, now: float | None = None) -> dict[str, Any]:
        if len(payload) > MAX_COMMAND:
            raise self._refuse("too_large")
        if where != topic(self.club, self.board) or self.key is None:
            raise self._refuse("unsigned" if self.key is None else "malformed")
        try:
            msg = open_signed(where, payload, self.key)
        except AuthError as exc:
            raise self._refuse(exc.reason) from None
        now = time.time() if now is None else now
        issued = msg.get("issued")
        if not isinstance(issued, (int, float)) or isinstance(issued, bool):
            raise self._refuse("malformed")
        if not now - MAX_AGE <= issued <= now + MAX_AHEAD:
            raise self._refuse("stale")
        if msg.get("command") not in COMMANDS:
            raise self._refuse("unknown")
        try:
            cmd = check_start(msg)
        except AuthError as exc:
            raise self._refuse(exc.reason) from None
        with self._lock:
            if not self.obeyed(msg["seq"]):
                raise self._refuse("replayed")
        return {**cmd, "seq": msg["seq"]}
