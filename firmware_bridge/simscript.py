"""The little language that drives a simulated dice unit, from a file, an argument or the keyboard.

One command per line (or separated by ``;``); ``#`` starts a comment:

    63          roll 6 and 3            6c3 / 63c / 6c3c   the same with die 1 / die 2 / both cocked
    r           a random roll           b NAME             the unit's button NAME (e.g. b end_turn)
    u           unplug the cable        p                  plug it back in
    f           freeze (hung unit)      t                  thaw
    wait 0.5    pause 0.5 s             q                  quit
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from firmware_bridge.sim import DiceSimulator

_ROLL = re.compile(r"([1-6])(c?)([1-6])(c?)")
_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,24}")

HELP_LINE = ("type a roll like 63 or 52c (die 2 cocked), r (random), b end_turn (a button), "
             "u (unplug), p (plug in), f/t (freeze/thaw), wait 1, q (quit)")


class ScriptError(ValueError):
    """A command the simulator does not understand; the message quotes it and shows the right form."""


@dataclass(frozen=True)
class Step:
    action: str  # roll | random | button | unplug | plug | freeze | thaw | wait | quit
    dice: tuple[int, int] = (0, 0)
    cocked: tuple[bool, bool] = (False, False)
    name: str = ""
    seconds: float = 0.0


def parse_command(text: str, where: str = "") -> Step | None:
    """Parse one command; None for a blank line or a comment."""
    text = text.split("#", 1)[0].strip()
    if not text:
        return None
    words = text.split()
    head = words[0].lower()
    simple = {"r": "random", "u": "unplug", "p": "plug", "f": "freeze", "t": "thaw", "q": "quit"}
    if len(words) == 1 and head in simple:
        return Step(simple[head])
    match = _ROLL.fullmatch(head)
    if match and len(words) == 1:
        d1, c1, d2, c2 = match.groups()
        return Step("roll", (int(d1), int(d2)), (c1 == "c", c2 == "c"))
    if head == "b" and len(words) == 2 and _NAME.fullmatch(words[1]):
        return Step("button", name=words[1])
    if head == "wait" and len(words) == 2:
        try:
            seconds = float(words[1])
        except ValueError:
            seconds = -1.0
        if 0 <= seconds <= 3600:
            return Step("wait", seconds=seconds)
    raise ScriptError(f"{where}cannot read {text!r}: {HELP_LINE}")


def parse_script(text: str, source: str = "script") -> list[Step]:
    steps = []
    for number, line in enumerate(text.replace(";", "\n").splitlines(), start=1):
        step = parse_command(line, f"{source} line {number}: ")
        if step is not None:
            steps.append(step)
    return steps


def perform(sim: DiceSimulator, step: Step, stop: threading.Event) -> str:
    """Do one step on the simulator; returns a short description for the operator."""
    if step.action == "roll":
        d1, d2, seq = sim.roll(step.dice[0], step.dice[1], cocked=step.cocked)
        return _rolled(d1, d2, seq, step.cocked)
    if step.action == "random":
        d1, d2, seq = sim.roll()
        return _rolled(d1, d2, seq, (False, False))
    if step.action == "button":
        seq = sim.button(step.name)
        return f"button {step.name} (seq {seq})" if seq is not None else "button refused: queue full"
    if step.action == "unplug":
        sim.unplug()
        return "unplugged"
    if step.action == "plug":
        sim.replug()
        return f"plugged in at {sim.port}"
    if step.action == "freeze":
        sim.frozen = True
        return "frozen (the unit says nothing)"
    if step.action == "thaw":
        sim.frozen = False
        return "running again"
    if step.action == "wait":
        stop.wait(step.seconds)
        return f"waited {step.seconds:g} s"
    return "quit"


def _rolled(d1: int, d2: int, seq: int | None, cocked: tuple[bool, bool]) -> str:
    if seq is None:
        return "roll refused: 16 frames wait for acknowledgement"
    marks = "".join(f" (die {i + 1} cocked)" for i in range(2) if cocked[i])
    return f"rolled {d1}-{d2}{marks} (seq {seq})"
