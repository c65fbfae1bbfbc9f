// The coach on the kiosk page: the tutor's warning, the last play's rating and explanation, cube advice, and
// every legal play of the roll drawn one at a time. Its state comes from /ws/coach (docs/CONTRACTS.md,
// "The coach"); it is hidden in tournament mode, where the coach's endpoints refuse.
import { drawBoard } from "./board.js";

export const COACH_TEXT = {
  pt: {
    plays: "Jogadas possíveis", cube: "Conselho de cubo", review: "Revisão", tutor: "Tutor", close: "Fechar",
    prev: "◀", next: "▶", best: "Melhor jogada", bestIs: (p) => `Melhor: ${p}`,
    levels: { off: "desligado", very_bad: "só muito ruins", bad: "ruins", doubtful: "duvidosas" },
    labels: { doubtful: "duvidosa", bad: "ruim", very_bad: "muito ruim" },
    rated: (p, label, loss) => (label ? `${p}: jogada ${label}, perde ${loss}` : `${p}: boa jogada${loss ? `, perde ${loss}` : ""}`),
    bestPlay: (p) => `${p}: a melhor jogada`, pending: (p) => `${p}: avaliando…`,
    unranked: (p) => `${p}: sem avaliação (sem motor de análise)`, illegal: (p) => `${p}: jogada ilegal, sem avaliação`,
    forced: (p) => `${p}: jogada forçada`,
    ranked: (i, n, p) => `${i}/${n}: ${p}`, unrankedList: "sem motor de análise: jogadas sem ordem",
    equity: (e, l) => `equidade ${e}, perde ${l}`, noEngine: "Sem motor de análise", thinking: "Pensando…",
    pin: "PIN",
  },
  en: {
    plays: "Legal plays", cube: "Cube advice", review: "Review", tutor: "Tutor", close: "Close",
    prev: "◀", next: "▶", best: "Best play", bestIs: (p) => `Best: ${p}`,
    levels: { off: "off", very_bad: "very bad only", bad: "bad", doubtful: "doubtful" },
    labels: { doubtful: "doubtful", bad: "bad", very_bad: "very bad" },
    rated: (p, label, loss) => (label ? `${p}: ${label} play, loses ${loss}` : `${p}: good play${loss ? `, loses ${loss}` : ""}`),
    bestPlay: (p) => `${p}: the best play`, pending: (p) => `${p}: rating…`,
    unranked: (p) => `${p}: not rated (no engine)`, illegal: (p) => `${p}: illegal play, not rated`,
    forced: (p) => `${p}: forced play`,
    ranked: (i, n, p) => `${i}/${n}: ${p}`, unrankedList: "no engine: plays not ranked",
    equity: (e, l) => `equity ${e}, loses ${l}`, noEngine: "No engine", thinking: "Thinking…",
    pin: "PIN",
  },
};

const $ = (id) => document.getElementById(id);
let coach = null, page = { state: null, lang: "pt" }, shown = 0, viewing = null;
window.__coach = { updates: 0, snapshot: null };

const num = (x, lang) => (x == null ? "" : (lang === "pt" ? x.toFixed(3).replace(".", ",") : x.toFixed(3)));
function tt() { return COACH_TEXT[page.lang] || COACH_TEXT.pt; }
function tournament() { return Boolean(page.state?.match?.rules?.tournament); }
function boardState(layout) { return { position: layout, cube: page.state?.cube || {}, match: page.state?.match || {} }; }

function drawView(layout, caption, kind) {
  const view = $("coach-view");
  view.hidden = false;
  view.dataset.kind = kind;
  drawBoard($("coach-board"), boardState(layout));
  $("coach-caption").textContent = caption;
}

function closeView() { viewing = null; $("coach-view").hidden = true; $("coach-view").dataset.kind = ""; }

function showPlay() {
  const plays = coach?.plays;
  if (!plays || !plays.plays.length) { closeView(); return; }
  shown = Math.max(0, Math.min(shown, plays.plays.length - 1));
  const p = plays.plays[shown], t = tt();
  let caption = t.ranked(shown + 1, plays.plays.length, p.play || "—");
  if (plays.ranked && p.equity != null) caption += ` · ${t.equity(num(p.equity, page.lang), num(p.loss, page.lang))}`;
  else if (!plays.ranked) caption += ` · ${t.unrankedList}`;
  drawView(p.board, caption, "plays");
  $("coach-view").dataset.index = String(shown);
  $("coach-view").dataset.ranked = String(Boolean(plays.ranked));
}

function renderTutor() {
  const box = $("tutor"), w = coach?.tutor;
  box.hidden = !w;
  box.textContent = w ? `⚠ ${w.message[page.lang] || w.message.en}` : "";
  if (w) drawView(w.best_board, tt().bestIs(w.best.play), "tutor");
  else if ($("coach-view").dataset.kind === "tutor") closeView();
}

function renderRating() {
  const box = $("rating"), r = coach?.rating, t = tt();
  box.hidden = !r;
  if (!r) return;
  const label = r.label ? t.labels[r.label] : null;
  let head;
  if (r.status === "rated") head = r.best === r.play || (!r.loss && !r.explanation) ? t.bestPlay(r.play) : t.rated(r.play, label, num(r.loss, page.lang));
  else head = (t[r.status] || t.pending)(r.play);
  box.dataset.status = r.status; box.dataset.label = r.label || "";
  const h = document.createElement("div"); h.className = "rating-head"; h.textContent = head;
  const list = document.createElement("ul");
  for (const s of r.explanation?.sentences?.[page.lang] || []) {
    const li = document.createElement("li"); li.textContent = s; list.append(li);
  }
  box.replaceChildren(h, list);
  if (r.best && r.status === "rated" && r.best !== r.play) {
    const b = document.createElement("div"); b.className = "rating-best"; b.textContent = t.bestIs(r.best); box.append(b);
  }
}

function renderCube() {
  const box = $("cube-advice"), c = coach?.cube;
  box.hidden = !c;
  if (!c) return;
  box.textContent = c.pending ? tt().thinking : `${c.tutor ? "⚠ " : ""}${c.message?.[page.lang] || ""}`;
  box.dataset.action = c.action || "";
}

export function renderCoach(state, lang) {
  page = { state, lang };
  const section = $("coach"), t = tt();
  const off = tournament() || coach?.enabled === false;
  section.hidden = off;
  if (off) { closeView(); return; }
  $("coach-plays").textContent = t.plays; $("coach-cube").textContent = t.cube;
  $("review-link").textContent = t.review; $("coach-close").textContent = t.close;
  $("lbl-tutor").textContent = t.tutor;
  const sel = $("coach-tutor");
  for (const opt of sel.options) opt.textContent = t.levels[opt.value];
  if (coach?.settings && document.activeElement !== sel) sel.value = coach.settings.tutor;
  $("coach-engine").textContent = coach?.engine && !coach.engine.available ? t.noEngine : "";
  renderTutor(); renderRating(); renderCube();
  if (viewing === "plays") showPlay();
}

async function post(path) {
  const r = await fetch(path, { method: "POST" });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { $("coach-error").textContent = data.message || data.detail || `HTTP ${r.status}`; return null; }
  $("coach-error").textContent = "";
  return data;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/coach`);
  ws.onmessage = (msg) => {
    coach = JSON.parse(msg.data);
    window.__coach.updates += 1; window.__coach.snapshot = coach;
    if (page.state) renderCoach(page.state, page.lang);
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

export function startCoach() {
  $("coach-plays").addEventListener("click", async () => {
    const plays = await post("/api/coach/plays");
    if (!plays) return;
    // The ranked list may have been pushed before this answer arrived: keep it rather than the unranked one.
    const pushed = coach?.plays;
    const same = pushed && pushed.position_id === plays.position_id && pushed.dice.join() === plays.dice.join();
    if (!(same && pushed.ranked)) coach = { ...(coach || {}), plays };
    viewing = "plays"; shown = 0; showPlay();
  });
  $("coach-cube").addEventListener("click", async () => {
    const cube = await post("/api/coach/cube");
    // The advice may have been pushed before this acknowledgement arrived: keep it.
    if (cube && (!coach?.cube || coach.cube.pending)) { coach = { ...(coach || {}), cube }; renderCube(); }
  });
  $("coach-prev").addEventListener("click", () => { if (viewing === "plays") { shown -= 1; showPlay(); } });
  $("coach-next").addEventListener("click", () => { if (viewing === "plays") { shown += 1; showPlay(); } });
  $("coach-close").addEventListener("click", closeView);
  $("coach-tutor").addEventListener("change", async (ev) => {
    const r = await fetch("/api/coach/settings", { method: "PUT", body: JSON.stringify({ tutor: ev.target.value }),
      headers: { "Content-Type": "application/json", "X-Gamao-PIN": $("coach-pin").value } });
    const data = await r.json().catch(() => ({}));
    $("coach-error").textContent = r.ok ? "" : data.message || data.detail || `HTTP ${r.status}`;
  });
  connect();
}
