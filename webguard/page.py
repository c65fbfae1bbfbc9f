"""One way to write a page's head (issue 35): the lines every page of both servers shares are written here once.

A page's file (kiosk/static/*.html, club/static/*.html) holds only its own head's lines (its title, style sheets and
scripts) and `</head>`, then its body; `page_reply` puts `HEAD` (doctype, language, charset, viewport, no icon to
fetch) before it. Never cached without asking: the browser asks again at each load (no-cache) and is told 304,
without the body, while its copy's tag is the page's.

A page whose script or style sheet did not load is loaded again a second later (the head's one script, before the
page's own): Chromium ends the requests still waiting for a connection (beyond its 6 per host) with
ERR_NETWORK_CHANGED when it hears that the machine's network changed (an interface or address: the Pi's Wi-Fi or
DHCP as the kiosk's browser starts, containers; here, the PIN tests' bridge and veth pairs removed from the
machine's namespace, before tests/kiosk/netns.py moved them into one of their own: a probe page's queued requests to
127.0.0.1 failed so within the same 3 s, 30 of them), and a module of the page lost so left the screen without its
script for good, never drawing a state (issue 35: the page tests' failure seen alone in whole runs; twice in 19 runs
of six page-test files at load 20-27; tests/kiosk/test_page_reload.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

HEAD = """<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<script>addEventListener("error", (e) => {
  const lost = e.target;
  if (!(lost instanceof HTMLScriptElement || lost instanceof HTMLLinkElement) || window.__gamaoReload) return;
  window.__gamaoReload = true;
  console.warn(`${lost.src || lost.href} did not load: the page loads again`);
  setTimeout(() => location.reload(), 1000);
}, true);</script>
"""


def page_text(file: Path) -> str:
    """The whole page: the shared head, then the file's own head and body."""
    return HEAD + file.read_text(encoding="utf-8")


def page_reply(file: Path, request: Request) -> Response:
    """GET of one page (read at each request: a new version shows at the next load)."""
    text = page_text(file)
    tag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    asked = request.headers.get("if-none-match") or ""
    if tag in [t.strip() for t in asked.split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(text, headers=headers, media_type="text/html; charset=utf-8")
