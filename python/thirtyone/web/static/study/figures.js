// Figures as every page shows them, and as the Oracle's words write them. Kept with the study
// pages' files, which are also served alone (at /study/); the table's page reads it from there.

/**
 * A share in percent with one decimal, rounded as the Oracle's words round it, so that a figure
 * reads the same in a table and in the reason beside it: the figure as the answer gives it
 * (four decimals) in whole hundredths of a percent, half up, then in tenths, half up again, on
 * integers (0.1275 -> 1275 -> 128: "12.8"; toFixed on 12.75, stored as 12.7499…, gave 12.7).
 */
export function tenths(p) {
  if (!Number.isFinite(p)) return "—";
  const n = Math.round(p * 10000);
  const a = Math.floor((Math.abs(n) + 5) / 10);
  return `${n < 0 && a > 0 ? "-" : ""}${Math.floor(a / 10)}.${a % 10}`;
}

/**
 * A figure to two decimals (lives lost, points) as the Oracle's words write it: the answer's
 * four decimals in whole ten-thousandths, then hundredths half up, on integers (0.125 -> "0.13").
 */
export function hundredths(x) {
  if (!Number.isFinite(x)) return "—";
  const n = Math.round(x * 10000);
  const a = Math.floor((Math.abs(n) + 50) / 100);
  return `${n < 0 && a > 0 ? "-" : ""}${Math.floor(a / 100)}.${String(a % 100).padStart(2, "0")}`;
}
