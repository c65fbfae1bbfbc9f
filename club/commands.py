"""The director's commands to a board, signed: ``gamao/<club>/<board>/command`` (issue 39: "start this match").

A command is a JSON object signed like a board's own messages (club/auth.py) with the key the board was paired
with (only the director and that board hold it), over the topic, so a command for one board cannot be moved to
another's. It carries ``seq``, a counter that only goes up (the director keeps its last per board in its
tournament journal), and ``issued`` (the director's clock). A board takes a command only if it is signed with
its key, its counter is above the last it took (kept on the board's disk, so a replay after a restart is refused
too), it was issued less than ``MAX_AGE`` seconds ago by the board's clock (a command queued for hours is
stale), and it is one it knows, with fields in bounds. Anything else is refused, counted and logged, never
obeyed, and never stops the board's link.

    {"command": "start_match", "tournament": "Quinta", "match": "M1-3", "table": "Mesa 3",
     "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": null, "seq": 17,
     "issued": 1764380000.5, "mac": "<64 hex>"}
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

from club.auth import AuthError, open_signed, sign
from club.config import board_topic
from core.match.brackets import MAX_LENGTH, TournamentError, check_name

KIND = "command"
MAX_COMMAND = 4096         # bytes: a command is about 300
MAX_AGE = 600.0            # seconds: an older command is stale (a board that was off for long)
MAX_AHEAD = 120.0          # seconds: a command "issued" this far in the board's future is refused (clocks apart)
COMMANDS = ("start_match",)
RULE_SETS = (None, "casual", "tournament_usbgf", "tournament_ukbgf", "lesson")
LAST_FILE = "club_commands.json"


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
               "length": msg["length"], "rule_set": msg.get("rule_set")}
    except (KeyError, TypeError, TournamentError):
        raise AuthError("malformed") from None
    if not isinstance(out["length"], int) or isinstance(out["length"], bool) or not 1 <= out["length"] <= MAX_LENGTH:
        raise AuthError("malformed")
    if out["rule_set"] not in RULE_SETS or any(ord(c) < 32 for c in out["table"] + out["tournament"] + out["match"]):
        raise AuthError("malformed")
    return out


class CommandGate:
    """A board's side: which commands it takes. ``take(topic, payload)`` -> the checked command, or AuthError
    with the reason (too_large, unsigned, forged, malformed, replayed, stale, unknown); the counter of the last
    command taken is kept in ``data_dir/club_commands.json``."""

    def __init__(self, club: str, board: str, key: bytes | None, data_dir: str | Path) -> None:
        self.club, self.board, self.key = club, board, key
        self.path = Path(data_dir) / LAST_FILE
        self.refused: dict[str, int] = {}
        self._lock = threading.Lock()
        try:
            self.last = int(json.loads(self.path.read_text(encoding="utf-8"))["seq"])
        except (OSError, ValueError, KeyError, TypeError):
            self.last = -1

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
            if msg["seq"] <= self.last:
                raise self._refuse("replayed")
            self.last = msg["seq"]
            tmp = self.path.with_suffix(".tmp")
            try:
                tmp.write_text(json.dumps({"seq": self.last}), encoding="utf-8")
                os.replace(tmp, self.path)
            except OSError:  # a full disk: the counter is still kept in memory until the board restarts
                pass
        return {**cmd, "seq": msg["seq"]}
