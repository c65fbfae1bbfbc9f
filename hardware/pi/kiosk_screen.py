"""The kiosk screen under labwc (Raspberry Pi OS's Wayland compositor), written by hardware/pi/install.sh.

    python3 hardware/pi/kiosk_screen.py --home /home/pi [--rotate 180] [--config /etc/gamao/gamao.toml]

- ``~/.config/labwc/autostart``: one marked block (replaced on every run, the rest of the file kept) that
  turns the screen when asked, waits for the kiosk's service and keeps Chromium full screen on the page with
  Wayland's own backend (``--ozone-platform=wayland``), touch events, no first-run prompts, error bubbles,
  pinch-zoom or swipe-back. A rotation given once is kept by later runs that do not give one.
- ``~/.config/labwc/environment``: ``XCURSOR_THEME=gamao-hidden``, a cursor theme whose every cursor is one
  transparent pixel (written to ``ICONS/gamao-hidden``), so no pointer shows over the page.
- ``~/.config/labwc/rc.xml``: a ``<touch>`` element when there is none, so touches reach Chromium as touches.
  Screen blanking is turned off by install.sh with raspi-config (Raspberry Pi OS's labwc blanks through
  swayidle only when raspi-config turned it on; plain labwc never blanks).

Run twice, it writes the same bytes. Standard library only (it runs before the venv may exist).
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
import tomllib
from pathlib import Path

BEGIN = "# >>> gamao kiosk (written by hardware/pi/install.sh; edits inside are replaced) >>>"
END = "# <<< gamao kiosk <<<"
THEME = "gamao-hidden"
ROTATIONS = ("0", "90", "180", "270")
# Every cursor name Chromium and wlroots ask for, as far as a touch kiosk can meet them.
CURSOR_NAMES = ("default", "left_ptr", "pointer", "hand1", "hand2", "text", "xterm", "wait", "watch", "progress",
                "left_ptr_watch", "crosshair", "cross", "not-allowed", "grab", "grabbing", "move", "fleur",
                "col-resize", "row-resize", "all-scroll", "context-menu", "help", "copy", "alias", "no-drop",
                "n-resize", "s-resize", "e-resize", "w-resize", "ne-resize", "nw-resize", "se-resize",
                "sw-resize", "ew-resize", "ns-resize", "nesw-resize", "nwse-resize", "top_side", "bottom_side",
                "left_side", "right_side", "top_left_corner", "top_right_corner", "bottom_left_corner",
                "bottom_right_corner", "sb_h_double_arrow", "sb_v_double_arrow", "zoom-in", "zoom-out")
CHROMIUM_FLAGS = ("--kiosk --ozone-platform=wayland --touch-events=enabled --noerrdialogs --disable-infobars "
                  "--no-first-run --disable-session-crashed-bubble --disable-pinch --overscroll-history-navigation=0 "
                  "--disable-features=TranslateUI --check-for-update-interval=31536000 --password-store=basic")


def autostart_block(port: int = 8000, rotate: str = "0") -> str:
    """The marked block for ~/.config/labwc/autostart (a shell script labwc runs at login)."""
    url = f"http://127.0.0.1:{port}/"
    lines = [BEGIN, f"# rotate={rotate}"]
    if rotate != "0":
        lines.append("for output in $(wlr-randr | awk '/^[^ ]/ {print $1}'); do "
                     f"wlr-randr --output \"$output\" --transform {rotate}; done")
    lines += [
        "sh -c 'browser=$(command -v chromium || command -v chromium-browser); \\",
        f"  until curl -fsS {url}api/kiosk >/dev/null 2>&1; do sleep 1; done; \\",
        f"  while true; do \"$browser\" {CHROMIUM_FLAGS} {url}; sleep 2; done' &",
        END,
    ]
    return "\n".join(lines) + "\n"


def replace_block(text: str, block: str) -> str:
    """TEXT with its marked block replaced by BLOCK (appended when it has none)."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)
    if pattern.search(text):
        return pattern.sub(lambda _m: block, text, count=1)
    if text and not text.endswith("\n"):
        text += "\n"
    return text + block


def previous_rotation(text: str) -> str:
    m = re.search(re.escape(BEGIN) + r"\n# rotate=(\d+)", text)
    return m.group(1) if m and m.group(1) in ROTATIONS else "0"


def set_environment(text: str, values: dict[str, str]) -> str:
    """labwc's environment file (KEY=value lines) with VALUES set, every other line kept."""
    lines = [ln for ln in text.splitlines() if ln.split("=", 1)[0].strip() not in values]
    lines += [f"{k}={v}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


def with_touch(text: str) -> str:
    """rc.xml with a <touch> element (left alone when it has one)."""
    if not text.strip():
        return '<?xml version="1.0"?>\n<labwc_config>\n  <touch mouseEmulation="no" />\n</labwc_config>\n'
    if "<touch" in text:
        return text
    return re.sub(r"</labwc_config>", '  <touch mouseEmulation="no" />\n</labwc_config>', text, count=1)


def xcursor_transparent() -> bytes:
    """An Xcursor file (the format libXcursor and wlroots read) holding one 1x1 transparent image."""
    header = struct.pack("<4sIII", b"Xcur", 16, 0x10000, 1)
    toc = struct.pack("<III", 0xFFFD0002, 1, 16 + 12)  # one image of nominal size 1, at byte 28
    image = struct.pack("<IIIIIIIII", 36, 0xFFFD0002, 1, 1, 1, 1, 0, 0, 50) + struct.pack("<I", 0)
    return header + toc + image


def write_theme(icons: Path) -> Path:
    cursors = icons / THEME / "cursors"
    cursors.mkdir(parents=True, exist_ok=True)
    (icons / THEME / "index.theme").write_text(f"[Icon Theme]\nName={THEME}\nComment=no visible pointer (Gamão kiosk)\n")
    data = xcursor_transparent()
    for name in CURSOR_NAMES:
        path = cursors / name
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    return icons / THEME


def port_of(config: Path) -> int:
    try:
        return int(tomllib.loads(config.read_text(encoding="utf-8")).get("port", 8000))
    except (OSError, ValueError, tomllib.TOMLDecodeError):
        return 8000


def write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--home", type=Path, required=True, help="the desktop user's home folder")
    p.add_argument("--rotate", choices=ROTATIONS, help="turn the screen (degrees); default: as last time, else 0")
    p.add_argument("--config", type=Path, default=Path("/etc/gamao/gamao.toml"), help="the kiosk's port is read here")
    p.add_argument("--icons", type=Path, default=Path("/usr/share/icons"), help="where the cursor theme goes")
    p.add_argument("--app", type=Path, help="the checkout (unused; kept for install.sh)")
    args = p.parse_args(argv)
    labwc = args.home / ".config" / "labwc"
    labwc.mkdir(parents=True, exist_ok=True)
    autostart = labwc / "autostart"
    old = autostart.read_text(encoding="utf-8") if autostart.exists() else ""
    rotate = args.rotate or previous_rotation(old)
    write_if_changed(autostart, replace_block(old, autostart_block(port_of(args.config), rotate)))
    environment = labwc / "environment"
    old_env = environment.read_text(encoding="utf-8") if environment.exists() else ""
    write_if_changed(environment, set_environment(old_env, {"XCURSOR_THEME": THEME, "XCURSOR_SIZE": "24"}))
    rc = labwc / "rc.xml"
    write_if_changed(rc, with_touch(rc.read_text(encoding="utf-8") if rc.exists() else ""))
    write_theme(args.icons)
    return 0


if __name__ == "__main__":
    sys.exit(main())
