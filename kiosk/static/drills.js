// The teacher's table (issue 38): students, drills set up on the real board by the camera's guidance, the pip
// count's number pad, the student's own mistakes coming back, progress as a chart. Portuguese in the seeds'
// words and English; the set-up steps come from the server in both (core/messages.py setup_words).
import { drawBoard, playMarks } from "/static/board.js";

const WORDS = {
  pt: {
    title: "Aula", create: "Novo aluno", namePh: "Nome do aluno", pips: "Contagem de casas",
    mistakes: (n) => `Meus erros (${n} para hoje)`, setup: "Montar posição", answers: (n) => `${n} respostas`,
    due: (n) => `${n} para hoje`, setupStage: (n) => `Monte a posição: ${n} ${n === 1 ? "peça" : "peças"} a mover`,
    noCamera: "Esperando a câmera ver o tabuleiro…", pipsStage: "Conte as casas que faltam: claras e escuras",
    playStage: (d) => `Jogue ${d} no tabuleiro (as ${"{side}"} jogam)`, done: "Pronto",
    light: "Claras", dark: "Escuras", ok: "OK", del: "⌫", again: "Outro", right: "Certo!", wrong: "Ainda não",
    counts: (l, d) => `Contagem certa: claras ${l}, escuras ${d}`, given: (l, d) => `Você disse: ${l} e ${d}`,
    seconds: (s) => `Tempo: ${s} s`, method: (side) => `${side}, casa × peças:`, keith: (k) =>
      `Contagem de Keith: claras ${k.counts.light}, escuras ${k.counts.dark}. As claras ${k.double ? "dobram" : "não dobram"}; as escuras ${k.take ? "aceitam" : "recusam"}.`,
    cardRight: (r) => `Certo! ${r.played} é a melhor jogada. A carta vai para a caixa ${r.box}.`,
    cardWrong: (r) => `Ainda não: a melhor jogada é ${r.best} (você jogou ${r.played}; na partida, ${r.was}). A carta volta à caixa 1 e aparece amanhã.`,
    learnt: "Aprendida: não volta mais.", more: (n) => `… e mais ${n} ${n === 1 ? "passo" : "passos"}`, setupDone: "A posição está montada.",
    side: { light: "claras", dark: "escuras" }, opening: "Aberturas",
    reply: (r) => `As escuras abriram com ${r.slice(0, 1)}-${r.slice(1, 2)}: ${r.slice(3).replaceAll("bar", "barra").replaceAll("off", "fora")}.`,
    openingBest: (b) => `A melhor jogada do treinador: ${b}.`,
    bearoff: "Retiradas", cube: "Cubo nas corridas", cubeStage: "Decida o cubo nesta corrida", qDouble: "As claras dobram?",
    qTake: "As escuras aceitam?", double: "Dobrar", noDouble: "Não dobrar", take: "Aceitar", drop: "Recusar",
    truth: (t, by) => `${by === "gnubg" ? "O GNU Backgammon" : "A regra de Keith"}: as claras ${t.double ? "dobram" : "não dobram"}; as escuras ${t.take ? "aceitam" : "recusam"}.`,
    keithRule: "Regra de Keith: some 1/7 à contagem de quem rola; dobre se ela passar a do adversário em até 4, aceite se passar em 2 ou mais.",
    recorded: (m, n) => `partida ${m}, lance ${n}`,
    // a cube decision from the student's recorded match (a card)
    cardDouble: (side) => `As ${side} dobram?`, cardTake: (side) => `As ${side} aceitam a dobra?`,
    cubeAt: (c) => `Cubo em ${c.value}` + (c.length ? `; placar claras ${c.score.light}, escuras ${c.score.dark}, partida de ${c.length} pontos` : ""),
    decision: { double: "dobrar", no_double: "não dobrar", take: "aceitar", pass: "recusar" },
    cubeCardRight: (r, d) => `Certo! ${d[r.best][0].toUpperCase()}${d[r.best].slice(1)} é o certo. A carta vai para a caixa ${r.box}.`,
    cubeCardWrong: (r, d) => `Ainda não: o certo é ${d[r.best]} (na partida: ${d[r.was]}). A carta volta à caixa 1 e aparece amanhã.`,
  },
  en: {
    title: "Lesson", create: "New student", namePh: "Student's name", pips: "Pip count",
    mistakes: (n) => `My mistakes (${n} due today)`, setup: "Set up a position", answers: (n) => `${n} answers`,
    due: (n) => `${n} due today`, setupStage: (n) => `Set up the position: ${n} ${n === 1 ? "checker" : "checkers"} to move`,
    noCamera: "Waiting for the camera to see the board…", pipsStage: "Count the pips: light and dark",
    playStage: (d) => `Play ${d} on the board ({side} to play)`, done: "Done",
    light: "Light", dark: "Dark", ok: "OK", del: "⌫", again: "Another", right: "Right!", wrong: "Not yet",
    counts: (l, d) => `The counts: light ${l}, dark ${d}`, given: (l, d) => `You said: ${l} and ${d}`,
    seconds: (s) => `Time: ${s} s`, method: (side) => `${side}, point × checkers:`, keith: (k) =>
      `Keith count: light ${k.counts.light}, dark ${k.counts.dark}. Light ${k.double ? "doubles" : "does not double"}; dark ${k.take ? "takes" : "drops"}.`,
    cardRight: (r) => `Right! ${r.played} is the best play. The card moves to box ${r.box}.`,
    cardWrong: (r) => `Not yet: the best play is ${r.best} (you played ${r.played}; in the match, ${r.was}). The card goes back to box 1, due tomorrow.`,
    learnt: "Learnt: it will not come back.", more: (n) => `… and ${n} more ${n === 1 ? "step" : "steps"}`, setupDone: "The position is set up.",
    side: { light: "light", dark: "dark" }, opening: "Openings",
    reply: (r) => `Dark opened with ${r.slice(0, 1)}-${r.slice(1, 2)}: ${r.slice(3)}.`,
    openingBest: (b) => `The coach's best play: ${b}.`,
    bearoff: "Bear-offs", cube: "Cube in races", cubeStage: "Decide the cube in this race", qDouble: "Does light double?",
    qTake: "Does dark take?", double: "Double", noDouble: "No double", take: "Take", drop: "Drop",
    truth: (t, by) => `${by === "gnubg" ? "GNU Backgammon" : "Keith's rule"}: light ${t.double ? "doubles" : "does not double"}; dark ${t.take ? "takes" : "drops"}.`,
    keithRule: "Keith's rule: add 1/7 to the roller's count; double if it exceeds the opponent's by 4 or less, take if it exceeds it by 2 or more.",
    recorded: (m, n) => `match ${m}, move ${n}`,
    cardDouble: (side) => `Does ${side} double?`, cardTake: (side) => `Does ${side} take the double?`,
    cubeAt: (c) => `Cube at ${c.value}` + (c.length ? `; score light ${c.score.light}, dark ${c.score.dark}, ${c.length}-point match` : ""),
    decision: { double: "double", no_double: "no double", take: "take", pass: "pass" },
    cubeCardRight: (r, d) => `Right! ${d[r.best][0].toUpperCase()}${d[r.best].slice(1)} is right. The card moves to box ${r.box}.`,
    cubeCardWrong: (r, d) => `Not yet: the right answer is ${d[r.best]} (in the match: ${d[r.was]}). The card goes back to box 1, due tomorrow.`,
  },
};

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
  $("title").textContent = `${student.name}: ${kind === "pips" ? W().pips : kind === "mistake" ? W().mistakes(student.due).split(" (")[0] : kind === "opening" ? W().opening : kind === "cube" ? W().cube : kind === "bearoff" ? W().bearoff : W().setup}`;
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
    $("stage").textContent = w.playStage(s.dice.join("-")).replace("{side}", w.side[s.target.turn]);
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
