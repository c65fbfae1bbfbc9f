// The coach on the kiosk page: "wait" while the tutor judges the play on the board, the tutor's warning in words,
// the last play called by its size with its reasons (the numbers behind the "números" touch), cube advice, the
// top plays with a sentence each (every legal play one touch further), and the coach's settings in its own
// panel. Its state comes from /ws/coach (docs/CONTRACTS.md, "The coach" and issue 24); it is hidden in
// tournament mode, where the coach's endpoints refuse.
import { drawBoard } from "./board.js";
import { fill, playText, section, serverWords } from "./i18n.js";

// The coach's words, from the page's one table (core/page_words.py, "coach.*").
function coachWords(lang) {
  const s = section(lang, "coach");
  const f = (text) => (p) => fill(text, { p });
  return {
    ...s, all: (n) => (n === 1 ? s.allOne : fill(s.all, { n })), bestIs: f(s.bestIs), bestPlay: f(s.bestPlay),
    pending: f(s.pending), unranked: f(s.unranked), illegal: f(s.illegal), forced: f(s.forced),
    ranked: (i, n, p) => fill(s.ranked, { i, n, p }), equity: (e, l) => fill(s.equity, { e, l }), takeback: f(s.takeback),
    engineRoll: (n) => fill(s.engineRoll, { n }), enginePlays: (n, p) => fill(s.enginePlays, { n, p }),
    engineNone: (n) => fill(s.engineNone, { n }), engineDoubles: (n, v) => fill(s.engineDoubles, { n, v }),
    answerDouble: f(s.answerDouble), against: (l) => fill(s.against, { l }),
  };
}
export const COACH_TEXT = { pt: coachWords("pt"), en: coachWords("en") };

const $ = (id) => document.getElementById(id);
let coach = null, page = { state: null, lang: "pt" }, shown = 0, viewing = null, numbers = false, versus = null;
window.__coach = { updates: 0, snapshot: null };

const num = (x, lang) => (x == null ? "" : (lang === "pt" ? x.toFixed(3).replace(".", ",") : x.toFixed(3)));
function tt() { return COACH_TEXT[page.lang] || COACH_TEXT.pt; }
function tournament() { return Boolean(page.state?.match?.rules?.tournament); }
function boardState(layout) { return { position: layout, cube: page.state?.cube || {}, match: page.state?.match || {} }; }
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
function words(x) { return x ? (x[page.lang] || x.en || "") : ""; }
function numbersLine(x) { const n = el("div", "numbers", words(x)); n.hidden = !numbers || !words(x); return n; }

// The coach's view and the drawer (app.js) both lie over the board: the one opened last is in front, and closing it
// shows the other. The Numbers touch goes with the view while it is open (the drawer's copy would be under it).
function front() { document.querySelector(".board-wrap").dataset.front = "view"; }
function showView() {
  const view = $("coach-view");
  if (view.hidden) front();
  view.hidden = false;
  placeNumbers();
}
function placeNumbers() {
  const b = $("coach-numbers"), open = !$("coach-view").hidden;
  if (open && b.parentElement !== $("coach-bar")) $("coach-bar").insertBefore(b, $("coach-close"));
  else if (!open && b.parentElement === $("coach-bar")) $("coach-buttons").insertBefore(b, $("coach-settings-open"));
}

function drawView(layout, caption, kind) {
  const view = $("coach-view");
  showView();
  $("coach-settings").hidden = true; $("coach-top").hidden = kind !== "top-list";
  if (viewing === "settings") viewing = null;
  view.dataset.kind = kind;
  drawBoard($("coach-board"), boardState(layout));
  $("coach-caption").textContent = caption;
}

function closeView() {
  viewing = null; $("coach-view").hidden = true; $("coach-view").dataset.kind = "";
  if ($("coach-settings")) $("coach-settings").hidden = true;
  placeNumbers();
}

function showPlay() {
  const plays = coach?.plays;
  if (!plays || !plays.plays.length) { closeView(); return; }
  shown = Math.max(0, Math.min(shown, plays.plays.length - 1));
  const p = plays.plays[shown], t = tt();
  let caption = t.ranked(shown + 1, plays.plays.length, playText(page.lang, p.play) || "—");
  if (plays.ranked && p.equity != null && numbers) caption += ` · ${t.equity(num(p.equity, page.lang), num(p.loss, page.lang))}`;
  else if (!plays.ranked) caption += ` · ${t.unrankedList}`;
  drawView(p.board, caption, "plays");
  $("coach-view").dataset.index = String(shown);
  $("coach-view").dataset.ranked = String(Boolean(plays.ranked));
}

function renderTop() {
  const box = $("coach-top"), plays = coach?.plays, t = tt(), view = $("coach-view");
  // The top plays fill the board's overlay (the board's room on the 7-inch screen); a touched play is drawn there.
  const open = viewing === "top" && Boolean(plays);
  box.hidden = !open;
  if (open) {
    showView(); view.dataset.kind = "top-list";
    $("coach-caption").textContent = t.plays;
  } else if (view.dataset.kind === "top-list") { view.hidden = true; view.dataset.kind = ""; placeNumbers(); }
  if (box.hidden) return;
  box.dataset.ranked = String(Boolean(plays.ranked));
  const rows = (plays.top || []).map((row, i) => {
    const b = el("button", "top-play");
    b.type = "button"; b.dataset.rank = String(row.rank); b.dataset.size = row.size || "";
    b.append(el("span", "top-head", `${row.rank}. ${playText(page.lang, row.play)}`), el("span", "top-why", words(row.sentence)), numbersLine(row.numbers));
    b.addEventListener("click", () => { viewing = "top-board"; box.hidden = true; drawView(row.board, `${row.rank}. ${playText(page.lang, row.play)}`, "top"); $("coach-view").dataset.index = String(i); });
    return b;
  });
  const all = el("button", "top-all", t.all(plays.plays.length));
  all.type = "button"; all.dataset.testid = "coach-all"; all.setAttribute("data-testid", "coach-all");
  all.addEventListener("click", () => { viewing = "plays"; shown = 0; showPlay(); });
  const pending = !(plays.top || []).length ? [el("div", "caption", t.thinking)] : [];
  box.replaceChildren(...rows, ...pending, all);
}

// GNU Backgammon's own play is not the tutor's to judge: no "wait" on its turn.
function enginesTurn() { return Boolean(versus?.active && page.state?.turn === versus.side); }

function renderWait() {
  const box = $("coach-wait"), on = Boolean(coach?.wait) && !enginesTurn();
  box.hidden = !on;
  box.textContent = on ? tt().wait : "";
}

// The verdicts a tutor's warning may follow: the play being made (or nothing yet). Anything newer (a roll again, an
// illegal play, the cube, a game's end) is the screen's verdict, and the warning gives way to it.
const QUIET = new Set([undefined, "legal", "in_progress", "roll", "opening"]);

// The tutor's warning as the banner's verdict ({verdict, severity, head, detail}), or null when there is none to show.
export function tutorWarning(state, lang) {
  const w = coach?.tutor, last = (state?.verdicts || []).at(-1);
  if (!w || tournament() || coach?.enabled === false || (versus?.active && state?.turn === versus.side)) return null;
  if (state?.phase !== "moving" || !QUIET.has(last?.verdict)) return null;
  const say = (x) => (x ? x[lang] || x.en || "" : "");
  return { verdict: "tutor", severity: "illegal", head: say(w.message), detail: say(w.reason) };
}

// GNU Backgammon's double, roll or play as the banner's verdict (as large as any other), or null.
export function versusVerdict(state, lang, name) {
  if (!versus?.active || !state) return null;
  const t = COACH_TEXT[lang] || COACH_TEXT.pt, me = versus.side, human = me === "light" ? "dark" : "light";
  const last = (state.verdicts || []).at(-1), i = versus.instruction;
  if (state.phase === "cube_offered" && state.cube?.offered_by === me) {
    return { verdict: "cube", severity: "pending", head: t.engineDoubles(name(me), (state.cube.value || 1) * 2),
             detail: t.answerDouble(name(human)) };
  }
  if (state.turn !== me || !QUIET.has(last?.verdict)) return null;
  if (state.phase === "awaiting_roll") return { verdict: "versus", severity: "pending", head: t.engineRoll(name(me)), detail: "" };
  if (state.phase !== "moving" || !i) return null;
  if (!i.play) return { verdict: "versus", severity: "pending", head: t.engineNone(name(me)), detail: "" };
  return { verdict: "versus", severity: "pending", head: t.enginePlays(name(me), playText(lang, i.play)),
           detail: versus.correction ? words(versus.correction) : t.engineMove };
}

function renderTutor() {
  // Against GNU Backgammon, a wrong board on its side is the versus correction's (its arrows stay in view), not the
  // tutor's: the players did not choose that play.
  // The warning's words are the banner's (tutorWarning); the view shows the best play's board with its reason.
  const shown = tutorWarning(page.state, page.lang);
  const box = $("tutor"), w = shown ? coach?.tutor : null, t = tt();
  box.hidden = !w;
  if (w) {
    const parts = [];
    if (!w.final) parts.push(el("div", "tutor-deeper", t.deeper));
    parts.push(numbersLine(w.numbers));
    box.replaceChildren(...parts);
    // Its words are the banner's: the box shows only "looking deeper" or the numbers, when there are any.
    box.classList.toggle("quiet", w.final && !(numbers && words(w.numbers)));
    box.dataset.final = String(Boolean(w.final)); box.dataset.size = w.size || "";
    drawView(w.best_board, t.bestIs(playText(page.lang, w.best.play)), "tutor");
  } else {
    box.replaceChildren();
    if ($("coach-view").dataset.kind === "tutor") closeView();
  }
}

function renderRating() {
  const box = $("rating"), r = coach?.rating, t = tt();
  box.hidden = !r;
  if (!r) return;
  let head;
  const pl = (x) => playText(page.lang, x);
  if (r.status === "rated") head = r.best === r.play || r.size === "best" ? t.bestPlay(pl(r.play)) : pl(words(r.headline) || r.play);
  else head = (t[r.status] || t.pending)(pl(r.play));
  box.dataset.status = r.status; box.dataset.label = r.label || ""; box.dataset.size = r.size || "";
  const list = el("ul");
  for (const s of r.explanation?.sentences?.[page.lang] || []) list.append(el("li", "", s));
  box.replaceChildren(el("div", "rating-head", head), list);
  if (r.best && r.status === "rated" && r.best !== r.play) box.append(el("div", "rating-best", t.bestIs(pl(r.best))));
  box.append(numbersLine(r.numbers));
  if (coach?.takeback) {
    const b = el("button", "takeback", t.takeback(coach.takeback.play));
    b.type = "button"; b.setAttribute("data-testid", "coach-takeback");
    b.addEventListener("click", () => post("/api/coach/takeback"));
    box.append(b);
  }
}

function renderCube() {
  const box = $("cube-advice"), c = coach?.cube;
  box.hidden = !c;
  if (!c) return;
  box.replaceChildren(el("div", "", c.pending ? tt().thinking : `${c.tutor ? "⚠ " : ""}${words(c.message)}`), numbersLine(c.numbers));
  box.dataset.action = c.action || "";
}

// ----- playing against GNU Backgammon (kiosk/versus.py): its play in words and as arrows on the board -----
const SVGNS = "http://www.w3.org/2000/svg";
function spot(svg, p) {
  if (p === "bar" || p === "off") {
    const rect = svg.querySelector(p === "bar" ? "rect.bar" : "rect.tray");
    const b = rect.getBBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }
  const poly = svg.querySelector(`polygon[data-point="${p}"]`);
  if (!poly) return null;
  const b = poly.getBBox(), top = p >= 13;
  return { x: b.x + b.width / 2, y: top ? b.y + b.height * 0.35 : b.y + b.height * 0.65 };
}

function drawArrows(moves) {
  const svg = $("board");
  svg?.querySelectorAll(".versus-arrows").forEach((x) => x.remove());
  if (!svg || !moves?.length) return;
  const g = document.createElementNS(SVGNS, "g");
  g.setAttribute("class", "versus-arrows"); g.setAttribute("data-testid", "versus-arrows");
  const defs = document.createElementNS(SVGNS, "defs");
  defs.innerHTML = '<marker id="versus-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#ffcc33"/></marker>';
  g.append(defs);
  moves.forEach((m, i) => {
    const a = spot(svg, m.from), b = spot(svg, m.to);
    if (!a || !b) return;
    // Arrows of the same row would lie on one another: each one a little further from the edge.
    const shift = (i % 4) * 34 * (a.y > 380 ? -1 : 1);
    a.y += shift; b.y += shift;
    const line = document.createElementNS(SVGNS, "line");
    for (const [k, v] of Object.entries({ x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#ffcc33", "stroke-width": 10,
      "stroke-linecap": "round", "marker-end": "url(#versus-head)", opacity: 0.9 })) line.setAttribute(k, v);
    g.append(line);
  });
  svg.append(g);
}

function renderVersus() {
  const box = $("versus"), t = tt();
  if (!box) return;
  box.hidden = !versus?.active;
  $("board")?.querySelectorAll(".versus-arrows").forEach((x) => x.remove());
  $("turn")?.classList.remove("closed");
  if (!versus?.active) return;
  const s = page.state, mine = s?.turn === versus.side, i = versus.instruction;
  // Its turn: the instruction below says whose play it is, in more words (room on the 7-inch screen).
  if (mine) $("turn")?.classList.add("closed");
  // What it does is the banner's (versusVerdict); here its level and, when it doubles, the answer one touch away.
  box.replaceChildren(el("div", "versus-head", t.against(t.versusLevels[versus.level] || "")));
  if (s?.phase === "cube_offered" && s.cube?.offered_by === versus.side) {
    const row = el("div", "versus-answer");
    for (const [answer, label] of [["take", t.take], ["drop", t.drop]]) {
      const b = el("button", `versus-${answer}`, label);
      b.type = "button"; b.setAttribute("data-testid", `versus-${answer}`);
      b.addEventListener("click", async () => {
        const r = await fetch("/api/versus/answer", { method: "POST", body: JSON.stringify({ answer }),
          headers: { "Content-Type": "application/json", "X-Gamao-PIN": sessionStorage.getItem("gamao.pin") || "" } });
        const data = await r.json().catch(() => ({}));
        $("coach-error").textContent = r.ok ? "" : data.message || data.detail || `HTTP ${r.status}`;
      });
      row.append(b);
    }
    box.append(row);
  }
  // GNU Backgammon failed (killed, stopped, too slow): said here while the kiosk tries again (issue 34).
  if (versus.problem) box.append(el("div", "versus-problem", words(versus.problem)));
  box.dataset.side = versus.side;
  if (mine && s.phase === "moving" && i?.moves) drawArrows(i.moves);
}

async function pollVersus() {
  try {
    const r = await fetch("/api/versus");
    if (r.ok) {
      const next = await r.json();
      const changed = JSON.stringify(next) !== JSON.stringify(versus);
      versus = next; window.__coach.versus = next;
      if (changed && page.state) { renderCoach(page.state, page.lang); document.dispatchEvent(new Event("gamao:coach")); }
    }
  } catch (e) { /* the kiosk restarts: try again */ }
  setTimeout(pollVersus, versus?.active ? 500 : 3000);
}

export function renderCoach(state, lang) {
  page = { state, lang };
  renderVersus();
  const section = $("coach"), t = tt();
  const off = tournament() || coach?.enabled === false;
  section.hidden = off;
  if (off) { closeView(); $("coach-wait").hidden = true; $("tutor").hidden = true; return; }
  $("coach-plays").textContent = t.plays; $("coach-cube").textContent = t.cube;
  $("review-link").textContent = t.review; $("coach-close").textContent = t.close;
  $("coach-numbers").textContent = t.numbers; $("coach-numbers").setAttribute("aria-pressed", String(numbers));
  $("coach-settings-open").textContent = t.settings; $("coach-guide").textContent = t.guide;
  if (viewing === "settings") $("coach-caption").textContent = t.settings;  // the language switched with it open
  $("lbl-tutor").textContent = t.tutor; $("lbl-marks").textContent = t.marks;
  $("lbl-takeback").textContent = t.takebackSetting;
  $("lbl-pin").textContent = t.pinLabel;
  if (coach?.settings && document.activeElement !== $("coach-takeback")) $("coach-takeback").checked = Boolean(coach.settings.takeback);
  for (const opt of $("versus-level").options) opt.textContent = t.versusLevels[opt.value];
  for (const opt of $("versus-side").options) opt.textContent = t.versusSides[opt.value];
  $("versus-go").textContent = versus?.active ? t.versusStop : t.versusGo;
  const sel = $("coach-tutor");
  for (const opt of sel.options) opt.textContent = t.levels[opt.value];
  if (coach?.settings && document.activeElement !== sel) sel.value = coach.settings.tutor;
  if (coach?.settings?.marks && document.activeElement !== $("coach-marks")) $("coach-marks").value = coach.settings.marks;
  $("coach-engine").textContent = coach?.engine && !coach.engine.available ? t.noEngine : "";
  renderWait(); renderTutor(); renderRating(); renderCube(); renderTop();
  if (viewing === "plays") showPlay();
}

async function post(path) {
  // The touch screen presses without the PIN; another device sends the coach panel's PIN field (issue 34).
  const pin = $("coach-pin") && $("coach-pin").value;
  const r = await fetch(path, { method: "POST", headers: pin ? { "X-Gamao-PIN": pin } : {} });
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
    if (page.state) { renderCoach(page.state, page.lang); document.dispatchEvent(new Event("gamao:coach")); }
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

// A change refused (a wrong PIN, no PIN) is said in the settings themselves, at once, and the menus go back to
// what is in force.
async function putSettings(body) {
  const r = await fetch("/api/coach/settings", { method: "PUT", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-Gamao-PIN": $("coach-pin").value } });
  const data = await r.json().catch(() => ({}));
  const said = r.ok ? "" : serverWords(page.lang, data.message || data.detail || `HTTP ${r.status}`);
  $("coach-error").textContent = said;
  settingsError(said);
  if (!r.ok && coach?.settings) {
    $("coach-tutor").value = coach.settings.tutor;
    if (coach.settings.marks) $("coach-marks").value = coach.settings.marks;
    $("coach-takeback").checked = Boolean(coach.settings.takeback);
  }
}

function settingsError(text) {
  let box = $("coach-settings-error");
  if (!box) {
    box = el("div", "error settings-error");
    box.id = "coach-settings-error"; box.setAttribute("data-testid", "coach-settings-error"); box.setAttribute("role", "alert");
    $("coach-settings").prepend(box);
  }
  box.textContent = text; box.hidden = !text;
  if (text) $("coach-pin").focus();
}

export function startCoach() {
  $("coach-view").insertBefore($("coach-top"), $("coach-board"));
  // The coach's settings open in the board's overlay too: room for 48 px controls on the 7-inch screen.
  $("coach-view").insertBefore($("coach-settings"), $("coach-board"));
  $("coach-plays").addEventListener("click", async () => {
    front();  // asked for from the drawer: what it opens comes in front of it
    if (viewing === "top" || viewing === "plays" || viewing === "top-board") { viewing = null; closeView(); renderTop(); return; }
    const plays = await post("/api/coach/plays");
    if (!plays) return;
    // The ranked list may have been pushed before this answer arrived: keep it rather than the unranked one.
    const pushed = coach?.plays;
    const same = pushed && pushed.position_id === plays.position_id && pushed.dice.join() === plays.dice.join();
    if (!(same && pushed.ranked)) coach = { ...(coach || {}), plays };
    shown = 0;
    if (plays.ranked || (same && pushed.ranked) || coach?.engine?.available) { viewing = "top"; renderTop(); } else { viewing = "plays"; showPlay(); renderTop(); }
  });
  $("coach-cube").addEventListener("click", async () => {
    const cube = await post("/api/coach/cube");
    // The advice may have been pushed before this acknowledgement arrived: keep it.
    if (cube && (!coach?.cube || coach.cube.pending)) { coach = { ...(coach || {}), cube }; renderCube(); }
  });
  $("coach-numbers").addEventListener("click", () => { numbers = !numbers; if (page.state) renderCoach(page.state, page.lang); });
  $("coach-settings-open").addEventListener("click", () => {
    const open = viewing !== "settings";
    closeView(); $("coach-top").hidden = true;
    viewing = open ? "settings" : null;
    $("coach-settings").hidden = !open;
    if (open) { const view = $("coach-view"); showView(); view.dataset.kind = "settings"; $("coach-caption").textContent = tt().settings; }
  });
  $("coach-prev").addEventListener("click", () => { if (viewing === "plays") { shown -= 1; showPlay(); } });
  $("coach-next").addEventListener("click", () => { if (viewing === "plays") { shown += 1; showPlay(); } });
  $("coach-close").addEventListener("click", () => {
    const was = viewing; closeView();
    if (was === "plays" || was === "top-board") { viewing = "top"; renderTop(); } else { viewing = null; renderTop(); }
  });
  $("versus-go").addEventListener("click", async () => {
    const body = versus?.active ? undefined : JSON.stringify({ level: $("versus-level").value, side: $("versus-side").value });
    const r = await fetch("/api/versus", { method: versus?.active ? "DELETE" : "POST", body,
      headers: { "Content-Type": "application/json", "X-Gamao-PIN": $("coach-pin").value } });
    const data = await r.json().catch(() => ({}));
    const said = r.ok ? "" : serverWords(page.lang, data.message || data.detail || `HTTP ${r.status}`);
    $("coach-error").textContent = said;
    settingsError(said);
    if (r.ok) { versus = data; if (page.state) renderCoach(page.state, page.lang); }
  });
  $("coach-tutor").addEventListener("change", (ev) => putSettings({ tutor: ev.target.value }));
  $("coach-marks").addEventListener("change", (ev) => putSettings({ marks: ev.target.value }));
  $("coach-takeback").addEventListener("change", (ev) => putSettings({ takeback: ev.target.checked }));
  connect();
  pollVersus();
}
