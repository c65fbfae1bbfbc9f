// The board as SVG, from the public state's position (physical points, light's home bottom-right, as the camera
// sees the table). Bottom row right to left: physical 1..12; top row left to right: 13..24. Cube column on the
// left, bear-off tray on the right. The point numbers are the mover's own (as the mover counts and as the plays
// are written: dark's 13/3 starts on the point labelled 13), with each variant's route (R30-R32); the last play's
// points, or an illegal play's points and checker, are marked (`marks`, see playMarks).
const NS = "http://www.w3.org/2000/svg";
export const W = 1000, H = 760;
const M = 16, CUBE = 80, TRAY = 70, BAR = 56;
const X0 = M + CUBE, X1 = W - M - TRAY;
const PW = (X1 - X0 - BAR) / 12;
const PH = H * 0.4;
const R = Math.min(PW * 0.46, (PH - 10) / 10);

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Left x of physical point p (1..24) and whether it hangs from the top edge.
function pointX(p) {
  const top = p >= 13;
  const col = top ? p - 13 : 12 - p;        // 0..11 from the left
  return { x: X0 + col * PW + (col >= 6 ? BAR : 0), top };
}

// Each side's route: its own point n (24..1) is physical ROUTES[variant][side][24 - n] (core/rules routes).
const STANDARD = { light: Array.from({ length: 24 }, (_, i) => 24 - i), dark: Array.from({ length: 24 }, (_, i) => i + 1) };
const ROUTES = {
  standard: STANDARD, plakoto: STANDARD,
  russian: { light: STANDARD.light, dark: STANDARD.light },
  jacquet: { light: [...Array.from({ length: 12 }, (_, i) => 13 + i), ...Array.from({ length: 12 }, (_, i) => 1 + i)],
             dark: STANDARD.dark },
};
function route(state, side) { return (ROUTES[state?.variant?.name] || STANDARD)[side] || STANDARD.light; }
// The physical point of the side's own point n (1..24), or null (bar, off, nonsense).
export function physical(state, side, n) { return n >= 1 && n <= 24 ? route(state, side)[24 - n] : null; }
export function ownNumber(state, side, p) { return 24 - route(state, side).indexOf(p); }
// Whose numbers the board and the panel show: the mover's; at a game's end the last mover's, as its last play (marked)
// is written ("1/fora" on the point labelled 1). One numbering on the screen (issue 37).
export function numberedFor(state) {
  const ended = ["game_over", "match_over"].includes(state?.phase);
  const last = ended ? (state.moves || []).at(-1)?.side : null;
  return (last || state?.turn) === "dark" ? "dark" : "light";
}

// {from: [physical...], to: [...], bad: bool} for a play as written ("13/8 6/5*", "bar/22", "24/18/13", "6/off(2)").
export function playMarks(state, side, play, bad = false) {
  const from = [], to = [];
  for (const token of String(play || "").split(/\s+/)) {
    const parts = token.replace(/\(\d+\)|\*/g, "").split("/");
    if (parts.length < 2) continue;
    parts.forEach((part, i) => {
      const p = physical(state, side, Number(part));
      if (p) (i === 0 ? from : to).push(p);
    });
  }
  return { side, from, to, bad };
}

function checkers(g, cx, edgeY, dir, n, side, culprit = false) {
  const shown = Math.min(n, 5);
  for (let i = 0; i < shown; i++) {
    const cy = edgeY + dir * (R + i * 2 * R);
    const top = culprit && i === shown - 1;
    g.append(el("circle", { cx, cy, r: R - 1, class: `checker ${side}${top ? " culprit" : ""}`,
                            ...(top ? { "data-culprit": "true" } : {}) }));
  }
  if (n > 5) {
    const cy = edgeY + dir * (R + 4 * 2 * R);
    g.append(el("text", { x: cx, y: cy, class: `count ${side}`, "dominant-baseline": "central" }, String(n)));
  }
}

export function drawBoard(svg, state, marks = null) {
  const pos = state.position || {};
  const light = pos.light || Array(24).fill(0), dark = pos.dark || Array(24).fill(0);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, rx: 18, class: "frame" }));
  svg.append(el("rect", { x: X0, y: M, width: X1 - X0, height: H - 2 * M, class: "felt" }));
  svg.append(el("rect", { x: X0 + 6 * PW, y: M, width: BAR, height: H - 2 * M, class: "bar" }));
  svg.append(el("rect", { x: X1 + 6, y: M, width: TRAY - 12, height: H - 2 * M, rx: 6, class: "tray" }));
  svg.append(el("rect", { x: M + 6, y: M, width: CUBE - 12, height: H - 2 * M, rx: 6, class: "tray" }));
  const g = el("g", {});
  const pinned = {};
  for (const pin of pos.pinned || []) pinned[pin.point] = pin.side;
  const mover = numberedFor(state);
  svg.dataset.mover = mover;
  const mark = (p) => (!marks ? "" : marks.bad && (marks.to.includes(p) || marks.from.includes(p)) ? " bad"
    : marks.to.includes(p) ? " to" : marks.from.includes(p) ? " from" : "");
  for (let p = 1; p <= 24; p++) {
    const { x, top } = pointX(p);
    const yEdge = top ? M : H - M, tip = top ? M + PH : H - M - PH;
    const m = mark(p), own = ownNumber(state, mover, p);
    svg.append(el("polygon", { points: `${x},${yEdge} ${x + PW},${yEdge} ${x + PW / 2},${tip}`,
                               class: `point ${p % 2 ? "odd" : "even"}${m}`, "data-point": p, "data-own": own }));
    svg.append(el("text", { x: x + PW / 2, y: top ? M + PH + 42 : H - M - PH - 8, class: `pointno${m}`,
                            "data-own": own,
                            // Two digits at the readable size (18 px from the chair) squeezed a little so they keep a
                            // gap to their neighbours: the same height, 80 % of a point's width.
                            ...(own >= 10 ? { textLength: PW * 0.8, lengthAdjust: "spacingAndGlyphs" } : {}) }, String(own)));
    const cx = x + PW / 2;
    const pin = pinned[p];
    if (pin) {
      // Plakoto (R30): the pinned checker lies under its pinner's stack, at the edge, ringed.
      const other = pin === "light" ? "dark" : "light", n = (pin === "light" ? dark : light)[p - 1];
      const cy = yEdge + (top ? 1 : -1) * R;
      g.append(el("circle", { cx, cy, r: R - 1, class: `checker ${pin} pinned`, "data-pinned": p }));
      checkers(g, cx, yEdge + (top ? 1 : -1) * 2 * R, top ? 1 : -1, n, other);
      continue;
    }
    const culprit = (side) => Boolean(marks?.bad && marks.side === side && marks.to.includes(p));
    if (light[p - 1]) checkers(g, cx, yEdge, top ? 1 : -1, light[p - 1], "light", culprit("light"));
    if (dark[p - 1]) checkers(g, cx, yEdge, top ? 1 : -1, dark[p - 1], "dark", culprit("dark"));
  }
  // Light enters on the top (dark's home board), so its bar checkers wait in the top half.
  const barX = X0 + 6 * PW + BAR / 2, bar = pos.bar || {}, off = pos.off || {};
  if (bar.light) checkers(g, barX, H / 2, -1, bar.light, "light");
  if (bar.dark) checkers(g, barX, H / 2, 1, bar.dark, "dark");
  const offStack = (n, side, fromTop) => {
    for (let i = 0; i < n; i++) {
      const y = fromTop ? M + 6 + i * 14 : H - M - 18 - i * 14;
      g.append(el("rect", { x: X1 + 12, y, width: TRAY - 24, height: 12, rx: 3, class: `checker ${side}` }));
    }
  };
  offStack(off.light || 0, "light", false);
  offStack(off.dark || 0, "dark", true);
  svg.append(g);
  drawCube(svg, state);
}

function drawCube(svg, state) {
  const cube = state.cube || {}, match = state.match || {};
  if (match.crawford) return;                       // no cube in the Crawford game
  const owner = cube.owner, value = cube.value || 1;
  const size = CUBE - 14, x = M + 7;
  const y = owner === "dark" ? M + 10 : owner === "light" ? H - M - 10 - size : H / 2 - size / 2;
  svg.append(el("rect", { x, y, width: size, height: size, rx: 8, class: "cube" }));
  svg.append(el("text", { x: x + size / 2, y: y + size / 2, class: "cubeno", "dominant-baseline": "central" },
                String(owner || value > 1 ? value : 64)));  // a centred cube shows its 64 face
}
