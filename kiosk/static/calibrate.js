// Calibration: the live camera frame, what vision detected drawn over it, and four clicked corners
// (top-left, top-right, bottom-right, bottom-left) sent to POST /api/calibration.
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const pt = (navigator.language || "pt").startsWith("pt") && !location.search.includes("lang=en");
const T = pt
  ? { title: "Calibração da câmera", hint: (n) => `Toque nos cantos do tabuleiro: ${["superior esquerdo", "superior direito", "inferior direito", "inferior esquerdo"][n] || "pronto"}`,
      found: "marcador encontrado", missing: "marcador faltando", saved: "Salvo.", none: "Nenhuma câmera conectada." }
  : { title: "Camera calibration", hint: (n) => `Tap the board's corners: ${["top left", "top right", "bottom right", "bottom left"][n] || "done"}`,
      found: "marker found", missing: "marker missing", saved: "Saved.", none: "No camera connected." };
let clicks = [], overlay = null;

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function draw() {
  const svg = $("overlay"), w = overlay?.width || 640, h = overlay?.height || 480;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.replaceChildren();
  const corners = clicks.length ? clicks : overlay?.corners || [];
  if (corners.length === 4) svg.append(el("polygon", { points: corners.map((c) => c.join(",")).join(" "), class: "quad" }));
  for (const [x, y] of corners) svg.append(el("circle", { cx: x, cy: y, r: 9, class: "corner" }));
  for (const p of overlay?.points || []) {
    svg.append(el("circle", { cx: p.x, cy: p.y, r: 12, class: `det ${p.side || "empty"}` }));
    if (p.count) svg.append(el("text", { x: p.x, y: p.y, class: "det-label", "text-anchor": "middle",
                                         "dominant-baseline": "central" }, String(p.count)));
  }
  $("hint").textContent = T.hint(clicks.length);
  $("save").disabled = clicks.length !== 4;
  const m = overlay?.markers || { found: [], missing: [] };
  if (m.note) { $("markers").textContent = m.note; return; }
  $("markers").replaceChildren(
    ...m.found.map((id) => Object.assign(document.createElement("div"), { className: "ok", textContent: `✔ ${id}: ${T.found}` })),
    ...m.missing.map((id) => Object.assign(document.createElement("div"), { className: "missing", textContent: `✘ ${id}: ${T.missing}` })));
}

async function refresh() {
  const r = await fetch("/api/camera/overlay");
  if (!r.ok) { $("status").textContent = T.none; return; }
  overlay = await r.json();
  $("frame").src = `/api/camera/frame.jpg?t=${Date.now()}`;
  draw();
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
  else $("status").textContent = data.message || (data.detail?.message ?? data.detail) || `HTTP ${r.status}`;
});
$("title").textContent = T.title;
refresh();
setInterval(refresh, 1000);
