// The review page: step through a game's plays called by their size (the numbers behind "Números"), the best
// play drawn beside the play made, and per player, for the match and for the game shown: XG's PR with its BMAB
// level beside gnubg's error rate (thousandths of equity per play) and the counts of doubtful/bad/very bad plays.
import { drawBoard } from "./board.js";
import { fill, number, playText, section } from "./i18n.js";

// The review's words, from the page's one table (core/page_words.py, "review.*").
function reviewWords(lang) {
  const s = section(lang, "review");
  return { ...s, played: (p) => fill(s.played, { p }), best: (p) => fill(s.best, { p }), loses: (l) => fill(s.loses, { l }) };
}
const T = { pt: reviewWords("pt"), en: reviewWords("en") };
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let lang = params.get("lang") || localStorage.getItem("gamao.lang") || "pt";
let data = null, index = 0, numbers = false;
const match = params.get("match") || "current";
window.__review = { loaded: 0 };

const t = () => T[lang] || T.pt;
const num = (x) => (x == null ? "" : number(lang, x, 3));
// The players by their names (the review's "players", from the match's record), else Claras/Escuras; GNU
// Backgammon's side by its name without the level (issue 37).
function who(side) {
  const given = data?.players?.[side];
  if (given && /^GNU Backgammon \(.*\)$/.test(given)) return "GNU Backgammon";
  return given && given !== { light: "Light", dark: "Dark" }[side] ? given : t()[side];
}
const pl = (p) => playText(lang, p);

function rating(p) {
  if (p.status !== "rated") return t().status[p.status] || p.status;
  const size = p.size ? t().size[p.size] : (p.label ? t().label[p.label] : "✓");
  return numbers && p.loss != null ? `${size}, ${t().loses(num(p.loss))}` : size;
}

const prText = (x) => (x.decisions ? number(lang, x.pr, 1) : "—");
const levelText = (x) => (x.level ? t().levels[x.level] : "—");

function renderSummary() {
  const table = $("summary"), tt = t();
  const head = `<tr><th></th><th>${tt.pr}</th><th>${tt.level}</th><th>${tt.plays}</th><th>${tt.rate}</th>`
    + `<th>${tt.doubtful}</th><th>${tt.bad}</th><th>${tt.very_bad}</th></tr>`;
  const row = (x, s, scope, name) => `<tr data-side="${s}" data-scope="${scope}"><th>${name}</th>`
    + `<td class="pr">${prText(x)}</td><td class="level">${levelText(x)}</td><td>${x.plays}</td>`
    + `<td class="rate">${number(lang, x.error_rate, 1)}</td><td>${x.doubtful}</td><td>${x.bad}</td><td>${x.very_bad}</td></tr>`;
  const esc = (x) => String(x).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const rows = ["light", "dark"].map((s) => row(data.summary[s], s, "match", `${esc(who(s))} · ${tt.match}`));
  const game = data.game_summary ? ["light", "dark"].map((s) => row(data.game_summary[s], s, "game", `${esc(who(s))} · ${tt.thisGame}`)) : [];
  table.innerHTML = head + rows.join("") + game.join("");
}

function renderStep() {
  const tt = t(), plays = data.plays;
  $("step").textContent = plays.length ? `${index + 1}/${plays.length}` : "0/0";
  const list = $("plays");
  list.replaceChildren(...plays.map((p, i) => {
    const li = document.createElement("li");
    li.textContent = `${who(p.side)} ${p.dice.join("")}: ${pl(p.play)} · ${rating(p)}`;
    li.dataset.label = p.label || ""; li.className = i === index ? "current" : "";
    li.addEventListener("click", () => { index = i; renderStep(); });
    return li;
  }));
  if (!plays.length) {
    $("play").textContent = tt.none; $("why").replaceChildren(); $("setup").hidden = true;
    $("board-played").replaceChildren(); $("board-best").replaceChildren();
    $("cap-played").textContent = ""; $("cap-best").textContent = "";
    return;
  }
  const p = plays[index];
  $("play").textContent = `${p.number}. ${who(p.side)} ${p.dice.join("-")}: ${pl(p.play)} · ${rating(p)}`;
  $("play").dataset.label = p.label || "";
  // the position before this play, set up on the real board for a lesson (the teacher's table, /aula)
  $("setup").textContent = tt.setup;
  $("setup").onclick = () => { location.href = `/aula?setup=${encodeURIComponent(p.position_id)}&turn=${p.side}`; };
  $("setup").hidden = !p.position_id;
  drawBoard($("board-played"), { position: p.board });
  $("cap-played").textContent = tt.played(pl(p.play));
  const best = p.best_board || p.board;
  drawBoard($("board-best"), { position: best });
  $("cap-best").textContent = p.best && p.best !== p.play ? tt.best(pl(p.best)) : tt.same;
  const why = p.explanation?.sentences?.[lang] || [];
  $("why").replaceChildren(...why.map((s) => { const li = document.createElement("li"); li.textContent = s; return li; }));
}

function renderStatic() {
  const tt = t();
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
  $("back").textContent = tt.back;
  $("title").textContent = tt.title; $("lbl-game").textContent = tt.game;
  $("lang").textContent = lang === "pt" ? "English" : "Português";
  $("numbers").textContent = tt.numbers; $("numbers").setAttribute("aria-pressed", String(numbers));
}

async function load(game) {
  const q = new URLSearchParams({ match });
  if (game != null) q.set("game", game);
  const r = await fetch(`/api/coach/review?${q}`);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    $("review").hidden = true; $("refused").hidden = false;
    $("refused").textContent = body.detail || body.message || `HTTP ${r.status}`;
    window.__review.loaded += 1;
    return;
  }
  data = body; index = Math.min(index, Math.max(0, data.plays.length - 1));
  const sel = $("game");
  sel.replaceChildren(...(data.games.length ? data.games : [data.game]).map((g) => {
    const o = document.createElement("option"); o.value = g; o.textContent = g; return o;
  }));
  sel.value = String(data.game);
  render();
  window.__review.loaded += 1;
  // Plays read back from the journal are rated by the coach's worker: look again until all are done.
  if (data.pending > 0 || data.cube_pending) setTimeout(() => load(data.game), 1000);
}

function render() { renderStatic(); if (data) { renderSummary(); renderStep(); } }

$("prev").addEventListener("click", () => { if (data && index > 0) { index -= 1; renderStep(); } });
$("next").addEventListener("click", () => { if (data && index < data.plays.length - 1) { index += 1; renderStep(); } });
$("game").addEventListener("change", (ev) => { index = 0; load(ev.target.value); });
$("numbers").addEventListener("click", () => { numbers = !numbers; render(); });
$("lang").addEventListener("click", () => { lang = lang === "pt" ? "en" : "pt"; localStorage.setItem("gamao.lang", lang); render(); });
renderStatic();
load(params.get("game"));
