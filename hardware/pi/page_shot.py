"""The kiosk page's screenshot from an already running Chromium, once the page has drawn the match's state.

    python hardware/pi/page_shot.py --cdp http://127.0.0.1:PORT --url http://127.0.0.1:8000/ --out page.png

hardware/pi/check-arm64 runs it with this machine's .venv (Playwright is among the test extras) against the arm64
Chromium it started in the emulated root with --remote-debugging-port: the page is loaded, laid out, painted and
captured by the arm64 browser; Playwright only sends it the DevTools commands. Chromium's own `--screenshot`
cannot be used for this page: it shoots when the load is over (or a virtual-time budget ran out), and the kiosk
page gets its state over a WebSocket afterwards, so the shot showed an empty board whenever emulation was slow.
Here the shot waits until the page has rendered a state and painted it (window.__gamao, kiosk/static/app.js).

Exit 0 with the PNG written; 1 with the reason on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# a state with a match in it has been rendered, and that render painted
DRAWN = ("() => { const g = window.__gamao; return Boolean(g && g.state && (g.state.match || g.state.position)"
         " && g.painted === g.renders); }")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cdp", required=True, help="the running Chromium's DevTools address, http://127.0.0.1:PORT")
    p.add_argument("--url", required=True, help="the kiosk page")
    p.add_argument("--out", type=Path, required=True, help="where the PNG goes")
    p.add_argument("--width", type=int, default=800)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--timeout", type=float, default=600, help="seconds for each stage (emulation is slow)")
    args = p.parse_args(argv)
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        print("page_shot: Playwright for Python is not installed here: pip install -e '.[test]'", file=sys.stderr)
        return 1
    ms = args.timeout * 1000
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.connect_over_cdp(args.cdp, timeout=ms)
            context = browser.new_context(viewport={"width": args.width, "height": args.height})
            page = context.new_page()
            page.set_default_timeout(ms)
            page.goto(args.url, wait_until="load", timeout=ms)
            page.wait_for_function(DRAWN, timeout=ms, polling=1000)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out), timeout=ms)
            context.close()
    except Error as exc:
        print(f"page_shot: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
