"""`gamao run --check` on a machine without camera or dice unit, and config errors in plain words."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from kiosk.checks import Check, summary
from kiosk.config import ConfigError, Settings
from kiosk.server import free_port
from tests.kiosk.served import get_when_served
from tests.web import HTTP

DEPLOY = Path(__file__).resolve().parents[2] / "kiosk" / "deploy" / "gamao.toml"


def gamao(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp)}
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_check_reports_missing_camera_and_dice_and_exits_nonzero(tmp_path: Path) -> None:
    config = tmp_path / "gamao.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\nport = {free_port()}\nserial_port = "auto"\n')
    if Path("/dev/gamao-dice").exists() or list(Path("/dev").glob("video*")):
        import pytest
        pytest.skip("this machine has a camera or dice unit; the check is about a machine without them")
    r = gamao("run", "--check", "--config", str(config), tmp=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "MISSING  camera: no camera found (no /dev/video* device" in r.stdout
    assert "MISSING  dice unit: no dice unit found: neither /dev/gamao-dice" in r.stdout
    assert f"ok       data folder: {tmp_path / 'data'} does not exist yet: it is made at the first start" in r.stdout
    assert "Gamão cannot run as an appliance on this machine yet." in r.stdout
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "data").exists(), "--check has no side effects: it does not make the data folder"


def test_run_refuses_to_start_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        config = tmp_path / "gamao.json"
        config.write_text(f'{{"data_dir": "{tmp_path / "d"}", "port": {port}}}')
        r = gamao("run", "--config", str(config), tmp=tmp_path)
    assert r.returncode == 1
    assert f"MISSING  web server: port {port} on 127.0.0.1 is already in use" in r.stderr
    assert "gamao run: not starting" in r.stderr


def test_run_starts_without_camera_and_dice_and_serves_the_page(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "gamao.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\nport = {port}\ncamera = "none"\n'
                      f'serial_port = "{tmp_path / "no-dice"}"\nlanguage = "en"\n')
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "run", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        info = get_when_served(proc, f"http://127.0.0.1:{port}/api/kiosk", 30)
        assert info["language"] == "en" and info["camera"] is False
        assert HTTP.get(f"http://127.0.0.1:{port}/api/state").json()["phase"] == "opening"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "MISSING  dice unit: the configured serial port" in err
    assert (tmp_path / "data" / "journal.sqlite").exists()
    assert "Traceback" not in err


def test_unknown_setting_is_named(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('langauge = "pt"\n')
    r = gamao("run", "--check", "--config", str(config), tmp=tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith(f"gamao run: {config}: unknown setting 'langauge'; known settings: data_dir,")


def test_missing_config_file_is_plain(tmp_path: Path) -> None:
    r = gamao("run", "--check", "--config", str(tmp_path / "nope.toml"), tmp=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() == f"gamao run: cannot read config file {tmp_path / 'nope.toml'}: No such file or directory"


def test_deployed_example_config_loads() -> None:
    settings = Settings.load(DEPLOY)
    assert settings.language == "pt" and settings.gpio["end_turn"] == 17 and settings.rules["crawford"] is True


def test_bad_rule_and_language_are_refused() -> None:
    for data, message in [({"rules": {"crawfurd": True}}, "config: unknown rule 'crawfurd'"),
                          ({"language": "de"}, "config: language must be one of pt, en, not 'de'"),
                          ({"port": "80"}, "config: setting 'port' must be a whole number, not '80'"),
                          ({"gpio": {"double": 40}}, "config: gpio.double = 40: use a BCM GPIO number from 2 to 27")]:
        try:
            Settings.from_dict(data)
        except ConfigError as exc:
            assert str(exc).startswith(message), str(exc)
        else:
            raise AssertionError(f"{data} was accepted")


def test_language_follows_the_system(monkeypatch) -> None:
    monkeypatch.setenv("LANG", "pt_PT.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert Settings().language == "pt"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert Settings().language == "en"


def test_summary_passes_when_only_optional_parts_are_missing() -> None:
    text, status = summary([Check("camera", True, "ok"), Check("GPIO buttons", False, "no chip", required=False)])
    assert status == 0 and "Everything needed is present" in text
