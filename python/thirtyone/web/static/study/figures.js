// Figures as every page shows them, and as the Oracle's words write them (and a plan's clause).
// Kept with the study pages' files, which are also served alone (at /study/); the table's page
// reads it from there.

/**
 * The answer's figure (four decimals) in whole steps of its ten-thousandths, halves away from
 * zero, on integers, as the Oracle's words round it (rank.py's _half_up).
 */
function halfUp(x, step) {
  const n = Math.round(x * 10000);
  const whole = Math.floor((Math.abs(n) + step / 2) / step);
  return n < 0 ? -whole : whole;
}

/** Whole tenths (`places` 1) or hundredths (2) written as a decimal: "-12.8". */
function written(units, places) {
  const scale = 10 ** places;
  const a = Math.abs(units);
  return `${units < 0 ? "-" : ""}${Math.floor(a / scale)}.${String(a % scale).padStart(places, "0")}`;
}

/**
 * A share in percent with one decimal, rounded as the Oracle's words round it, so that a figure
 * reads the same in a table and in the reason beside it (0.1275 -> "12.8"; toFixed on 12.75,
 * stored as 12.7499…, gave 12.7).
 */
export function tenths(p) {
  return Number.isFinite(p) ? written(halfUp(p, 10), 1) : "—";
}

/**
 * The difference of two shares as they are shown, in percentage points with one decimal
 * (rank.py's shown_gap): 24.0% against 20.4% is "3.6", not the "3.7" of 0.2404 - 0.2036.
 */
export function shownGap(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) ? written(halfUp(a, 10) - halfUp(b, 10), 1) : "—";
}

/** A figure to two decimals (lives lost, points) as the Oracle's words write it: 0.125 -> "0.13". */
export function hundredths(x) {
  return Number.isFinite(x) ? written(halfUp(x, 100), 2) : "—";
}

/** A whole number with separators: `2,000`. */
export function whole(n) {
  return n === null || n === undefined ? "—" : Number(n).toLocaleString("en");
}

/** A number of things, the noun in the singular for one: `1 game`, `3 games` (the terminal's
 * `words.counted`). */
export function count(n, noun) {
  return `${whole(n)} ${n === 1 ? noun : `${noun}s`}`;
}

/** The unit of a difference of chances, short: "points"; `ranked`: beside ranked points (a game
 * placed ranked, a cost in expected points), "percentage points" (the terminal's
 * `words.points_word`, ruling 358). */
export function pointsWord(ranked) {
  return ranked ? "percentage points" : "points";
}

/** The plan of a put-down or a take that makes 31 (the terminal's `words.MAKES_31`). */
export const MAKES_31 = "makes 31 — show it";
/** The same where you hold a 31 kept hidden: it keeps one (`words.KEEPS_31`, ruling 314). */
export const KEEPS_31 = "keeps your 31 — show it";

/** An option's plan after its name, as the Oracle's reason and the terminal put it: " (then
 * knock at 25 or more)", or " (it makes 31 — show it)" (the pages said "then makes 31"). */
export function planClause(then) {
  if (!then) return "";
  return then === MAKES_31 || then === KEEPS_31 ? ` (it ${then})` : ` (then ${then})`;
}
