// Shared by the study pages: elements, the server's JSON, numbers, cards and SVG.

import { tenths } from "./figures.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element with attributes (a `class` key sets the class) and children (text or nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An SVG element with attributes and children. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The JSON the server answers; an Error with the server's message when it refuses. */
export async function getJSON(url) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" } });
  } catch (err) {
    throw new Error("the server cannot be reached: is thirtyone serve still running?");
  }
  let body = null;
  try {
    // A seed is up to 2**64 - 1: kept as its digits where the browser gives the number's source
    // (a number of the script's keeps 53 bits; elsewhere it reads as before).
    body = JSON.parse(await response.text(), (key, value, context) =>
      key === "seed" && !Number.isSafeInteger(value) && context && typeof context.source === "string"
        ? context.source
        : value);
  } catch (err) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    throw new Error(body && body.error ? body.error : `the server answered ${response.status}`);
  }
  return body;
}

/** A share as a percentage: `61.8%` (`—` for none), one decimal rounded as the Oracle's words
 * round it; `digits` 0 for a whole percentage (`62%`). */
export function pct(x, digits = 1) {
  if (x === null || x === undefined) return "—";
  return digits === 1 ? `${tenths(x)}%` : `${(100 * x).toFixed(digits)}%`;
}

/** A difference of shares in percentage points: `12.3` (`—` for none). */
export function points(x) {
  return x === null || x === undefined ? "—" : tenths(x);
}

// (A whole number with separators, `2,000`, and a number of things, `1 game`, `3 games`: shared
// with the table's page.)
export { count, whole } from "./figures.js";

const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };

/** The Oracle's words with every ten written as 10 ("put down the TD" reads "put down the
 * 10D"), as the table's page writes them: the study pages are served on their own, so they do not
 * import the table's `cards.js`. */
export function tensWritten(text) {
  return text.replace(/\bT(?=[CDHS]\b)/g, "10");
}

/** A card (`7H`, `TS`) drawn as a small tile, named for screen readers (`10 of spades`). */
export function card(text) {
  const rank = text.slice(0, -1).toUpperCase();
  const suit = SUITS[text.slice(-1).toUpperCase()];
  if (!suit) return el("span", { class: "card" }, text);
  const shown = rank === "T" ? "10" : rank;
  const name = `${RANKS[rank] || shown} of ${suit[1]}`;
  const red = suit[1] === "hearts" || suit[1] === "diamonds";
  return el("span", { class: red ? "card red" : "card", role: "img", "aria-label": name, title: text },
    `${shown}${suit[0]}`);
}

/** Several cards in a row. */
export function cards(list) {
  return el("span", { class: "cards" }, list.map(card));
}

/** `1st`, `2nd`, `3rd`, `4th`. */
export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${tail}`;
}

/** The width an SVG chart is drawn at: its box's, within bounds (so text keeps its size). */
export function chartWidth(node, least = 300, most = 900) {
  const width = Math.round(node.getBoundingClientRect().width || node.parentElement.clientWidth);
  return Math.max(least, Math.min(most, width || least));
}

/** Call `draw` again when the window's width changes (once per frame at most). */
export function redrawOnResize(draw) {
  let pending = false;
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (pending || window.innerWidth === width) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      width = window.innerWidth;
      draw();
    });
  });
}
