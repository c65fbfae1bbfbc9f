// The touch-screen control panel: every action goes to a PIN-guarded endpoint; the PIN lives only in this dialog
// while it is open. Only what can be done now is offered (by the referee's phase): take/drop while a double is
// offered, "dado visto" for a cocked die, accept/reject while a resignation waits; what ends a game or a match
// (resigning, a new game, a new match) asks for a second touch to confirm. A new match takes the players' names.
import { CLOCK_TEXT, serverWords } from "./i18n.js";

function button(label, onClick, testid) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = label; b.addEventListener("click", onClick);
  if (testid) b.dataset.testid = testid;
  return b;
}

// A button that acts on its second touch: the first turns it red and asks to confirm.
function confirmed(t, label, onConfirm, testid) {
  const b = button(label, () => {
    if (b.dataset.armed === "true") { onConfirm(); return; }
    b.dataset.armed = "true"; b.classList.add("confirm"); b.textContent = t.confirm(label);
  }, testid);
  return b;
}

// POST `body` as JSON with the PIN; "" when done, else the server's one-line message (the chouette's dialog too).
export async function post(path, body, pin) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-Gamao-PIN": pin },
                                body: JSON.stringify(body) });
  if (r.ok) return "";
  const data = await r.json().catch(() => ({}));
  const d = data.detail;
  return data.message || (d && typeof d === "object" && !Array.isArray(d) ? `${d.field ?? ""}: ${d.message ?? ""}` : d) || `HTTP ${r.status}`;
}

// POST `body` as JSON from the board's own screen (a clock press, the answer to an illegal play, a touch-move
// claim): with the PIN a remote screen was given, without it at the touch screen; the next push says what came of it.
export async function postAtBoard(path, body) {
  const headers = { "Content-Type": "application/json" };
  const pin = sessionStorage.getItem("gamao.pin");
  if (pin) headers["X-Gamao-PIN"] = pin;
  try { await fetch(path, { method: "POST", headers, body: JSON.stringify(body) }); } catch { /* the push says */ }
}

const other = (side) => (side === "light" ? "dark" : "light");

// The actions the referee can take now, by phase: [[label, path, body, confirm?, testid], ...] rows.
export function actionsNow(t, state) {
  const phase = state?.phase || "opening", turn = state?.turn || "light";
  const rows = [];
  if (state?.resignation) {
    rows.push([[t.acceptBtn, "/api/resignation", { action: "accept" }, true, "accept-resign"],
               [t.rejectBtn, "/api/resignation", { action: "reject" }, false, "reject-resign"]]);
    return rows;
  }
  if (phase === "cube_offered" || state?.cube?.offered_by) {
    const taker = other(state?.cube?.offered_by || turn);
    rows.push([[t.takeBtn, "/api/cube", { action: "take", side: taker }, false, "take"],
               [t.dropBtn, "/api/cube", { action: "drop", side: taker }, true, "drop"]]);
    return rows;
  }
  if ((state?.dice?.cocked || []).some(Boolean)) rows.push([[t.ackBtn, "/api/correction", { action: "ack_cocked" }, false, "ack-cocked"]]);
  const playing = ["opening", "awaiting_roll", "moving"].includes(phase);
  const cube = state?.cube || {}, match = state?.match || {};
  const cubeFree = !match.crawford && (!cube.owner || cube.owner === turn);
  if (phase === "awaiting_roll" && cubeFree) rows.push([[t.doubleBtn, "/api/cube", { action: "double", side: turn }, false, "double"]]);
  if (phase === "moving") rows.push([[t.undoBtn, "/api/correction", { action: "undo" }, false, "undo"],
                                    [t.endTurnBtn, "/api/correction", { action: "end_turn" }, false, "end-turn"]]);
  else if (phase === "awaiting_roll") rows.push([[t.undoBtn, "/api/correction", { action: "undo" }, false, "undo"]]);
  if (playing && phase !== "opening") {
    rows.push([1, 2, 3].map((value) => [t.resignBtn[value - 1], "/api/resignation", { action: "offer", side: turn, value }, true,
                                        `resign-${value}`]));
  }
  if (phase !== "match_over") rows.push([[t.newGameBtn, "/api/correction", { action: "new_game" }, true, "new-game"]]);
  return rows;
}

export function openControls(dialog, t, state, info, lang = "pt", chouette = null) {
  dialog.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = t.pinTitle;
  const pin = document.createElement("input");
  pin.type = "password"; pin.inputMode = "numeric"; pin.autocomplete = "off";
  pin.placeholder = info.pin_set ? t.pinEnter : t.pinSet;
  const error = document.createElement("p");
  error.className = "error";
  const act = (path, body) => async () => {
    error.textContent = serverWords(lang, await post(path, body, pin.value));
    if (!error.textContent) dialog.close();
  };
  const row = (...items) => { const d = document.createElement("div"); d.className = "row"; d.append(...items); return d; };
  dialog.append(title, row(pin, button(t.close, () => dialog.close(), "close")), error);
  if (!info.pin_set) {
    dialog.append(row(button("OK", async () => {
      error.textContent = serverWords(lang, await post("/api/pin", { pin: pin.value }, ""));
      if (!error.textContent) { info.pin_set = true; openControls(dialog, t, state, info, lang); }
    })));
    dialog.showModal();
    pin.focus();
    return;
  }
  const rows = actionsNow(t, state);
  // The actions flow in one wrapping row (issue 37: at the readable size a row each left the new-match form below
  // the 800x480 screen); actionsNow keeps them in their groups' order.
  if (rows.length) {
    dialog.append(row(...rows.flat().map(([label, path, body, confirm, testid]) => (confirm
      ? confirmed(t, label, act(path, body), testid) : button(label, act(path, body), testid)))));
  }
  if (!rows.length) {
    const p = document.createElement("p");
    p.textContent = state?.phase === "match_over" ? t.matchOverNow : t.nothingNow;
    dialog.append(p);
  }
  // A new match: the game (backgammon or one of the seeds' variants, R30-R32), its length (0: a money session) and
  // the players' names; opened by a touch, started by a confirmed one. Backgammon sends the request as it always was.
  const form = document.createElement("div");
  form.className = "new-match"; form.hidden = true;
  const game = document.createElement("select");
  game.dataset.testid = "new-match-variant"; game.setAttribute("aria-label", t.variantLbl);
  for (const name of ["backgammon", "plakoto", "russian", "jacquet"]) game.append(new Option(t.gameNames[name], name));
  game.value = state?.variant?.name || "backgammon";
  const length = document.createElement("input");
  length.type = "number"; length.min = "0"; length.max = "64"; length.value = String(state?.match?.length || 7);
  length.setAttribute("aria-label", t.lengthLbl);
  // The rule set (issue 21; docs/tournament.md): "" leaves it to the config.
  const ct = CLOCK_TEXT[lang === "en" ? "en" : "pt"];
  const ruleSet = document.createElement("select");
  ruleSet.dataset.testid = "new-match-rule-set"; ruleSet.setAttribute("aria-label", ct.ruleSet);
  for (const [value, label] of Object.entries(ct.ruleSets)) ruleSet.append(new Option(label, value));
  ruleSet.value = state?.match?.rules?.rule_set || "";
  // The clock (issue 37): the rule set's own (a tournament's is in its name), or minutes a point with a 12 s delay.
  const clock = document.createElement("select");
  clock.dataset.testid = "new-match-clock"; clock.setAttribute("aria-label", ct.clockLbl);
  for (const [value, label] of Object.entries(ct.clocks)) clock.append(new Option(label, value));
  clock.value = "";
  const names = {};
  for (const side of ["light", "dark"]) {
    const input = document.createElement("input");
    input.type = "text"; input.maxLength = 40; input.autocomplete = "off";
    input.placeholder = side === "light" ? t.lightName : t.darkName;
    input.setAttribute("aria-label", input.placeholder); input.dataset.testid = `new-match-${side}`;
    const known = state?.match?.players?.[side];
    if (known && known !== t[side] && !["Light", "Dark"].includes(known)) input.value = known;
    names[side] = input;
  }
  const start = confirmed(t, t.newMatchBtn, () => {
    const body = { length: Number(length.value) };
    const players = Object.fromEntries(Object.entries(names).map(([s, i]) => [s, i.value.trim()]).filter(([, v]) => v));
    if (Object.keys(players).length) body.players = players;
    if (game.value !== "backgammon") body.variant = game.value;
    if (ruleSet.value) body.rule_set = ruleSet.value;
    if (clock.value) body.rules = { clock: { per_point: Number(clock.value), delay: 12 } };
    return act("/api/match", body)();
  }, "new-match");
  const label = (text, input) => { const l = document.createElement("label"); l.append(`${text} `, input); return l; };
  // Three rows at 800x480 (the game, its length and the names; the rules; the clock and the start).
  form.append(row(game, label(t.lengthLbl, length), names.light, names.dark), row(label(ct.ruleSet, ruleSet)),
              row(label(ct.clockLbl, clock), start));
  // A chouette (three players or more) starts from here too: the toolbar's button shows only during one.
  const more = chouette && !state?.variant ? [button(t.newChouette, () => { dialog.close(); chouette(); }, "new-chouette")] : [];
  const opener = button(t.newMatchOpen, () => { form.hidden = false; opener.hidden = true; for (const m of more) m.hidden = true; },
                        "new-match-open");
  dialog.append(row(opener, ...more), form);
  dialog.showModal();
  pin.focus();
}
