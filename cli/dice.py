"""`gamao dice --port PATH [--json]`: print what the bridge receives from the dice unit, as it arrives.

JSON lines (``--json``) are the bridge's events, e.g. ``{"event": "roll", "seq": 7, "dice": [6, 3],
"cocked": [false, false]}``; without it, one readable line per event. Runs until Ctrl-C, ``--count`` rolls
or ``--seconds``.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
from typing import Any

from cli import fail

NAME = "dice"
HELP = "show the rolls, buttons and link state the dice unit reports"
DEFAULT_PORT = "/dev/gamao-dice"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", default=DEFAULT_PORT,
                        help=f"serial port, best a stable path (default {DEFAULT_PORT}, made by hardware/99-gamao-dice.rules)")
    parser.add_argument("--json", action="store_true", help="one JSON object per event")
    parser.add_argument("--heartbeats", action="store_true", help="show the unit's heartbeats too")
    parser.add_argument("--wait", action="store_true", help="wait for the port to appear instead of failing")
    parser.add_argument("--count", type=int, metavar="N", help="exit after N rolls")
    parser.add_argument("--seconds", type=float, metavar="S", help="exit after S seconds")


def describe(event: dict[str, Any]) -> str:
    """One readable line for an event."""
    kind = event.get("event")
    if kind == "roll":
        d1, d2 = event["dice"]
        cocked = [i + 1 for i, c in enumerate(event["cocked"]) if c]
        tail = ""
        if cocked:
            which = " and ".join(f"die {i}" for i in cocked)
            tail = f"  ({which} cocked: roll again)"
        return f"roll #{event['seq']}: {d1}-{d2}{tail}"
    if kind == "hello":
        return f"unit {event['unit']} connected (firmware {event['firmware']}, protocol {event['protocol']})"
    if kind == "lost":
        return f"unit lost: {event.get('why', '')}"
    if kind == "reconnected":
        return "unit back"
    if kind == "rejected":
        return f"rejected: {event['why']}"
    if kind == "button":
        side = f" ({event['side']})" if "side" in event else ""
        return f"button {event['name']}{side}"
    if kind == "unit_error":
        return f"unit error {event['code']}: {event['text']}"
    if kind == "heartbeat":
        battery = "mains" if event["battery"] is None else f"battery {event['battery']}%"
        return f"heartbeat: up {event['uptime_ms'] / 1000:.1f} s, {battery}"
    return json.dumps(event)


def check_port(path: str) -> str | None:
    """A plain-words problem with the port, or None when it can be opened."""
    if not os.path.exists(path):
        return (f"no such port: {path}. Plug the dice unit in (the udev rule hardware/99-gamao-dice.rules makes "
                f"/dev/gamao-dice), check `ls -l /dev/serial/by-id/`, or start a simulated unit with "
                f"`gamao dice-sim` and pass its path; --wait waits for the port to appear")
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except PermissionError:
        return (f"no permission to open {path}: add yourself to the dialout group "
                f"(`sudo usermod -aG dialout $USER`, then log in again) or install hardware/99-gamao-dice.rules")
    except OSError as exc:
        return f"cannot open {path}: {exc.strerror}"
    try:
        if not os.isatty(fd):
            return f"{path} is not a serial port (a terminal device); give the dice unit's port, e.g. /dev/gamao-dice"
    finally:
        os.close(fd)
    return None


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.link import DiceLink

    if args.count is not None and args.count < 1:
        return fail("dice", "--count must be 1 or more")
    if not args.wait:
        problem = check_port(args.port)
        if problem is not None:
            return fail("dice", str(problem))
    done = threading.Event()
    rolls = 0
    lock = threading.Lock()

    def show(event: dict[str, Any]) -> None:
        nonlocal rolls
        with lock:
            if done.is_set():
                return
            line = json.dumps(event) if args.json else describe(event)
            try:
                print(line, flush=True)
            except BrokenPipeError:
                done.set()
                return
            if event.get("event") == "roll":
                rolls += 1
                if args.count is not None and rolls >= args.count:
                    done.set()

    with DiceLink(args.port, show, heartbeats=args.heartbeats):
        done.wait(args.seconds)
    return 0
