// The review page: a saved game's decisions set against the Oracle (GET /api/review, the JSON of
// `thirtyone review --json`), stepped one by one, charted, and retried.
import { hundredths, planClause, pointsWord } from "./figures.js";
import { labelWidths, roundLabels } from "./rounds_axis.js";
import {
  card, cards, chartWidth, count, el, getJSON, ordinal, pct, points, redrawOnResize, svg,
  tensWritten,
} from "./common.js";

const $ = (id) => document.getElementById(id);
// A mark beside each label, so that it is not told by colour alone.
const MARKS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const ORDER = { knock: 0, draw: 1, take: 2, decline: 3 };

// A review where the Oracle gave figures for no decision (ruling 364), as the terminal says it.
const NO_FIGURES = "No cost and no labels: the Oracle gave no figures for any of your decisions.";
const UNSEEN = "unseen: the blind showdown is called before anybody looks at a card";

const page = { review: null, decisions: [], at: 0, measure: "p_win", retrying: false };

// -- words -----------------------------------------------------------------------------------

function cardText(text) {
  const suit = { C: "♣", D: "♦", H: "♥", S: "♠" }[text.slice(-1)] || text.slice(-1);
  const rank = text.slice(0, -1);
  return `${rank === "T" ? "10" : rank}${suit}`;
}

/** An option of the Oracle in words, as the button that plays it would say. */
function optionWords(option) {
  const name = option.option;
  if (name === "knock") return "Knock";
  if (name === "draw") return "Draw from the stock";
  if (name === "decline") return "Decline the discard";
  if (name === "blind") return "Call the blind showdown";
  if (name === "take") return `Take ${cardText(option.card)}, put down ${cardText(option.discard)}`;
  if (name.startsWith("discard:")) return `Put down ${cardText(name.slice(8))}`;
  return name;
}

/** What follows an option, in the advice's words (`plan`: "knock at 25 or more", ...). */
function laterKnock(option) {
  // The words of the advice (the same as the terminal's), sent with each option.
  return planClause(option.plan);
}

/** What was played in the game: `knock`, `put down 9C`, `take QC, put down 4H`, `hide the 31,
 * put down 9C` (an option the Oracle does not weigh: it shows a 31). */
function choiceWords(d) {
  if (d.step === "put-down") {
    const hid = d.choice.startsWith("hide:") ? "Hide the 31, put" : "Put";
    return `${hid} down ${cardText(d.put_down)}`;
  }
  if (d.choice === "take") return `Take ${cardText(d.took)}, put down ${d.put_down ? cardText(d.put_down) : "?"}`;
  return optionWords({ option: d.choice });
}

function badge(label) {
  if (!label) return el("span", { class: "muted" }, "no figures");
  return el("span", { class: `label label-${label}` }, `${MARKS[label] || ""} ${label}`);
}

function measureWords(measure) {
  return measure === "p_win" ? "p_win" : "p_safe";
}

function labelledCost(d) {
  return d.label_by === "p_win" ? d.cost_p_win : d.cost_p_safe;
}

function optionNamed(d, name) {
  return d.advice ? d.advice.options.find((o) => o.option === name) : undefined;
}

/** The value charted at a decision: the chosen option's and the best one's. */
function charted(d) {
  if (!d.advice || !d.chosen) return { you: null, best: null };
  if (page.measure === "p_win") {
    const top = optionNamed(d, d.best_game);
    return { you: d.chosen.p_win, best: top ? top.p_win : null };
  }
  const top = optionNamed(d, d.best);
  return { you: d.chosen.p_safe, best: top ? top.p_safe : null };
}

// -- the position ----------------------------------------------------------------------------

/** Whether the decision is the put-down after a take: the pile has lost its top to your hand. */
function afterTake(d) {
  return d.step === "put-down" && Boolean(d.took);
}

/** The discard pile as it stood at the decision, bottom first: the upcard, each discard on it
 * and each take off it, and at the put-down after a take, that take too. */
function pileAt(d) {
  const pile = [d.state.upcard];
  for (const t of d.state.turns) {
    if (t.draw === "pile") pile.pop();
    if (t.discard) pile.push(t.discard);
  }
  if (afterTake(d)) pile.pop();
  return pile;
}

function roundSoFar(d) {
  const state = d.state;
  const pile = [state.upcard];
  const who = (seat) => d.players[seat] || `Seat ${seat}`;
  const lines = [];
  for (const t of state.turns) {
    if (t.knock) {
      lines.push(`${who(t.seat)} knocked`);
      continue;
    }
    let text;
    if (t.draw === "pile") {
      const took = pile.pop();
      text = `${who(t.seat)} took ${took ? cardText(took) : "the discard"}, put down ${cardText(t.discard)}`;
    } else if (t.drew) {
      text = `${who(t.seat)} drew ${cardText(t.drew)}, put down ${cardText(t.discard)}`;
    } else {
      text = `${who(t.seat)} drew from the stock, put down ${cardText(t.discard)}`;
    }
    if (t.shows) text += `, showing ${t.shows.map(cardText).join(" ")}`;
    if (t.hides) text += " (a 31 kept hidden)";
    if (t.discard) pile.push(t.discard);
    lines.push(text);
  }
  if (!lines.length) {
    return el("p", {}, afterTake(d)
      ? `Nobody has played yet this round: the upcard was ${cardText(state.upcard)}, and you took it.`
      : `Nobody has played yet this round: the upcard is ${cardText(state.upcard)}.`);
  }
  return el("ol", { class: "turns" }, lines.map((line) => el("li", {}, line)));
}

function position(d, { when = true } = {}) {
  const state = d.state;
  // The lives in the game's seat order (you first, as the table lists the players), whoever
  // plays first in the round (`players` is in the round's seat order: it gave "Alice 4 · You 4"
  // in one round and "You 1 · Alice 1" in another).
  // Each in the table's words (`standing`: "2 lives", "G I", "middle of the bus"), not a count.
  const said = d.standing ?? state.lives;
  const lives = said
    ? page.review.game.names.filter((name) => d.players.includes(name))
      .map((name) => `${name} ${said[d.players.indexOf(name)]}`).join(" · ")
    : null;
  // (At the blind call nobody had looked at a card: the review shows what you saw, ruling 364.)
  const hand = d.choice === "blind" ? [el("span", {}, UNSEEN)] : [cards(d.hand)];
  if (d.drew) hand.push(el("span", {}, " and you drew "), card(d.drew));
  else if (afterTake(d)) hand.push(el("span", {}, " and you took "), card(d.took));
  // (At the put-down after a take the pile is the one you took from, its top gone to your hand.)
  const pile = pileAt(d);
  const top = !afterTake(d) ? card(d.top)
    : pile.length ? card(pile[pile.length - 1]) : el("span", {}, "none: the pile is empty");
  return [
    el("dl", { class: "facts" },
      when ? [el("dt", {}, "When"), el("dd", {}, `Round ${d.round}, turn ${d.turn}`)] : null,
      lives ? [el("dt", {}, page.review.game.rules.lives_mode === "gin" ? "Letters" : "Lives"), el("dd", {}, lives)] : null,
      el("dt", {}, "Top of the pile"), el("dd", {}, top),
      el("dt", {}, "Your hand"), el("dd", {}, hand)),
    state.turns.length
      ? el("details", { open: state.turns.length <= 10 },
        el("summary", {}, state.turns.length === 1 ? "The round so far: 1 turn" : `The round so far: ${state.turns.length} turns`),
        roundSoFar(d))
      : roundSoFar(d),
  ];
}

/** Whether the game is placed ranked: its game-level figure is then expected points. */
function ranked() {
  return page.review.game.rules.placing === "ranked";
}

/** An option's figure for the game: its chance to win it, or under ranked placing the points
 * it expects (the Oracle gives `points` and no `p_win` there); null when it gives neither. */
function gameFigure(o) {
  const value = ranked() ? o.points : o.p_win;
  return value === undefined || value === null ? null : value;
}

/** The game figure in words: "2.31" (points) or "38.8%". */
function gameText(value) {
  return ranked() ? hundredths(value) : pct(value);
}

function optionsTable(d, marked) {
  const withGame = d.advice.options.some((o) => gameFigure(o) !== null);
  const head = el("tr", {},
    el("th", { scope: "col" }, "Option"),
    el("th", { scope: "col", class: "num" }, "Safe"),
    withGame ? el("th", { scope: "col", class: "num" }, ranked() ? "Points" : "Win") : null,
    el("th", { scope: "col" }, "Label"));
  const rows = d.advice.options.map((o) => {
    const mine = o.option === marked;
    const best = o.option === d.advice.best ? " ★" : d.advice.tied.includes(o.option) ? " ≈" : "";
    const game = gameFigure(o);
    return el("tr", { class: mine ? "chosen" : null },
      el("td", {}, optionWords(o) + best, laterKnock(o) ? el("span", { class: "muted" }, laterKnock(o)) : null,
        mine ? el("span", { class: "sr-only" }, " (your choice)") : null),
      el("td", { class: "num" }, pct(o.p_safe), el("br"), el("span", { class: "muted" }, `±${points(o.margin)}`)),
      withGame ? el("td", { class: "num" }, game === null ? "—" : gameText(game)) : null,
      el("td", {}, badge(d.option_labels[o.option])));
  });
  const what = !withGame ? "Safe: the chance of losing nothing this round."
    : ranked() ? "Safe: the chance of losing nothing this round; points: the ranked points the game is expected to give."
      : "Safe: the chance of losing nothing this round; win: of winning the game.";
  return el("div", { class: "scroll" },
    el("table", {}, el("caption", {}, "The Oracle's figures (★ the round's best, ≈ tied with it). ",
      el("span", { class: "muted" }, what)),
      el("thead", {}, head), el("tbody", {}, rows)));
}

// -- one decision ----------------------------------------------------------------------------

function decisionView(d) {
  const parts = [el("p", {}, badge(d.label), " ", el("strong", {}, choiceWords(d)))];
  parts.push(...position(d, { when: false }));
  if (!d.advice) {
    // (The blind showdown is no failure: the Oracle never answers it.)
    const kind = d.choice === "blind" ? "muted" : "error";
    parts.push(el("p", { class: kind }, d.note || "The Oracle gave no figures here."));
    return parts;
  }
  const best = optionNamed(d, d.best);
  const facts = [
    el("dt", {}, "You played"), el("dd", {}, choiceWords(d), " ", badge(d.label)),
    el("dt", {}, "The Oracle's best"), el("dd", {}, optionWords(best) + laterKnock(best)),
  ];
  if (d.best_game && d.best_game !== d.best) {
    facts.push(el("dt", {}, "Best for the game"), el("dd", {}, optionWords(optionNamed(d, d.best_game))));
  }
  // (No figure for your choice, a 31 kept hidden: no cost, said as "—" alone.)
  const cost = d.cost_p_safe === null ? [] : [`${points(d.cost_p_safe)} ${pointsWord(ranked())} of p_safe`];
  if (d.cost_p_win !== null) cost.push(`${points(d.cost_p_win)} of p_win`);
  // (Under ranked placing the game's figure is expected points, not a chance.)
  if (d.cost_points !== null) cost.push(`${hundredths(d.cost_points)} expected points`);
  facts.push(el("dt", {}, "Cost"), el("dd", {}, cost.length ? cost.join(", ") : "—"));
  parts.push(el("dl", { class: "facts" }, facts));
  if (d.note) parts.push(el("p", { class: "muted" }, d.note));
  parts.push(el("p", {}, tensWritten(d.advice.reason)));
  parts.push(optionsTable(d, d.choice));
  return parts;
}

function show(index, { focus = false } = {}) {
  const n = page.decisions.length;
  page.at = Math.max(0, Math.min(n - 1, index));
  const d = page.decisions[page.at];
  $("decision-title").textContent = `Decision ${page.at + 1} of ${n}`;
  $("where").textContent = `Round ${d.round}, turn ${d.turn}`;
  $("previous").disabled = page.at === 0;
  $("next").disabled = page.at === n - 1;
  $("decision-body").replaceChildren(...decisionView(d));
  $("retry").disabled = !d.advice;
  $("announce").textContent =
    `Decision ${page.at + 1} of ${n}: round ${d.round}, turn ${d.turn}, ${choiceWords(d)}, ${d.label || "no figures"}.`;
  drawChart();
  const url = new URL(window.location.href);
  url.searchParams.set("decision", String(page.at + 1));
  window.history.replaceState(null, "", url);
  if (focus) $("decision-title").focus();
}

// -- the chart -------------------------------------------------------------------------------

function drawChart() {
  const node = $("chart");
  const list = page.decisions;
  const n = list.length;
  const W = chartWidth(node);
  const H = 230;
  const m = { l: 46, r: 14, t: 12, b: 38 };
  node.setAttribute("viewBox", `0 0 ${W} ${H}`);
  node.setAttribute("width", W);
  node.setAttribute("height", H);
  const x = (i) => (n === 1 ? m.l + (W - m.l - m.r) / 2 : m.l + (i * (W - m.l - m.r)) / (n - 1));
  const y = (v) => m.t + (1 - v) * (H - m.t - m.b);
  const parts = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(svg("line", { class: "grid", x1: m.l, x2: W - m.r, y1: y(v), y2: y(v) }));
    parts.push(svg("text", { x: m.l - 6, y: y(v) + 4, "text-anchor": "end" }, `${v * 100}%`));
  }
  const spans = [];
  list.forEach((d, i) => {
    if (i > 0 && d.round === list[i - 1].round) return;
    const edge = i === 0 ? x(0) : (x(i - 1) + x(i)) / 2;
    if (i > 0) {
      parts.push(svg("line", { class: "round-edge", x1: edge, x2: edge, y1: m.t, y2: H - m.b }));
      spans[spans.length - 1].to = edge;
    }
    spans.push({ round: d.round, from: edge, to: x(n - 1) });
  });
  const measure = labelWidths(node);
  for (const { round, at } of roundLabels(spans, 0, W, measure)) {
    parts.push(svg("text", { x: at, y: H - m.b + 16, "text-anchor": "middle" }, `R${round}`));
  }
  parts.push(svg("text", { x: W - m.r, y: H - 4, "text-anchor": "end" }, `rounds · ${count(n, "decision")}`));
  const values = list.map(charted);
  for (const [key, cls] of [["best", "best"], ["you", "you"]]) {
    let run = [];
    const flush = () => {
      if (run.length > 1) parts.push(svg("polyline", { class: cls, points: run.join(" ") }));
      run = [];
    };
    values.forEach((v, i) => (v[key] === null || v[key] === undefined ? flush() : run.push(`${x(i)},${y(v[key])}`)));
    flush();
  }
  parts.push(svg("line", { class: "now", x1: x(page.at), x2: x(page.at), y1: m.t, y2: H - m.b }));
  values.forEach((v, i) => {
    if (v.you === null || v.you === undefined) return;
    const d = list[i];
    const current = i === page.at;
    parts.push(svg("circle", {
      class: `dot dot-${d.label}${current ? " current" : ""}`,
      cx: x(i), cy: y(v.you), r: current ? 8 : 6,
      onclick: () => show(i),
    }, svg("title", {}, `Decision ${i + 1}: ${choiceWords(d)}, ${d.label} (${pct(v.you)})`)));
  });
  node.replaceChildren(...parts);
}

function describeChart() {
  const values = page.decisions.map(charted).filter((v) => v.you !== null && v.you !== undefined);
  // p_safe in the table's unit (ruling 301): under Gin lives a round takes letters.
  const nothing = page.review.game.rules.lives_mode === "gin" ? "taking no letter" : "losing no life";
  const what = page.measure === "p_win" ? "chance of winning the game" : `chance of ${nothing} in the round`;
  $("chart-title").textContent = `Your ${what}`;
  $("key-you").textContent = `${page.measure}: after your choice`;
  $("key-best").textContent = `${page.measure}: with the Oracle's best`;
  $("chart-desc").textContent = values.length
    ? `Your ${what} after each of your decisions (solid line, dots coloured by label) and with ` +
      `the Oracle's best option at each (dashed): from ${pct(values[0].you)} at the first decision ` +
      `to ${pct(values[values.length - 1].you)} at the last. Select a dot to see its decision.`
    : "The Oracle gave no figures for any decision of this game.";
}

// -- the summary and the costliest decisions -------------------------------------------------

function summaryView() {
  const { game, settings, summary, labels } = page.review;
  const end = !game.over
    ? `unfinished, reviewed up to round ${game.rounds}`
    : game.winner === game.player
      ? "you won"
      : `${game.winner} won, you placed ${ordinal(game.place)}`;
  // The rounds your decisions cover (the game may go on after you are out: "44 decisions over
  // 5 rounds" was said of decisions in rounds 1 and 2), and the game's own count beside them.
  const covered = new Set(page.decisions.map((d) => d.round)).size;
  const lasted = game.over && covered !== game.rounds ? `; the game lasted ${count(game.rounds, "round")}` : "";
  $("headline").textContent =
    `${game.player}: ${count(summary.decisions, "decision")} over ${count(covered, "round")} (${end}${lasted}). ` +
    `The Oracle at ${count(settings.deals, "deal")} and ${count(settings.playouts, "playout")} per ` +
    `decision, seed ${settings.seed}.`;
  const winCost = summary.cost_p_win;
  const pointsCost = summary.cost_points;
  const figure = (value, what) => el("div", { class: "figure" }, el("span", { class: "value" }, value), el("span", { class: "what" }, what));
  // The share labelled best, as the labels below count it and say what it is. (The figure was
  // the summary's agreement: the round's best or one tied with it in p_safe, the ★ of a turn in
  // play, which is not the label's best when the label measures the game: 84.0% beside
  // "★ best 20" of 25.)
  const forGame = page.measure === "p_win" ? " for the game" : "";
  const best = summary.reviewed ? (summary.labels.best || 0) / summary.reviewed : null;
  const reviewed = figure(`${summary.reviewed}`, `decisions with the Oracle's figures, of ${summary.decisions}`);
  if (!summary.reviewed) {
    // (No share of best, total cost or labels of zero: ruling 364.)
    $("figures").replaceChildren(reviewed);
    $("legend").replaceChildren();
    $("thresholds").textContent = NO_FIGURES;
    return;
  }
  $("figures").replaceChildren(
    reviewed,
    figure(pct(best), `played the Oracle's best${forGame}, or within the margins of it (★\u00a0best)`),
    pointsCost !== null
      ? figure(pointsCost.toFixed(2), "expected points lost in all (ranked placing)")
      : figure(points(winCost === null ? summary.cost_p_safe : winCost),
        `${pointsWord(ranked())} of ${winCost === null ? "p_safe" : "p_win"} lost in all`),
  );
  $("legend").replaceChildren(...labels.map(({ label }) =>
    el("li", {}, badge(label), ` ${summary.labels[label] || 0}`)));
  const bounds = labels.filter((l) => l.from !== null);
  const said = (x) => String(Math.round(1000 * x) / 10);
  const spans = bounds.map((l, i) => {
    const next = bounds[i + 1];
    if (l.from === 0 && next) return `${l.label}: under ${said(next.from)} ${pointsWord(ranked())}`;
    return next ? `${l.label}: ${said(l.from)} to ${said(next.from)}` : `${l.label}: ${said(l.from)} or more`;
  });
  $("thresholds").textContent =
    `best: the Oracle's best${forGame}, or within the margins of it; ${spans.join("; ")} ` +
    `(${pointsWord(ranked())} of p_win lost; of p_safe where the Oracle gives no chance of winning the game). ` +
    // (Ruling 296: the record keeps no margins, so its count of best is the ★ alone.)
    "The Stats page counts a best played as the Oracle's ★ alone: the record keeps no margins.";
}

function costlyView() {
  const costly = page.decisions
    .map((d, i) => ({ d, i, cost: labelledCost(d) }))
    .filter(({ d, cost }) => d.label && d.label !== "best" && cost > 0)
    .sort((a, b) => b.cost - a.cost || a.i - b.i)
    .slice(0, 5);
  if (!costly.length) {
    // (As the terminal says it: ruling 363.)
    // (A total lost above nought is then made of differences within the margins: ruling 365.)
    const { summary } = page.review;
    const lost = [summary.cost_p_safe, summary.cost_p_win, summary.cost_points].some((c) => c > 0);
    const none = summary.reviewed
      ? "None: every decision the Oracle gave figures for was its best or within its margins" +
        (lost ? ", so the total lost above is made of differences within them." : ".")
      : "None: the Oracle gave no figures for any of your decisions.";
    $("costly").replaceChildren(el("li", {}, none));
    return;
  }
  $("costly").replaceChildren(...costly.map(({ d, i, cost }) => el("li", {},
    el("button", { type: "button", onclick: () => show(i, { focus: true }) },
      badge(d.label), ` Decision ${i + 1}, round ${d.round}, turn ${d.turn}: ${choiceWords(d)}, ` +
      `${points(cost)} ${pointsWord(ranked())} of ${measureWords(d.label_by)}`))));
}

// -- retry -----------------------------------------------------------------------------------

function neutralOrder(d, options) {
  const cardsHeld = [...d.hand, d.drew].filter(Boolean);
  const rank = (o) => (o.option in ORDER ? ORDER[o.option] : 10 + cardsHeld.indexOf(o.option.split(":")[1]));
  return [...options].sort((a, b) => rank(a) - rank(b));
}

function setRetrying(on) {
  page.retrying = on;
  for (const section of document.querySelectorAll("#review > section")) {
    section.hidden = on ? section.id !== "retry-panel" : section.id === "retry-panel";
  }
}

function retry() {
  const d = page.decisions[page.at];
  if (!d.advice) return;
  setRetrying(true);
  $("retry-title").textContent = `Retry: decision ${page.at + 1}, round ${d.round}, turn ${d.turn}`;
  const buttons = neutralOrder(d, d.advice.options).map((o) =>
    el("button", { type: "button", onclick: () => chosen(d, o) }, optionWords(o)));
  $("retry-body").replaceChildren(
    ...position(d),
    el("p", {}, el("strong", {}, "What do you play?"), " The Oracle's figures stay hidden until you choose."),
    el("div", { class: "options-buttons", role: "group", "aria-label": "Your options" }, buttons),
    el("div", { class: "row" }, el("button", { type: "button", onclick: closeRetry }, "Back to the review")),
  );
  $("retry-title").focus();
}

function chosen(d, option) {
  const label = d.option_labels[option.option];
  const byWin = d.label_by === "p_win";
  const top = optionNamed(d, byWin ? d.best_game : d.best);
  const cost = byWin ? top.p_win - option.p_win : top.p_safe - option.p_safe;
  const figures = [`safe in ${pct(option.p_safe)} of the rounds (±${points(option.margin)})`];
  const game = gameFigure(option);
  if (game !== null && ranked()) {
    figures.push(`expects ${hundredths(game)} points in the game (±${hundredths(option.points_margin)})`);
  } else if (game !== null) {
    figures.push(`wins the game ${pct(option.p_win)} of the time (±${points(option.p_win_margin)})`);
  }
  const best = optionNamed(d, d.best);
  const said = [
    el("h3", { id: "outcome-title", tabindex: "-1" }, `You chose: ${optionWords(option)} `, badge(label)),
    el("p", {}, `${optionWords(option)}${laterKnock(option)}: ${figures.join("; ")}.`),
    el("p", {}, label === "best"
      ? "The Oracle's best, or within the margins of it."
      : `It costs ${points(Math.max(cost, 0))} ${pointsWord(ranked())} of ${measureWords(d.label_by)} against the best: ${optionWords(top)}.`),
    el("p", {}, `The Oracle's best for the round: ${optionWords(best)}${laterKnock(best)}, safe in ${pct(best.p_safe)}.`),
    el("p", {}, `In the game you played: ${choiceWords(d)} (`, badge(d.label), ").")];
  $("retry-body").replaceChildren(
    ...position(d),
    el("div", { class: "outcome" }, said),
    el("p", {}, tensWritten(d.advice.reason)),
    optionsTable(d, option.option),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", onclick: retry }, "Try again"),
      el("button", { type: "button", onclick: closeRetry }, "Back to the review")));
  $("outcome-title").focus();
}

function closeRetry() {
  setRetrying(false);
  show(page.at);
  $("retry").focus();
}

// -- loading ---------------------------------------------------------------------------------

function problem(message) {
  $("problem").replaceChildren(message ? el("p", { class: "error" }, message) : "");
}

async function listSaves(wanted) {
  const select = $("game");
  try {
    const { saves } = await getJSON("/api/saves");
    const options = saves.map((s) => {
      const who = s.names ? ` — ${s.names.join(", ")}` : "";
      const state = s.state === "finished" || s.state === "unfinished" ? s.state : "cannot be read";
      const what = s.game === "last" ? "The last game played to its end"
        : s.game === "current" ? `The game saved now (${state})` : `${s.file} (${state})`;
      return el("option", { value: s.game, disabled: !s.names }, `${what}${who}`);
    });
    select.replaceChildren(...(options.length ? options : [el("option", { value: "", disabled: true }, "No saved game yet")]));
  } catch (err) {
    problem(`The saves could not be listed: ${err.message}`);
  }
  const values = [...select.options].filter((o) => !o.disabled).map((o) => o.value);
  select.value = values.includes(wanted) ? wanted : values[0] || "last";
  return values.length > 0;
}

async function load(game, decision) {
  const button = document.querySelector("#choose button");
  button.disabled = true;
  problem("");
  $("status").textContent = "The Oracle is reviewing the game… (a few seconds: each decision is asked about)";
  try {
    const query = new URLSearchParams({ game });
    // The review's budget and seed, when the page's address gives them (as thirtyone review's
    // --deals, --playouts and --seed), and its time limit over HTTP (max_time).
    const own = new URLSearchParams(window.location.search);
    for (const key of ["deals", "playouts", "seed", "max_time"]) {
      if (own.get(key)) query.set(key, own.get(key));
    }
    const review = await getJSON(`/api/review?${query}`);
    page.review = review;
    page.decisions = review.decisions;
    const counted = review.decisions.filter((d) => d.chosen);
    page.measure = counted.length && counted.every((d) => d.label_by === "p_win") ? "p_win" : "p_safe";
    $("review").hidden = false;
    setRetrying(false);
    summaryView();
    describeChart();
    costlyView();
    show(decision ? decision - 1 : 0);
    $("status").textContent = `Reviewed: ${count(review.decisions.length, "decision")}.`;
    const select = $("game");
    if (![...select.options].some((o) => o.value === game)) {
      select.append(el("option", { value: game }, game)); // (a save past those listed)
    }
    select.value = game;
    const url = new URL(window.location.href);
    url.searchParams.set("game", game);
    window.history.replaceState(null, "", url);
  } catch (err) {
    $("review").hidden = true;
    $("status").textContent = "";
    problem(err.message);
  } finally {
    button.disabled = false;
  }
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !page.review) return;
  const tag = event.target.tagName;
  if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
  if (page.retrying) {
    if (event.key === "Escape") closeRetry();
    return;
  }
  const moves = { ArrowLeft: page.at - 1, ArrowRight: page.at + 1, Home: 0, End: page.decisions.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  show(moves[event.key]);
}

async function start() {
  const params = new URLSearchParams(window.location.search);
  const named = params.get("game");
  const decision = Number.parseInt(params.get("decision") || "", 10) || null;
  $("previous").addEventListener("click", () => show(page.at - 1));
  $("next").addEventListener("click", () => show(page.at + 1));
  $("retry").addEventListener("click", retry);
  $("choose").addEventListener("submit", (event) => {
    event.preventDefault();
    load($("game").value, null);
  });
  document.addEventListener("keydown", onKey);
  redrawOnResize(() => page.review && !page.retrying && drawChart());
  const listed = await listSaves(named || "last");
  // The game the address names is asked for as named, listed or not: the server says what is
  // wrong with it (not the name of a save, no such save). The first game listed was reviewed
  // instead, without a word, and its name written into the address.
  if (named) await load(named, decision);
  else if (listed) await load($("game").value, decision);
  if (!listed) {
    if (!named) $("status").textContent = "No saved game yet: play a game to its end, then review it here.";
    document.querySelector("#choose button").disabled = true;
  }
}

start();
