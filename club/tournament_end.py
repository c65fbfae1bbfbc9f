"""The night's end (issue 39): the results, every match's .mat in one archive, the rating changes, the bracket as
a picture.

``export(tournament, data_dir, out_dir)`` writes into ``out_dir``:

- ``<name>-results.json``: the tournament as ``tournament show --json`` gives it, with ``ratings`` (below);
- ``<name>-results.csv``: one line a match (id, bracket, round, light, dark, winner, score, board, source);
- ``<name>-matches.zip``: the .mat of every match played on a board (from the director's archive, as
  ``GET /api/results/.../N.mat`` gives it), named ``<id>-<light>-<dark>.mat``, and ``README.txt`` naming the
  matches entered by hand (no board record);
- ``<name>-ratings.json``: each player's FIBS rating before and after the tournament's matches, in the order they
  ended (club/rating.py, from the ratings the players had when the tournament was drawn; the club's own list
  moves with the board matches in the archive as before);
- ``<name>-bracket.svg``: the brackets.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from html import escape
from pathlib import Path
from typing import Any

from club.archive import FILE, Archive
from club.rating import START, change
from core.match.brackets import Tournament
from core.match.formats.mat import write_mat
from core.match.formats.variant import is_variant_record, write_variant
from core.referee.record import to_match_record
from core.referee.table import TableReferee

BOX_W, BOX_H, GAP_X, GAP_Y, BAND_GAP = 230, 46, 36, 10, 40
TITLES = {"main": "Chave principal", "consolation": "Consolação", "last_chance": "Última chance", "final": "Final"}


def _safe(text: str) -> str:
    return re.sub(r"[^\w.-]+", "_", text).strip("_")[:60] or "torneio"


def rating_changes(t: Tournament) -> dict[str, Any]:
    """FIBS changes match by match (in the order results were entered), from the ratings at the draw."""
    create = t.ops[0]
    ratings = {p: float(create.get("ratings", {}).get(p, START)) for p in t.s.players}
    experience = dict.fromkeys(t.s.players, 0)
    before = dict(ratings)
    rows = []
    done = {m["id"]: m for m in t.view()["matches"] if m["status"] == "done"}
    seen: set[str] = set()
    for op in t.ops:
        mid = op.get("match")
        if op.get("op") != "result" or mid is None or mid not in done or mid in seen:
            continue
        seen.add(mid)
        m = done[mid]
        winner = m["winner"]
        loser = m["dark"] if winner == m["light"] else m["light"]
        dw, dl = change(ratings[winner], ratings[loser], m["length"], experience[winner], experience[loser])
        ratings[winner] += dw
        ratings[loser] += dl
        experience[winner] += m["length"]
        experience[loser] += m["length"]
        rows.append({"match": mid, "winner": winner, "loser": loser, "winner_change": round(dw, 2),
                     "loser_change": round(dl, 2)})
    players: list[dict[str, Any]] = [{"player": p, "before": round(before[p], 2), "after": round(ratings[p], 2),
                "change": round(ratings[p] - before[p], 2)} for p in t.s.players]
    players.sort(key=lambda r: -r["change"])
    return {"players": players, "matches": rows}


def _mat(archive: Archive, club: str, board: str, match: int) -> str | None:
    ref = TableReferee()
    seen = 0
    for event in archive.events(club, board, match):
        try:
            ref.feed(event)
        except Exception:  # a referee bug on an archived event: the record stops there, as the director's does
            break
        seen += 1
    if not seen:
        return None
    record = to_match_record(ref)
    return write_variant(record) if is_variant_record(record) else write_mat(record)


def export(t: Tournament, data_dir: Path, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = _safe(t.name)
    view = t.view()
    ratings = rating_changes(t)
    written = []
    path = out_dir / f"{stem}-results.json"
    path.write_text(json.dumps({**view, "ratings": ratings}, ensure_ascii=False, indent=1), encoding="utf-8")
    written.append(path)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["id", "bracket", "round", "light", "dark", "winner", "score", "board", "source"])
    for m in view["matches"]:
        w.writerow([m["id"], m["bracket"], m["round"], m["light"] or "", m["dark"] or "", m["winner"] or "",
                    m["score"] or "", m["board"] or "", m.get("source") or ""])
    path = out_dir / f"{stem}-results.csv"
    path.write_text(buf.getvalue(), encoding="utf-8")
    written.append(path)
    path = out_dir / f"{stem}-matches.zip"
    archive = Archive(data_dir / FILE) if (data_dir / FILE).is_file() else None
    by_hand = []
    try:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for m in view["matches"]:
                if m["status"] != "done":
                    continue
                result = t.s.results.get(m["id"], {})
                text = None
                if archive is not None and result.get("board_match") is not None:
                    text = _mat(archive, str(result.get("club")), str(result.get("board")),
                                int(result["board_match"]))
                if text is None:
                    by_hand.append(f"{m['id']}: {m['light']} x {m['dark']}, {m['winner']} won {m['score'] or ''} "
                                   f"({result.get('source', 'hand')}: no board record)")
                    continue
                z.writestr(f"{m['id']}-{_safe(m['light'])}-{_safe(m['dark'])}.mat", text)
            z.writestr("README.txt", f"{t.name}: the .mat of every match played on a board.\n"
                       + ("Entered by hand, without a record:\n" + "\n".join(by_hand) + "\n" if by_hand else ""))
    finally:
        if archive is not None:
            archive.close()
    written.append(path)
    path = out_dir / f"{stem}-ratings.json"
    path.write_text(json.dumps(ratings, ensure_ascii=False, indent=1), encoding="utf-8")
    written.append(path)
    path = out_dir / f"{stem}-bracket.svg"
    path.write_text(bracket_svg(t), encoding="utf-8")
    written.append(path)
    return written


def bracket_svg(t: Tournament) -> str:
    """Each bracket a band of columns, one a round; a box a match: both players, the winner in bold, the score."""
    view = t.view()
    bands: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for m in view["matches"]:
        bands.setdefault(m["bracket"], {}).setdefault(m["round"], []).append(m)
    parts = []
    y = 70
    width = 600
    for bracket, rounds in bands.items():
        tall = max(len(ms) for ms in rounds.values())
        title = TITLES.get(bracket, bracket) if t.format in ("double_elimination", "consolation", "last_chance",
                                                             "progressive") else "Rodadas"
        parts.append(f'<text x="20" y="{y}" class="band">{escape(title)}</text>')
        y += 14
        for col, rnd in enumerate(sorted(rounds)):
            x = 20 + col * (BOX_W + GAP_X)
            width = max(width, x + BOX_W + 20)
            parts.append(f'<text x="{x}" y="{y + 14}" class="round">{"Rodada"} {rnd}</text>')
            offset = (tall - len(rounds[rnd])) * (BOX_H + GAP_Y) / 2
            for i, m in enumerate(rounds[rnd]):
                by = y + 24 + offset + i * (BOX_H + GAP_Y)
                parts.append(_box(m, x, by))
        y += 24 + tall * (BOX_H + GAP_Y) + BAND_GAP
    champion = view["champion"]
    head = f'{escape(t.name)} — {escape(t.format)}' + (f' — campeão: {escape(champion)}' if champion else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}" '
            f'font-family="DejaVu Sans, sans-serif">'
            '<style>.band{font-size:22px;font-weight:bold;fill:#222}.round{font-size:13px;fill:#555}'
            '.p{font-size:14px;fill:#222}.w{font-weight:bold}.s{font-size:13px;fill:#444}.id{font-size:10px;fill:#888}'
            '</style><rect width="100%" height="100%" fill="#fff"/>'
            f'<text x="20" y="36" font-size="26" font-weight="bold">{head}</text>{"".join(parts)}</svg>')


def _box(m: dict[str, Any], x: float, y: float) -> str:
    score = (m["score"] or "").split("-") if m["score"] else ["", ""]
    rows = []
    for k, side in enumerate(("light", "dark")):
        name = m[side] or "—"
        cls = "p w" if m["winner"] and m["winner"] == m[side] else "p"
        rows.append(f'<text x="{x + 8}" y="{y + 18 + k * 20}" class="{cls}">{escape(name[:24])}</text>'
                    f'<text x="{x + BOX_W - 8}" y="{y + 18 + k * 20}" class="s" text-anchor="end">'
                    f'{escape(score[k])}</text>')
    return (f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="#f4f1ea" stroke="#999"/>'
            f'<text x="{x + BOX_W - 8}" y="{y - 2}" class="id" text-anchor="end">{escape(m["id"])}'
            f'{" · " + escape(str(m["board"])) if m["board"] else ""}</text>{"".join(rows)}')
