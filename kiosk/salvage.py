"""Read the rows of a damaged journal straight from its pages, without SQLite's b-tree navigation.

SQLite stops at the first bad page it meets on its way down a b-tree ("database disk image is malformed"),
so one damaged page hides every row below it. This reader instead looks at every page of the file on its
own: each table leaf page (type 13) lists its cells, and each cell is one row. A cut file still gives
every page before the cut, a page of flipped bytes costs only its own rows, and a zeroed header is met by
trying the usual page sizes. The WAL is read the way SQLite reads it: frames count only while their salts
and running checksum hold, and only up to the last commit frame, so a write that failed half way (disk full)
never comes back as an event that was refused.

Rows are recognised by their shape (the journal's schema, kiosk/journal.py): an ``events`` row is
(NULL id, match, seq, at, body[, crc]) and a ``matches`` row (NULL id, started, length, players); an event
whose CRC does not match its place and text is damaged, even when its bytes still read as JSON. Format:
https://www.sqlite.org/fileformat2.html.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HEADER = b"SQLite format 3\x00"
PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)
WAL_MAGIC = (0x377F0682, 0x377F0683)
Row = tuple[Any, ...]


@dataclass
class Rows:
    """What was read: events by (match, seq) -> (at, body dict); matches by id -> (started, length, players)."""

    events: dict[tuple[int, int], tuple[float, str]] = field(default_factory=dict)  # body: its JSON text
    matches: dict[int, tuple[float, int, dict[str, Any]]] = field(default_factory=dict)
    bad_cells: int = 0  # cells of an events/matches shape whose content could not be read

    def add(self, other: Rows) -> None:
        """Take what ``other`` has and this does not (this one's rows win: read from a better source)."""
        for key, ev in other.events.items():
            self.events.setdefault(key, ev)
        for key, m in other.matches.items():
            self.matches.setdefault(key, m)
        self.bad_cells += other.bad_cells


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    value = 0
    for k in range(8):
        if i + k >= len(buf):
            raise IndexError("varint past the end")
        b = buf[i + k]
        value = (value << 7) | (b & 0x7F)
        if b < 0x80:
            return value, i + k + 1
    if i + 8 >= len(buf):
        raise IndexError("varint past the end")
    return (value << 8) | buf[i + 8], i + 9


def _record(payload: bytes) -> list[Any]:
    """Decode one record (header of serial types, then values); text stays bytes."""
    size, i = _varint(payload, 0)
    if size > len(payload) or size < 1:
        raise ValueError("record header past the payload")
    types = []
    while i < size:
        t, i = _varint(payload, i)
        types.append(t)
    values: list[Any] = []
    pos = size
    widths = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}
    for t in types:
        if t == 0:
            values.append(None)
        elif t in widths:
            w = widths[t]
            if pos + w > len(payload):
                raise ValueError("value past the payload")
            values.append(int.from_bytes(payload[pos:pos + w], "big", signed=True))
            pos += w
        elif t == 7:
            if pos + 8 > len(payload):
                raise ValueError("value past the payload")
            values.append(struct.unpack(">d", payload[pos:pos + 8])[0])
            pos += 8
        elif t in (8, 9):
            values.append(t - 8)
        elif t >= 12:
            n = (t - 12) // 2
            if pos + n > len(payload):
                raise ValueError("value past the payload")
            values.append(bytes(payload[pos:pos + n]))
            pos += n
        else:
            raise ValueError(f"reserved serial type {t}")
    return values


class PageReader:
    """The pages of one database image: the main file, with the WAL's committed frames laid over it."""

    def __init__(self, pages: dict[int, Any], page_size: int, reserved: int = 0) -> None:
        self.pages = pages
        self.page_size = page_size
        self.usable = page_size - reserved

    def page(self, number: int) -> Any:
        return self.pages.get(number)

    def leaf_cells(self, number: int) -> Iterator[tuple[int, bytes]]:
        """The row id and payload of each cell on a table leaf page (overflow chains followed); nothing for other pages."""
        page = self.pages.get(number)
        if page is None:
            return
        base = 100 if number == 1 else 0
        if len(page) < base + 8 or page[base] != 13:
            return
        ncells = int.from_bytes(page[base + 3:base + 5], "big")
        u = self.usable
        max_local = u - 35
        min_local = ((u - 12) * 32 // 255) - 23
        for k in range(ncells):
            ptr_at = base + 8 + 2 * k
            if ptr_at + 2 > len(page):
                return
            ptr = int.from_bytes(page[ptr_at:ptr_at + 2], "big")
            try:
                size, i = _varint(page, ptr)
                rowid, i = _varint(page, i)
            except IndexError:
                continue
            if size <= max_local:
                local = size
            else:
                local = min_local + (size - min_local) % (u - 4)
                if local > max_local:
                    local = min_local
            if i + local > len(page) or size > 1 << 24:
                continue
            payload = bytearray(page[i:i + local])
            if local < size:
                if i + local + 4 > len(page):
                    continue
                nxt = int.from_bytes(page[i + local:i + local + 4], "big")
                seen = set()
                while len(payload) < size and nxt and nxt not in seen:
                    seen.add(nxt)
                    over = self.pages.get(nxt)
                    if over is None:
                        break
                    nxt = int.from_bytes(over[:4], "big")
                    payload += over[4:u][: size - len(payload)]
                if len(payload) < size:
                    continue  # the rest of this row was on a page that is gone
            yield rowid, bytes(payload)

    def rows(self, numbers: set[int] | None = None) -> Rows:
        """The rows on the given pages (all pages by default)."""
        out = Rows()
        for number in sorted(self.pages if numbers is None else numbers):
            for rowid, payload in self.leaf_cells(number):
                try:
                    values = _record(payload)
                except (ValueError, IndexError):
                    continue
                _take(rowid, values, out)
        return out


def _take(rowid: int, values: list[Any], out: Rows) -> None:
    """File one decoded record as an event or a match when it has that shape and its text reads."""
    if len(values) in (5, 6) and values[0] is None and all(isinstance(v, int) for v in values[1:3]) \
            and isinstance(values[3], float) and isinstance(values[4], bytes) \
            and (len(values) == 5 or values[5] is None or isinstance(values[5], int)):
        match, seq, at, body = values[1], values[2], values[3], values[4]
        crc = values[5] if len(values) == 6 else None
        try:
            text = body.decode("utf-8")
            if crc is not None and crc != zlib.crc32(f"{match}:{seq}:{text}".encode()):
                raise ValueError("checksum")  # damaged bytes that still read as JSON (kiosk.journal.event_crc)
            event = json.loads(text)
        except (UnicodeDecodeError, ValueError):
            out.bad_cells += 1
            return
        if match >= 1 and seq >= 0 and isinstance(event, dict) and isinstance(event.get("event"), str):
            out.events.setdefault((match, seq), (at, text))
        else:
            out.bad_cells += 1
    elif len(values) == 4 and values[0] is None and isinstance(values[1], float) and isinstance(values[2], int) \
            and isinstance(values[3], bytes):
        try:
            players = json.loads(values[3].decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            out.bad_cells += 1
            return
        if isinstance(players, dict) and rowid >= 1:
            out.matches.setdefault(rowid, (values[1], values[2], players))


def _page_size(data: bytes, wal: bytes) -> tuple[int, int]:
    """The page size and reserved bytes from the header, else the WAL's header, else the commonest size."""
    if data[:16] == HEADER and len(data) >= 100:
        raw = int.from_bytes(data[16:18], "big")
        size = 65536 if raw == 1 else raw
        if size in PAGE_SIZES:
            return size, data[20]
    if len(wal) >= 32 and int.from_bytes(wal[:4], "big") in WAL_MAGIC:
        size = int.from_bytes(wal[8:12], "big")
        if size in PAGE_SIZES:
            return size, 0
    best, best_count = 4096, -1
    for size in PAGE_SIZES:  # the size whose pages hold the most table leaves that parse
        count = sum(1 for at in range(0, len(data) - size + 1, size) if data[at] == 13)
        if count > best_count:
            best, best_count = size, count
    return best, 0


def _wal_checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    fmt = ">" if big else "<"
    words = struct.unpack(f"{fmt}{len(data) // 4}I", data[: len(data) // 4 * 4])
    for k in range(0, len(words) - 1, 2):
        s0 = (s0 + words[k] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[k + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_pages(wal: bytes, page_size: int) -> dict[int, Any]:
    """The latest committed image of each page in a WAL, as SQLite would read them (checksums, salts, commits)."""
    if len(wal) < 32 or int.from_bytes(wal[:4], "big") not in WAL_MAGIC:
        return {}
    big = int.from_bytes(wal[:4], "big") == 0x377F0683
    size = int.from_bytes(wal[8:12], "big")
    if size != page_size:
        return {}
    salt = wal[16:24]
    s0, s1 = _wal_checksum(wal[:24], 0, 0, big)
    if (s0, s1) != (int.from_bytes(wal[24:28], "big"), int.from_bytes(wal[28:32], "big")):
        return {}
    committed: dict[int, Any] = {}
    pending: dict[int, Any] = {}
    view = memoryview(wal)
    at = 32
    while at + 24 + size <= len(wal):
        head = wal[at:at + 24]
        if head[8:16] != salt:
            break
        s0, s1 = _wal_checksum(head[:8], s0, s1, big)
        page = view[at + 24:at + 24 + size]
        s0, s1 = _wal_checksum(page, s0, s1, big)
        if (s0, s1) != (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")):
            break
        pending[int.from_bytes(head[:4], "big")] = page
        if int.from_bytes(head[4:8], "big"):  # a commit frame: everything so far is one committed transaction
            committed.update(pending)
            pending.clear()
        at += 24 + size
    return committed


def read_raw(db_path: Path) -> tuple[Rows, Rows]:
    """Rows from the WAL's committed pages, and rows from the main file's pages (two sources, best first)."""
    data = db_path.read_bytes() if db_path.exists() else b""
    wal_file = Path(f"{db_path}-wal")
    wal = wal_file.read_bytes() if wal_file.exists() else b""
    size, reserved = _page_size(data, wal)
    view = memoryview(data)  # pages are views into the file's bytes, not copies
    main = {n + 1: view[n * size:(n + 1) * size] for n in range(len(data) // size)}
    if len(data) % size:
        main[len(data) // size + 1] = view[len(data) // size * size:]  # a cut page: its cells may still read
    from_wal = wal_pages(wal, size)
    # Overflow chains may cross from a WAL page to a main-file page: each reader sees both, its own first.
    wal_rows = PageReader({**main, **from_wal}, size, reserved)
    main_rows = PageReader(main, size, reserved)
    return wal_rows.rows(set(from_wal)), main_rows.rows()
