// The kiosk page: renders the referee's public state (docs/CONTRACTS.md) pushed over /ws.
import { drawBoard, numberedFor, ownNumber, playMarks } from "./board.js";
import { TEXT, serverWords, describe, number, playText, severity } from "./i18n.js";
import { openControls } from "./controls.js";
import { renderCoach, startCoach, tutorWarning, versusVerdict } from "./coach.js";
import { openChouette, renderChouette } from "./chouette.js";
import { renderClock } from "./clock.js";
import { conventionMarks, conventionsCard, renderConventions, startConventions } from "./conventions.js";

const $ = (id) => document.getElementById(id);
const PIPS = { 1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]] };

const params = new URLSearchParams(location.search);
let lang = params.get("lang") || localStorage.getItem("gamao.lang") || "";
let state = null;
let info = { language: "pt", pin_set: true };
let pane = "";            // the drawer's open pane: "", coach, exports, rules, summary
window.__gamao = { renders: 0, lastRenderAt: 0, state: null };

function t() { return TEXT[lang] || TEXT.pt; }
// The player's name; a match started without names ("Light"/"Dark", the API's default) says Claras/Escuras.
// GNU Backgammon's side is recorded as "GNU Backgammon (expert)" (kiosk/versus.py): the screen says its name, and
// its level (in the page's words) where the match against it is shown.
function name(side) {
  const given = state?.match?.players?.[side];
  if (given && /^GNU Backgammon \(.*\)$/.test(given)) return "GNU Backgammon";
  return given && given !== { light: "Light", dark: "Dark" }[side] ? given : t()[side];
}

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
  $("score-light").textContent = number(lang, match?.score?.light ?? 0);
  $("score-dark").textContent = number(lang, match?.score?.dark ?? 0);
  const length = match?.length || 0;
  $("match-length").textContent = (length ? t().matchTo(length) : t().money) + (match?.game ? ` · ${t().game(match.game)}` : "");
  const cr = $("crawford");
  cr.hidden = !(match?.crawford || match?.post_crawford);
  cr.textContent = match?.crawford ? t().crawford : t().postCrawford;
  $("tournament").hidden = !tournament(); $("tournament").textContent = t().tournament;
}

// The seeds' other games (R30-R32): the variant's name (its rule's words are on the Regras card), Plakoto's pins,
// Russian's place in the chain of doubles and checkers still to enter, Jacquet's messengers. No rule codes.
function renderVariant() {
  const v = state?.variant, badge = $("variant"), chain = $("chain"), info = $("variant-info"), tt = t();
  badge.hidden = !v; chain.hidden = true; info.hidden = true;
  if (!v) return;
  badge.textContent = tt.variants[v.name] || v.name;
  badge.dataset.variant = v.name;
  const pos = state.position || {};
  const c = state.chain;
  if (c) { chain.hidden = false; chain.textContent = tt.chain(c); chain.dataset.link = c.link; }
  let text = "";
  // The pins in the board's numbering (the mover's, as its labels and the plays): one numbering on the screen.
  const mover = numberedFor(state);
  const pins = pos.pinned?.length ? pinsByPinner(pos.pinned, mover) : null;
  if (pos.waiting) text = tt.waiting(`${name("light")} ${pos.waiting.light}`, `${name("dark")} ${pos.waiting.dark}`);
  if (pos.messenger) {
    const arrived = ["light", "dark"].filter((s) => pos.messenger[s]).map(name);
    text = arrived.length ? tt.messenger(arrived.join(", ")) : tt.messengerNone;
  }
  info.hidden = !text && !pins; info.textContent = text;
  if (!pins) return;
  // Grouped by who pins them, one sentence ("Presas por Bruno: 3, 7, 12; por Ana: 5, 9"); when that needs more than
  // the line's two lines (many pins, long names), the pinners' names give way to their chips (as in the score).
  const sentence = (who) => pins.map(([side, points], i) => (i ? tt.pinnedAlso : tt.pinnedBy)(who(side), points.join(", "))).join("; ");
  info.textContent = sentence(name);
  if (info.scrollHeight <= info.clientHeight + 1) return;
  const parts = sentence((side) => `\u0001${side}\u0001`).split("\u0001");
  info.replaceChildren(...parts.map((part, i) => {
    if (i % 2 === 0) return part;
    const chip = document.createElement("i");
    chip.className = `chip ${part}`;
    return chip;
  }));
}

addEventListener("resize", () => { if (state) renderVariant(); });  // the pins' sentence chosen for this width

// Plakoto's pins as [pinner, [points in the mover's numbering, ascending]], light's pinner first.
function pinsByPinner(pinned, mover) {
  return ["light", "dark"].map((pinner) => [pinner, pinned.filter((p) => p.side !== pinner)
    .map((p) => ownNumber(state, mover, p.point)).sort((a, b) => a - b)]).filter(([, points]) => points.length);
}

function tournament() { return Boolean(state?.match?.rules?.tournament); }

function renderVerdict() {
  const verdicts = state?.verdicts || [];
  const last = verdicts[verdicts.length - 1];
  let sev = "pending", head, detail = "";
  const resign = state?.resignation;
  // One verdict on the screen: the tutor's warning (before the play stands) and GNU Backgammon's double or play
  // are said in the banner, never in a box over another verdict.
  const tutor = tutorWarning(state, lang in TEXT ? lang : "pt");
  const engine = tutor ? null : versusVerdict(state, lang in TEXT ? lang : "pt", name);
  if (tutor || engine) {
    const said = tutor || engine;
    const banner = $("banner");
    banner.className = `banner ${said.severity}`;
    banner.dataset.severity = said.severity;
    banner.dataset.verdict = said.verdict;
    $("verdict-head").textContent = said.head;
    $("verdict-detail").textContent = said.detail;
    return;
  }
  if (resign) {
    head = t().resigns(name(resign.side), resign.value);  // waiting for the opponent's answer
  } else if (last) {
    sev = severity(last);
    const game = last.verdict === "match_over" ? verdicts.findLast((v) => v.verdict === "game_over") : null;
    ({ head, detail } = describe(lang in TEXT ? lang : "pt", last, name, game));
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
    // the director's call to this table (issue 39) is news, not trouble
    p.textContent = `${n.kind === "tournament_call" ? "" : "⚠ "}${n.message?.[lang] || n.message?.pt || n.kind}`;
    return p;
  }));
  box.hidden = !notices.length;
  box.classList.toggle("call", notices.length > 0 && notices.every((n) => n.kind === "tournament_call"));
}

// What the drawn board marks: an illegal play's points and checker, or else the last play.
function marks() {
  const conv = conventionMarks(state);  // issue 36: the point touched, where a checker left off goes
  if (conv) return conv;
  const last = (state?.verdicts || []).at(-1);
  if (last && last.reason === "point_covered") {  // issue 33: the points an object stands on, marked
    return playMarks(state, last.side || state.turn, (last.covered || []).map((p) => `${p}/${p}`).join(" "));
  }
  if (last && (last.verdict === "illegal" || last.verdict === "unplayed_die") && last.reason !== "new_setup_mid_game") {
    const m = playMarks(state, last.side || state.turn, last.play || last.move || "", true);
    if (!m.to.length && last.point) m.to.push(...playMarks(state, last.side || state.turn, `${last.point}/${last.point}`).to);
    return m;
  }
  const game = state?.match?.game;
  const move = (state?.moves || []).filter((m) => !game || !m.game || m.game === game).at(-1);
  return move?.play ? playMarks(state, move.side, move.play) : null;
}

// A move of the list, touched, opens under it "Estudar esta jogada": the position before that play on the lesson page
// (/aula?match=N&move=M, the teacher's table sets it up on the board), for any game (the variants too). Only for a
// recorded match (a journal id), not in a tournament (the board is the tournament's, no help, as the coach) nor in a
// chouette (its list is one line). `move` counts the match's plays from 1, every game (the referee's list, whole).
let studied = null;

function studyable() {
  return /^\d+$/.test(String(state?.match?.id ?? "")) && !tournament() && !state?.chouette;
}

function renderMoves() {
  const list = $("move-list"), game = state?.match?.game, tt = t();
  const all = state?.moves || [], match = String(state?.match?.id ?? ""), can = studyable();
  // a new play, another match: the list goes back to showing the newest move
  if (studied && (!can || studied.match !== match || studied.count !== all.length)) studied = null;
  const moves = all.map((m, i) => [m, i + 1]).filter(([m]) => !game || !m.game || m.game === game);
  list.replaceChildren(...moves.map(([m, k]) => {
    const li = document.createElement("li");
    li.className = m.side || "";
    li.value = m.number || 0; li.dataset.move = String(k);
    // A roll with no legal play (a dance) has an empty play: say so rather than leave "66:" hanging.
    const play = m.play || ((m.roll || []).length ? tt.noPlay : "");
    // Number and play always show in full; a long name gives way (ellipsis) on a narrow screen.
    const part = (cls, text) => { const s = document.createElement("span"); s.className = cls; s.textContent = text; return s; };
    // The side's colour, not its name: the names are on the score, and the play keeps its room at a readable size.
    const who = part("who", ""); const chip = document.createElement("i"); chip.className = `chip ${m.side || ""}`;
    who.append(chip); who.title = name(m.side); who.setAttribute("aria-label", name(m.side));
    li.append(part("no", `${m.number || ""}.`), who, part("play", `${(m.roll || []).join("")}: ${playText(lang, play)}`));
    if (can) {
      li.classList.add("pick");
      li.onclick = () => { studied = studied?.move === k ? null : { match, move: k, count: all.length }; renderMoves(); };
      if (studied?.move === k) {
        const a = document.createElement("a");
        a.className = "button study"; a.dataset.testid = "study-play"; a.textContent = tt.studyPlay;
        a.href = `/aula?match=${match}&move=${k}`;
        a.onclick = (e) => e.stopPropagation();
        li.classList.add("studied"); li.append(a);
      }
    }
    return li;
  }));
  keepMovesInView();
}

// The newest move in view, or the one being studied with its button.
function keepMovesInView() {
  const list = $("move-list"), row = list.querySelector("li.studied");
  if (row) row.scrollIntoView({ block: "nearest" }); else list.scrollTop = list.scrollHeight;
}

function renderStatic() {
  const tt = t();
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
  $("lbl-dice").textContent = tt.dice; $("lbl-cube").textContent = tt.cube; $("lbl-pips").textContent = tt.pips;
  $("lbl-moves").textContent = tt.moves; $("lbl-export").textContent = tt.export;
  $("calibrate-link").textContent = tt.calibrate; $("controls-btn").textContent = tt.controls;
  $("coach-btn").textContent = tt.coach; $("rules-btn").textContent = tt.rules; $("exports-btn").textContent = tt.export;
  $("summary-btn").textContent = tt.summaryBtn; $("review-link-2").textContent = tt.review;
  $("chouette-btn").textContent = tt.chouette;
  $("lang").textContent = tt.language;
  $("offline").textContent = tt.offline;
  drawerTitle();
}

// The toolbar shows only what exists now: no coach in tournament mode, no chouette in the variants (R26-R29 are
// backgammon's), the match summary once the match is over.
function renderToolbar() {
  // coach.js hides its section when the coach is off (tournament mode, a variant GNU Backgammon does not know).
  const coachOff = tournament() || $("coach").hidden;
  $("coach-btn").hidden = coachOff;
  if (coachOff && pane === "coach") { openPane(""); return; }
  // The chouette's button only in a chouette (a new one starts from Controle's new-match form).
  $("chouette-btn").hidden = Boolean(state?.variant) || !state?.chouette;
  $("summary-btn").hidden = state?.phase !== "match_over";
  // The coach has something to say (a tutor's warning, a rating, cube advice) while its pane is closed.
  const news = ["tutor", "rating", "cube-advice"].some((id) => !$(id).hidden);
  // The tutor's warning (before the play stands, R23) comes to the players by itself: coach.js shows it with the
  // best play's board over the board, in front of the drawer; its "wait" is in the panel.
  $("coach-btn").classList.toggle("news", news && pane !== "coach");
  for (const b of document.querySelectorAll(".toolbar button[data-pane]")) b.classList.toggle("open", b.dataset.pane === pane);
}

// The drawer's head in the page's language (set again when the language is switched with the drawer open).
function drawerTitle() {
  const titles = { coach: t().coach, exports: t().export, rules: t().rulesTitle, summary: t().summaryTitle };
  $("drawer-title").textContent = titles[pane] || "";
}

function openPane(which) {
  pane = pane === which ? "" : which;
  $("drawer").hidden = !pane;
  // The drawer and the coach's view (coach.js) both lie over the board: the one opened last is in front.
  if (pane) document.querySelector(".board-wrap").dataset.front = "drawer";
  drawerTitle();
  for (const sec of document.querySelectorAll(".drawer .pane")) {
    // coach.js hides its section in tournament mode: the pane shows only when the coach is there.
    if (sec.id === "coach") sec.classList.toggle("closed", pane !== "coach");
    else sec.hidden = sec.dataset.pane !== pane;
  }
  document.body.dataset.pane = pane;
  if (state) renderToolbar();
}

// The rules of the game being played, in players' words (shared/seeds), never a rule code.
function renderRules() {
  const card = $("rules-card"), key = state?.variant?.name || "backgammon", tt = t();
  const conv = conventionsCard(state, lang);  // issue 36: the table's conventions of this rule set
  const id = `${lang}:${key}:${JSON.stringify(conv)}`;
  if (card.dataset.for === id) return;
  card.dataset.for = id;
  const h = document.createElement("h3");
  h.textContent = tt.gameNames[key] || key;
  const ul = document.createElement("ul");
  for (const line of tt.rulesCard[key] || []) { const li = document.createElement("li"); li.textContent = line; ul.append(li); }
  card.replaceChildren(h, ul);
  if (conv) {
    const h2 = document.createElement("h3"), ul2 = document.createElement("ul");
    h2.textContent = conv.title; ul2.dataset.testid = "conventions-card";
    for (const line of conv.lines) { const li = document.createElement("li"); li.textContent = line; ul2.append(li); }
    card.append(h2, ul2);
  }
}

// At the match's end: who won, the final score, the games, and the way to the review and the files.
function renderSummary() {
  const box = $("summary"), tt = t();
  if (state?.phase !== "match_over") { box.replaceChildren(); return; }
  const m = state.match || {}, score = m.score || {};
  const winner = (score.light ?? 0) > (score.dark ?? 0) ? "light" : "dark";
  const head = document.createElement("div"); head.className = "winner";
  head.textContent = tt.verdicts.match_over({ winner }, name);
  const table = document.createElement("table");
  for (const side of ["light", "dark"]) {
    const tr = document.createElement("tr");
    for (const text of [name(side), number(lang, score[side] ?? 0)]) { const td = document.createElement("td"); td.textContent = text; tr.append(td); }
    table.append(tr);
  }
  const games = document.createElement("div");
  games.textContent = `${m.length ? tt.matchTo(m.length) : tt.money} · ${tt.gamesPlayed(m.game || 1)}`;
  const say = document.createElement("div"); say.textContent = tt.summaryLinks;
  const links = document.createElement("div"); links.className = "links";
  const id = encodeURIComponent(m.id ?? "current");
  const link = (href, text, dl) => { const a = document.createElement("a"); a.className = "button"; a.href = href; a.textContent = text;
    if (dl) a.setAttribute("download", ""); return a; };
  links.append(link("/review", tt.review), link(`/api/matches/${id}/export.mat`, ".mat", true));
  if (!state.variant) links.append(link(`/api/matches/${id}/export.sgf`, ".sgf", true));
  box.replaceChildren(head, table, games, say, links);
  // Not opened by itself (the board stays in view): the toolbar's button says the match is over, in amber.
}

function toast(text, seconds = 8) {
  const box = $("toast");
  box.textContent = text; box.hidden = false;
  setTimeout(() => { box.hidden = true; }, seconds * 1000);
}

export function render() {
  renderStatic();
  if (!state) return;
  // An illegal play: the board drawn as it stands on the wood (the verdict's "board"), the play marked on it.
  const last = (state.verdicts || []).at(-1);
  const seen = ["illegal", "unplayed_die"].includes(last?.verdict) && last.board ? last.board : null;
  drawBoard($("board"), seen ? { ...state, position: { ...state.position, ...seen, pinned: state.position?.pinned } } : state, marks());
  renderDice(state.dice);
  renderCube(state.cube, state.match);
  renderScore(state.match);
  // No one "to play" in the opening (each player rolls one die) nor once a game or the match is over.
  const over = ["opening", "game_over", "match_over"].includes(state.phase);
  // A roll again (a cocked die, a roll out of turn) names who rolls again, never someone else "to play".
  const lastV = (state.verdicts || []).at(-1);
  const again = lastV?.verdict === "reroll" && lastV.roller ? lastV.roller : null;
  $("turn").textContent = state.turn && !over ? (again ? t().rollAgain(name(again)) : t().toPlay(name(state.turn))) : "";
  $("turn").hidden = over;
  // Tournament rules allow no counting aids on the display: the pip counts are removed, not greyed.
  $("pips").classList.toggle("hidden", tournament());
  $("pips-light").textContent = tournament() ? "" : number(lang, state.pips?.light ?? "");
  $("pips-dark").textContent = tournament() ? "" : number(lang, state.pips?.dark ?? "");
  renderVerdict();
  renderNotices();
  renderVariant();
  renderMoves();
  renderCoach(state, lang in TEXT ? lang : "pt");
  renderChouette($("chouette"), state, lang);
  // The chouette's files (ledger, games) go with the other exports, as 48 px buttons.
  for (const old of $("exports").querySelectorAll(".ch-links")) old.remove();
  const chLinks = $("chouette").querySelector(".ch-links");
  if (chLinks) { for (const a of chLinks.querySelectorAll("a")) a.classList.add("button"); $("exports").append(chLinks); }
  renderClock(state, lang in TEXT ? lang : "pt");  // issue 21: the clock of a timed match
  renderConventions(state, lang in TEXT ? lang : "pt", name);  // issue 36: the touch-move claim
  if ($("chouette-dialog").open) $("chouette-dialog").redraw?.();
  // A long verdict (the chouette's, a resignation) in smaller type, so the essentials keep their room.
  $("verdict-head").classList.toggle("long", $("verdict-head").textContent.length > 56);
  const id = encodeURIComponent(state.match?.id ?? "current");
  $("export-mat").href = `/api/matches/${id}/export.mat`;
  $("export-sgf").href = `/api/matches/${id}/export.sgf`;
  $("export-sgf").hidden = Boolean(state.variant);  // SGF has no game type for the variants: .mat writes our text
  renderToolbar();
  renderSummary();
  renderRules();
  // The newest move in view once everything below it is laid out (the coach's "wait" or the clock's answer, drawn
  // after the list, can make it shorter).
  keepMovesInView();
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

// The first of the browser's languages the page speaks; Portuguese when none of them is.
function browserLanguage() {
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (TEXT[base]) return base;
  }
  return "pt";
}

// The display settings (language, PIN, camera, voice). A request the network lost (Chromium ends requests with
// ERR_NETWORK_CHANGED when the machine's network changes: webguard/page.py) is asked again a second later; an
// answer that is not the settings leaves the defaults.
async function kioskInfo() {
  for (;;) {
    let reply = null;
    try { reply = await fetch("/api/kiosk"); } catch { await new Promise((again) => setTimeout(again, 1000)); }
    if (reply) return reply.ok ? reply.json().catch(() => info) : info;
  }
}

async function start() {
  info = await kioskInfo();
  // The page's language: the one chosen on this screen (?lang=, the EN/PT touch), else the config's, else the
  // browser's; never the operating system's locale (a Pi left in LANG=C.UTF-8 is no one's choice).
  if (!TEXT[lang]) lang = info.language_set ? info.language : browserLanguage();
  $("lang").addEventListener("click", () => {
    lang = lang === "pt" ? "en" : "pt";
    localStorage.setItem("gamao.lang", lang);
    render();
  });
  $("controls-btn").addEventListener("click", () => openControls($("controls"), t(), state, info, lang,
    () => openChouette($("chouette-dialog"), () => state, lang)));
  for (const b of document.querySelectorAll(".toolbar button[data-pane]")) b.addEventListener("click", () => openPane(b.dataset.pane));
  $("drawer-close").addEventListener("click", () => openPane(""));
  // The coach's refusals (kiosk/coach.py, English) in the page's language.
  new MutationObserver(() => {
    const box = $("coach-error"), said = serverWords(lang, box.textContent);
    if (said !== box.textContent) box.textContent = said;
  }).observe($("coach-error"), { childList: true, characterData: true, subtree: true });
  // The coach's news arrives on its own socket (coach.js): the toolbar follows it.
  new MutationObserver(() => { if (state) renderToolbar(); }).observe($("coach"), { attributes: true, subtree: true,
                                                                                    attributeFilter: ["hidden"] });
  // The voice (kiosk/voice.py) is missing on this machine: said once, and play goes on.
  if (info.voice === "missing" && !sessionStorage.getItem("gamao.voice-told")) {
    sessionStorage.setItem("gamao.voice-told", "1");
    toast(t().voiceMissing);
  }
  // The coach's news (the tutor's warning, GNU Backgammon's instruction) changes what the banner says.
  document.addEventListener("gamao:coach", () => { if (state) { renderVerdict(); renderToolbar(); } });
  // Whatever changes the list's height later (the coach's news on its own socket), the newest move stays in view.
  new ResizeObserver(keepMovesInView).observe($("move-list"));
  $("chouette-btn").addEventListener("click", () => openChouette($("chouette-dialog"), () => state, lang));
  startConventions($("board"));
  render();
  connect();
  startCoach();
}

start();
