// The broadcast overlay for OBS's browser source (club/broadcast.py). Everything it draws comes from
// GET /api/overlay, which the server answers behind the director's delay: this page holds nothing back itself and
// has no control. ?board=BOARD|CLUB/BOARD|featured (the board the director features: it follows the director's
// choice, so the stream changes board without anyone touching OBS), ?layout=bar|side|full, ?lang=pt|en.
import { drawBoard, playMarks } from "/overlay/board.js";
import { playText, wordsOf } from "/overlay/i18n.js";

const params = new URLSearchParams(location.search);
const BOARD = params.get("board") || "featured";
const LAYOUT = ["bar", "side", "full"].includes(params.get("layout")) ? params.get("layout") : "bar";
const LANG = params.get("lang") === "en" ? "en" : "pt";
const POLL = 500; // ms between two asks (the delay itself is the server's)
// The words from the one table (core/page_words.py, served as /overlay/words.js): the kiosk's for the match
// ("Partida de 1 ponto", "Claras"), "overlay.*" for its own; numbers agree with their nouns ("1 casa", "167 casas").
const w = wordsOf(LANG);
const T = { table: (t) => w("overlay.table", { t }), length: (n) => (n ? w("matchTo", { n }) : w("money")),
            pips: (n) => w("overlay.pips", { n }), crawford: w("crawford"), waiting: w("overlay.waiting"),
            over: w("overlay.over"), light: w("light"), dark: w("dark"), cube: w("cube") };
const $ = (id) => document.getElementById(id);
const root = $("overlay");
root.className = LAYOUT;
document.documentElement.lang = LANG === "pt" ? "pt-BR" : "en";

let last = null, fetchedAt = 0;

function mmss(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clocks() {
  const c = last && last.clock;
  for (const side of ["light", "dark"]) {
    const el = document.querySelector(`#p-${side} .clock`);
    if (!c) { el.textContent = ""; el.classList.remove("running"); continue; }
    let bank = Number(c[side] || 0);
    const running = c.running === side && !c.flag && last.phase !== "match_over";
    if (running) {
      // the time since the last event shown (behind the delay) and since this answer came
      const used = (last.since_last || 0) + (performance.now() - fetchedAt) / 1000;
      const delayLeft = Number(c.delay_left || 0);
      bank -= Math.max(0, used - delayLeft);
    }
    el.textContent = mmss(bank);
    el.classList.toggle("running", running);
    document.querySelector(`#p-${side}`).classList.toggle("flagged", c.flag === side);
  }
}

// The head names the table as the room does: the number the tournament desk calls ("table", club/live.py), "Mesa 1" /
// "Table 1" for mesa01; a board the director named in words by its label as written (the director's page shows the
// same), else its name.
function tableName(d) {
  return d.table ? T.table(d.table) : String(d.label || d.board || "");
}

function show(d) {
  last = d; fetchedAt = performance.now();
  root.dataset.board = `${d.club}/${d.board}`;
  root.dataset.match = d.match == null ? "" : String(d.match);
  root.dataset.events = String(d.events || 0);
  $("table").textContent = tableName(d);
  if (d.match == null) {
    root.classList.add("waiting");
    root.dataset.phase = "waiting";
    $("length").textContent = T.waiting;
    for (const side of ["light", "dark"]) {
      const p = $(`p-${side}`);
      p.querySelector(".name").textContent = T[side];
      for (const k of [".score", ".pips", ".clock"]) p.querySelector(k).textContent = "";
      p.querySelector(".cube").classList.remove("owned");
    }
    $("dice").textContent = ""; $("last").textContent = "";
    drawBoard($("board"), {});
    return;
  }
  root.classList.remove("waiting");
  root.dataset.phase = d.phase;
  root.dataset.score = `${d.score.light}-${d.score.dark}/${d.length}`;
  $("length").textContent = d.phase === "match_over" ? T.over
    : T.length(d.length) + (d.crawford ? ` · ${T.crawford}` : "");
  const cube = d.cube || {};
  for (const side of ["light", "dark"]) {
    const p = $(`p-${side}`);
    p.querySelector(".name").textContent = (d.players && d.players[side]) || T[side];
    p.querySelector(".score").textContent = String(d.score[side]);
    p.querySelector(".pips").textContent = d.pips ? T.pips(d.pips[side]) : "";
    const c = p.querySelector(".cube");
    c.textContent = String(cube.value || 1);
    c.title = T.cube;
    c.classList.toggle("owned", cube.owner === side && (cube.value || 1) > 1);
    p.classList.toggle("to-move", d.turn === side && !["game_over", "match_over"].includes(d.phase));
  }
  const dice = d.dice && d.dice.values ? d.dice.values : [];
  $("dice").textContent = dice.length ? dice.map((v) => "⚀⚁⚂⚃⚄⚅"[v - 1] || v).join(" ") + ` ${dice.join("-")}` : "";
  const lp = d.last_play;
  $("last").textContent = lp ? `${(d.players && d.players[lp.side]) || T[lp.side]}: ${(lp.roll || []).join("")} ${playText(LANG, lp.play)}` : "";
  const state = { position: d.position, turn: d.turn, cube: d.cube, match: { crawford: d.crawford }, variant: d.variant,
                  dice: d.dice };
  drawBoard($("board"), state, lp ? playMarks(state, lp.side, lp.play) : null);
  clocks();
}

async function poll() {
  try {
    const r = await fetch(`/api/overlay?board=${encodeURIComponent(BOARD)}`, { cache: "no-store" });
    if (r.ok) { show(await r.json()); root.hidden = false; }
    else root.hidden = true; // no such board (yet), or no board featured: nothing on the stream
  } catch (e) { /* the director is away: keep the last picture */ }
  setTimeout(poll, POLL);
}

setInterval(clocks, 250);
poll();
