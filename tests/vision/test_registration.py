"""Registration by ArUco markers (DICT_4X4_50, ids 0-3 at tl, tr, br, bl) and `gamao detect` from the shell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.config import load_config
from vision.registration import Registrar, find_marker_corners
from vision.render import Options, Scene, render
from vision.synthetic import SensorNoise


def with_markers(image: np.ndarray, corners: np.ndarray, size: int = 36, shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Paste markers 0..3 so that each one's inner corner sits on the field corner (markers on the frame)."""
    out = image.copy()
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for i, (x, y) in enumerate(np.round(corners).astype(int) + shift):
        marker = cv2.aruco.generateImageMarker(dictionary, i, size)
        quiet = cv2.copyMakeBorder(marker, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=255)
        q = quiet.shape[0]
        x0 = x - q + 6 if i in (0, 3) else x - 6
        y0 = y - q + 6 if i in (0, 1) else y - 6
        out[y0:y0 + q, x0:x0 + q] = cv2.cvtColor(quiet, cv2.COLOR_GRAY2BGR)
    return out


def _board() -> tuple[np.ndarray, np.ndarray]:
    return render(Scene.start(), 21, Options(size=(1280, 720), rotate=0.0, perspective=0.0))


def test_markers_give_the_field_corners() -> None:
    image, corners = _board()
    found, seen = find_marker_corners(with_markers(image, corners), load_config().registration)
    assert seen == [0, 1, 2, 3]
    assert found is not None and np.abs(found - corners).max() < 2.5


def test_hidden_marker_keeps_the_last_registration_and_a_moved_one_is_a_bump() -> None:
    image, corners = _board()
    reg = Registrar(load_config().registration)
    marked = with_markers(image, corners)
    first = reg.update(marked)
    assert first is not None and first.source == "markers" and not first.bumped
    hidden = marked.copy()
    x, y = np.round(corners[2]).astype(int)
    hidden[y - 50:y + 50, x - 50:x + 50] = (120, 160, 215)  # a hand over the bottom-right marker
    kept = reg.update(hidden)
    assert kept is not None and kept.source == "kept" and np.array_equal(kept.corners, first.corners)
    moved = reg.update(with_markers(np.roll(image, 20, axis=1), corners + [20, 0]))
    assert moved is not None and moved.source == "markers" and moved.bumped


def test_no_markers_at_all_gives_no_registration() -> None:
    image, _ = _board()
    assert Registrar(load_config().registration).update(image) is None


def _gamao(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", "detect", *args], capture_output=True, text=True)


def test_cli_detect_finds_markers_and_reads_the_start(tmp_path: Path) -> None:
    image, corners = _board()
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), with_markers(image, corners))
    out = _gamao(str(path), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [c["light"] + c["dark"] for c in data["bottom"]] == [5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 2]
    assert [c["light"] for c in data["bottom"]] == [0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0]


def test_cli_detect_without_markers_says_so(tmp_path: Path) -> None:
    image, _ = _board()
    path = tmp_path / "plain.png"
    cv2.imwrite(str(path), image)
    out = _gamao(str(path))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == (f"gamao detect: no ArUco board markers found in {path} (seen ids: none; need DICT_4X4_50 "
                          'ids 0,1,2,3 at the field corners): give --corners "x1,y1;x2,y2;x3,y3;x4,y4"\n')


def test_cli_detect_bad_inputs_are_one_line_errors(tmp_path: Path) -> None:
    missing = _gamao(str(tmp_path / "nope.jpg"), "--corners", "0,0;10,0;10,10;0,10")
    assert (missing.returncode, missing.stderr) == (2, f"gamao detect: cannot read {tmp_path / 'nope.jpg'}: no such file\n")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    bad = _gamao(str(text))
    assert (bad.returncode, bad.stderr) == (
        2, f"gamao detect: {text} is not a JPEG, PNG, BMP or WebP image (or its header is damaged)\n")
    image, _ = _board()
    path = tmp_path / "b.png"
    cv2.imwrite(str(path), image)
    corners = _gamao(str(path), "--corners", "1,2;3,4")
    assert (corners.returncode, corners.stderr) == (
        2, 'gamao detect: expected 4 corners, got 2 in "1,2;3,4": write "x1,y1;x2,y2;x3,y3;x4,y4"\n')
    assert "Traceback" not in missing.stderr + bad.stderr + corners.stderr


def test_clicked_corners_follow_a_bumped_camera_but_not_a_passing_hand() -> None:
    image, corners = _board()
    reg = Registrar(load_config().registration, corners)
    assert not reg.update(image).bumped
    hand = render(Scene.start(), 21, Options(size=(1280, 720), rotate=0.0, perspective=0.0, hand=True))[0]
    assert not any(reg.update(hand).bumped for _ in range(30))
    nudged = np.roll(image, (0, 24), axis=(0, 1))
    flags = [reg.update(nudged).bumped for _ in range(30)]
    assert flags.count(True) == 1
    assert np.abs(reg.last - (corners + [24, 0])).max() < 4.0


def test_no_bump_from_noise_and_hands_on_a_1280_wide_frame() -> None:
    """At 1280x720 a thumbnail pixel is 13 frame pixels: noise, hands and a tray filling up must not add up to
    a bump. (The rendered match where a false bump reset the stillness with a hand in its reference is
    replayed in test_with_referee.py; this is the cheap guard.)"""
    from dataclasses import replace

    from vision.synthetic import random_options

    opts = replace(random_options(np.random.default_rng([4, 7]), (1280, 720)), dice=False)
    light = [0, 3, 3, 2, 1] + [0] * 19
    dark = [0] * 18 + [3, 3, 3, 2, 2, 2]
    before = Scene(light, dark, {"light": 0, "dark": 0}, {"light": 6, "dark": 0})
    after = Scene([0, 1, 1, 1, 1] + [0] * 19, dark, {"light": 0, "dark": 0}, {"light": 11, "dark": 0})
    image, corners = render(before, 4, opts)
    reg = Registrar(load_config().registration, corners)
    noise = SensorNoise(np.random.default_rng(0), 1.5)
    bumps = 0
    for scene in (before, after):  # a bear-off fills the tray beside the field
        still = render(scene, 4, opts)[0]
        hand = render(scene, 4, replace(opts, hand=True))[0]
        for i in range(60):
            base = hand if i % 20 < 6 else still  # a hand every 20 frames, 6 frames long
            bumps += reg.update(noise(base)).bumped
    assert bumps == 0
