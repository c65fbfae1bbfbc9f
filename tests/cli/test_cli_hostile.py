"""Every command answers hostile files with a one-line error and exit 2, never a traceback (seeded).

Run as real processes (`python -m cli`), as a user would.
"""

from __future__ import annotations

import json
import random
import struct
import zlib
from pathlib import Path

import pytest

from tests.cli_run import Result
from tests.cli_run import gamao as run_gamao

DATA = Path(__file__).resolve().parents[2] / "kiosk" / "data"


def gamao(*args: str, stdin: bytes | None = None) -> Result:
    return run_gamao(*args, stdin=stdin, text=False)


def one_line_error(out: Result, command: str) -> str:
    err = out.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err + out.stdout.decode("utf-8", "replace"), err[-2000:]
    assert out.returncode == 2, (out.returncode, err[-500:])
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gamao {command}: "), err[-500:]
    assert len(lines[0]) < 400
    return lines[0]


def _png(width: int, height: int, idat: bytes = b"") -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


# ---- gamao detect -------------------------------------------------------------------------------------

def test_detect_a_1x1_image_without_corners(tmp_path: Path) -> None:
    path = tmp_path / "dot.png"
    path.write_bytes(_png(1, 1, zlib.compress(b"\x00\x00\x00\x00")))
    assert "1x1 pixels: too small to show a board" in one_line_error(gamao("detect", str(path)), "detect")


def test_detect_refuses_a_huge_image_from_its_header_before_decoding(tmp_path: Path) -> None:
    # 30,000 pixels square: 2.7 GB decoded. Only the header is real; decoding would fail differently.
    path = tmp_path / "huge.png"
    path.write_bytes(_png(30_000, 30_000, zlib.compress(b"\x00" * 100_000)))
    line = one_line_error(gamao("detect", str(path)), "detect")
    assert "30000x30000 pixels (900 megapixels): images above 40 megapixels are refused" in line
    jpeg = tmp_path / "huge.jpg"  # a JPEG frame header (SOF0) saying 9000x5000 = 45 MP
    jpeg.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
                     b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 5000, 9000) + b"\x03" + b"\x01\x22\x00" * 3
                     + b"\xff\xd9")
    assert "9000x5000 pixels (45 megapixels)" in one_line_error(gamao("detect", str(jpeg)), "detect")


def test_detect_seeded_hostile_files(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    rng = random.Random(1616)
    ok, buf = cv2.imencode(".jpg", np.full((120, 160, 3), 90, np.uint8))
    jpeg = buf.tobytes()
    png = _png(200, 100, zlib.compress(b"\x00" + b"\x10" * 600))
    files = {
        "empty.jpg": b"",
        "text.png": b"not an image at all\n",
        "random.jpg": rng.randbytes(5000),
        "signature-only.png": b"\x89PNG\r\n\x1a\n",
        "truncated.jpg": jpeg[: rng.randrange(30, len(jpeg) // 2)],
        "flipped.jpg": bytes(b ^ 0xFF if rng.random() < 0.05 else b for b in jpeg),
        "short-rows.png": png,
        "zero-size.png": _png(0, 0),
        "bmp-negative.bmp": b"BM" + b"\x00" * 16 + struct.pack("<ii", -70000, -70000) + b"\x00" * 40,
        "webp-huge.webp": b"RIFF\x00\x00\x00\x00WEBPVP8X" + b"\x0a\x00\x00\x00" + b"\x00" * 4
                          + (20000).to_bytes(3, "little") + (20000).to_bytes(3, "little"),
    }
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        out = gamao("detect", str(path), "--corners", "1,1;100,1;100,60;1,60")
        if out.returncode == 0:  # the damage left a readable picture: then it is read
            assert b"Traceback" not in out.stderr
            continue
        one_line_error(out, "detect")


# ---- gamao referee ------------------------------------------------------------------------------------

@pytest.mark.parametrize("line,expected", [
    ('{"event": "new_match", "length": ' + "9" * 5000 + "}", "a number of 5000 digits"),
    ("[" * 100_000 + "]" * 100_000, "nests more than 16 levels"),
    ('{"a":' * 40_000 + "1" + "}" * 40_000, "nests more than 16 levels"),
    ('{"event": "roll", "dice": [NaN, 1]}', "NaN is not a number JSON allows"),
    ('{"event": "roll", "dice": [1e400, 1]}', '"dice" must be two numbers from 1 to 6'),
    ('{"event": "board", "light": "' + "x" * 300_000 + '"}', "longer than 262144 characters"),
])
def test_referee_hostile_lines(tmp_path: Path, line: str, expected: str) -> None:
    path = tmp_path / "hostile.jsonl"
    path.write_text('{"event": "new_match", "length": 3}\n' + line + "\n")
    out = gamao("referee", str(path))
    msg = one_line_error(out, "referee")
    assert expected in msg and "line 2" in msg and out.stdout == b""
    # The same through standard input.
    assert expected in one_line_error(gamao("referee", "-", stdin=path.read_bytes()), "referee")


def test_referee_seeded_garbage(tmp_path: Path) -> None:
    rng = random.Random(2024)
    good = '{"event": "new_match", "length": 3}\n{"event": "roll", "dice": [3, 1]}\n'
    for i in range(12):
        junk = rng.choice([
            rng.randbytes(rng.randrange(1, 300)),
            json.dumps(rng.choice([[], {}, 1, "x", None, {"event": rng.randbytes(4).hex()}])).encode(),
            b'{"event": "roll", "dice": [' + str(rng.randrange(-10**30, 10**30)).encode() + b", 2]}",
            b'{"event": "board", "light": [' + b",".join(b"%d" % rng.randrange(-5, 99) for _ in range(24)) + b"]}",
        ])
        path = tmp_path / f"junk{i}.jsonl"
        path.write_bytes(good.encode() + junk.replace(b"\n", b" ") + b"\n")
        out = gamao("referee", str(path), "--json")
        one_line_error(out, "referee")


# ---- gamao replay -------------------------------------------------------------------------------------

def test_replay_seeded_hostile_files(tmp_path: Path) -> None:
    rng = random.Random(77)
    real = (DATA / "match8062348.mat").read_bytes()
    files = {
        "digits.mat": b" " + b"9" * 5000 + b" point match\n\n Game 1\n a : 0  b : 0\n",
        "long-line.mat": b" 1 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: " + b"8/5 " * 400_000 + b"\n",
        "deep.sgf": b"(;" * 100_000,
        "random.mat": rng.randbytes(20_000),
        "nul-late.mat": real + b"\n\x00\n",
        "bad-utf8-late.mat": real + b"\n \xff\xfe\n",
        "huge.sgf": b"(;FF[4]GM[6]" + b"C[" + b"x" * (17 * 1024 * 1024) + b"])",
        "only-blanks.mat": b" \n" * 100_000,
    }
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        one_line_error(gamao("replay", str(path)), "replay")
    # Lines the reader cannot use are problems of the file (exit 1), not crashes.
    cut = real.replace(b"Wins 1 point", b"Wins " + b"9" * 5000 + b" point").replace(b"Doubles => 2", b"Doubles => " + b"7" * 5000)
    path = tmp_path / "huge-numbers.mat"
    path.write_bytes(cut)
    out = gamao("replay", str(path), "--json")
    assert out.returncode in (1, 2) and b"Traceback" not in out.stderr
    assert json.loads(out.stdout)["problems"]


# ---- gamao plays ------------------------------------------------------------------------------------

def test_plays_batch_with_garbage_lines() -> None:
    rng = random.Random(31)
    lines = [b"4HPwATDgc/ABMA 31"]
    for _ in range(40):
        lines.append(rng.choice([
            rng.randbytes(rng.randrange(1, 60)).replace(b"\n", b" "),
            b"4HPwATDgc/ABMA " + str(rng.randrange(10**40)).encode(),
            rng.randbytes(14).hex()[:14].encode() + b" 31",
            b"A" * rng.randrange(1000, 5000) + b" 31",
            b"4HPwATDgc/ABMA",
            "4HPwATDgc/ABMA ３１".encode(),
        ]))
    lines.append(b"4HPwATDgc/ABMA 66")
    out = gamao("plays", "--count", stdin=b"\n".join(lines) + b"\n")
    err = out.stderr.decode()
    assert out.returncode == 2 and "Traceback" not in err
    answers = out.stdout.decode().splitlines()
    assert answers[0] == "16" and answers[-1].isdigit()
    # one line per bad input line, each naming its line, none longer than a screen line or two
    assert all(line.startswith("gamao plays: line ") and len(line) < 300 for line in err.splitlines())
