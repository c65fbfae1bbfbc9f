"""`gamao run --check` on the Pi's parts (issue 25): every part in the configured language, no side effects,
the overlay root read from /proc/mounts, the camera's fixed settings applied through a fake picamera2 and
read back, the club's broker (a real Mosquitto) and its credentials, the PIN and the calibration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import checks
from kiosk.checks import TEXTS, check_calibration, check_pin, check_storage, run_checks, storage_mode, summary
from kiosk.config import ConfigError, Settings
from kiosk.pin import PinStore
from kiosk.server import free_port
from vision.camera_controls import AF_MANUAL, FLICKER_MANUAL, CameraControls, CameraControlsError

OVERLAY_MOUNTS = """overlayroot / overlay rw,relatime,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay 0 0
/dev/mmcblk0p1 /boot/firmware vfat ro,relatime 0 0
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
/dev/sda1 /var/lib/gamao ext4 rw,noatime 0 0
"""
PLAIN_MOUNTS = """/dev/mmcblk0p2 / ext4 rw,noatime 0 0
/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0
"""


def gamao(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "xdg")}
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, env=env, timeout=60)


def tree(folder: Path) -> list[tuple[str, int, float]]:
    return sorted((str(p.relative_to(folder)), p.stat().st_size, p.stat().st_mtime) for p in folder.rglob("*"))


def test_check_speaks_brazilian_portuguese_and_makes_no_folder(tmp_path: Path) -> None:
    data = tmp_path / "not" / "yet" / "data"
    config = tmp_path / "gamao.toml"
    config.write_text(f'data_dir = "{data}"\nport = {free_port()}\nlanguage = "pt"\ncamera = "none"\n'
                      f'serial_port = "{tmp_path / "no-dice"}"\n')
    r = gamao("run", "--check", "--config", str(config), tmp=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr  # the dice unit is required and absent
    out = r.stdout
    for pt in ("pasta de dados", "espaço em disco", "diário de jogos", "cartão SD (overlay)", "GNU Backgammon",
               "dados eletrônicos", "PIN de controle", "som (anúncios falados)", "tela", "clube"):
        assert pt in out, pt
    assert "FALTA    dados eletrônicos: a porta serial configurada" in out
    assert "MISSING" not in out and "warning" not in out and "required part" not in out
    assert "parte(s) obrigatória(s) faltando: dados eletrônicos" in out
    assert not (tmp_path / "not").exists(), "--check made the data folder's parents"
    assert not (tmp_path / "xdg").exists()


def test_check_leaves_an_existing_data_folder_as_it_was(tmp_path: Path) -> None:
    from kiosk.service import RefereeService

    data = tmp_path / "data"
    service = RefereeService(data / "journal.sqlite")
    service.close()
    PinStore(data).set("2468")
    (data / "calibration.json").write_text(json.dumps({"corners": [[0, 0], [10, 0], [10, 10], [0, 10]]}))
    before = tree(data)
    settings = Settings(data_dir=data, port=free_port(), language="en", camera="none")
    found = {c.name: c for c in run_checks(settings)}
    assert tree(data) == before
    assert found["journal"].ok and "integrity check ok" in found["journal"].message
    assert found["pin"].ok and found["calibration"].ok
    assert found["data folder"].ok and "is writable" in found["data folder"].message


def test_every_check_has_both_languages() -> None:
    for key, (pt, en) in TEXTS.items():
        assert pt and en, key
    settings = Settings(data_dir=Path("/nonexistent-gamao"), language="en", camera="none")
    names = {c.name for c in run_checks(settings)}
    assert names <= set(TEXTS)
    assert {"disk space", "storage", "coach", "club", "pin", "calibration", "audio", "screen",
            "camera settings"} <= names


def write_mounts(tmp_path: Path, text: str) -> str:
    path = tmp_path / "mounts"
    path.write_text(text)
    return str(path)


def test_overlay_root_with_the_data_on_its_own_partition(tmp_path: Path) -> None:
    settings = Settings(data_dir=Path("/var/lib/gamao"), language="en")
    c = check_storage(settings, write_mounts(tmp_path, OVERLAY_MOUNTS))
    assert c.ok and c.required
    assert c.message.startswith("read-only root (overlay)") and "/var/lib/gamao (ext4, writable)" in c.message


def test_overlay_root_with_the_data_on_the_overlay_is_missing(tmp_path: Path) -> None:
    settings = Settings(data_dir=Path("/srv/gamao"), language="pt")
    c = check_storage(settings, write_mounts(tmp_path, OVERLAY_MOUNTS))
    assert not c.ok and c.required
    assert "se perdem ao desligar" in c.message
    mode = storage_mode(Path("/srv/gamao"), checks.read_mounts(write_mounts(tmp_path, OVERLAY_MOUNTS)))
    assert mode == {"overlay": True, "data_mount": "/", "data_fs": "overlay", "data_on_overlay": True,
                    "data_writable": True}


def test_writable_root_is_a_warning(tmp_path: Path) -> None:
    c = check_storage(Settings(data_dir=Path("/var/lib/gamao"), language="en"), write_mounts(tmp_path, PLAIN_MOUNTS))
    assert not c.ok and not c.required and c.message.startswith("writable root (no overlay)")
    assert "MISSING" not in c.line() and c.line().startswith("warning")


def test_pin_and_calibration_checks(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, language="en")
    assert not check_pin(settings).ok and "press Controle" in check_pin(settings).message
    PinStore(tmp_path).set("13579")
    assert check_pin(settings).ok
    (tmp_path / "pin.json").write_text("{damaged")
    assert "is damaged" in check_pin(settings).message
    assert not check_calibration(settings).ok and not check_calibration(settings).required
    (tmp_path / "calibration.json").write_text('{"corners": [[1, 2]]}')
    assert "is damaged" in check_calibration(settings).message


def test_audio_follows_a_speak_setting_and_reads_sound_cards(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n                      vc4-hdmi-0\n")
    assert checks.sound_cards(str(cards)) == ["vc4-hdmi - vc4-hdmi-0"]
    assert checks.sound_cards(str(tmp_path / "none")) == []
    settings = Settings(data_dir=tmp_path, language="en")
    settings.speak = False  # type: ignore[attr-defined]  # the voice's setting, where the config has one
    assert checks.check_audio(settings).message == "spoken calls turned off in the config"


def test_screen_lists_connected_displays(tmp_path: Path) -> None:
    for name, status in (("card1-DSI-1", "connected"), ("card1-HDMI-A-1", "disconnected")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "status").write_text(status + "\n")
    assert checks.connected_displays(str(tmp_path)) == ["DSI-1"]


# ---- the club's broker: a real Mosquitto with a password file -----------------------------------------------
@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Any]:
    from club import mosquitto

    if not mosquitto.available():
        pytest.skip(f"Mosquitto is not installed at {mosquitto.MOSQUITTO}: `apt-get install -y mosquitto`")
    b = mosquitto.LocalBroker(tmp_path / "broker", users={"mesa01": "pw-mesa01"}).start()
    yield b
    b.stop()


def test_club_broker_and_credentials(broker: Any, tmp_path: Path) -> None:
    good = Settings(data_dir=tmp_path, language="en", club={"broker": broker.url_for("mesa01"), "club": "porto",
                                                             "board": "mesa01"})
    c = checks.check_club(good)
    assert c.ok, c.message
    assert "accepted the connection (mesa01) (board mesa01 of club porto)" in c.message
    bad = Settings(data_dir=tmp_path, language="pt", club={"broker": broker.url, "username": "mesa01",
                                                            "password": "wrong", "club": "porto", "board": "mesa01"})
    c = checks.check_club(bad)
    assert not c.ok and c.required and "recusou a conexão" in c.message and "wrong" not in c.message
    nobody = Settings(data_dir=tmp_path, language="en", club={"broker": f"mqtt://127.0.0.1:{free_port()}",
                                                               "board": "mesa01"})
    c = checks.check_club(nobody)
    assert not c.ok and "did not answer" in c.message


# ---- the camera's fixed settings through picamera2 (a fake: picamera2 exists only on Raspberry Pi OS) -------
class FakePicamera2:
    """What PiCameraSource and the check use of picamera2.Picamera2; a Camera Module 3 by default."""
    instances: list[FakePicamera2] = []
    controls_available: dict[str, Any] = {"AfMode": (0, 2, 2), "LensPosition": (0.0, 15.0, 1.0),
                                          "ExposureTime": (1, 1000000, 20000), "AnalogueGain": (1.0, 16.0, 1.0),
                                          "AeFlickerMode": (0, 1, 0), "AeFlickerPeriod": (100, 1000000, 10000)}

    def __init__(self) -> None:
        self.camera_controls = dict(self.controls_available)
        self.configured: dict[str, Any] | None = None
        self.started = self.closed = False
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return [{"Model": "imx708", "Num": 0}]

    def create_video_configuration(self, main: dict[str, Any], controls: dict[str, Any]) -> dict[str, Any]:
        return {"main": main, "controls": controls}

    def configure(self, config: dict[str, Any]) -> None:
        self.configured = config

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True

    def capture_metadata(self) -> dict[str, Any]:
        assert self.configured is not None and self.started
        asked = self.configured["controls"]
        exposure = asked.get("ExposureTime", 2 * asked.get("AeFlickerPeriod", 10000))  # AE in whole periods
        return {"LensPosition": asked.get("LensPosition", 3.2), "ExposureTime": exposure,
                "AnalogueGain": asked.get("AnalogueGain", 2.0), "AfState": 0}


@pytest.fixture
def picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    module.__spec__ = types.SimpleNamespace(name="picamera2")  # type: ignore[assignment]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(checks, "_picamera2_present", lambda: True)
    monkeypatch.setattr(FakePicamera2, "controls_available", dict(FakePicamera2.controls_available))
    FakePicamera2.instances = []
    return FakePicamera2


def test_camera_controls_from_the_config() -> None:
    c = CameraControls.from_dict({})
    wanted, missing = c.libcamera()
    assert wanted == {"AfMode": AF_MANUAL, "LensPosition": 1.5, "AeFlickerMode": FLICKER_MANUAL,
                      "AeFlickerPeriod": 8333} and missing == []
    fixed = CameraControls.from_dict({"lens_position": 2, "exposure_time": 8333, "analogue_gain": 4,
                                      "flicker_period": 10000})
    assert fixed.libcamera()[0]["ExposureTime"] == 8333 and fixed.libcamera()[0]["AnalogueGain"] == 4.0
    auto = CameraControls.from_dict({"lens_position": "auto", "flicker_period": 0})
    assert auto.libcamera()[0] == {"AfMode": 2, "AeFlickerMode": 0}
    # a Camera Module 2 has no focus motor: those controls are left out and named
    wanted, missing = c.libcamera({"ExposureTime": 1, "AeFlickerMode": 1, "AeFlickerPeriod": 1})
    assert missing == ["AfMode", "LensPosition"] and "LensPosition" not in wanted
    for bad in ({"lens_position": -1}, {"lens_position": "near"}, {"exposure_time": 1.5},
                {"flicker_period": 50}, {"analogue_gain": 0.5}, {"focus": 1}):
        with pytest.raises(CameraControlsError):
            CameraControls.from_dict(bad)
    with pytest.raises(ConfigError, match="flicker_period must be 8333"):
        Settings.from_dict({"camera_controls": {"flicker_period": 60}}, source="gamao.toml")


def test_pi_camera_source_applies_the_controls_and_reads_them_back(picamera2: type[FakePicamera2]) -> None:
    from vision.camera import PiCameraSource

    source = PiCameraSource(controls=CameraControls.from_dict({"lens_position": 1.25}))
    cam = picamera2.instances[-1]
    assert cam.configured is not None
    assert cam.configured["controls"] == {"AfMode": 0, "LensPosition": 1.25, "AeFlickerMode": 1,
                                          "AeFlickerPeriod": 8333}
    metadata = source.read_back(frames=3)
    assert metadata["LensPosition"] == 1.25 and metadata["ExposureTime"] == 16666
    assert cam.closed and not cam.started


def test_check_reads_the_camera_settings_back(picamera2: type[FakePicamera2], tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, language="en", camera_controls={"lens_position": 1.5,
                                                                           "exposure_time": 8000})
    c = checks.check_camera_settings(settings)
    assert c.ok, c.message
    assert "read back: LensPosition 1.50, ExposureTime 8000 µs" in c.message
    assert checks.check_camera(settings).message == "Raspberry Pi camera found (picamera2)"
    picamera2.controls_available = {k: v for k, v in FakePicamera2.controls_available.items()
                                    if k not in ("AfMode", "LensPosition")}  # a Camera Module 2
    c = checks.check_camera_settings(Settings(data_dir=tmp_path, language="pt"))
    assert c.ok and "esta câmera não tem AfMode, LensPosition" in c.message


def test_check_says_when_the_camera_ignored_a_setting(picamera2: type[FakePicamera2], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FakePicamera2, "capture_metadata", lambda self: {"LensPosition": 4.0, "ExposureTime": 100})
    c = checks.check_camera_settings(Settings(data_dir=tmp_path, language="en"))
    assert not c.ok and not c.required
    assert c.message == "the camera did not follow the settings: LensPosition is 4.00, asked 1.50"


def test_summary_in_both_languages() -> None:
    missing = checks.Check("dice unit", False, "x", language="pt")
    text, status = summary([missing])
    assert status == 1 and text.startswith("FALTA    dados eletrônicos: x")
    text, status = summary([checks.Check("coach", True, "y", required=False, language="en")])
    assert status == 0 and "Everything needed is present" in text


def test_the_port_of_a_running_kiosk_is_no_missing_part(tmp_path: Path) -> None:
    """With the service running (as after install.sh), `--check` does not call its own port taken."""
    from tests.kiosk.served import get_when_served

    port = free_port()
    config = tmp_path / "gamao.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\nport = {port}\ncamera = "none"\nlanguage = "en"\n'
                      f'serial_port = "{tmp_path / "no-dice"}"\n')
    proc = subprocess.Popen([sys.executable, "-m", "cli", "run", "--config", str(config)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        get_when_served(proc, f"http://127.0.0.1:{port}/api/kiosk", 30)
        c = checks.check_port(Settings.load(config))
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
    assert c.ok and c.message == f"http://127.0.0.1:{port}/ is already served by gamao (the service is running)"
    with __import__("socket").socket() as other:  # something else on a port: still missing
        other.bind(("127.0.0.1", 0))
        other.listen()
        c = checks.check_port(Settings(data_dir=tmp_path, port=other.getsockname()[1], language="en"))
    assert not c.ok and c.blocks_start


def test_the_appliance_hands_the_config_controls_to_the_pi_camera(picamera2: type[FakePicamera2],
                                                                  tmp_path: Path) -> None:
    from kiosk.appliance import CameraLoop, camera_spec
    from vision.camera import open_source

    settings = Settings(data_dir=tmp_path, language="en", camera="picamera2",
                        camera_controls={"lens_position": 0.8, "flicker_period": 10000})
    assert camera_spec(settings) == "picamera"
    loop = CameraLoop("picamera", lambda event: True, tmp_path,
                      controls=CameraControls.from_dict(settings.camera_controls))
    source = open_source(loop.spec, loop.controls)
    assert picamera2.instances[-1].configured["controls"] == {  # type: ignore[index]
        "AfMode": 0, "LensPosition": 0.8, "AeFlickerMode": 1, "AeFlickerPeriod": 10000}
    assert source.missing == []  # type: ignore[union-attr]


def test_a_data_folder_this_user_cannot_look_into_is_said_not_a_traceback(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Found in the arm64 root: `gamao run --check` by the desktop user on the service's 0700 data folder."""
    real_exists = Path.exists

    def exists(self: Path) -> bool:
        if self.parent == tmp_path / "data":
            raise PermissionError(13, "Permission denied", str(self))
        return real_exists(self)

    (tmp_path / "data").mkdir()
    monkeypatch.setattr(Path, "exists", exists)
    found = {c.name: c for c in run_checks(Settings(data_dir=tmp_path / "data", language="en", camera="none"))}
    assert not found["pin"].ok and found["pin"].message.startswith("cannot look (Permission denied: ")
    assert "sudo -u gamao gamao run --check" in found["calibration"].message
