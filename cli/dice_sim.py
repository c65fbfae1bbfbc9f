"""`gamao dice-sim`: a pseudo-terminal that behaves like the dice unit, for the demo and for trying things.

It runs the unit's own firmware logic (hardware/firmware/dicecore.py) behind a real pty and keeps a stable
symlink to it (``--link``), so `gamao dice --port LINK` and the kiosk find it again after `u` / `p`
(unplug / plug in). Commands come from ``--script FILE``, ``--rolls "63; 52c; wait 1"`` or the keyboard.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from cli import fail

NAME = "dice-sim"
HELP = "simulate the dice unit on a pseudo-terminal (scripted or from the keyboard)"
DEFAULT_LINK = "/tmp/gamao-dice-sim"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--link", default=DEFAULT_LINK, help=f"stable path to the pty (default {DEFAULT_LINK})")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--script", metavar="FILE", help="commands, one per line (see below)")
    source.add_argument("--rolls", metavar="COMMANDS", help='commands separated by ";", e.g. "63; 52c; wait 1; u; p"')
    parser.add_argument("--unit", default="SIM1", help="unit id the simulator reports (default SIM1)")
    parser.add_argument("--stay", action="store_true",
                        help="keep running after the script (default: exit once every roll is acknowledged)")
    parser.add_argument("--ack-timeout", type=float, default=30.0, metavar="S",
                        help="after the script, wait this long for acknowledgements (default 30)")
    parser.epilog = ("commands: 63 (roll 6 and 3), 6c3 / 63c (die 1 / die 2 cocked), r (random roll), "
                     "b NAME (button), u (unplug), p (plug in), f / t (freeze / thaw), wait S, q (quit)")


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.sim import DiceSimulator
    from firmware_bridge.simscript import HELP_LINE, ScriptError, parse_command, parse_script, perform

    try:
        if args.script is not None:
            steps = parse_script(Path(args.script).read_text(encoding="utf-8"), args.script)
        elif args.rolls is not None:
            steps = parse_script(args.rolls, "--rolls")
        else:
            steps = None
    except OSError as exc:
        return fail("dice-sim", f"cannot read the script: {exc}")
    except ScriptError as exc:
        return fail("dice-sim", str(exc))
    link = Path(args.link)
    if link.exists() and not link.is_symlink():
        return fail("dice-sim", f"{link} exists and is not a symlink; choose another --link")
    stop = threading.Event()
    sim = DiceSimulator(link, unit_id=args.unit)
    try:
        sim.start()
    except OSError as exc:
        return fail("dice-sim", f"cannot create the pseudo-terminal at {link}: {exc}")
    try:
        print(f"dice unit simulated at {sim.port} (-> {sim.pty_name})", flush=True)
        if steps is None:
            print(HELP_LINE, flush=True)
            for line in sys.stdin:
                try:
                    step = parse_command(line)
                except ScriptError as exc:
                    print(exc, flush=True)
                    continue
                if step is None:
                    continue
                print(perform(sim, step, stop), flush=True)
                if step.action == "quit":
                    break
            return 0
        for step in steps:
            print(perform(sim, step, stop), flush=True)
            if step.action == "quit":
                return 0
        if args.stay:
            stop.wait()
        elif not sim.wait_until(lambda: sim.pending() == 0, args.ack_timeout):
            print(f"gamao dice-sim: {sim.pending()} frame(s) still unacknowledged after {args.ack_timeout:g} s; "
                  f"is `gamao dice --port {sim.port}` (or the kiosk) running?", file=sys.stderr)
            return 1
        print("every roll acknowledged", flush=True)
        return 0
    finally:
        sim.stop()
