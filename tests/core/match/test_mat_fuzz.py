"""Damaged match files never crash the readers or the replay: they either read (with problems) or raise
MatchFileError with a line number. Seeded byte-level damage of real files; longer runs with --soak."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from core.match.formats import MatchFileError, decode_text
from core.match.formats.mat import read_mat, write_mat
from core.match.formats.sgf import read_sgf, write_sgf
from core.match.replay import replay
from tests.soak import soak

ROUNDS = 3000 if soak() else 120
JUNK = [b"", b" ", b"\n", b":", b"/", b"*", b"(", b")", b"(2)", b"25", b"0", b"off", b"bar", b"Wins 9 points",
        b"Doubles => 3", b"Takes", b"Drops", b"Beavers => 4", b"Losses 2 point", b"????", b"Game 7", b"99)", b"66:",
        b"\xff", b"\x00", b";", b"[", b"]", b"W[double]", b"B[take]", b"RE[W+9R]", b"yz"]


def _damage(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        where = rng.randrange(len(out) + 1)
        how = rng.random()
        if how < 0.35:
            out[where:where + rng.randint(1, 12)] = b""
        elif how < 0.7:
            out[where:where] = rng.choice(JUNK)
        elif how < 0.85 and out:
            out[where:where + 1] = bytes([rng.randrange(32, 127)])
        else:
            del out[where:]
    return bytes(out)


def _read(data: bytes, sgf: bool) -> None:
    try:
        text = decode_text(data)
        record = read_sgf(text) if sgf else read_mat(text)
    except MatchFileError as exc:
        assert str(exc)  # a message, and a line when one line is at fault
        return
    replay(record)
    # Whatever was read can be written again.
    write_sgf(record) if sgf else write_mat(record)


@pytest.mark.parametrize("suffix", ["mat", "sgf"])
def test_damaged_files_never_crash(samples_dir: Path, suffix: str) -> None:
    paths = sorted(samples_dir.glob(f"*/*.{suffix}"))
    sources = [p.read_bytes() for p in paths]
    rng = random.Random(2026)
    for _ in range(ROUNDS // (1 if suffix == "mat" else 3)):
        data = _damage(rng.choice(sources), rng)
        _read(data, suffix == "sgf")
