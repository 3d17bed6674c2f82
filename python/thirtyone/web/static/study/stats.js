// The stats page: the record of games (GET /api/stats, the JSON of `thirtyone stats --json`).
import { chartWidth, count, el, getJSON, pct, redrawOnResize, svg, whole } from "./common.js";
import { pointsWord } from "./figures.js";

const $ = (id) => document.getElementById(id);
let stats = null;

function figure(value, what) {
  return el("div", { class: "figure" }, el("span", { class: "value" }, value), el("span", { class: "what" }, what));
}

/** The 95% interval as a bar: the range shaded, the share won marked. */
function intervalBar(rate, ci) {
  if (rate === null) return null;
  const W = 100;
  return svg("svg", { class: "ci-bar", viewBox: `0 0 ${W} 10`, preserveAspectRatio: "none", "aria-hidden": "true" },
    svg("rect", { class: "track", x: 0, y: 4, width: W, height: 2 }),
    svg("rect", { class: "range", x: W * ci[0], y: 1, width: Math.max(1, W * (ci[1] - ci[0])), height: 8 }),
    svg("rect", { class: "point", x: Math.min(W - 2, Math.max(0, W * rate - 1)), y: 0, width: 2, height: 10 }));
}

function interval(ci) {
  if (ci === null) return "—";  // (no games: nothing to count)
  return `${pct(ci[0], 0)} to ${pct(ci[1], 0)}`;
}

function groupTable(rows, key, title) {
  if (!rows.length) return el("p", { class: "muted" }, "No games.");
  const head = el("tr", {},
    el("th", { scope: "col" }, title),
    el("th", { scope: "col", class: "num" }, "Games"),
    el("th", { scope: "col", class: "num" }, "Won"),
    el("th", { scope: "col" }, "Win rate, 95% interval"),
    el("th", { scope: "col", class: "num" }, "Mean place"));
  const body = rows.map((row) => el("tr", {},
    el("th", { scope: "row" }, row[key]),
    el("td", { class: "num" }, whole(row.games)),
    el("td", { class: "num" }, whole(row.wins)),
    el("td", {}, el("strong", {}, pct(row.win_rate)), el("br"),
      el("span", { class: "muted" }, interval(row.ci)), intervalBar(row.win_rate, row.ci)),
    el("td", { class: "num" }, row.mean_place === null ? "—" : row.mean_place.toFixed(2))));
  return el("table", {}, el("thead", {}, head), el("tbody", {}, body));
}

function day(iso) {
  return iso ? iso.slice(0, 10) : "";
}

/** The share of games won so far after each game, an even share, the interval over all games,
 * and each game won or lost. */
function drawTime() {
  const node = $("time");
  const games = stats.history;
  const n = games.length;
  const W = chartWidth(node);
  const H = 240;
  const m = { l: 46, r: 14, t: 12, b: 58 };
  const strip = H - m.b + 10;
  node.setAttribute("viewBox", `0 0 ${W} ${H}`);
  node.setAttribute("width", W);
  node.setAttribute("height", H);
  const x = (i) => (n === 1 ? m.l + (W - m.l - m.r) / 2 : m.l + (i * (W - m.l - m.r)) / (n - 1));
  const y = (v) => m.t + (1 - v) * (strip - 10 - m.t);
  const parts = [];
  parts.push(svg("rect", {
    class: "band", x: m.l, width: W - m.l - m.r, y: y(stats.ci[1]), height: Math.max(1, y(stats.ci[0]) - y(stats.ci[1])),
  }, svg("title", {}, `95% interval over all games: ${interval(stats.ci)}`)));
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(svg("line", { class: "grid", x1: m.l, x2: W - m.r, y1: y(v), y2: y(v) }));
    parts.push(svg("text", { x: m.l - 6, y: y(v) + 4, "text-anchor": "end" }, `${v * 100}%`));
  }
  let won = 0;
  let even = 0;
  const rate = [];
  const fair = [];
  games.forEach((g, i) => {
    won += g.won ? 1 : 0;
    even += 1 / g.seats;
    rate.push(`${x(i)},${y(won / (i + 1))}`);
    fair.push(`${x(i)},${y(even / (i + 1))}`);
  });
  if (n > 1) {
    parts.push(svg("polyline", { class: "best", points: fair.join(" ") }));
    parts.push(svg("polyline", { class: "rate", points: rate.join(" ") }));
  } else {
    // (one game: no line to draw, its two figures marked where the lines would start)
    const mark = (point, cls) => {
      const [cx, cy] = point.split(",").map(Number);
      return svg("line", { class: cls, x1: cx - 12, x2: cx + 12, y1: cy, y2: cy });
    };
    parts.push(mark(fair[0], "best"), mark(rate[0], "rate"));
  }
  const size = Math.max(3, Math.min(12, (W - m.l - m.r) / Math.max(n, 1) - 1));
  games.forEach((g, i) => {
    parts.push(svg("rect", {
      class: g.won ? "won" : "lost", x: x(i) - size / 2, y: strip, width: size, height: 12,
    }, svg("title", {}, `Game ${i + 1}, ${day(g.finished)}: ${g.won ? "won" : `place ${g.place} of ${g.seats}`} (${g.preset}, ${g.opponents})`)));
  });
  parts.push(svg("text", { x: m.l, y: H - 8, "text-anchor": "start" }, day(games[0].finished)));
  if (n > 1) parts.push(svg("text", { x: W - m.r, y: H - 8, "text-anchor": "end" }, day(games[n - 1].finished)));
  parts.push(svg("text", { x: (m.l + W - m.r) / 2, y: H - 8, "text-anchor": "middle" }, count(n, "game")));
  node.replaceChildren(...parts);
  // (The last ten apart only when there are more: with fewer it said the record again, "after
  // 1 game … The last 1 game: 1 won.")
  const last = games.slice(-10);
  const lately = last.length < n ? ` The last ${count(last.length, "game")}: ${last.filter((g) => g.won).length} won.` : "";
  $("time-desc").textContent =
    `The share of games won so far, game by game: ${pct(stats.win_rate)} after ${count(n, "game")} ` +
    `(95% interval ${interval(stats.ci)}, shaded), against an even share of ${pct(even / n)}.${lately}`;
}

function decisionsView(you) {
  const cost = (x) => (x === null ? "—" : (100 * x).toFixed(1));
  // (Beside a cost in ranked points, a cost of chances says "percentage points": ruling 358.)
  const unit = pointsWord(you.mean_cost_points !== null);
  $("decisions").replaceChildren(
    figure(whole(you.decisions), you.decisions === 1 ? "decision of yours recorded" : "decisions of yours recorded"),
    figure(whole(you.advised), "with the Oracle's advice computed"),
    figure(pct(you.agreement), "played the Oracle's best"),
    figure(cost(you.mean_cost_p_safe), `${unit} of p_safe lost on average`),
    figure(cost(you.mean_cost_p_win), `${unit} of p_win lost on average`),
    // (Under ranked placing the game's figure is expected points, not a chance: kept apart.)
    ...(you.mean_cost_points === null ? [] : [figure(you.mean_cost_points.toFixed(2),
      "expected points lost on average under ranked placing")]));
  $("decisions-note").textContent =
    "A decision's cost is the best option's chance minus the chance of the option played, in " +
    "percentage points (under ranked placing, for the game, in expected points); the review " +
    "of a game labels each decision by it. A best played is the Oracle's ★ alone: the review " +
    "also counts an option within the margins of it (≈), which the record does not keep.";
}

/** The rows of the record that are not games as thirtyone writes them, told. */
function leftOut(skipped) {
  return `${count(skipped, "row")} of the record could not be read as a game and ` +
    `${skipped === 1 ? "is" : "are"} left out (thirtyone stats says why).`;
}

function render() {
  const s = stats;
  $("all").replaceChildren(
    figure(whole(s.games), s.games === 1 ? "game played to its end" : "games played to their end"),
    figure(whole(s.wins), "won"),
    figure(pct(s.win_rate), `won; 95% interval ${interval(s.ci)}`),
    figure(s.mean_place === null ? "—" : s.mean_place.toFixed(2), "mean place"));
  $("span").textContent = `From ${day(s.first)} to ${day(s.last)} (UTC). The record: ${s.record}.` +
    (s.skipped ? ` ${leftOut(s.skipped)}` : "");
  $("by-preset").replaceChildren(groupTable(s.by_preset, "preset", "Preset"));
  $("by-opponents").replaceChildren(groupTable(s.by_opponents, "opponents", "Opponents"));
  $("by-played-by").replaceChildren(groupTable(s.by_played_by, "played_by", "Played by"));
  decisionsView(s.decisions.you);
  drawTime();
}

async function start() {
  try {
    stats = await getJSON("/api/stats");
  } catch (err) {
    $("status").textContent = "";
    $("problem").replaceChildren(el("p", { class: "error" }, err.message));
    return;
  }
  if (!stats.games) {
    // (A record whose every row was left out is not one with no games: ruling 291.)
    $("status").textContent = stats.skipped
      ? `No game of the record can be read: ${leftOut(stats.skipped)}`
      : "No games recorded yet: each game played to its end is recorded here.";
    return;
  }
  $("status").textContent = `${count(stats.games, "game")} in the record.`;
  $("record").hidden = false;
  render();
  redrawOnResize(drawTime);
}

start();
