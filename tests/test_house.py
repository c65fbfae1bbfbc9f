"""House rules the whole repository keeps (docs/DEVELOPERS' guide, issue 23).

No test, bench or script names an absolute path of one machine: data beside the checkout is found from the
checkout (tests/datasets.py) and a test that needs ../shared skips with a message when it is absent. System
programs and kernel files (/usr/games/gnubg, /usr/bin/chromium, /dev/..., /proc/..., /tmp/...) are allowed by
name of their top folder below.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: Folders and files whose text is checked (tests/data holds match records, not code).
CHECKED = ("tests", "bench", ".ci", "cli", "hardware", "dev")
SKIPPED_DIRS = {"__pycache__", ".venv", "data", "node_modules", ".pytest_cache", "build"}
#: Top folders of a system that are the same on every machine: programs, devices, kernel, scratch space.
ALLOWED = {"usr", "bin", "sbin", "lib", "lib64", "etc", "dev", "proc", "sys", "tmp", "run", "var", "boot",
           "nonexistent"}
#: Top folders where one machine keeps its own files (home folders, mounts, checkouts), and every top folder
#: of this machine's root: a path under any of them names one machine.
MACHINE = {"home", "Users", "root", "mnt", "media", "srv", "opt", "work", "workspace", "workspaces", "Volumes",
           "builds", "runner", "github", "private", "scratch", "shared", "nix", "snap", "farm"}
#: An absolute path: a slash not inside a word, a relative path, a URL or an f-string's ``{x}/...``.
PATH = re.compile(r"(?<![\w.~$}/:)\]-])/([A-Za-z][\w.-]*)(?=/|\b)")
WINDOWS = re.compile(r"\b[A-Za-z]:\\\\?(?:Users|home|work)\b")


def machine_tops() -> set[str]:
    try:
        here = {name for name in os.listdir("/") if not name.startswith(".")}
    except OSError:
        here = set()
    return (MACHINE | here) - ALLOWED


# The appliance's own places on a Pi (docs/appliance.md, hardware/pi/): the same on every Pi, not one machine's.
APPLIANCE = tuple("/" + "/".join(parts) for parts in (("opt", "gamao"), ("srv", "gamao"), ("media", "root-ro"),
                                                      ("media", "root-rw"), ("home", "pi"), ("root",)))


def absolute_paths(text: str, tops: set[str] | None = None) -> list[str]:
    """The absolute paths of one machine in ``text`` (each as the rest of its line from the slash)."""
    tops = machine_tops() if tops is None else tops
    found = []
    for line in text.splitlines():
        for m in PATH.finditer(line):
            rest = line[m.start():]
            if any(rest.startswith(a) and rest[len(a):len(a) + 1] in ("", "/", '"', "'", " ", ",", ")", "`", ":")
                   for a in APPLIANCE):
                continue
            if m.group(1) in tops:
                found.append(line[m.start():].strip()[:100])
        found += [line[m.start():].strip()[:100] for m in WINDOWS.finditer(line)]
    return found


def checked_files() -> list[Path]:
    out: list[Path] = []
    for name in CHECKED:
        top = REPO / name
        if top.is_file():
            out.append(top)
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS and not d.startswith(".")]
            out += [Path(dirpath) / f for f in filenames]
    return sorted(out)


def test_no_file_names_an_absolute_path_of_one_machine() -> None:
    files = checked_files()
    assert len(files) > 100 and REPO / "dev" in files and REPO / ".ci" / "run" in files
    tops = machine_tops()
    bad: dict[str, list[str]] = {}
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # images, fonts, compiled firmware
        if hits := absolute_paths(text, tops):
            bad[str(path.relative_to(REPO))] = hits
    assert bad == {}, ("find data beside the checkout from the checkout (tests/datasets.py: "
                       "Path(__file__).resolve().parents[..] / 'shared') and skip with a message when absent")


def _abs(*parts: str) -> str:
    """An absolute path built at run time, so that this file itself names none."""
    return "".join("/" + part for part in parts)


@pytest.mark.parametrize("text", [
    f'CORPUS = Path("{_abs("work", "wt", "shared", "matches", "corpus")}")',
    f"cd {_abs('work', 'shared')} && ls",
    f'SAMPLES = "{_abs("home", "ana", "gamao", "tests", "data")}"',
    f"open('{_abs('Users', 'ana', 'shared', 'matches', 'x.mat')}')",
    'r"C:' + '\\Users\\ana\\shared"',
])
def test_the_check_catches_a_machines_path(text: str) -> None:
    assert absolute_paths(text), text


@pytest.mark.parametrize("text", [
    'CHROMIUM = "/usr/bin/chromium"', 'Path("/usr/games/gnubg")', 'os.listdir("/proc/self/fd")',
    'serial = "/dev/ttyACM0"', 'DEFAULT_LINK = "/tmp/gamao-dice-sim"', "#!/usr/bin/env bash",
    'client.get("/api/state")', 'ws = f"ws://127.0.0.1:{port}/ws"', "https://github.com/work/shared",
    'REPO.parent / "shared"', "../shared/matches/corpus", 'f"{root}/work/x"', "docs/LAYOUT.md",
    "sudo cp hardware/99-gamao-dice.rules /etc/udev/rules.d/",
])
def test_the_check_lets_system_paths_routes_and_relative_paths_pass(text: str) -> None:
    assert absolute_paths(text) == [], text
