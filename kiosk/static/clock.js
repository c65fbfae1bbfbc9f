// The clock of a timed match (issue 21): both times large, the running side's delay counting down, the flag.
// Drawn from state.clock (docs/CONTRACTS.md); between pushes the running side counts down locally from the
// moment the state arrived. Each side's clock is a button: a press at the board is the player's own act, so
// the touch screen presses without the PIN (POST /api/clock). The opponent's answer to a flagged illegal play
// (tournament rule sets) is offered here too (POST /api/illegal-play).
import { postAtBoard as post } from "./controls.js";
import { CLOCK_TEXT } from "./i18n.js";

let shown = null;      // the state's clock and when it arrived
let timer = 0;
let lang = "pt";
let names = { light: "Light", dark: "Dark" };

const mmss = (s) => {
  const whole = Math.max(0, Math.ceil(s - 1e-6));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

function box() {
  let el = document.getElementById("clock");
  if (el) return el;
  el = document.createElement("section");
  el.id = "clock"; el.className = "clock"; el.dataset.testid = "clock"; el.hidden = true;
  for (const side of ["light", "dark"]) {
    const b = document.createElement("button");
    b.type = "button"; b.className = `clock-side ${side}`; b.dataset.side = side; b.dataset.testid = `clock-${side}`;
    b.innerHTML = '<span class="clock-name"></span><b class="clock-time"></b><span class="clock-delay"></span>';
    b.addEventListener("click", () => press(side));
    el.append(b);
  }
  const answer = document.createElement("div");
  answer.className = "clock-answer"; answer.dataset.testid = "illegal-answer"; answer.hidden = true;
  el.append(answer);
  const panel = document.querySelector("aside.panel") || document.body;
  panel.prepend(el);
  return el;
}

function press(side) { post("/api/clock", { side }); }

// Seconds left for each side now, and the delay left, counting down from the last push.
function now() {
  const c = shown.clock, e = c.running ? (performance.now() - shown.at) / 1000 : 0;
  const left = { light: c.light, dark: c.dark };
  let delay = c.delay_left || 0;
  if (c.running) {
    const r = c.running;
    if (c.delay_kind === "bronstein") left[r] = Math.max(0, c[r] - e);
    else left[r] = Math.max(0, c[r] - Math.max(0, e - delay));
    delay = Math.max(0, delay - e);
  }
  return { left, delay };
}

function draw() {
  const el = box();
  if (!shown?.clock) { el.hidden = true; return; }
  el.hidden = false;
  const c = shown.clock, t = CLOCK_TEXT[lang] || CLOCK_TEXT.pt, { left, delay } = now();
  for (const b of el.querySelectorAll(".clock-side")) {
    const side = b.dataset.side, running = c.running === side, fallen = c.flag === side;
    b.classList.toggle("running", running); b.classList.toggle("fallen", fallen);
    b.classList.toggle("low", left[side] <= 60 && !fallen);
    b.querySelector(".clock-name").textContent = names[side];
    // No emoji (the appliance has no emoji font: it drew an empty box); the fallen flag is said in words, large.
    b.querySelector(".clock-time").textContent = fallen ? "0:00" : mmss(left[side]);
    b.querySelector(".clock-delay").textContent = fallen ? t.flag : running ? t.delay(Math.ceil(delay)) : "";
    b.dataset.left = String(Math.round(left[side] * 10) / 10);
    b.setAttribute("aria-label", `${t.press}: ${names[side]} ${mmss(left[side])}`);
  }
  el.dataset.running = c.running || "";
}

function drawAnswer(state) {
  const el = box().querySelector(".clock-answer"), t = CLOCK_TEXT[lang] || CLOCK_TEXT.pt;
  const last = [...(state?.verdicts || [])].reverse().find((v) => v.answers);
  const open = last && state.phase === "moving" && state.turn === last.side
    && (state.verdicts || []).at(-1)?.at === last.at;
  el.hidden = !open;
  if (!open) { el.replaceChildren(); return; }
  const by = names[last.answer_by] || last.answer_by;
  const text = document.createElement("span");
  text.textContent = last.answers.includes("accept") ? t.answerBy(by) : t.correctOnly(by);
  const buttons = last.answers.map((answer) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = answer === "accept" ? t.accept : t.correct;
    b.dataset.answer = answer;
    b.addEventListener("click", () => post("/api/illegal-play", { side: last.answer_by, answer }));
    return b;
  });
  el.replaceChildren(text, ...buttons);
}

export function renderClock(state, language) {
  lang = language;
  const plain = { light: lang === "en" ? "Light" : "Claras", dark: lang === "en" ? "Dark" : "Escuras" };
  const named = (side) => {
    const given = state?.match?.players?.[side];
    if (given && /^GNU Backgammon \(.*\)$/.test(given)) return "GNU Backgammon";
    return given && given !== { light: "Light", dark: "Dark" }[side] ? given : plain[side];
  };
  names = { light: named("light"), dark: named("dark") };
  shown = state?.clock ? { clock: state.clock, at: performance.now() } : null;
  draw();
  drawAnswer(state);
  clearInterval(timer);
  if (shown?.clock?.running) timer = setInterval(draw, 200);
}
