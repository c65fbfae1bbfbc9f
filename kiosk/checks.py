"""`gamao run --check`: test each part of the appliance and say in plain words what is missing.

Each check returns a Check; a missing *required* part makes `--check` exit 1 (0 when everything needed is
there; 2 for a config file that cannot be used, from cli/run.py). The words follow the config's language
(Brazilian Portuguese or English, from TEXTS below). Nothing here changes the machine: no folder or file
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

from kiosk.config import Settings

UDEV_LINK = "/dev/gamao-dice"
PICO_VID = 0x2E8A  # Raspberry Pi (RP2040 / Pico), the dice unit's USB vendor id
MIN_FREE = 50 * 1024 * 1024      # below this the journal may soon refuse events: a required part is missing
LOW_FREE = 500 * 1024 * 1024     # below this, a warning
CALIBRATION = "calibration.json"
PIN_FILE = "pin.json"

# key -> (Brazilian Portuguese, English); placeholders filled by t().
TEXTS: dict[str, tuple[str, str]] = {
    "mark_ok": ("ok", "ok"), "mark_missing": ("FALTA", "MISSING"), "mark_warning": ("aviso", "warning"),
    # part names
    "data folder": ("pasta de dados", "data folder"), "disk space": ("espaço em disco", "disk space"),
    "journal": ("diário de jogos", "journal"), "storage": ("cartão SD (overlay)", "SD card (overlay)"),
    "referee": ("árbitro", "referee"), "web server": ("servidor da tela", "web server"),
    "camera": ("câmera", "camera"), "camera settings": ("ajustes da câmera", "camera settings"),
    "calibration": ("calibração da câmera", "camera calibration"), "dice unit": ("dados eletrônicos", "dice unit"),
    "GPIO buttons": ("botões (GPIO)", "GPIO buttons"), "screen": ("tela", "screen"),
    "audio": ("som (anúncios falados)", "audio (spoken calls)"), "coach": ("GNU Backgammon (treinador)",
                                                                          "GNU Backgammon (coach)"),
    "club": ("clube (broker MQTT)", "club (MQTT broker)"), "pin": ("PIN de controle", "control PIN"),
    # messages
    "data_ok": ("{dir} pode ser gravada (jogos, PIN e calibração ficam aqui)",
                "{dir} is writable (games and the PIN are kept here)"),
    "data_new": ("{dir} ainda não existe: será criada na primeira partida ({parent} pode ser gravada)",
                 "{dir} does not exist yet: it is made at the first start ({parent} is writable)"),
    "data_bad": ("não é possível gravar em {dir}: defina data_dir no arquivo de configuração com uma pasta que "
                 "este usuário possa gravar", "cannot write to {dir}; set data_dir in the config file to a folder "
                 "this user may write"),
    "disk_ok": ("{free} livres em {where}", "{free} free on {where}"),
    "disk_low": ("só {free} livres em {where}: apague arquivos velhos ou use um cartão maior (o diário recusa "
                 "jogadas com o disco cheio)", "only {free} free on {where}: remove old files or use a larger "
                 "card (the journal refuses events when the disk is full)"),
    "overlay_on": ("raiz somente leitura (overlay): o sistema volta igual a cada reinício; os dados ficam em "
                   "{mount} ({fs}, gravável)", "read-only root (overlay): the system comes back the same at "
                   "every start; the data is on {mount} ({fs}, writable)"),
    "overlay_data_lost": ("raiz somente leitura (overlay), mas a pasta de dados {dir} está no overlay: os jogos "
                          "se perdem ao desligar. Monte uma partição gravável em {dir} (docs/appliance.md)",
                          "read-only root (overlay), but the data folder {dir} is on the overlay: games are lost "
                          "at power-off. Mount a writable partition on {dir} (docs/appliance.md)"),
    "overlay_off": ("raiz gravável (sem overlay): um corte de energia pode danificar o sistema no cartão SD; "
                    "veja a seção \"SD card\" de docs/appliance.md", "writable root (no overlay): a power cut can damage "
                    "the system on the SD card; see docs/appliance.md, \"SD card\""),
    "referee_ok": ("regras e serviço do árbitro presentes", "rules core and referee service present"),
    "referee_bad": ("o árbitro não está instalado nesta cópia; atualize e reinstale",
                    "the referee is not installed in this checkout; update the checkout and reinstall"),
    "port_ok": ("http://{host}:{port}/ está livre para a tela", "http://{host}:{port}/ is free to serve the screen"),
    "port_gamao": ("http://{host}:{port}/ já é servido pelo gamao (o serviço está rodando)",
                   "http://{host}:{port}/ is already served by gamao (the service is running)"),
    "port_busy": ("a porta {port} em {host} já está em uso (o gamao já está rodando? `systemctl status gamao`); "
                  "ou mude port no arquivo de configuração", "port {port} on {host} is already in use (is gamao "
                  "already running? `systemctl status gamao`); or set port in the config file"),
    "camera_off": ("desligada na configuração (camera = \"none\"): as posições são corrigidas na tela",
                   "disabled in the config (camera = \"none\"): boards are entered by hand"),
    "camera_pi": ("câmera do Raspberry Pi encontrada (picamera2)", "Raspberry Pi camera found (picamera2)"),
    "camera_pi_bad": ("o picamera2 está instalado mas a câmera não respondeu ({error})",
                      "picamera2 is installed but the camera did not answer ({error})"),
    "camera_usb": ("câmera USB/V4L2 em {device}", "USB/V4L2 camera at {device}"),
    "camera_none": ("nenhuma câmera encontrada ({where}, e nenhuma câmera do Raspberry Pi pelo picamera2). Ligue "
                    "o cabo da câmera ou uma câmera USB e teste com `rpicam-hello --list-cameras`",
                    "no camera found ({where}, and no Raspberry Pi camera through picamera2). Connect the camera "
                    "ribbon or a USB camera and check it with `rpicam-hello --list-cameras`"),
    "no_video": ("nenhum dispositivo /dev/video*", "no /dev/video* device"),
    "settings_read": ("pedido: {wanted}; lido da câmera: {got}", "asked: {wanted}; read back: {got}"),
    "settings_differ": ("a câmera não seguiu os ajustes: {problems}", "the camera did not follow the settings: "
                        "{problems}"),
    "settings_missing": ("esta câmera não tem {controls} (só a Camera Module 3 tem foco)",
                         "this camera has no {controls} (only Camera Module 3 has a focus motor)"),
    "settings_busy": ("não foi possível ler os ajustes ({error}); se o gamao está rodando, pare-o antes: "
                      "sudo systemctl stop gamao", "the settings could not be read back ({error}); if gamao is "
                      "running, stop it first: sudo systemctl stop gamao"),
    "settings_usb": ("foco, exposição e cintilação fixos valem só para a câmera do Raspberry Pi (picamera2)",
                     "fixed focus, exposure and flicker apply to the Raspberry Pi camera only (picamera2)"),
    "calib_ok": ("cantos do tabuleiro marcados na tela ({path})", "board corners set on the screen ({path})"),
    "calib_none": ("cantos não marcados: o tabuleiro é achado pelos marcadores ArUco; sem eles, use Calibrar "
                   "câmera na tela", "corners not set: the board is found by its ArUco markers; without them, "
                   "use Calibrate camera on the screen"),
    "calib_bad": ("{path} está danificado ({error}): marque os cantos de novo em Calibrar câmera",
                  "{path} is damaged ({error}): set the corners again with Calibrate camera"),
    "dice_ok": ("encontrados em {port}", "found at {port}"),
    "dice_port": ("a porta serial configurada {port} não existe; ligue o cabo USB dos dados ou corrija "
                  "serial_port no arquivo de configuração", "the configured serial port {port} does not exist; "
                  "plug in the dice unit's USB cable or correct serial_port in the config file"),
    "dice_none": ("nenhum dado eletrônico encontrado: nem {link} (criado por hardware/99-gamao-dice.rules) nem "
                  "um Raspberry Pi Pico na USB. Ligue o cabo USB dos dados; sem eles, teste `gamao demo`",
                  "no dice unit found: neither {link} (installed by hardware/99-gamao-dice.rules) nor a "
                  "Raspberry Pi Pico on USB. Plug in the dice unit's USB cable; without it, try `gamao demo`, "
                  "which simulates the dice"),
    "gpio_none": ("sem /dev/gpiochip*: isto não é um Raspberry Pi, então os botões (pinos {pins}) não "
                  "funcionam; o painel de controle da tela funciona", "no /dev/gpiochip*: this is not a "
                  "Raspberry Pi, so the hardware buttons (pins {pins}) cannot work; the touch screen's control "
                  "panel still can"),
    "gpio_lib": ("há GPIO mas falta a biblioteca lgpio: sudo apt install python3-lgpio",
                 "GPIO chips exist but the lgpio library is missing: sudo apt install python3-lgpio"),
    "gpio_ok": ("{chip} com lgpio; pinos {pins}", "{chip} with lgpio; pins {pins}"),
    "screen_ok": ("{browser}; tela ligada: {outputs}", "{browser}; display connected: {outputs}"),
    "screen_nodisplay": ("{browser}; nenhuma tela ligada (HDMI ou DSI)", "{browser}; no display connected "
                         "(HDMI or DSI)"),
    "screen_nobrowser": ("o Chromium não está instalado, então a tela não abre sozinha: sudo apt install "
                         "chromium", "Chromium is not installed, so the screen cannot start by itself: "
                         "sudo apt install chromium"),
    "audio_ok": ("{speaker} e saída de som {cards}", "{speaker} and sound output {cards}"),
    "audio_off": ("anúncios falados desligados na configuração", "spoken calls turned off in the config"),
    "audio_nospeaker": ("falta o espeak-ng para os anúncios falados: sudo apt install espeak-ng",
                        "espeak-ng is missing for the spoken calls: sudo apt install espeak-ng"),
    "audio_nocard": ("{speaker}, mas nenhuma saída de som (/proc/asound/cards vazio): ligue alto-falantes "
                     "HDMI ou USB", "{speaker}, but no sound output (/proc/asound/cards is empty): connect "
                     "HDMI or USB speakers"),
    "coach_ok": ("{path}", "{path}"),
    "coach_none": ("o GNU Backgammon não está instalado: o treinador mostra as jogadas sem avaliá-las. "
                   "sudo apt install gnubg", "GNU Backgammon is not installed: the coach shows the plays "
                   "unranked. sudo apt install gnubg"),
    "club_none": ("sem tabela [club]: esta mesa não publica para um diretor", "no [club] table: this board "
                  "publishes to no director"),
    "club_ok": ("{broker} aceitou a conexão{who} (mesa {board} do clube {club})", "{broker} accepted the "
                "connection{who} (board {board} of club {club})"),
    "club_refused": ("{broker} recusou a conexão: {reason}; confira username e password em [club]",
                     "{broker} refused the connection: {reason}; check username and password in [club]"),
    "club_unreachable": ("{broker} não respondeu ({error}): confira o endereço, a rede e o certificado",
                         "{broker} did not answer ({error}): check the address, the network and the certificate"),
    "pin_ok": ("definido ({path})", "set ({path})"),
    "pin_none": ("ainda não definido: toque em Controle na tela do tabuleiro e escolha um PIN (4 a 12 dígitos)",
                 "not set yet: press Controle on the board's touch screen and choose a PIN (4 to 12 digits)"),
    "pin_bad": ("{path} está danificado: apague-o e defina o PIN de novo na tela", "{path} is damaged: remove "
                "it and set the PIN again on the screen"),
    "journal_new": ("ainda não há diário em {path}: um novo é criado na primeira partida",
                    "no journal yet at {path}: a new one is made at the first start"),
    "journal_ok": ("{path}: {events} eventos em {matches} partidas, verificação de integridade ok",
                   "{path}: {events} events in {matches} matches, integrity check ok"),
    "journal_gone": ("{path} sumiu: {problems}. As partidas terminadas estão em {archive}; `gamao run` começa "
                     "um diário novo e avisa na tela", "{path} is missing: {problems}. Finished matches are in "
                     "{archive}; `gamao run` starts a new journal and says so on the screen"),
    "journal_bad": ("{path} não está saudável: {problems}{lost}. `gamao run` põe o arquivo danificado de lado e "
                    "recupera o que puder ao iniciar; ou rode `gamao journal {dir} --salvage` com o quiosque "
                    "parado", "{path} is not healthy: {problems}{lost}. `gamao run` moves a damaged file aside "
                    "and salvages what it can at start; or run `gamao journal {dir} --salvage` with the kiosk "
                    "stopped"),
    "journal_unreadable": ("não é possível ler {path} ({error})", "cannot read {path} ({error})"),
    "sum_missing": ("{n} parte(s) obrigatória(s) faltando: {names}. O Gamão ainda não pode funcionar como "
                    "aparelho nesta máquina.", "{n} required part(s) missing: {names}. Gamão cannot run as an "
                    "appliance on this machine yet."),
    "cannot_look": ("não foi possível verificar ({error}); rode como o usuário do serviço: sudo -u gamao gamao "
                    "run --check ...", "cannot look ({error}); run it as the service's user: sudo -u gamao gamao "
                    "run --check ..."),
    "not_starting": ("não vai iniciar; corrija as partes acima, ou teste `gamao demo` com peças simuladas.",
                     "not starting; fix the parts above, or try `gamao demo` on simulated hardware."),
    "sum_ok": ("Tudo o que é preciso está presente: `gamao run --config ARQUIVO` inicia o aparelho.",
               "Everything needed is present: `gamao run --config FILE` will start the appliance."),
}


def t(key: str, language: str = "en", **params: Any) -> str:
    pt, en = TEXTS[key]
    return (pt if language == "pt" else en).format(**params)


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
