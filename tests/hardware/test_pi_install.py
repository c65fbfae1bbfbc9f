"""The Pi's install pieces that run anywhere (issue 25): the labwc kiosk screen writer (idempotent, the rest
of the user's files kept, the rotation remembered, a valid invisible Xcursor), the install script's argument
handling, hardware/pi/check-arm64's arguments, binfmt line, step gating and report, and hardware/pi/page_shot.py
against a real headless Chromium (the emulated run itself is not in the default test run: it takes an hour per
Debian release)."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request
import zlib
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PI = ROOT / "hardware" / "pi"


def load(name: str, path: Path) -> ModuleType:
    loader = SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


kiosk_screen = load("kiosk_screen", PI / "kiosk_screen.py")
check_arm64 = load("check_arm64", PI / "check-arm64")


def run_screen(home: Path, icons: Path, config: Path, *extra: str) -> None:
    assert kiosk_screen.main(["--home", str(home), "--icons", str(icons), "--config", str(config), *extra]) == 0


def snapshot(*folders: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for f in folders for p in sorted(f.rglob("*")) if p.is_file()}


def test_kiosk_screen_is_idempotent_and_keeps_the_users_lines(tmp_path: Path) -> None:
    home, icons, config = tmp_path / "home", tmp_path / "icons", tmp_path / "gamao.toml"
    config.write_text("port = 8123\n")
    labwc = home / ".config" / "labwc"
    labwc.mkdir(parents=True)
    (labwc / "autostart").write_text("/usr/bin/lwrespawn /usr/bin/wf-panel-pi &\n")
    (labwc / "environment").write_text("XKB_DEFAULT_LAYOUT=br\nXCURSOR_THEME=PiXflat\n")
    (labwc / "rc.xml").write_text('<?xml version="1.0"?>\n<labwc_config>\n  <core><gap>0</gap></core>\n</labwc_config>\n')
    run_screen(home, icons, config, "--rotate", "180")
    first = snapshot(home, icons)
    autostart = (labwc / "autostart").read_text()
    assert autostart.startswith("/usr/bin/lwrespawn /usr/bin/wf-panel-pi &\n" + kiosk_screen.BEGIN)
    assert "http://127.0.0.1:8123/" in autostart and "--ozone-platform=wayland" in autostart
    assert "wlr-randr --output \"$output\" --transform 180" in autostart
    assert (labwc / "environment").read_text() == "XKB_DEFAULT_LAYOUT=br\nXCURSOR_THEME=gamao-hidden\nXCURSOR_SIZE=24\n"
    assert '<touch mouseEmulation="no" />' in (labwc / "rc.xml").read_text()
    assert "<gap>0</gap>" in (labwc / "rc.xml").read_text()
    run_screen(home, icons, config)  # again, without --rotate: the same bytes, the rotation kept
    assert snapshot(home, icons) == first
    assert autostart.count(kiosk_screen.BEGIN) == 1
    run_screen(home, icons, config, "--rotate", "0")
    assert "wlr-randr" not in (labwc / "autostart").read_text()


def test_the_deploy_file_is_the_default_block() -> None:
    text = (ROOT / "kiosk" / "deploy" / "kiosk-autostart").read_text()
    assert text.endswith(kiosk_screen.autostart_block())


def test_hidden_cursor_is_a_valid_transparent_xcursor(tmp_path: Path) -> None:
    theme = kiosk_screen.write_theme(tmp_path)
    data = (theme / "cursors" / "left_ptr").read_bytes()
    magic, header, _version, ntoc = struct.unpack_from("<4sIII", data, 0)
    assert (magic, header, ntoc) == (b"Xcur", 16, 1)
    kind, _size, position = struct.unpack_from("<III", data, 16)
    assert kind == 0xFFFD0002
    chunk = struct.unpack_from("<IIIIIIIII", data, position)
    assert chunk[0] == 36 and chunk[1] == 0xFFFD0002 and chunk[4:6] == (1, 1)
    assert struct.unpack_from("<I", data, position + 36)[0] == 0  # the one pixel: alpha 0
    assert len(data) == position + 36 + 4
    assert {"default", "pointer", "text"} <= {p.name for p in (theme / "cursors").iterdir()}


def test_install_script_refuses_bad_arguments_before_touching_anything(tmp_path: Path) -> None:
    script = PI / "install.sh"
    r = subprocess.run(["sh", str(script), "--rotate", "45"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and "--rotate must be 0, 90, 180 or 270, not 45" in r.stderr
    r = subprocess.run(["sh", str(script), "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and "unknown option --frobnicate" in r.stderr
    r = subprocess.run(["sh", str(script), "--help"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and "sudo /opt/gamao/hardware/pi/install.sh" in r.stdout
    if os.geteuid() == 0 and ROOT != Path("/opt/gamao"):
        r = subprocess.run(["sh", str(script), "--no-apt"], capture_output=True, text=True, timeout=30)
        assert r.returncode == 1 and "the checkout must be at /opt/gamao" in r.stderr


def test_check_arm64_arguments() -> None:
    args = check_arm64.parse_args(["trixie", "--cache", "/somewhere", "--skip", "demo"])
    assert args.suite == "trixie" and args.cache == Path("/somewhere") and args.skip == ["demo"]
    with pytest.raises(SystemExit):
        check_arm64.parse_args(["buster"])
    with pytest.raises(SystemExit):
        check_arm64.parse_args([])
    assert check_arm64.parse_args(["bookworm"]).cache.parts[-2:] == (".cache", "gamao-arm64")
    assert not check_arm64.parse_args(["bookworm"]).host_qemu  # Debian 13's qemu-user by default
    assert check_arm64.parse_args(["bookworm", "--host-qemu"]).host_qemu
    assert check_arm64.parse_args(["bookworm"]).nice == 19  # yields to the machine's other work by default
    assert check_arm64.parse_args(["bookworm", "--nice", "10"]).nice == 10
    with pytest.raises(SystemExit):
        check_arm64.parse_args(["bookworm", "--nice", "-5"])  # never above the machine's other work


def test_check_arm64_registers_its_qemu_for_aarch64_elf_only() -> None:
    """The binfmt_misc line for Debian 13's qemu-aarch64: the kernel's escapes, the arm64 ELF header's magic
    (EM_AARCH64 = 0xb7) under the mask qemu's own binfmt.d file uses, and no C flag (sudo stays unprivileged)."""
    def unescape(field: str) -> bytes:  # as binfmt_misc reads it: \\xHH is one byte, any other character itself
        return re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), field).encode("latin-1")
    line = check_arm64.binfmt_line(Path("/cache/qemu/qemu-aarch64-10.0"))
    name, kind, offset, magic_field, mask_field, interpreter, flags = line.split(":")[1:]
    assert (name, kind, offset, interpreter, flags) == ("gamao-aarch64", "M", "", "/cache/qemu/qemu-aarch64-10.0",
                                                        "POF")
    magic, mask = unescape(magic_field), unescape(mask_field)
    assert len(magic) == len(mask) == 20
    assert magic[:4] == b"\x7fELF" and magic[4] == 2 and struct.unpack("<H", magic[18:20])[0] == 0xB7
    arm64_header = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + struct.pack("<HH", 3, 0xB7)  # a PIE (ET_DYN)
    x86_header = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + struct.pack("<HH", 3, 0x3E)
    assert all(a & m == b & m for a, b, m in zip(arm64_header, magic, mask, strict=True))
    assert not all(a & m == b & m for a, b, m in zip(x86_header, magic, mask, strict=True))


def test_check_arm64_tells_a_page_from_a_blank_screenshot() -> None:
    header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 800, 480)
    assert check_arm64.png_size(header + b"\x08\x06\x00\x00\x00") == (800, 480)
    assert check_arm64.png_size(b"<html>This site can't be reached</html>") is None
    assert check_arm64.MIN_PAGE_PNG > 15_000  # Chromium's error page is smaller; the board page is ~70 kB
    assert "--no-zygote" in check_arm64.CHROMIUM_EMULATION_FLAGS


def test_check_arm64_report_is_one_json_line() -> None:
    report = check_arm64.Report("bookworm")
    assert not report.passed  # no step is no pass
    report.steps += [check_arm64.Step("install", True, 812.26, "install.sh in 812 s"),
                     check_arm64.Step("demo", False, 3.0, "gamao demo exited 1")]
    line = report.to_json()
    assert "\n" not in line
    data = json.loads(line)
    assert data == {"suite": "bookworm", "passed": False, "seconds": 815.3,
                    "steps": [{"name": "install", "passed": True, "seconds": 812.3, "detail": "install.sh in 812 s"},
                              {"name": "demo", "passed": False, "seconds": 3.0, "detail": "gamao demo exited 1"}]}


def test_check_arm64_finds_the_mirror_of_this_machine(tmp_path: Path) -> None:
    deb822 = tmp_path / "debian.sources"
    deb822.write_text("Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n\n"
                      "Types: deb\nURIs: http://mirror.example/debian/\nSuites: bookworm\n")
    assert check_arm64.host_mirror([deb822]) == "http://mirror.example/debian"
    legacy = tmp_path / "sources.list"
    legacy.write_text("deb [arch=amd64] http://ftp.br.debian.org/debian bookworm main\n")
    assert check_arm64.host_mirror([tmp_path / "missing", legacy]) == "http://ftp.br.debian.org/debian"
    assert check_arm64.host_mirror([]) == "http://deb.debian.org/debian"


def test_check_arm64_needs_root_and_says_so_in_its_report(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(check_arm64.os, "geteuid", lambda: 1000)
    assert check_arm64.main(["bookworm", "--cache", str(tmp_path)]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    report = json.loads(last)
    assert report["passed"] is False and report["steps"][0]["detail"].startswith("run it as root")
    assert not any(tmp_path.iterdir())


def test_the_guide_calls_the_one_install_script_and_leaves_nothing_to_fill_in() -> None:
    guide = (ROOT / "docs" / "appliance.md").read_text()
    assert "sudo /opt/gamao/hardware/pi/install.sh" in guide
    assert "pip install" not in guide and "python3 -m venv" not in guide  # one path: the script does those
    assert "<this repository>" not in guide and "pt_PT" not in guide
    assert "pt_BR.UTF-8" in guide and "trixie" in guide and "do_overlayfs 0" in guide
    assert "the address your club was given" in guide
    for step in ("install.sh", "gamao run --check", "Controle", "Calibrar câmera", "do_boot_behaviour B4"):
        assert step in guide, step


@pytest.mark.parametrize(("reuse", "installed", "later_steps_run"),
                         [(True, True, True), (True, False, False), (False, True, False)])
def test_check_arm64_skipping_the_install_runs_the_rest_only_on_a_reused_installed_root(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reuse: bool, installed: bool, later_steps_run: bool) -> None:
    args = check_arm64.parse_args(["bookworm", "--cache", str(tmp_path), "--skip", "install",
                                   *(["--reuse"] if reuse else [])])
    checker = check_arm64.Checker(args, out=lambda _line: None)
    if installed:
        gamao = checker.root / "opt" / "gamao" / ".venv" / "bin" / "gamao"
        gamao.parent.mkdir(parents=True)
        gamao.write_text("#!/bin/sh\n")
    ran: list[str] = []
    monkeypatch.setattr(check_arm64.os, "geteuid", lambda: 0)
    for name in ("binfmt", "make_root", "copy_checkout", "install_again", "run_check", "compare_hints",
                 "frame_time", "screenshot", "demo", "tests"):
        monkeypatch.setattr(checker, name, lambda name=name: ran.append(name) or "ok")
    monkeypatch.setattr(checker, "compare", lambda *_a: ran.append("plays") or "ok")
    monkeypatch.setattr(checker, "mount", lambda: None)
    monkeypatch.setattr(checker, "unmount", lambda: None)
    report = checker.run()
    later = ["install_again", "run_check", "compare_hints", "plays", "frame_time", "screenshot", "demo", "tests"]
    assert ran == ["binfmt", "make_root", "copy_checkout", *(later if later_steps_run else [])]
    assert not report.passed  # a skipped step is never a pass
    assert [s.name for s in report.steps if not s.passed] == ["install"]


def test_check_arm64_reads_the_frame_time_bench_and_the_processor() -> None:
    """bench/bench_vision.py's lines, as it prints them, give the three figures the report sets side by side."""
    printed = ("1280x720, one core, registration + counting: ring score alone 9.85 ms/frame, with the slot judge "
               "11.58 ms/frame (in turn, 20 frames each)\n"
               "1280x720, one core (thread CPU time): registration (warp) + counting 11.43 ms/frame (warp alone "
               "2.10 ms); ArUco marker search 3.90 ms/frame\n"
               "whole pipeline (registration, warp, stillness, counting): 12.02 ms per still frame, 3.51 ms per "
               "frame while moving (not counted); with ArUco markers found every frame 14.20 ms per still frame\n")
    assert check_arm64.frame_figures(printed) == {"registration + counting": 11.43,
                                                  "whole pipeline, still frame": 12.02,
                                                  "with ArUco markers, still frame": 14.2}
    assert check_arm64.frame_figures("Traceback (most recent call last):\n") == {}
    assert check_arm64.cpu_model("processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: sse\n") == "AMD EPYC 7B13"
    assert check_arm64.cpu_model("") == "unknown processor"


def test_check_arm64_counts_a_pytest_run_test_by_test_even_when_stopped_halfway() -> None:
    printed = ("tests/core/test_a.py::test_one PASSED                                    [  1%]\n"
               "tests/core/test_a.py::test_two[3-1] FAILED                               [  2%]\n"
               "tests/core/test_a.py::test_two[3-1] ERROR                                [  2%]\n"
               "tests/core/test_b.py::test_gnubg SKIPPED (gnubg is x86 only)            [  3%]\n"
               "tests/core/test_c.py::test_slow PASSED                                   [  4%]\n"
               "ERROR tests/core/test_d.py - ModuleNotFoundError: No module named 'gnubg'\n")  # no summary: stopped
    count = check_arm64.PytestCount.parse(printed)
    assert count.summary() == "2 passed, 1 skipped, 2 failed"
    assert count.failed() == ["tests/core/test_a.py::test_two[3-1]", "tests/core/test_d.py"]
    assert check_arm64.TEST_PATHS[0] == "tests/core"
    assert check_arm64.parse_args(["bookworm"]).tests.split() == list(check_arm64.TEST_PATHS)


def _serve(folder: Path) -> tuple[Any, int]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *_a: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def test_page_shot_waits_for_the_pages_drawn_state_and_says_when_it_never_comes(tmp_path: Path) -> None:
    """hardware/pi/page_shot.py against a real headless Chromium's DevTools port: a page whose state arrives late
    (as the kiosk's first WebSocket message does) is captured only once drawn; a page that never draws fails."""
    from tests.kiosk.browser import FULL_CHROMIUM, chromium_or_skip

    chromium = chromium_or_skip(FULL_CHROMIUM)  # the Pi's browser, as page_shot.py meets it there

    def shot(*args: str) -> int:
        # Its own process, as check-arm64 runs it: a worker that already drove the page tests' Chromium has a
        # Playwright running, and a second sync Playwright in one process refuses to start.
        return subprocess.run([sys.executable, str(PI / "page_shot.py"), *args], timeout=180).returncode

    site = tmp_path / "site"
    site.mkdir()
    (site / "late.html").write_text(
        "<body style='margin:0;background:#222'><script>setTimeout(() => {"
        " document.body.style.background = '#2a6';"
        " window.__gamao = {state: {match: {id: 1}}, renders: 1, painted: 1}; }, 1500);</script></body>")
    (site / "never.html").write_text("<body><script>window.__gamao = {state: null, renders: 1, painted: 1};"
                                     "</script></body>")
    server, port = _serve(site)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        cdp = s.getsockname()[1]
    browser = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                f"--user-data-dir={tmp_path / 'profile'}", f"--remote-debugging-port={cdp}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{cdp}/json/version", timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        out = tmp_path / "late.png"
        assert shot("--cdp", f"http://127.0.0.1:{cdp}", "--url", f"http://127.0.0.1:{port}/late.html",
                    "--out", str(out), "--timeout", "60") == 0
        assert check_arm64.png_size(out.read_bytes()) == (800, 480)
        raw = out.read_bytes()
        idat = b"".join(raw[i + 8:i + 8 + int.from_bytes(raw[i:i + 4], "big")]
                        for i in range(8, len(raw) - 12) if raw[i + 4:i + 8] == b"IDAT")
        first_row = zlib.decompress(idat)[1:4]  # filter byte, then the top-left pixel (no filter on row 0 here)
        assert first_row == bytes([0x22, 0xAA, 0x66]), "shot before the late state was drawn"
        assert shot("--cdp", f"http://127.0.0.1:{cdp}", "--url", f"http://127.0.0.1:{port}/never.html",
                    "--out", str(tmp_path / "never.png"), "--timeout", "3") == 1
        assert not (tmp_path / "never.png").exists()
    finally:
        browser.terminate()
        browser.wait(30)
        server.shutdown()


def test_check_arm64_copies_the_checkout_as_git_pull_would(tmp_path: Path) -> None:
    """A reused root gets the checkout again: a file the last copy brought and the checkout no longer has goes,
    files the appliance made there (its .venv, caches) stay."""
    checker = check_arm64.Checker(check_arm64.parse_args(["bookworm", "--cache", str(tmp_path)]),
                                  out=lambda _line: None)
    dest = checker.root / "opt" / "gamao"
    moved = dest / "core" / "referee" / "moved_away.py"
    moved.parent.mkdir(parents=True)
    moved.write_text("# the last copy's file\n")
    made = dest / ".venv" / "bin" / "gamao"
    made.parent.mkdir(parents=True)
    made.write_text("#!/bin/sh\n")
    older = dest / "core" / "referee" / "variants.py"  # brought by a copy from before the list was kept
    older.write_text("# moved away two copies ago\n")
    kept = [dest / "gamao.egg-info" / "PKG-INFO", dest / ".mypy_cache" / "CACHEDIR.TAG",
            dest / "core" / "__pycache__" / "x.cpython-311.pyc", dest / "journal.sqlite"]
    for path in kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("made by the appliance\n")
    (dest / ".gamao-copied").write_text("core/referee/moved_away.py\nREADME.md\n")
    detail = checker.copy_checkout()
    assert not moved.exists() and not older.exists() and made.exists()
    assert all(path.exists() for path in kept)  # git ignores them: a pull leaves them
    assert (dest / "README.md").read_text() == (ROOT / "README.md").read_text()
    assert (dest / "hardware" / "pi" / "install.sh").is_file()
    assert detail.endswith("2 gone since the last copy removed"), detail
    assert "core/referee/moved_away.py" not in (dest / ".gamao-copied").read_text()
