"""The files in hardware/: firmware that compiles, a protocol document in step with the code, the udev rule,
and an ArUco sheet the camera can read."""

from __future__ import annotations

import importlib.util
import py_compile
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from firmware_bridge.protocol import LED_PATTERNS
from firmware_bridge.sim import FIRMWARE_DIR, load_dicecore

HARDWARE = FIRMWARE_DIR.parent
core: Any = load_dicecore()


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["dicecore.py", "usbserial.py", "main_digital.py", "main_sensor.py"])
def test_firmware_files_compile(name: str, tmp_path: Path) -> None:
    py_compile.compile(str(FIRMWARE_DIR / name), cfile=str(tmp_path / "x.pyc"), doraise=True)


def test_dicecore_imports_nothing_so_it_runs_in_micropython() -> None:
    source = (FIRMWARE_DIR / "dicecore.py").read_text()
    assert not re.findall(r"^\s*(import|from)\s", source, re.MULTILINE)
    assert not re.search(r"\bf\"", source) and "dataclass" not in source


def test_protocol_document_lists_every_error_code_and_led_pattern() -> None:
    doc = (HARDWARE / "dice-protocol.md").read_text()
    codes = {int(code): name for code, name in re.findall(r"^\| (\d+) \| `(ERR_\w+)`", doc, re.MULTILINE)}
    in_code = {getattr(core, name): name for name in dir(core) if name.startswith("ERR_")}
    assert codes == in_code
    assert tuple(core.LED_PATTERNS) == LED_PATTERNS
    for pattern in LED_PATTERNS:
        assert f"`{pattern}`" in doc
    for frame in ("HELLO", "ROLL", "HB", "BTN", "ERR", "ACK", "HELLO?", "LED"):
        assert f"`{frame}" in doc


def test_protocol_document_example_frames_have_good_crcs() -> None:
    from firmware_bridge.framing import FrameParser, Line

    doc = (HARDWARE / "dice-protocol.md").read_text()
    frames = re.findall(r"(\$[^\s`*]+\*[0-9A-F]{2})", doc)
    assert len(frames) >= 10
    for frame in frames:
        assert FrameParser().feed(frame.encode() + b"\r\n") == [Line(frame[1:-3])], frame


def test_udev_rule_makes_the_stable_path() -> None:
    rule = (HARDWARE / "99-gamao-dice.rules").read_text()
    active = " ".join(line for line in rule.replace("\\\n", " ").splitlines() if not line.startswith("#"))
    assert 'SUBSYSTEM=="tty"' in active and 'ATTRS{idVendor}=="2e8a"' in active
    assert 'SYMLINK+="gamao-dice"' in active and 'GROUP="dialout"' in active


def test_marker_sheet_is_current_and_detected_at_the_right_corners(tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    markers = load(HARDWARE / "make_markers.py")
    assert markers.main(["--out", str(tmp_path)]) == 0
    assert (tmp_path / "aruco-corners.svg").read_text() == (HARDWARE / "markers" / "aruco-corners.svg").read_text(), \
        "hardware/markers/aruco-corners.svg is stale: run hardware/make_markers.py"
    image = cv2.imread(str(HARDWARE / "markers" / "aruco-corners.png"), cv2.IMREAD_GRAYSCALE)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    centre = {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners, strict=True)}
    assert sorted(centre) == [0, 1, 2, 3]
    h, w = image.shape
    expected = {0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, 1)}  # (right?, bottom?) for tl, tr, br, bl
    for marker_id, (right, bottom) in expected.items():
        x, y = centre[marker_id]
        assert (x > w / 2, y > h / 2) == (bool(right), bool(bottom)), marker_id
    doc = (HARDWARE / "markers.md").read_text()
    assert "| id 0 | **top-left**" in doc and "| id 2 | **bottom-right**" in doc
