"""`gamao run --check`: test each part of the appliance and say in plain words what is missing.

Each check returns a Check; a missing *required* part makes `--check` exit 1 (0 when everything needed is
there; 2 for a config file that cannot be used, from cli/run.py). The words follow the config's language
(Brazilian Portuguese or English, from kiosk/check_words.py). Nothing here changes the machine: no folder or file
is made (the data folder is looked at, not created), the journal is read from a copy, the camera is opened
and released, the serial port is only looked for, GNU Backgammon is found but not started, and the club's
broker gets one connection that sends nothing.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.check_words import TEXTS, t
from kiosk.config import Settings

UDEV_LINK = "/dev/gamao-dice"
PICO_VID = 0x2E8A  # Raspberry Pi (RP2040 / Pico), the dice unit's USB vendor id
MIN_FREE = 50 * 1024 * 1024      # below this the journal may soon refuse events: a required part is missing
LOW_FREE = 500 * 1024 * 1024     # below this, a warning
CALIBRATION = "calibration.json"
PIN_FILE = "pin.json"

@dataclass
class Check:
    name: str
    ok: bool
    message: str
    required: bool = True
    blocks_start: bool = False  # without it `gamao run` cannot serve at all (others may come later)
    language: str = "en"

    def line(self) -> str:
        mark = t("mark_ok" if self.ok else ("mark_missing" if self.required else "mark_warning"), self.language)
        name = t(self.name, self.language) if self.name in TEXTS else self.name
        return f"{mark:8} {name}: {self.message}"


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit in ("B", "KB", "MB") else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def existing_parent(path: Path) -> Path:
    """PATH itself when it exists, else its nearest existing parent (where it would be made)."""
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_data_dir(settings: Settings) -> Check:
    """Looked at, never made: `gamao run` makes it at the first start (systemd's StateDirectory on the Pi)."""
    lang, folder = settings.language, settings.data_dir
    if folder.is_dir():
        if os.access(folder, os.W_OK | os.X_OK):
            return Check("data folder", True, t("data_ok", lang, dir=folder), language=lang)
    else:
        parent = existing_parent(folder)
        if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
            return Check("data folder", True, t("data_new", lang, dir=folder, parent=parent), language=lang)
    return Check("data folder", False, t("data_bad", lang, dir=folder), blocks_start=True, language=lang)


def check_disk(settings: Settings) -> Check:
    lang = settings.language
    where = existing_parent(settings.data_dir)
    free = shutil.disk_usage(where).free
    if free < MIN_FREE:
        return Check("disk space", False, t("disk_low", lang, free=_size(free), where=where), language=lang)
    if free < LOW_FREE:
        return Check("disk space", False, t("disk_low", lang, free=_size(free), where=where), required=False,
                     language=lang)
    return Check("disk space", True, t("disk_ok", lang, free=_size(free), where=where), language=lang)


def read_mounts(path: str = "/proc/mounts") -> list[tuple[str, str, str, str]]:
    """(device, mount point, type, options) of every mount, octal escapes (\\040 for a space) decoded."""
    try:
        text = Path(path).read_text()
    except OSError:
        return []
    mounts = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4:
            dev, point, fstype, opts = (p.encode().decode("unicode_escape") for p in parts[:4])
            mounts.append((dev, point, fstype, opts))
    return mounts


def mount_of(path: Path, mounts: list[tuple[str, str, str, str]]) -> tuple[str, str, str, str] | None:
    """The mount holding PATH (the longest mount point that is a prefix of it; the last one mounted wins)."""
    target = os.path.realpath(path)  # lexical past what does not exist yet: a mount point always exists
    best = None
    for m in mounts:
        point = m[1].rstrip("/") or "/"
        if target == point or target.startswith(point if point == "/" else point + "/"):
            if best is None or len(point) >= len(best[1].rstrip("/") or "/"):
                best = m
    return best


def storage_mode(data_dir: Path, mounts: list[tuple[str, str, str, str]]) -> dict[str, Any]:
    """Whether the root is an overlay (raspi-config's overlay file system) and where the data folder lives."""
    root = mount_of(Path("/"), mounts)
    data = mount_of(data_dir, mounts)
    overlay = root is not None and root[2] == "overlay"
    data_writable = data is not None and "rw" in data[3].split(",")
    return {"overlay": overlay, "data_mount": data[1] if data else None, "data_fs": data[2] if data else None,
            "data_on_overlay": overlay and data is not None and (data[1] == "/" or data[2] in ("overlay", "tmpfs")),
            "data_writable": data_writable}


def check_storage(settings: Settings, mounts_path: str = "/proc/mounts") -> Check:
    lang = settings.language
    mode = storage_mode(settings.data_dir, read_mounts(mounts_path))
    if mode["overlay"] and mode["data_on_overlay"]:
        return Check("storage", False, t("overlay_data_lost", lang, dir=settings.data_dir), language=lang)
    if mode["overlay"]:
        return Check("storage", True, t("overlay_on", lang, mount=mode["data_mount"], fs=mode["data_fs"]),
                     language=lang)
    return Check("storage", False, t("overlay_off", lang), required=False, language=lang)


def check_journal(settings: Settings) -> Check:
    """Open the journal as the kiosk will: SQLite's integrity check, every event read, the mark compared
    (kiosk.journal_health.inspect reads a copy and writes nothing)."""
    from kiosk.journal_health import inspect

    lang = settings.language
    path = settings.data_dir / "journal.sqlite"
    try:
        health = inspect(path)
    except OSError as exc:
        return Check("journal", False, t("journal_unreadable", lang, path=path, error=exc.strerror or exc),
                     blocks_start=True, language=lang)
    if not health.exists and health.went_back:
        return Check("journal", False, t("journal_gone", lang, path=path, problems="; ".join(health.problems),
                                         archive=settings.data_dir / "archive"), language=lang)
    if not health.exists:
        return Check("journal", True, t("journal_new", lang, path=path), language=lang)
    if health.healthy:
        return Check("journal", True, t("journal_ok", lang, path=path, events=len(health.events),
                                        matches=len(health.match_ids())), language=lang)
    lost = "; lost: " + "; ".join(health.lost) if health.lost else "; every event is still readable"
    return Check("journal", False, t("journal_bad", lang, path=path, problems="; ".join(health.problems), lost=lost,
                                     dir=settings.data_dir), language=lang)


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
    lang = settings.language
    port = find_dice_port(settings)
    if port:
        return Check("dice unit", True, t("dice_ok", lang, port=port), language=lang)
    if settings.serial_port != "auto":
        return Check("dice unit", False, t("dice_port", lang, port=settings.serial_port), language=lang)
    return Check("dice unit", False, t("dice_none", lang, link=UDEV_LINK), language=lang)


def _picamera2_present() -> bool:
    return importlib.util.find_spec("picamera2") is not None


def check_camera(settings: Settings) -> Check:
    lang = settings.language
    if settings.camera == "none":
        return Check("camera", True, t("camera_off", lang), required=False, language=lang)
    if settings.camera in ("auto", "picamera2") and _picamera2_present():
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]

            if Picamera2.global_camera_info():
                return Check("camera", True, t("camera_pi", lang), language=lang)
        except Exception as exc:  # picamera2 raises many kinds when libcamera is unhappy
            return Check("camera", False, t("camera_pi_bad", lang, error=exc), language=lang)
    devices = [settings.camera] if settings.camera.startswith("/dev/") else sorted(glob.glob("/dev/video*"))
    for device in devices:
        if os.path.exists(device) and _opens(device):
            return Check("camera", True, t("camera_usb", lang, device=device), language=lang)
    where = settings.camera if settings.camera.startswith("/dev/") else t("no_video", lang)
    return Check("camera", False, t("camera_none", lang, where=where), language=lang)


def check_camera_settings(settings: Settings) -> Check:
    """The config's focus, exposure and flicker period applied through picamera2 and read back from a frame's
    metadata (only when the Pi camera is the one in use)."""
    from vision.camera_controls import CameraControls, describe

    lang = settings.language
    controls = CameraControls.from_dict(settings.camera_controls)
    wanted, _ = controls.libcamera()
    asked = ", ".join(f"{k} {v}" for k, v in wanted.items())
    if settings.camera not in ("auto", "picamera2") or not _picamera2_present():
        return Check("camera settings", True, t("settings_usb", lang) + f" ({asked})", required=False, language=lang)
    from vision.camera import CameraError, PiCameraSource

    try:
        source = PiCameraSource(controls=controls)
        metadata = source.read_back()
    except (CameraError, RuntimeError, OSError) as exc:
        return Check("camera settings", False, t("settings_busy", lang, error=exc), required=False, language=lang)
    problems = controls.compare(metadata, source.wanted)
    if problems:
        return Check("camera settings", False, t("settings_differ", lang, problems="; ".join(problems)),
                     required=False, language=lang)
    message = t("settings_read", lang, wanted=asked, got=describe(metadata))
    if source.missing:
        message += "; " + t("settings_missing", lang, controls=", ".join(source.missing))
    return Check("camera settings", True, message, required=False, language=lang)


def _data_file(settings: Settings, name: str, file: str, key: str, read: Callable[[Any], None]) -> Check:
    """An optional JSON file of the data folder: `{key}_none` when it is not there, `{key}_bad` when it cannot be
    read or `read(data)` raises, else `{key}_ok`."""
    lang = settings.language
    path = settings.data_dir / file
    if not path.exists():
        return Check(name, False, t(f"{key}_none", lang), required=False, language=lang)
    try:
        read(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return Check(name, False, t(f"{key}_bad", lang, path=path, error=exc), required=False, language=lang)
    return Check(name, True, t(f"{key}_ok", lang, path=path), required=False, language=lang)


def _four_corners(data: Any) -> None:
    corners = data["corners"]
    if len(corners) != 4 or any(len(c) != 2 for c in corners):
        raise ValueError("four corners of two numbers expected")


def check_calibration(settings: Settings) -> Check:
    return _data_file(settings, "calibration", CALIBRATION, "calib", _four_corners)


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
    lang = settings.language
    chips = sorted(glob.glob("/dev/gpiochip*"))
    pins = ", ".join(f"{k}={v}" for k, v in settings.gpio.items() if v is not None)
    if not chips:
        return Check("GPIO buttons", False, t("gpio_none", lang, pins=pins), required=False, language=lang)
    if importlib.util.find_spec("lgpio") is None:
        return Check("GPIO buttons", False, t("gpio_lib", lang), required=False, language=lang)
    return Check("GPIO buttons", True, t("gpio_ok", lang, chip=chips[0], pins=pins), required=False, language=lang)


def check_port(settings: Settings) -> Check:
    lang = settings.language
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((settings.host, settings.port))
        except OSError:
            if served_by_gamao(settings.host, settings.port):
                return Check("web server", True, t("port_gamao", lang, host=settings.host, port=settings.port),
                             language=lang)
            return Check("web server", False, t("port_busy", lang, host=settings.host, port=settings.port),
                         blocks_start=True, language=lang)
    return Check("web server", True, t("port_ok", lang, host=settings.host, port=settings.port), language=lang)


def served_by_gamao(host: str, port: int, timeout: float = 2.0) -> bool:
    """Whether the port is taken by a running Gamão kiosk (its GET /api/kiosk answers with its shape)."""
    import urllib.request

    address = "127.0.0.1" if host in ("0.0.0.0", "") else ("::1" if host == "::" else host)
    url = f"http://{'[' + address + ']' if ':' in address else address}:{port}/api/kiosk"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            info = json.loads(response.read(4096))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and {"language", "languages", "pin_set"} <= set(info)


def check_referee(language: str = "en") -> Check:
    if importlib.util.find_spec("core.referee") is None or importlib.util.find_spec("kiosk.service") is None:
        return Check("referee", False, t("referee_bad", language), blocks_start=True, language=language)
    return Check("referee", True, t("referee_ok", language), language=language)


def connected_displays(drm: str = "/sys/class/drm") -> list[str]:
    """Connectors the kernel sees a display on (card1-DSI-1, card1-HDMI-A-1, ...)."""
    found = []
    for status in sorted(glob.glob(os.path.join(drm, "card*-*", "status"))):
        try:
            if Path(status).read_text().strip() == "connected":
                found.append(Path(status).parent.name.split("-", 1)[1])
        except OSError:
            continue
    return found


def check_screen(settings: Settings) -> Check:
    lang = settings.language
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        return Check("screen", False, t("screen_nobrowser", lang), required=False, language=lang)
    outputs = connected_displays()
    if not outputs:
        return Check("screen", False, t("screen_nodisplay", lang, browser=browser), required=False, language=lang)
    return Check("screen", True, t("screen_ok", lang, browser=browser, outputs=", ".join(outputs)),
                 required=False, language=lang)


def sound_cards(path: str = "/proc/asound/cards") -> list[str]:
    try:
        text = Path(path).read_text()
    except OSError:
        return []
    return [line.split("]:", 1)[1].strip() for line in text.splitlines() if "]:" in line]


def check_audio(settings: Settings) -> Check:
    lang = settings.language
    if getattr(settings, "speak", True) is False:  # the voice's on/off setting, where the config has one
        return Check("audio", True, t("audio_off", lang), required=False, language=lang)
    speaker = shutil.which("espeak-ng")
    if not speaker:
        return Check("audio", False, t("audio_nospeaker", lang), required=False, language=lang)
    cards = sound_cards()
    if not cards:
        return Check("audio", False, t("audio_nocard", lang, speaker=speaker), required=False, language=lang)
    return Check("audio", True, t("audio_ok", lang, speaker=speaker, cards="; ".join(cards)), required=False,
                 language=lang)


def check_coach(settings: Settings) -> Check:
    from engine.gnubg import EngineUnavailable, find_gnubg

    lang = settings.language
    try:
        path = find_gnubg()
    except EngineUnavailable:
        return Check("coach", False, t("coach_none", lang), required=False, language=lang)
    return Check("coach", True, t("coach_ok", lang, path=path), required=False, language=lang)


def check_club(settings: Settings, timeout: float = 5.0) -> Check:
    """One connection to the club's broker with this board's credentials; nothing is published or subscribed. Its
    client id is its own, but the club's broker (`gamao director broker-config`) gives every connection its user's
    name as id (issue 34), so on it a running kiosk's connection is taken for the moment of the check and comes
    back at once (its outbox keeps what it had not sent)."""
    import threading

    from club.config import ClubConfig, make_client

    lang = settings.language
    config = ClubConfig.from_dict(settings.club)
    if config is None:
        return Check("club", True, t("club_none", lang), required=False, language=lang)
    broker = config.broker
    answer: dict[str, Any] = {}
    done = threading.Event()

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        answer["reason"] = reason
        done.set()

    client = make_client(f"gamao-check-{config.club}-{config.board}", broker)
    client.on_connect = on_connect
    try:
        client.connect(broker.host, broker.port, keepalive=broker.keepalive)
        client.loop_start()
        done.wait(timeout)
    except (OSError, ValueError) as exc:
        return Check("club", False, t("club_unreachable", lang, broker=broker.display(), error=exc), language=lang)
    finally:
        try:
            client.disconnect()
            client.loop_stop()
        except Exception:  # noqa: BLE001 - closing a client that never connected
            pass
    reason = answer.get("reason")
    if reason is None:
        return Check("club", False, t("club_unreachable", lang, broker=broker.display(), error=f"no answer in "
                                      f"{timeout:.0f} s"), language=lang)
    if getattr(reason, "is_failure", False):
        return Check("club", False, t("club_refused", lang, broker=broker.display(), reason=reason), language=lang)
    who = f" ({broker.username})" if broker.username else ""
    return Check("club", True, t("club_ok", lang, broker=broker.display(), who=who, board=config.board,
                                 club=config.club), language=lang)


def _pin_record(stored: Any) -> None:
    if not isinstance(stored, dict) or not stored:
        raise ValueError("not a PIN record")


def check_pin(settings: Settings) -> Check:
    return _data_file(settings, "pin", PIN_FILE, "pin", _pin_record)


def run_checks(settings: Settings, thorough: bool = True) -> list[Check]:
    """Every part. ``thorough`` False (what `gamao run` does before it starts): the camera's settings are not
    read back and the club's broker is not called (the camera loop and the publisher open them at once)."""
    lang = settings.language
    parts: list[tuple[str, Callable[[Settings], Check]]] = [
        ("data folder", check_data_dir), ("disk space", check_disk), ("journal", check_journal),
        ("storage", check_storage), ("referee", lambda s: check_referee(s.language)), ("web server", check_port),
        ("camera", check_camera)]
    if thorough:
        parts.append(("camera settings", check_camera_settings))
    parts += [("calibration", check_calibration), ("dice unit", check_dice), ("GPIO buttons", check_gpio),
              ("screen", check_screen), ("audio", check_audio), ("coach", check_coach)]
    if thorough:
        parts.append(("club", check_club))
    parts.append(("pin", check_pin))
    checks = []
    for name, check in parts:
        try:
            checks.append(check(settings))
        except OSError as exc:  # a folder this user may not look into (the data folder is the service's own)
            checks.append(Check(name, False, t("cannot_look", lang, error=f"{exc.strerror or exc}: {exc.filename}"),
                                language=lang))
    return checks


def summary(checks: list[Check], language: str | None = None) -> tuple[str, int]:
    lang = language or (checks[0].language if checks else "en")
    missing = [c for c in checks if c.required and not c.ok]
    lines = [c.line() for c in checks]
    if missing:
        names = ", ".join(t(c.name, lang) if c.name in TEXTS else c.name for c in missing)
        lines.append("\n" + t("sum_missing", lang, n=len(missing), names=names))
        return "\n".join(lines), 1
    lines.append("\n" + t("sum_ok", lang))
    return "\n".join(lines), 0
