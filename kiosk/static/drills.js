// The teacher's table (issue 38): students, drills set up on the real board by the camera's guidance, the pip
// count's number pad, the student's own mistakes coming back, progress as a chart. Portuguese in the seeds'
// words and English; the set-up steps come from the server in both (core/messages.py setup_words).
import { drawBoard, playMarks } from "/static/board.js";
import { fill, playText, section } from "/static/i18n.js";

// The page's words in one language, from the one table (core/page_words.py, "drills.*"; numbers agree with their
// nouns there: "1 resposta", "2 respostas"), with the sentences filled here.
function words(lang) {
  const t = section(lang, "drills");
  const verdict = (k) => ({ double: t.doubles[k.double ? "yes" : "no"], take: t.takes[k.take ? "yes" : "no"] });
  const cap = (s) => `${s[0].toUpperCase()}${s.slice(1)}`;
  return { ...t,
    mistakes: (n) => fill(t.mistakes, { n }), answers: (n) => fill(t.answers, { n }), due: (n) => fill(t.due, { n }),
    setupStage: (n) => fill(t.setupStage, { n }), more: (n) => fill(t.more, { n }),
    playStage: (dice, side) => fill(t.playStage, { dice, side }),
    counts: (l, d) => fill(t.counts, { l, d }), given: (l, d) => fill(t.given, { l, d }),
    seconds: (s) => fill(t.seconds, { s }), method: (side) => fill(t.method, { side }),
    keith: (k) => fill(t.keith, { l: k.counts.light, d: k.counts.dark, ...verdict(k) }),
    truth: (k, by) => fill(t.truth, { by: t.by[by === "gnubg" ? "gnubg" : "keith"], ...verdict(k) }),
    cardRight: (r) => fill(t.cardRight, r), cardWrong: (r) => fill(t.cardWrong, r),
    reply: (r) => fill(t.reply, { dice: `${r.slice(0, 1)}-${r.slice(1, 2)}`, play: playText(lang, r.slice(3)) }),
    openingBest: (b) => fill(t.openingBest, { b }),
    recorded: (m, n) => fill(t.recorded, { m, n }),
    cardDouble: (side) => fill(t.cardDouble, { side }), cardTake: (side) => fill(t.cardTake, { side }),
    cubeAt: (c) => fill(t.cubeAt, { v: c.value })
      + (c.length ? fill(t.cubeAtScore, { l: c.score.light, d: c.score.dark, n: c.length }) : ""),
    cubeCardRight: (r, d) => fill(t.cubeCardRight, { best: cap(d[r.best]), box: r.box }),
    cubeCardWrong: (r, d) => fill(t.cubeCardWrong, { best: d[r.best], was: d[r.was] }),
  };
}
const WORDS = { pt: words("pt"), en: words("en") };

let lang = localStorage.getItem("gamao-lang") === "en" ? "en" : "pt";
let student = null, lastKind = null, lastTarget = null, timer = null, padField = "light";
const pad = { light: "", dark: "" };
const $ = (id) => document.getElementById(id);
const W = () => WORDS[lang];

async function api(method, path, body) {
  const r = await fetch(path, { method, headers: body ? { "Content-Type": "application/json" } : {},
                                body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const d = data.detail;
    $("refused").textContent = (d && (d.message || (typeof d === "string" ? d : ""))) || data.message || r.statusText;
    $("refused").hidden = false;
    throw new Error(String(r.status));
  }
  $("refused").hidden = true;
  return data;
}

function show(view) {
  for (const id of ["students", "menu", "drill"]) $(id).hidden = id !== view;
  if (view !== "drill" && timer) { clearInterval(timer); timer = null; }
}

async function students() {
  show("students");
  $("title").textContent = W().title;
  $("create").textContent = W().create;
  $("new-name").placeholder = W().namePh;
  const { students: list } = await api("GET", "/api/students");
  $("student-list").replaceChildren(...list.map((s) => {
    const li = document.createElement("li"), b = document.createElement("button");
    b.type = "button"; b.dataset.testid = "drills-student";
    b.innerHTML = `<b></b><small></small>`;
    b.querySelector("b").textContent = s.name;
    b.querySelector("small").textContent = `${W().answers(s.answers)} · ${W().due(s.due)}`;
    b.onclick = () => menu(s);
    li.append(b);
    return li;
  }));
}

async function menu(s, fresh = false) {
  // the coach's reviews of her matches read again (new blunders become cards), then the menu drawn again
  if (!fresh) api("POST", `/api/students/${s.id}/matches/refresh`).then((r) => r.cards_added && menu(s, true)).catch(() => {});
  const { students: list } = await api("GET", "/api/students");
  student = list.find((x) => x.id === s.id) || s;
  show("menu");
  $("title").textContent = `${W().title}: ${student.name}`;
  $("go-pips").textContent = W().pips;
  $("go-mistakes").textContent = W().mistakes(student.due || 0);
  $("go-mistakes").disabled = !student.due;
  $("go-setup").textContent = W().setup;
  $("go-opening").textContent = W().opening;
  $("go-cube").textContent = W().cube;
  $("go-bearoff").textContent = W().bearoff;
  $("chart").src = `/api/students/${student.id}/progress.svg?lang=${lang}&t=${Date.now()}`;
}

async function start(kind, target) {
  lastKind = kind; lastTarget = target;
  pad.light = pad.dark = ""; padField = "light";
  const q = new URLSearchParams(location.search);
  const turn = q.get("turn") === "dark" ? "dark" : "light";
  // a variant's position as JSON (/aula?setup=JSON&game=plakoto)
  const game = ["plakoto", "russian", "jacquet", "nackgammon"].includes(q.get("game")) ? { game: q.get("game") } : {};
  await api("POST", "/api/drills/start", { student: student.id, kind,
    ...(target ? { target, turn, ...game } : {}) });
  show("drill");
  drillTitle(kind);
  await refresh();
  timer = setInterval(refresh, 500);
}

function drillTitle(kind) {
  $("title").textContent = `${student.name}: ${kind === "pips" ? W().pips : kind === "mistake" ? W().mistakesTitle : kind === "opening" ? W().opening : kind === "cube" ? W().cube : kind === "bearoff" ? W().bearoff : W().setup}`;
}

function renderPad() {
  $("f-light").textContent = `${W().light}: ${pad.light || "…"}`;
  $("f-dark").textContent = `${W().dark}: ${pad.dark || "…"}`;
  $("f-light").classList.toggle("active", padField === "light");
  $("f-dark").classList.toggle("active", padField === "dark");
  const keys = ["7", "8", "9", W().del, "4", "5", "6", "0", "1", "2", "3", W().ok];
  $("keys").replaceChildren(...keys.map((k) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = k; b.dataset.key = k === W().ok ? "ok" : k === W().del ? "del" : k;
    if (k === W().ok) b.className = "ok";
    b.onclick = () => press(b.dataset.key);
    return b;
  }));
}

async function press(key) {
  if (key === "del") pad[padField] = pad[padField].slice(0, -1);
  else if (key === "ok") {
    if (padField === "light" && pad.light) padField = "dark";
    else if (pad.light && pad.dark) {
      await api("POST", "/api/drills/pips", { light: Number(pad.light), dark: Number(pad.dark) });
      return refresh();
    }
  } else if (pad[padField].length < 3) pad[padField] += key;
  renderPad();
}

function resultHtml(kind, r) {
  const w = W(), div = document.createElement("div");
  const line = (text, cls) => { const p = document.createElement("p"); p.textContent = text; if (cls) p.className = cls; div.append(p); };
  if (kind === "pips") {
    line(r.right ? w.right : w.wrong, r.right ? "right" : "wrong");
    line(w.counts(r.counts.light, r.counts.dark));
    line(`${w.given(r.given.light, r.given.dark)} · ${w.seconds(String(r.seconds).replace(".", lang === "pt" ? "," : "."))}`);
    for (const side of ["light", "dark"]) {  // point × checkers, summed: "11×2 + 10×1 + … = 91"
      const parts = r.method_text[side].split(" = ");
      line(`${w.method(w[side])} ${parts[0]} = ${parts[parts.length - 1]}`);
    }
    line(w.keith(r.keith));
  } else if (kind === "mistake" && r.question) {  // a cube card
    line(r.right ? w.cubeCardRight(r, w.decision) : w.cubeCardWrong(r, w.decision), r.right ? "right" : "wrong");
    if (r.learnt) line(w.learnt);
  } else if (kind === "mistake") {
    line(r.right ? w.cardRight(r) : w.cardWrong(r), r.right ? "right" : "wrong");
    if (r.learnt) line(w.learnt);
  } else if (kind === "cube") {
    line(r.right ? w.right : w.wrong, r.right ? "right" : "wrong");
    line(w.truth(r.truth, r.by));
    line(w.keith(r.keith));
    line(w.keithRule);
  } else if (kind === "opening" || kind === "bearoff") {
    line(r.words[lang], r.right ? "right" : "wrong");
    if (r.played !== r.best) line(w.openingBest(r.best_words[lang]));
  } else line(w.setupDone, "right");
  return div;
}

async function refresh() {
  const { session: s } = await api("GET", "/api/drills/session");
  if (!s) return;
  // While setting up, the board is numbered for the side of the first step (its own numbering, as the step is
  // written) and the step's points are marked; no cube in a drill.
  const first = s.stage === "setup" && s.setup && s.setup.moves[0];
  const view = { position: s.target.board, turn: first ? first.side : s.target.turn, match: { crawford: true },
    variant: s.game && s.game !== "standard" ? { name: s.game } : null };  // each game's numbering, its pins
  drawBoard($("target"), view, first ? playMarks(view, first.side, `${first.from}/${first.to}`) : null);
  const w = W();
  $("pad").hidden = !(s.stage === "answer" && s.kind === "pips");
  $("cube").hidden = !(s.stage === "answer" && s.kind === "cube");
  $("decide").hidden = !(s.stage === "answer" && s.kind === "mistake" && s.question);
  $("steps").hidden = s.stage !== "setup";
  $("result").hidden = s.stage !== "done";
  $("stage").hidden = s.stage === "done";
  $("again").hidden = s.stage !== "done";
  $("again").textContent = w.again;
  if (s.stage === "setup") {
    if (!s.setup) { $("stage").textContent = w.noCamera; $("steps").replaceChildren(); return; }
    $("stage").textContent = w.setupStage(s.setup.checkers_moved);
    const items = s.setup.moves.slice(0, 4).map((m) => {
      const li = document.createElement("li"); li.textContent = m.words[lang]; return li;
    });
    if (s.setup.moves.length > 4) {
      const li = document.createElement("li");
      li.className = "more"; li.textContent = w.more(s.setup.moves.length - 4); items.push(li);
    }
    $("steps").replaceChildren(...items);
  } else if (s.stage === "answer" && s.question) {  // a cube card: one question, two answers
    const side = w.side[s.side];
    $("stage").textContent = s.cube ? w.cubeAt(s.cube) : w.cubeStage;
    $("q-card").textContent = s.question === "double" ? w.cardDouble(side) : w.cardTake(side);
    const [yes, no] = s.question === "double" ? ["double", "no_double"] : ["take", "pass"];
    $("d-yes").textContent = w.decision[yes]; $("d-yes").dataset.answer = yes;
    $("d-no").textContent = w.decision[no]; $("d-no").dataset.answer = no;
  } else if (s.stage === "answer" && s.kind === "cube") {
    $("stage").textContent = w.cubeStage;
    renderCube();
  } else if (s.stage === "answer") {
    $("stage").textContent = w.pipsStage;
    if (!$("keys").children.length || $("keys").dataset.lang !== lang) { renderPad(); $("keys").dataset.lang = lang; }
  } else if (s.stage === "play") {
    $("stage").textContent = w.playStage(s.dice.join("-"), w.side[s.target.turn]);
    $("result").hidden = !s.reply;
    if (s.reply) { const p = document.createElement("p"); p.textContent = w.reply(s.reply); $("result").replaceChildren(p); }
  } else if (s.stage === "done") {
    $("stage").textContent = w.done;
    $("result").replaceChildren(resultHtml(s.kind, s.result));
    if (timer) { clearInterval(timer); timer = null; }
  }
}

$("new-student").onsubmit = async (e) => {
  e.preventDefault();
  const name = $("new-name").value;
  const s = await api("POST", "/api/students", { name });
  $("new-name").value = "";
  await menu(s);
};
$("go-pips").onclick = () => start("pips");
$("go-mistakes").onclick = () => start("mistake");
$("go-opening").onclick = () => start("opening");
$("go-cube").onclick = () => start("cube");
$("go-bearoff").onclick = () => start("bearoff");
// The chart is small beside the menu: a touch shows it over the whole screen, another brings the menu back.
$("chart").onclick = () => $("menu").classList.toggle("chart-only");
const cubeAnswer = { double: null, take: null };
function renderCube() {
  const w = W();
  $("q-double").textContent = w.qDouble; $("q-take").textContent = w.qTake;
  $("a-double").textContent = w.double; $("a-nodouble").textContent = w.noDouble;
  $("a-take").textContent = w.take; $("a-drop").textContent = w.drop; $("a-ok").textContent = w.ok;
  $("a-double").classList.toggle("chosen", cubeAnswer.double === true);
  $("a-nodouble").classList.toggle("chosen", cubeAnswer.double === false);
  $("a-take").classList.toggle("chosen", cubeAnswer.take === true);
  $("a-drop").classList.toggle("chosen", cubeAnswer.take === false);
  $("a-ok").disabled = cubeAnswer.double === null || cubeAnswer.take === null;
}
$("a-double").onclick = () => { cubeAnswer.double = true; renderCube(); };
$("a-nodouble").onclick = () => { cubeAnswer.double = false; renderCube(); };
$("a-take").onclick = () => { cubeAnswer.take = true; renderCube(); };
$("a-drop").onclick = () => { cubeAnswer.take = false; renderCube(); };
$("a-ok").onclick = async () => {
  await api("POST", "/api/drills/cube", { double: cubeAnswer.double, take: cubeAnswer.take });
  cubeAnswer.double = cubeAnswer.take = null;
  refresh();
};
for (const id of ["d-yes", "d-no"]) {
  $(id).onclick = async () => { await api("POST", "/api/drills/decision", { answer: $(id).dataset.answer }); refresh(); };
}
$("setup-form").onsubmit = (e) => { e.preventDefault(); start("setup", $("setup-id").value); };
$("f-light").onclick = () => { padField = "light"; renderPad(); };
$("f-dark").onclick = () => { padField = "dark"; renderPad(); };
$("again").onclick = () => (["pips", "opening", "cube", "bearoff"].includes(lastKind) ? start(lastKind) : menu(student));
// A position to set up, from a link (a recorded match's move: /aula?setup=POSITION_ID&turn=dark, or any game's
// recorded play by its number: /aula?match=3&move=12, "partida 3, lance 12" in the field, which the server reads)
function recordedText() {
  const q = new URLSearchParams(location.search);
  return /^\d+$/.test(q.get("match") || "") && /^\d+$/.test(q.get("move") || "") ? W().recorded(q.get("match"), q.get("move")) : null;
}
const wanted = new URLSearchParams(location.search).get("setup") || recordedText();
if (wanted) $("setup-id").value = wanted;
$("back").onclick = async () => {
  if (!$("drill").hidden) { await api("POST", "/api/drills/stop"); return menu(student); }
  return students();
};
$("lang").onclick = () => {
  lang = lang === "pt" ? "en" : "pt";
  localStorage.setItem("gamao-lang", lang);
  $("lang").textContent = lang === "pt" ? "EN" : "PT";
  document.documentElement.lang = lang === "pt" ? "pt-BR" : "en";
  if (!$("drill").hidden) { $("keys").replaceChildren(); drillTitle(lastKind); refresh(); } else if (!$("menu").hidden) menu(student); else students();
};
$("lang").textContent = lang === "pt" ? "EN" : "PT";
students();
