// Calibration: the live camera frame, what vision detected drawn over it, and four clicked corners
// (top-left, top-right, bottom-right, bottom-left) sent to POST /api/calibration. Issue 33: what the camera has
// learnt about this board (the two checker sets, each point's empty look, from the start and the empty board:
// POST /api/calibration/learn) and how sure the reading is, point by point (green sure, amber in doubt, red unsure).
import { fill, section } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const pt = (navigator.language || "pt").startsWith("pt") && !location.search.includes("lang=en")
  || location.search.includes("lang=pt");
const lang = pt ? "pt" : "en";
// The page's words, from the one table (core/page_words.py, "calibrate.*").
const W = section(lang, "calibrate");
const T = {
  ...W, hint: (n) => fill(W.hint, { corner: W.corners[n] ?? W.done }), empty: (n) => fill(W.empty, { n }),
  reading: (s, d, u) => [fill(W.reading, { s }), d ? fill(W.doubt, { d }) : "", u ? fill(W.unsure, { u }) : ""]
    .filter(Boolean).join(", "),
};
let clicks = [], overlay = null;

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function div(cls, text, attrs = {}) {
  const d = Object.assign(document.createElement("div"), { className: cls });
  if (text !== undefined) d.textContent = text;
  for (const [k, v] of Object.entries(attrs)) d.setAttribute(k, v);
  return d;
}

function draw() {
  const svg = $("overlay"), w = overlay?.width || 640, h = overlay?.height || 480;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.replaceChildren();
  const corners = clicks.length ? clicks : overlay?.corners || [];
  if (corners.length === 4) svg.append(el("polygon", { points: corners.map((c) => c.join(",")).join(" "), class: "quad" }));
  for (const [x, y] of corners) svg.append(el("circle", { cx: x, cy: y, r: 9, class: "corner" }));
  // The counts are drawn at 18 screen px at least, whatever the frame's size (the drawing is scaled to fit).
  const box = svg.getBoundingClientRect();
  const scale = Math.min((box.width || w) / w, (box.height || h) / h), font = Math.ceil(18 / scale);
  const r = Math.max(Math.round(w / 55), Math.ceil(0.62 * font));
  for (const p of overlay?.points || []) {
    svg.append(el("circle", { cx: p.x, cy: p.y, r, class: `det ${p.side || "empty"} ${p.level || ""}`, "data-point": p.point }));
    if (p.count) svg.append(el("text", { x: p.x, y: p.y, class: "det-label", "text-anchor": "middle", "font-size": font,
                                         "dominant-baseline": "central" }, String(p.count)));
  }
  $("hint").textContent = T.hint(clicks.length);
  $("save").disabled = clicks.length !== 4;
  drawLearnt();
  const m = overlay?.markers || { found: [], missing: [] };
  if (m.note) { $("markers").textContent = T.notes[m.note_key] || m.note; return; }
  $("markers").replaceChildren(
    ...m.found.map((id) => Object.assign(document.createElement("div"), { className: "ok", textContent: `✔ ${id}: ${T.found}` })),
    ...m.missing.map((id) => Object.assign(document.createElement("div"), { className: "missing", textContent: `✘ ${id}: ${T.missing}` })));
}

// What was learnt and how sure the reading is: the two checker swatches, where it was learnt from, and a strip of
// the 24 points laid out as on the board (13-24 above, 12-1 below), each in its learnt empty colour with its
// sureness as the cell's frame and percentage.
function drawLearnt() {
  const learnt = overlay?.learnt;
  const sources = learnt?.from || [];
  for (const side of ["light", "dark"]) {
    const sw = $(`sw-${side}`);
    sw.hidden = !learnt?.[side];
    sw.style.background = learnt?.[side] || "transparent";
    sw.title = learnt?.[side] || "";
  }
  $("learnt-title").textContent = learnt?.light || learnt?.dark ? T.learnt : "";
  const emptyKnown = (learnt?.points || []).filter((p) => p.empty).length;
  $("learnt-from").textContent = sources.length
    ? `${T.fromWord} ${sources.map((s) => T.from[s] || s).join(" + ")}${emptyKnown < 24 ? ` (${T.empty(emptyKnown)})` : ""}`
    : T.nothing;
  const points = learnt?.points || [];
  const levels = points.map((p) => p.level).filter(Boolean);
  const count = (l) => levels.filter((x) => x === l).length;
  $("reading").textContent = levels.length
    ? `${T.reading(count("sure"), count("doubt"), count("unsure"))}${count("sure") < 24 ? ". " + T.advice : ""}` : "";
  $("reading").dataset.sure = String(count("sure"));
  const byPoint = Object.fromEntries(points.map((p) => [p.point, p]));
  const strip = $("strip");
  strip.replaceChildren();
  for (const nums of [[13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24], [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]]) {
    const line = div("strip-row");
    for (const n of nums) {
      const p = byPoint[n] || {};
      const cell = div(`cell ${p.level || "none"}`, undefined, { "data-point": n, "data-level": p.level || "" });
      if (p.empty) cell.style.setProperty("--empty", p.empty);
      // The percentage where the reading is less than sure (a green frame alone says sure).
      const pct = p.sure == null ? "" : Math.min(99, Math.round(p.sure * 100));
      cell.append(div("num", String(n)), div("pct", p.sure == null || p.sure >= 0.995 ? "" : String(pct)));
      line.append(cell);
    }
    strip.append(line);
  }
}

async function refresh() {
  const r = await fetch("/api/camera/overlay");
  if (!r.ok) { $("status").textContent = T.none; return; }
  overlay = await r.json();
  $("frame").src = `/api/camera/frame.jpg?t=${Date.now()}`;
  draw();
}

function refusal(data, r) {
  const d = data.detail;
  return d?.words?.[lang] || data.message || (d?.message ?? d) || `HTTP ${r.status}`;
}

async function learn(board) {
  $("status").textContent = T.learning;
  const r = await fetch("/api/calibration/learn", { method: "POST", body: JSON.stringify({ board }),
    headers: { "Content-Type": "application/json", "X-Gamao-PIN": $("pin").value } });
  const data = await r.json().catch(() => ({}));
  if (r.ok) { overlay = data; $("status").textContent = T.learntOk; draw(); }
  else $("status").textContent = refusal(data, r);
}

$("overlay").addEventListener("click", (ev) => {
  if (clicks.length >= 4) return;
  const svg = $("overlay"), box = svg.getBoundingClientRect();
  const w = overlay?.width || 640, h = overlay?.height || 480;
  clicks.push([Math.round((ev.clientX - box.left) * w / box.width), Math.round((ev.clientY - box.top) * h / box.height)]);
  draw();
});
$("reset").addEventListener("click", () => { clicks = []; draw(); });
$("save").addEventListener("click", async () => {
  const r = await fetch("/api/calibration", { method: "POST", body: JSON.stringify({ corners: clicks }),
    headers: { "Content-Type": "application/json", "X-Gamao-PIN": $("pin").value } });
  const data = await r.json().catch(() => ({}));
  if (r.ok) { overlay = data; clicks = []; $("status").textContent = T.saved; draw(); }
  else $("status").textContent = refusal(data, r);
});
$("learn-start").addEventListener("click", () => learn("start"));
$("learn-empty").addEventListener("click", () => learn("empty"));
$("title").textContent = T.title;
$("learn-start").textContent = T.learnStart;
$("learn-empty").textContent = T.learnEmpty;
$("pin-label").textContent = T.pin;
$("back").textContent = T.back;
document.documentElement.lang = pt ? "pt-BR" : "en";
refresh();
setInterval(refresh, 1000);
