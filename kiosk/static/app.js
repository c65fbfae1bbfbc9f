// The kiosk page: renders the referee's public state (docs/CONTRACTS.md) pushed over /ws.
import { drawBoard } from "./board.js";
import { TEXT, describe, severity } from "./i18n.js";
import { openControls } from "./controls.js";
import { renderCoach, startCoach } from "./coach.js";
import { openChouette, renderChouette } from "./chouette.js";
import { renderClock } from "./clock.js";

const $ = (id) => document.getElementById(id);
const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] };

const params = new URLSearchParams(location.search);
let lang = params.get("lang") || localStorage.getItem("gamao.lang") || "";
let state = null;
let info = { language: "pt", pin_set: true };
window.__gamao = { renders: 0, lastRenderAt: 0, state: null };

function t() { return TEXT[lang] || TEXT.pt; }
function name(side) { return (state?.match?.players?.[side]) || t()[side]; }

function renderDice(dice) {
  const box = $("dice"), cocked = dice?.cocked || [];
  let values = dice?.values || [];
  // A cocked roll does not count, so the referee keeps no dice; show the ones on the board anyway.
  const last = (state?.verdicts || []).at(-1);
  if (cocked.some(Boolean) && last?.verdict === "reroll" && last.dice) values = last.dice;
  // Doubles are played four times: four dice, the used ones dimmed.
  const shown = values.length === 2 && values[0] === values[1] ? [...values, ...values] : values;
  const used = [...(dice?.used || [])];
  box.replaceChildren();
  shown.forEach((v, i) => {
    const d = document.createElement("div");
    d.className = "die";
    const k = used.indexOf(v);
    if (k >= 0) { d.classList.add("used"); used.splice(k, 1); }
    if (cocked[i % 2]) d.classList.add("cocked");
    d.dataset.value = v;
    for (const [x, y] of PIPS[v] || []) {
      const p = document.createElement("i");
      p.style.left = `${x}%`; p.style.top = `${y}%`;
      d.append(p);
    }
    box.append(d);
  });
  if (!shown.length) box.textContent = t().noRoll;
  box.dataset.values = values.join(",");
  const anyCocked = cocked.some(Boolean);
  box.dataset.cocked = anyCocked ? "true" : "false";
  $("cocked").hidden = !anyCocked;
  $("cocked").textContent = `⚠ ${t().cocked}`;
}

function renderCube(cube, match) {
  const face = $("cube"), value = cube?.value || 1, owner = cube?.owner || "";
  face.textContent = owner || value > 1 ? String(value) : "64";
  face.dataset.value = value; face.dataset.owner = owner;
  face.classList.toggle("off", Boolean(match?.crawford));
  let caption = owner ? t().owns(name(owner)) : t().centred;
  if (cube?.offered_by) caption = t().offered(name(cube.offered_by), value * 2);
  if (match?.crawford) caption = t().noCube;
  $("cube-caption").textContent = caption;
}

function renderScore(match) {
  $("name-light").textContent = name("light"); $("name-dark").textContent = name("dark");
  $("score-light").textContent = match?.score?.light ?? 0; $("score-dark").textContent = match?.score?.dark ?? 0;
  const length = match?.length || 0;
  $("match-length").textContent = (length ? t().matchTo(length) : t().money) + (match?.game ? ` · ${t().game(match.game)}` : "");
  const cr = $("crawford");
  cr.hidden = !(match?.crawford || match?.post_crawford);
  cr.textContent = match?.crawford ? t().crawford : t().postCrawford;
  $("tournament").hidden = !tournament(); $("tournament").textContent = t().tournament;
}

// The seeds' other games (R30-R32): the variant's name and rule, Plakoto's pins, Russian's place in the chain
// of doubles and checkers still to enter, Jacquet's messengers.
function renderVariant() {
  const v = state?.variant, badge = $("variant"), chain = $("chain"), info = $("variant-info");
  badge.hidden = !v; chain.hidden = true; info.hidden = true;
  if (!v) return;
  badge.textContent = `${t().variants[v.name] || v.name} (${v.rule})`;
  badge.dataset.variant = v.name;
  const pos = state.position || {};
  const c = state.chain;
  if (c) { chain.hidden = false; chain.textContent = t().chain(c); chain.dataset.link = c.link; }
  let text = "";
  if (pos.pinned) text = pos.pinned.length ? t().pinned(pos.pinned.map((p) => `${p.point} (${name(p.side)})`).join(", ")) : "";
  if (pos.waiting) text = t().waiting(pos.waiting.light, pos.waiting.dark);
  if (pos.messenger) text = t().messenger(pos.messenger.light, pos.messenger.dark);
  info.hidden = !text; info.textContent = text;
}

function tournament() { return Boolean(state?.match?.rules?.tournament); }

function renderVerdict() {
  const verdicts = state?.verdicts || [];
  const last = verdicts[verdicts.length - 1];
  let sev = "pending", head, detail = "";
  const resign = state?.resignation;
  if (resign) {
    head = t().resigns(name(resign.side), resign.value);  // waiting for the opponent's answer
  } else if (last) {
    sev = severity(last);
    ({ head, detail } = describe(lang in TEXT ? lang : "pt", last, name));
  } else {
    head = t().phase[state?.phase] || state?.phase || t().connecting;
  }
  const banner = $("banner");
  banner.className = `banner ${sev}`;
  banner.dataset.severity = sev;
  banner.dataset.verdict = resign ? "resignation" : last?.verdict || "";
  $("verdict-head").textContent = head;
  $("verdict-detail").textContent = detail;
}

// What the kiosk must say about the journal: salvaged at start, a write that failed (disk full), the archive.
function renderNotices() {
  const box = $("notices"), notices = state?.notices || [];
  box.replaceChildren(...notices.map((n) => {
    const p = document.createElement("p");
    p.className = `notice ${n.kind}`;
    p.dataset.kind = n.kind;
    p.textContent = `⚠ ${n.message?.[lang] || n.message?.pt || n.kind}`;
    return p;
  }));
  box.hidden = !notices.length;
}

function renderMoves() {
  const list = $("move-list"), game = state?.match?.game, tt = t();
  const moves = (state?.moves || []).filter((m) => !game || !m.game || m.game === game);
  list.replaceChildren(...moves.map((m) => {
    const li = document.createElement("li");
    li.className = m.side || "";
    li.value = m.number || 0;
    // A roll with no legal play (a dance) has an empty play: say so rather than leave "66:" hanging.
    const play = m.play || ((m.roll || []).length ? tt.noPlay : "");
    // Number and play always show in full; a long name gives way (ellipsis) on a narrow screen.
    const part = (cls, text) => { const s = document.createElement("span"); s.className = cls; s.textContent = text; return s; };
    li.append(part("no", `${m.number || ""}.`), part("who", name(m.side)),
              part("play", `${(m.roll || []).join("")}: ${play}`));
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

function renderStatic() {
  const tt = t();
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
  $("lbl-dice").textContent = tt.dice; $("lbl-cube").textContent = tt.cube; $("lbl-pips").textContent = tt.pips;
  $("lbl-moves").textContent = tt.moves; $("lbl-export").textContent = tt.export;
  $("calibrate-link").textContent = tt.calibrate; $("controls-btn").textContent = tt.controls;
  $("lang").textContent = lang === "pt" ? "English" : "Português";
  $("offline").textContent = tt.offline;
}

export function render() {
  renderStatic();
  if (!state) return;
  drawBoard($("board"), state);
  renderDice(state.dice);
  renderCube(state.cube, state.match);
  renderScore(state.match);
  $("turn").textContent = state.turn ? t().toPlay(name(state.turn)) : "";
  // Tournament rules allow no counting aids on the display: the pip counts are removed, not greyed.
  $("pips").classList.toggle("hidden", tournament());
  $("pips-light").textContent = tournament() ? "" : (state.pips?.light ?? "");
  $("pips-dark").textContent = tournament() ? "" : (state.pips?.dark ?? "");
  renderVerdict();
  renderNotices();
  renderVariant();
  renderMoves();
  renderCoach(state, lang in TEXT ? lang : "pt");
  renderChouette($("chouette"), state, lang);
  renderClock(state, lang in TEXT ? lang : "pt");  // issue 21: the clock of a timed match
  if ($("chouette-dialog").open) $("chouette-dialog").redraw?.();
  const id = encodeURIComponent(state.match?.id ?? "current");
  $("export-mat").href = `/api/matches/${id}/export.mat`;
  $("export-sgf").href = `/api/matches/${id}/export.sgf`;
  $("export-sgf").hidden = Boolean(state.variant);  // SGF has no game type for the variants: .mat writes our text
  window.__gamao.renders += 1;
  window.__gamao.lastRenderAt = performance.timeOrigin + performance.now();
  const n = window.__gamao.renders;
  // The next animation frame is when the change is on screen (bench/bench_kiosk.py measures it).
  requestAnimationFrame(() => { window.__gamao.painted = n; window.__gamao.paintedAt = performance.timeOrigin + performance.now(); });
  window.__gamao.state = state;
  document.body.dataset.renders = String(window.__gamao.renders);
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onmessage = (msg) => {
    state = JSON.parse(msg.data);
    document.body.classList.remove("connecting");
    $("offline").hidden = true;
    render();
  };
  ws.onclose = () => { $("offline").hidden = false; setTimeout(connect, 1000); };
}

async function start() {
  try { info = await (await fetch("/api/kiosk")).json(); } catch { /* offline: keep defaults */ }
  if (!TEXT[lang]) lang = info.language || "pt";
  $("lang").addEventListener("click", () => {
    lang = lang === "pt" ? "en" : "pt";
    localStorage.setItem("gamao.lang", lang);
    render();
  });
  $("controls-btn").addEventListener("click", () => openControls($("controls"), t(), state, info));
  $("chouette-btn").addEventListener("click", () => openChouette($("chouette-dialog"), () => state, lang));
  render();
  connect();
  startCoach();
}

start();
