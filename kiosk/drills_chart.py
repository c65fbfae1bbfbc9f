"""A student's progress as SVG (issue 38): accuracy per week for each kind of drill (lines), the cards in each
Leitner box (bars) and the PR of recorded matches (a line). Drawn here, no library: a few lines and bars."""

from __future__ import annotations

from html import escape
from typing import Any

KIND_COLOURS = {"pips": "#1f77b4", "mistake": "#d62728", "opening": "#2ca02c", "setup": "#9467bd", "cube": "#ff7f0e",
                "bearoff": "#8c564b"}
KIND_WORDS = {"pips": ("Contagem de casas", "Pip count"), "mistake": ("Meus erros", "My mistakes"),
              "opening": ("Aberturas", "Openings"), "setup": ("Montar posição", "Set-up"),
              "cube": ("Cubo nas corridas", "Cube in races"), "bearoff": ("Retiradas", "Bear-offs")}


def _poly(points: list[tuple[float, float]], colour: str) -> str:
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>' for x, y in points)
    return f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="3"/>{dots}'


def progress_svg(progress: dict[str, Any], lang: str = "pt", width: int = 760, height: int = 300) -> str:
    pt = lang != "en"
    left, right, top, bottom = 48, width - 225, 30, height - 40
    kinds = progress.get("kinds", {})
    matches = progress.get("matches", [])
    weeks = max([w["week"] for rows in kinds.values() for w in rows] + [m["week"] for m in matches] + [1])
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" font-family="DejaVu Sans, sans-serif" font-size="14" role="img">',
           f'<rect width="{width}" height="{height}" fill="#fff"/>',
           f'<text x="{left}" y="20" font-weight="bold">{"Acertos por semana" if pt else "Accuracy per week"}</text>']
    for frac in (0, 0.5, 1):
        y = bottom - frac * (bottom - top)
        out.append(f'<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ccc"/>'
                   f'<text x="{left - 6}" y="{y + 5:.1f}" text-anchor="end">{int(frac * 100)}%</text>')
    for w in range(weeks + 1):
        x = left + w * (right - left) / weeks
        out.append(f'<text x="{x:.1f}" y="{bottom + 20}" text-anchor="middle">{"sem." if pt else "wk"} {w + 1}</text>')
    legend_y = top
    for kind, rows in sorted(kinds.items()):
        colour = KIND_COLOURS.get(kind, "#555")
        pts = [(left + r["week"] * (right - left) / weeks, bottom - r["accuracy"] * (bottom - top)) for r in rows]
        out.append(_poly(pts, colour))
        words = KIND_WORDS.get(kind, (kind, kind))[0 if pt else 1]
        done = sum(r["answers"] for r in rows)
        out.append(f'<rect x="{right + 14}" y="{legend_y}" width="14" height="14" fill="{colour}"/>'
                   f'<text x="{right + 34}" y="{legend_y + 12}">{escape(words)} ({done})</text>')
        legend_y += 24
    # the PR of the student's recorded matches (lower is better), on its own scale at the right of the plot
    if matches:
        top_pr = max(max(m["pr"] for m in matches), 1.0)
        pts = [(left + m["week"] * (right - left) / weeks, bottom - m["pr"] / top_pr * (bottom - top)) for m in matches]
        out.append(_poly(pts, "#555").replace('stroke-width="3"', 'stroke-width="2" stroke-dasharray="6 4"'))
        out.append(f'<text x="{right - 4}" y="{top + 12}" text-anchor="end" fill="#555">'
                   f'PR {top_pr:.1f}'.replace(".", "," if pt else ".") + "</text>")
        out.append(f'<rect x="{right + 14}" y="{legend_y + 6}" width="14" height="3" fill="#555"/>'
                   f'<text x="{right + 34}" y="{legend_y + 12}">{"PR das partidas" if pt else "Match PR"} '
                   f'({len(matches)})</text>')
        legend_y += 24
    # the Leitner boxes: how many cards wait in each, and how many are learnt
    boxes = progress.get("boxes", {})
    most = max([*boxes.values(), progress.get("learnt", 0), 1])
    bx = right + 14
    by = legend_y + 24
    out.append(f'<text x="{bx}" y="{by}" font-weight="bold">{"Caixas" if pt else "Boxes"}</text>')
    cells = [*(str(b) for b in sorted(boxes)), "✓"]
    values = [*(boxes[b] for b in sorted(boxes)), progress.get("learnt", 0)]
    base = height - 40
    room = base - by - 20
    for i, (label, n) in enumerate(zip(cells, values, strict=True)):
        h = room * n / most
        x = bx + i * 26
        out.append(f'<rect x="{x}" y="{base - h:.1f}" width="20" height="{h:.1f}" fill="#d62728" opacity="0.7"/>'
                   f'<text x="{x + 10}" y="{base + 16}" text-anchor="middle">{label}</text>'
                   f'<text x="{x + 10}" y="{base - h - 3:.1f}" text-anchor="middle" font-size="11">{n}</text>')
    out.append("</svg>")
    return "".join(out)
