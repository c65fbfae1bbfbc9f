"""Evaluation on the five labelled Deeper Systems photos (counts per column; the truth has no colour)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.real_photos import deeper_samples, require_shared
from vision.detect import BoardReading
from vision.reader import BoardReader


@pytest.fixture(scope="module")
def results() -> list[dict]:
    reader = BoardReader()
    rows = []
    for photo, corners, truth in deeper_samples():
        reading = reader.read(cv2.imread(str(photo)), np.array(corners, np.float32))
        got = {"top": [c.count for c in reading.top], "bottom": [c.count for c in reading.bottom]}
        right = sum(g == t for row in ("top", "bottom") for g, t in zip(got[row], truth[row], strict=True))
        rows.append({"photo": photo.name, "right": right, "got": got, "truth": truth, "reading": reading})
    return rows


def test_real_photos_columns_and_boards(results: list[dict]) -> None:
    columns = sum(r["right"] for r in results)
    boards = sum(r["right"] == 24 for r in results)
    for r in results:  # one row per photo, as in chesscog's evaluation
        print(f"{r['photo']}: {r['right']}/24 columns")
    print(f"real photos: {columns}/120 columns ({100 * columns / 120:.1f}%), {boards}/5 boards fully right")
    # the brief asks for 95% and 3 of 5; measured 120/120 and 5/5 (a peer solution: 90%, 2 of 5)
    assert columns >= 117, f"{columns}/120 columns right"
    assert boards >= 4, f"{boards}/5 boards right"


def test_real_photos_within_one_checker(results: list[dict]) -> None:
    off_by_more = [(r["photo"], row, j) for r in results for row in ("top", "bottom") for j in range(12)
                   if abs(r["got"][row][j] - r["truth"][row][j]) > 1]
    assert len(off_by_more) <= 2, off_by_more


def test_real_photos_truth_is_likely_under_uncertainty(results: list[dict]) -> None:
    """Honest uncertainty: where the best count is wrong, the right count still has some probability."""
    misses = []
    for r in results:
        cols = r["reading"].top + r["reading"].bottom
        truth = r["truth"]["top"] + r["truth"]["bottom"]
        misses += [c.probs.get(t, 0.0) for c, t in zip(cols, truth, strict=True) if c.count != t]
    assert all(p > 0.01 for p in misses), misses


def test_cli_detect_json_contract_on_a_real_photo() -> None:
    photo, corners, truth = deeper_samples()[2]
    arg = ";".join(f"{x},{y}" for x, y in corners)
    out = subprocess.run([sys.executable, "-m", "cli", "detect", str(photo), "--corners", arg, "--json",
                          "--repeat", "3"], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert set(data) == {"top", "bottom", "bar", "covered", "ms"}
    # issue 33: what covers a column is an added field; nothing stands on this board's points
    assert data["covered"] == {"top": [None] * 12, "bottom": [None] * 12}
    assert len(data["top"]) == 12 and len(data["bottom"]) == 12
    assert all(set(c) == {"light", "dark"} for c in data["top"] + data["bottom"])
    assert set(data["bar"]) == {"light", "dark"} and data["ms"] > 0
    assert [c["light"] + c["dark"] for c in data["top"]] == truth["top"]


LABELS = json.loads((Path(__file__).with_name("real_labels.json")).read_text())


def _cell(c: dict) -> str:
    return f"{c['light']}L" if c["light"] else (f"{c['dark']}D" if c["dark"] else ".")


def _labelled_readings() -> Iterator[tuple[str, dict[str, Any], BoardReading]]:
    """Each labelled photo (real_labels.json's .jpg entries): its name, its label and what the reader reads."""
    shared = require_shared()
    reader = BoardReader()
    for name, label in LABELS.items():
        if name.endswith(".jpg"):
            yield name, label, reader.read(cv2.imread(str(shared / name)), np.array(label["corners"], np.float32))


def test_labelled_tournament_and_wooden_board_frames_with_colour() -> None:
    """Broadcast frames (a stack of 6 past the tip, black on black, acrylic, dice, hinges on the bar) and a
    walnut board with a wide bar, labelled by us; light/dark must be right too."""
    right = total = 0
    wrong = []
    for name, label, read in _labelled_readings():
        reading = read.as_json()
        for row in ("top", "bottom"):
            for j, cell in enumerate(reading[row]):
                total += 1
                if _cell(cell) == label[row][j]:
                    right += 1
                else:
                    wrong.append((Path(name).name, row, j, _cell(cell), label[row][j]))
        assert reading["bar"] == label["bar"], name
    print(f"labelled frames: {right}/{total} columns right with colour")
    assert right >= 0.97 * total, wrong


def test_bar_on_the_deeper_photos(results: list[dict]) -> None:
    totals = {r["photo"]: sum(r["reading"].bar.values()) for r in results}
    assert totals == LABELS["bar_totals_deeper"]


def test_dice_lying_on_the_labelled_photos_points_and_no_false_cover() -> None:
    """Issue 33: six of the labelled photos have dice lying on points (real_labels.json "objects"; a die past a
    point's tip covers nothing). A column said covered must have a die on its point (no false cover: a false
    cover would hold a roll for nothing), and most of those dice are found and named. In-sample: the kinds' model
    was trained with these photos; bench/bench_vision_generality.py gives the leave-one-source-out figure."""
    found = dice = 0
    false = []
    for name, _, reading in _labelled_readings():
        on_point = {column for column, slot, _ in LABELS["objects"].get(name, []) if slot < 5}
        dice += len(on_point)
        for c, col in enumerate(reading.top + reading.bottom):
            if col.covered is not None:
                if c in on_point and col.covered == "die":
                    found += 1
                else:
                    false.append((Path(name).name, c, col.covered))
    print(f"dice on points: {found}/{dice} covered and named, false covers {false}")
    assert dice == 9 and not false
    assert found >= 6  # measured 8 of 9
