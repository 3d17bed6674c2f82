// The Oracle's panel: every option with how safe it is, its margin, the chance to win the game,
// lives lost where that changes the picture, the tied marks, the best and the best for the game,
// the reason and the "Why" line; the first estimate shown at once and replaced by the figures
// at full precision. And the tutor, which asks before a move that costs too much.

import { label, tensWritten } from "./cards.js";
import { KEEPS_31, MAKES_31, count, hundredths, planClause, shownGap, tenths } from "./study/figures.js";
import { element } from "./view.js";

const $ = (id) => document.getElementById(id);

export function pct(p) {
  return `${tenths(p)}%`;
}

/** A margin in percentage points: "±2.2". */
export function pts(m) {
  return `±${tenths(m)}`;
}

function num(x) {
  return Number.isInteger(x) ? String(x) : String(x);
}

/** An option in a few words: "draw", "take 7H, put down 2C", "put down 9C". */
export function optionLabel(o) {
  if (o.kind === "take") return `take ${label(o.card)}, put down ${label(o.discard)}`;
  if (o.kind === "discard") return `put down ${label(o.discard)}`;
  return o.option;
}

/** What follows the option: its later knock (waiting for another's after an option that keeps
 * 30 or more), or a 31 to show (a put-down or a take that makes it), as the terminal says. */
export function plan(o) {
  const keeps = o.keeps ?? null;
  const makes31 = (o.kind === "discard" || o.kind === "take") && keeps !== null && keeps >= 31;
  if (makes31) return o.shows_hidden_31 ? KEEPS_31 : MAKES_31;
  if (o.shows_hidden_31) return "show your 31"; // (a draw with a 31 kept hidden: words.SHOWS_HIDDEN_31)
  if (!("knock_at" in o)) return "";
  if (o.knock_at === null) {
    return keeps !== null && keeps >= 30
      ? "never knock: wait for another's knock"
      : "never knock: play for 31";
  }
  if (o.first) return "knock at the first chance";
  return `knock at ${num(o.knock_at)} or more`;
}

/** The options in the order shown: the best, then the safest first (all hopeless: as given). */
export function ranked(advice) {
  const options = advice.options;
  if (options.every((o) => o.p_safe <= 0)) return [...options];
  return [options[0], ...options.slice(1).sort((a, b) => b.p_safe - a.p_safe)];
}

/** The option name of an action: "draw", "discard:7H". */
export function optionOf(action) {
  if (action.action === "put" || action.action === "hide") return `discard:${action.card}`;
  return action.action;
}

/** The action that plays an option (its first step). */
export function actionOf(option) {
  if (option.kind === "discard") return { action: "put", card: option.discard };
  return { action: option.kind };
}

function gameFigure(advice, o) {
  if (o.p_win === undefined && o.points === undefined) return "";
  return advice.points ? hundredths(o.points) : pct(o.p_win);
}

/** ", within ±0.7" when the best for the game leads the round's best by no more than its
 * margin (the server says so: ``game_within``), as the terminal's line and the reason say
 * (", within ±0.05" in points). */
function gameWithin(advice, g) {
  if (!advice.game_within) return "";
  const margin = (advice.points ? g.points_margin : g.p_win_margin) ?? 0;
  return `, within ±${advice.points ? hundredths(margin) : tenths(margin)}`;
}

/** The panel: ``found`` is {quick, full, error} for your decision; ``shown``: whether to show it. */
export function drawAdvice(found, { shown, mode, thinking, blind = false }) {
  const box = $("advice");
  box.replaceChildren();
  box.classList.remove("estimate");
  const best = $("play-best");
  best.hidden = true;
  $("hint").hidden = shown || thinking === null;
  if (thinking === null) {
    // (Your turn at a blind table: the Oracle does not advise the call, only play once looked.)
    const text = blind ? "The Oracle speaks once the cards are looked at: it does not advise a blind call."
      : "The Oracle speaks on your turns.";
    box.append(element("p", { class: "status", text }));
    return;
  }
  if (!shown) {
    const text = mode === "never" ? "The Oracle is off in this game: a (or the button) asks it about this decision."
      : "The advice is hidden until you ask (a).";
    box.append(element("p", { class: "status", text }));
    return;
  }
  if (found.error) {
    box.append(element("p", { class: "status", text: found.error }));
    return;
  }
  const advice = found.full || found.quick;
  if (!advice) {
    box.append(element("p", { class: "status", role: "status", text: "The Oracle is thinking…" }));
    return;
  }
  // (One deal, one playout in the singular, as the terminal says them: `words.counted`.)
  const status = found.full
    ? `Full precision: ${count(advice.deals, "consistent deal")}, ${count(advice.playouts, "playout")} an option.`
    : `First estimate (${count(advice.deals, "deal")}): the full figures are on their way…`;
  if (!found.full) box.classList.add("estimate");
  box.append(element("p", { class: "status", text: status }));
  box.append(...adviceBody(advice));
  const top = advice.options[0];
  best.hidden = false;
  best.disabled = false;
  best.replaceChildren(`Play the Oracle's best: ${optionLabel(top)}`);
  best.dataset.option = top.option;
}

/** The advice asked for, in a line for the live region: "The Oracle's best: draw (then knock
 * at 22 or more), 72.5% safe; tied with knock." (ruling 242). */
export function adviceWords(advice) {
  const top = advice.options[0];
  const tied = advice.options.filter((o) => advice.tied.includes(o.option)).map(optionLabel);
  return `The Oracle's best: ${optionLabel(top)}${planClause(plan(top))}, ${pct(top.p_safe)} safe`
    + `${tied.length ? `; tied with ${tied.join(", ")}` : ""}.`;
}

function adviceBody(advice) {
  const parts = [];
  const top = advice.options[0];
  const bestLine = element("p", { class: "best-line" }, "Best: ", element("span", { class: "opt", text: optionLabel(top) }));
  bestLine.append(planClause(plan(top)));
  if (advice.tied.length) {
    const tied = advice.options.filter((o) => advice.tied.includes(o.option)).map(optionLabel);
    bestLine.append(element("span", { class: "tied", text: ` — statistically tied with ${tied.join(", ")}` }));
  }
  parts.push(bestLine);
  // (Named on the terminal's rule, decided by the server: only when its figure is higher than
  // the round's best's as shown.)
  if (advice.game_named) {
    const g = advice.options.find((o) => o.option === advice.game_named);
    const figure = advice.points ? `${hundredths(g.points)} points` : `wins the game ${pct(g.p_win)}`;
    parts.push(element("p", { class: "game-line" }, "Best for the game: ",
      element("span", { class: "opt", text: optionLabel(g) }),
      ` (${figure}, against ${gameFigure(advice, top)} for the round's best${gameWithin(advice, g)})`));
  }
  parts.push(optionsTable(advice));
  parts.push(element("p", { class: "reason", text: tensWritten(advice.reason) }));
  if (advice.why) parts.push(element("p", { class: "why", text: tensWritten(advice.why) }));
  for (const warning of advice.warnings) parts.push(element("p", { class: "warning", text: `Note: ${warning}` }));
  return parts;
}

function optionsTable(advice) {
  const game = advice.options.some((o) => o.p_win !== undefined || o.points !== undefined);
  const table = element("table", {});
  const caption = element("caption", { class: "visually-hidden", text: "Each option: safe this round, margin, and more" });
  const head = element("tr", {},
    element("th", { scope: "col", text: "Option" }),
    element("th", { scope: "col", text: "Safe" }),
    element("th", { scope: "col", text: "±" }));
  // ("Lives lost", "Letters lost": capitalised as the other headings are.)
  const lostHead = `${advice.unit[0].toUpperCase()}${advice.unit.slice(1)} lost`;
  if (advice.lives_matter) head.append(element("th", { scope: "col", text: lostHead }));
  if (game) head.append(element("th", { scope: "col", text: advice.points ? "Points" : "Win game" }));
  head.append(element("th", { scope: "col", text: "Then" }));
  const body = element("tbody", {});
  // (♔ on the option named for the game, else on the best: no other is said to be better for
  // a difference nobody can see.)
  const crowned = advice.game_named || advice.options[0].option;
  ranked(advice).forEach((o, i) => {
    const mark = i === 0 ? "★" : advice.tied.includes(o.option) ? "≈" : "";
    const markTitle = i === 0 ? "the best" : mark ? "tied with the best" : "";
    // (The marks in words for a screen reader, "the best: draw (the best for the game)"; a
    // span's aria-label is not read, and ♔ was read as a chess king or not at all.)
    const first = element("td", {},
      element("span", { class: "mark", title: markTitle, "aria-hidden": "true", text: mark }),
      markTitle ? element("span", { class: "visually-hidden", text: `${markTitle}: ` }) : "",
      optionLabel(o));
    if (o.option === crowned && game) {
      first.append(element("span", { title: "the best for the game", "aria-hidden": "true", text: " ♔" }),
        element("span", { class: "visually-hidden", text: " (the best for the game)" }));
    }
    const safe = element("td", {}, pct(o.p_safe));
    const bar = element("span", { class: "bar", "aria-hidden": "true" }, element("span", {}));
    bar.firstChild.style.width = `${Math.max(0, Math.min(100, 100 * o.p_safe))}%`;
    safe.append(bar);
    const row = element("tr", { class: i === 0 ? "is-best" : "", "data-option": o.option }, first, safe,
      element("td", { text: pts(o.margin) }));
    if (advice.lives_matter) row.append(element("td", { text: hundredths(o.lives_lost) }));
    if (game) row.append(element("td", { text: gameFigure(advice, o) }));
    row.append(element("td", { class: "plan", text: plan(o) }));
    body.append(row);
  });
  table.append(caption, element("thead", {}, head), body);
  return table;
}

/**
 * What the tutor says of ``action`` at a threshold of ``threshold`` points: null when it costs
 * no more than that (or nothing is known), else {cost, measure, chosen, best}.
 */
export function tutorCheck(advice, action, threshold) {
  if (!advice || threshold === null || threshold === undefined) return null;
  const chosen = advice.options.find((o) => o.option === optionOf(action));
  if (!chosen) return null;
  const byGame = !advice.points && advice.best_game && chosen.p_win !== undefined;
  const best = byGame ? advice.options.find((o) => o.option === advice.best_game) : advice.options[0];
  const cost = byGame ? 100 * (best.p_win - chosen.p_win) : 100 * (best.p_safe - chosen.p_safe);
  // (The cost as words and pages show a difference of two figures: `tenths` of the fraction.)
  if (!(cost > threshold)) return null;
  return { cost, byGame, chosen, best };
}

export function tutorText(found) {
  const { byGame, chosen, best } = found;
  const measure = byGame ? "your chance to win the game" : "your chance to come through this round safe";
  const from = byGame ? best.p_win : best.p_safe;
  const to = byGame ? chosen.p_win : chosen.p_safe;
  // (A take asked of before its put-down is chosen: the figure is the take with the Oracle's
  // put-down after it, which the player has not chosen; it said "to take 2D, put down 2S".)
  const what = chosen.kind === "take"
    ? `take ${label(chosen.card)} (then putting down ${label(chosen.discard)}, as its figures do)`
    : optionLabel(chosen);
  // (The cost said is the difference of the two figures beside it, as the reason says one.)
  return `To ${what} costs about ${shownGap(from, to)} percentage points of ${measure} `
    + `(${pct(to)} against ${pct(from)} for the Oracle's best: ${optionLabel(best)}). Play it anyway?`;
}
