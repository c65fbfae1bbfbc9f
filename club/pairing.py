"""Pairing a board with the director: its name, broker user, password and signing key.

``gamao director --data-dir DIR pair NAME [--club CLUB] --json`` issues a board's credentials once: its name,
its broker user (the board's name) and password, and the key its messages are signed with (club/auth.py).
The director keeps them in ``DIR/pairing.json`` (readable by its owner only); the board keeps the JSON it was
given (``gamao demo --credentials FILE``, or ``credentials = "FILE"`` in the ``[club]`` table).

The broker's configuration for the paired boards: club/broker_config.py. A board's credentials file is read
by club/config.py (``read_credentials``), the board's side.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from club.auth import new_sign_key, open_signed
from club.config import ClubConfigError, check_name

FILE = "pairing.json"
DIRECTOR = "director"
MAX_BOARDS = 256           # paired boards per club (the page shows only paired boards)
MAX_MESSAGE = 256 * 1024   # bytes: the largest message a board sends (a board reading with its tables is ~2 kB)
CREDENTIAL_KEYS = ("board", "club", "username", "password", "key", "sign_key", "broker", "paired")


def write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


class DirectorFile:
    """A director's private JSON file (``{"director": {username, password}, TABLE: {...}}``), re-read when it
    changes (at most every few seconds, `refresh`): the pairing's boards, the league's clubs (club/league.py)."""

    FILE = FILE
    TABLE = "boards"

    def __init__(self, data_dir: str | Path) -> None:
        self.path = Path(data_dir) / self.FILE
        self._lock = threading.Lock()
        self._mtime: float | None = None
        self._checked = 0.0
        self._data: dict[str, Any] = {"director": None, self.TABLE: {}}
        self._load()

    def _load(self) -> None:
        try:
            st = self.path.stat()
        except OSError:
            return
        if st.st_mtime == self._mtime:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and isinstance(data.get(self.TABLE), dict):
            self._data = data
            self._mtime = st.st_mtime

    def refresh(self, every: float = 2.0) -> None:
        """Re-read the file if it changed (at most every `every` seconds)."""
        now = time.monotonic()
        if now - self._checked >= every:
            self._checked = now
            with self._lock:
                self._load()

    def _save(self) -> None:
        write_private(self.path, json.dumps(self._data, indent=1, sort_keys=True))
        self._mtime = self.path.stat().st_mtime

    def director(self) -> dict[str, str]:
        """The director's own broker user and password (made the first time)."""
        with self._lock:
            self._load()
            if not self._data.get("director"):
                self._data["director"] = {"username": DIRECTOR, "password": secrets.token_urlsafe(18)}
                self._save()
            return dict(self._data["director"])


class Pairing(DirectorFile):
    """The director's paired boards: ``{"director": {username, password}, "boards": {name: credentials}}``.

    Board names are unique across the file (a board's broker user is its name). The file is re-read when it
    changes, so a board paired while the director runs is heard at once (`key`)."""

    def pair(self, board: str, club: str | None = None, broker: str | None = None,
             again: bool = False) -> dict[str, Any]:
        """Issue a board's credentials (ClubConfigError when the name is taken, bad, or the club is full);
        `again`: issue new ones for a board already paired (the old password and key stop working; its club and
        broker stay unless given). `club` defaults to "club"."""
        check_name("board", board)
        if board == DIRECTOR:
            raise ClubConfigError(f"a board cannot be named {DIRECTOR!r}: that is the director's broker user")
        self.director()
        with self._lock:
            self._load()
            boards = self._data["boards"]
            old = boards.get(board)
            if old is not None and again:
                club = club or old["club"]
                broker = broker or old.get("broker")
            club = check_name("club", club or "club")
            if old is not None and not again:
                raise ClubConfigError(f"board {board!r} is paired already (club {old['club']!r}); "
                                      "`pair NAME --again` issues new credentials")
            if old is None and sum(1 for b in boards.values() if b["club"] == club) >= MAX_BOARDS:
                raise ClubConfigError(f"club {club!r} has {MAX_BOARDS} paired boards, the most one director takes")
            seed, public = new_sign_key()
            cred = {"board": board, "club": club, "username": board, "password": secrets.token_urlsafe(18),
                    "key": secrets.token_hex(32), "public": public, "broker": broker, "paired": time.time()}
            boards[board] = cred
            self._save()
            # the board's Ed25519 seed goes to the board alone (the director keeps its public key): only the board
            # can make the signature the league checks (club/auth.py ``seal``)
            return {**cred, "sign_key": seed}

    def unpair(self, board: str) -> bool:
        with self._lock:
            self._load()
            if self._data["boards"].pop(board, None) is None:
                return False
            self._save()
            return True

    def boards(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {k: dict(v) for k, v in self._data["boards"].items()}

    def key(self, club: str, board: str) -> bytes | None:
        """The board's key if it is paired in this club."""
        cred = self._data["boards"].get(board)
        if cred is None or cred.get("club") != club:
            return None
        return bytes.fromhex(cred["key"])

    def clubs(self) -> list[str]:
        return sorted({b["club"] for b in self._data["boards"].values()})

    def opener(self, club: str, board: str) -> Callable[[str, bytes], dict[str, Any]] | None:
        """How the director checks this board's messages (club/auth.py ``open_signed`` with its key); None when it
        is not paired in `club`."""
        key = self.key(club, board)
        return None if key is None else partial(_open_with, key=key)


def _open_with(topic: str, payload: bytes, key: bytes) -> dict[str, Any]:
    return open_signed(topic, payload, key)
