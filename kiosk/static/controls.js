// The touch-screen control panel: every action goes to a PIN-guarded endpoint; the PIN lives only in
// this dialog while it is open.
import { CLOCK_TEXT } from "./i18n.js";

function button(label, onClick) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = label; b.addEventListener("click", onClick);
  return b;
}

async function post(path, body, pin) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "X-Gamao-PIN": pin },
                                body: JSON.stringify(body) });
  if (r.ok) return "";
  const data = await r.json().catch(() => ({}));
  return data.message || data.detail || `HTTP ${r.status}`;
}

export function openControls(dialog, t, state, info) {
  dialog.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = t.pinTitle;
  const pin = document.createElement("input");
  pin.type = "password"; pin.inputMode = "numeric"; pin.autocomplete = "off";
  pin.placeholder = info.pin_set ? t.pinEnter : t.pinSet;
  const error = document.createElement("p");
  error.className = "error";
  const act = (path, body) => async () => {
    error.textContent = await post(path, body, pin.value);
    if (!error.textContent) dialog.close();
  };
  const row = (...items) => { const d = document.createElement("div"); d.append(...items); return d; };
  dialog.append(title, row(pin), error);
  if (!info.pin_set) {
    dialog.append(row(button("OK", async () => {
      error.textContent = await post("/api/pin", { pin: pin.value }, "");
      if (!error.textContent) { info.pin_set = true; openControls(dialog, t, state, info); }
    })));
  } else {
    const turn = state?.turn || "light", other = turn === "light" ? "dark" : "light";
    const offeredBy = state?.cube?.offered_by;
    const taker = offeredBy ? (offeredBy === "light" ? "dark" : "light") : other;
    dialog.append(
      row(button(t.doubleBtn, act("/api/cube", { action: "double", side: turn })),
          button(t.takeBtn, act("/api/cube", { action: "take", side: taker })),
          button(t.dropBtn, act("/api/cube", { action: "drop", side: taker }))),
      row(button(t.undoBtn, act("/api/correction", { action: "undo" })),
          button(t.endTurnBtn, act("/api/correction", { action: "end_turn" })),
          button(t.ackBtn, act("/api/correction", { action: "ack_cocked" }))),
      row(...[1, 2, 3].map((value) => button(t.resignBtn[value - 1], act("/api/resignation", { action: "offer", side: turn, value }))),
          button(t.acceptBtn, act("/api/resignation", { action: "accept" })),
          button(t.rejectBtn, act("/api/resignation", { action: "reject" }))),
      row(button(t.newGameBtn, act("/api/correction", { action: "new_game" }))),
    );
    // The game: backgammon or one of the seeds' variants (R30-R32); the referee plays each to the same points
    // (0: a money session), so the length stays for every game. Backgammon sends the request as it always was.
    const game = document.createElement("select");
    game.dataset.testid = "new-match-variant"; game.setAttribute("aria-label", t.variantLbl);
    for (const name of ["backgammon", "plakoto", "russian", "jacquet"]) {
      const option = new Option(t.gameNames[name], name);
      game.append(option);
    }
    game.value = state?.variant?.name || "backgammon";
    const length = document.createElement("input");
    length.type = "number"; length.min = "0"; length.max = "64"; length.value = String(state?.match?.length || 7);
    length.setAttribute("aria-label", t.lengthLbl);
    // The rule set (issue 21; docs/tournament.md): "" leaves it to the config.
    const ct = CLOCK_TEXT[document.documentElement.lang.startsWith("pt") ? "pt" : "en"];
    const ruleSet = document.createElement("select");
    ruleSet.dataset.testid = "new-match-rule-set"; ruleSet.setAttribute("aria-label", ct.ruleSet);
    for (const [value, label] of Object.entries(ct.ruleSets)) ruleSet.append(new Option(label, value));
    ruleSet.value = state?.match?.rules?.rule_set || "";
    const newMatch = button(t.newMatchBtn, () => {
      const body = { length: Number(length.value) };
      if (game.value !== "backgammon") body.variant = game.value;
      if (ruleSet.value) body.rule_set = ruleSet.value;
      return act("/api/match", body)();
    });
    dialog.append(row(game, document.createTextNode(` ${t.lengthLbl}: `), length, ruleSet, newMatch));
  }
  dialog.append(row(button(t.close, () => dialog.close())));
  dialog.showModal();
  pin.focus();
}
