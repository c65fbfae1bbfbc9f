"""The director's own cost, without a broker: one board's 3-point match (712 messages: events and verdicts, signed
when this checkout signs) handed to the director's worker, then the page's reads.

    .venv/bin/python bench/bench_club_intake.py [--code OTHER_CHECKOUT]

Measured: milliseconds per message taken in (authenticate, archive, referee), the same with the page told after
every message (the director's entries made again), and one GET /api/boards and one /ws push (details) with 20
boards. `--code DIR` runs another checkout (before/after); a machine's load changes these figures less than the
20-process bench_club.py's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", metavar="DIR", help="run the director of this checkout")
    args = parser.parse_args()
    code = Path(args.code).resolve() if args.code else ROOT
    sys.path.insert(0, str(code))
    from club.director import Director
    from club.publisher import dumps
    from club.replay import feed
    from core.referee import Referee
    from kiosk.demo import DemoRunner
    from kiosk.service import RefereeService

    signed = (code / "club" / "auth.py").exists()
    tmp = Path(tempfile.mkdtemp(prefix="gamao-intake-"))
    svc = RefereeService(tmp / "board" / "journal.sqlite")
    runner = DemoRunner(svc, match="3pt", speed=1e6, vision=False, dice=False, say=lambda t: None)
    runner.start()
    runner.done.wait(120)
    runner.close()
    events = list(svc.journal.events(svc.journal.matches()[-1]["id"]))
    names = [f"mesa{i:02d}" for i in range(1, 21)]
    keys: dict[str, bytes] = {}
    if signed:
        from club.auth import sign
        from club.pairing import Pairing

        pairing = Pairing(tmp / "director")
        keys = {n: bytes.fromhex(pairing.pair(n, "porto")["key"]) for n in names}

    def messages(board: str) -> list[tuple[str, bytes]]:
        out, ref, seq = [], Referee(), 0
        for i, ev in enumerate(events):
            verdicts = feed(ref, ev)
            for kind, body in (("events", {"match": 1, "index": i, "event": ev, "sent": 0}),
                               ("verdicts", {"match": 1, "index": i, "verdicts": verdicts, "ruled": time.time(),
                                             "sent": 0})):
                topic = f"gamao/porto/{board}/{kind}"
                body = {"board": board, "club": "porto", **body}
                if signed:
                    seq += 1
                    out.append((topic, sign(topic, dumps({**body, "seq": seq}), keys[board])))
                else:
                    out.append((topic, dumps(body)))
        return out

    report = {"code": str(code), "signed": signed, "messages_per_board": 2 * len(events)}
    for notify, label in ((False, "intake_ms_per_message"), (True, "intake_with_page_ms_per_message")):
        d = Director(None, tmp / f"director-{label}", club="porto",
                     **({"pairing": pairing} if signed else {}))  # type: ignore[arg-type]
        msgs = messages("mesa01")
        intake = getattr(d, "intake", d)  # the intake apart from the views since issue 35
        tell = getattr(intake, "notify", None) or intake._notify
        t0 = time.perf_counter()
        for topic, payload in msgs:
            intake._handle(topic, payload)
            if notify and intake._dirty:
                tell()
        report[label] = round((time.perf_counter() - t0) / len(msgs) * 1000, 3)
        d.archive.close()
    d = Director(None, tmp / "director-20", club="porto", **({"pairing": pairing} if signed else {}))  # type: ignore[arg-type]
    intake = getattr(d, "intake", d)
    for n in names:
        for topic, payload in messages(n)[:200]:
            intake._handle(topic, payload)
    if intake._dirty:
        (getattr(intake, "notify", None) or intake._notify)()
    for what, call in (("api_boards_ms_20_boards", d.boards), ("ws_details_ms_20_boards", d.details)):
        t0 = time.perf_counter()
        for _ in range(50):
            call()
        report[what] = round((time.perf_counter() - t0) / 50 * 1000, 3)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
