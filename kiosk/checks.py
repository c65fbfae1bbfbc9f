"""`gamao run --check`: test each part of the appliance and say in plain words what is missing.

Each check returns a Check; a missing *required* part makes `--check` exit non-zero. Nothing here
changes the machine: the camera is opened and released, the serial port is only looked for.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import socket
import tempfile
from dataclasses import dataclass

from kiosk.config import Settings

UDEV_LINK = "/dev/gamao-dice"
PICO_VID = 0x2E8A  # Raspberry Pi (RP2040 / Pico), the dice unit's USB vendor id


@dataclass
class Check:
    name: str
    ok: bool
    message: str
    required: bool = True
    blocks_start: bool = False  # without it `gamao run` cannot serve at all (others may come later)

    def line(self) -> str:
        mark = "ok" if self.ok else ("MISSING" if self.required else "warning")
        return f"{mark:8} {self.name}: {self.message}"


def check_data_dir(settings: Settings) -> Check:
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=settings.data_dir):
            pass
    except OSError as exc:
        return Check("data folder", False, f"cannot write to {settings.data_dir} ({exc.strerror}); "
                     "set data_dir in the config file to a folder this user may write", blocks_start=True)
    return Check("data folder", True, f"{settings.data_dir} is writable (games and the PIN are kept here)")


def check_journal(settings: Settings) -> Check:
    """Open the journal as the kiosk will: SQLite's integrity check, every event read, the mark compared."""
    from kiosk.journal import inspect

    path = settings.data_dir / "journal.sqlite"
    try:
        health = inspect(path)
    except OSError as exc:
        return Check("journal", False, f"cannot read {path} ({exc.strerror or exc})", blocks_start=True)
    if not health.exists and health.went_back:
        return Check("journal", False, f"{path} is missing: {'; '.join(health.problems)}. Finished matches are in "
                     f"{settings.data_dir / 'archive'}; `gamao run` starts a new journal and says so on the screen")
    if not health.exists:
        return Check("journal", True, f"no journal yet at {path}: a new one is made at the first start")
    if health.healthy:
        return Check("journal", True, f"{path}: {len(health.events)} events in {len(health.match_ids())} matches, "
                     "integrity check ok")
    lost = "; lost: " + "; ".join(health.lost) if health.lost else "; every event is still readable"
    return Check("journal", False, f"{path} is not healthy: {'; '.join(health.problems)}{lost}. `gamao run` moves a "
                 f"damaged file aside and salvages what it can at start; or run `gamao journal {settings.data_dir} "
                 "--salvage` with the kiosk stopped")


def find_dice_port(settings: Settings) -> str | None:
    """The configured port, else the udev rule's /dev/gamao-dice, else a Raspberry Pi Pico on USB."""
    if settings.serial_port != "auto":
        return settings.serial_port if os.path.exists(settings.serial_port) else None
    if os.path.exists(UDEV_LINK):
        return UDEV_LINK
    try:
        from serial.tools import list_ports
    except ImportError:
        return None
    for port in list_ports.comports():
        if port.vid == PICO_VID:
            return port.device
    return None


def check_dice(settings: Settings) -> Check:
    port = find_dice_port(settings)
    if port:
        return Check("dice unit", True, f"found at {port}")
    if settings.serial_port != "auto":
        return Check("dice unit", False, f"the configured serial port {settings.serial_port} does not exist; "
                     "plug in the dice unit's USB cable or correct serial_port in the config file")
    return Check("dice unit", False, f"no dice unit found: neither {UDEV_LINK} (installed by "
                 "hardware/99-gamao-dice.rules) nor a Raspberry Pi Pico on USB. Plug in the dice unit's USB "
                 "cable; without it, try `gamao demo`, which simulates the dice")


def check_camera(settings: Settings) -> Check:
    if settings.camera == "none":
        return Check("camera", True, "disabled in the config (camera = \"none\"): boards are entered by hand",
                     required=False)
    if settings.camera in ("auto", "picamera2") and importlib.util.find_spec("picamera2") is not None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]

            if Picamera2.global_camera_info():
                return Check("camera", True, "Raspberry Pi camera found (picamera2)")
        except Exception as exc:  # picamera2 raises many kinds when libcamera is unhappy
            return Check("camera", False, f"picamera2 is installed but the camera did not answer ({exc})")
    devices = [settings.camera] if settings.camera.startswith("/dev/") else sorted(glob.glob("/dev/video*"))
    for device in devices:
        if os.path.exists(device) and _opens(device):
            return Check("camera", True, f"USB/V4L2 camera at {device}")
    where = settings.camera if settings.camera.startswith("/dev/") else "no /dev/video* device"
    return Check("camera", False, f"no camera found ({where}, and no Raspberry Pi camera through picamera2). "
                 "Connect the camera ribbon or a USB camera and check it with `libcamera-hello --list-cameras`")


def _opens(device: str) -> bool:
    try:
        import cv2
    except ImportError:
        return False
    cap = cv2.VideoCapture(device)
    try:
        return bool(cap.isOpened() and cap.read()[0])
    finally:
        cap.release()


def check_gpio(settings: Settings) -> Check:
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return Check("GPIO buttons", False, "no /dev/gpiochip*: this is not a Raspberry Pi, so the hardware "
                     f"buttons (pins {', '.join(f'{k}={v}' for k, v in settings.gpio.items() if v is not None)}) cannot work; "
                     "the touch screen's control panel still can", required=False)
    if importlib.util.find_spec("lgpio") is None:
        return Check("GPIO buttons", False, "GPIO chips exist but the lgpio library is missing: "
                     "pip install -e '.[pi]' (or apt install python3-lgpio)", required=False)
    return Check("GPIO buttons", True, f"{chips[0]} with lgpio; pins {settings.gpio}", required=False)


def check_port(settings: Settings) -> Check:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((settings.host, settings.port))
        except OSError:
            return Check("web server", False, f"port {settings.port} on {settings.host} is already in use "
                         "(is gamao already running? `systemctl status gamao`); or set port in the config file",
                         blocks_start=True)
    return Check("web server", True, f"http://{settings.host}:{settings.port}/ is free to serve the screen")


def check_referee() -> Check:
    if importlib.util.find_spec("core.referee") is None or importlib.util.find_spec("kiosk.service") is None:
        return Check("referee", False, "the referee (core/referee/machine.py, kiosk/service.py) is not installed in this "
                     "checkout; update the checkout and reinstall", blocks_start=True)
    return Check("referee", True, "rules core and referee service present")


def check_browser() -> Check:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser:
        return Check("kiosk browser", True, f"{browser}", required=False)
    return Check("kiosk browser", False, "Chromium is not installed, so the screen cannot start by itself: "
                 "sudo apt install chromium", required=False)


def run_checks(settings: Settings) -> list[Check]:
    return [check_data_dir(settings), check_journal(settings), check_referee(), check_port(settings), check_camera(settings),
            check_dice(settings), check_gpio(settings), check_browser()]


def summary(checks: list[Check]) -> tuple[str, int]:
    missing = [c for c in checks if c.required and not c.ok]
    lines = [c.line() for c in checks]
    if missing:
        lines.append(f"\n{len(missing)} required part(s) missing: {', '.join(c.name for c in missing)}. "
                     "Gamão cannot run as an appliance on this machine yet.")
        return "\n".join(lines), 1
    lines.append("\nEverything needed is present: `gamao run --config FILE` will start the appliance.")
    return "\n".join(lines), 0
