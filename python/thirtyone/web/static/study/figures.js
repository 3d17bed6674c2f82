// Figures as every page shows them, and as the Oracle's words write them. Kept with the study
// pages' files, which are also served alone (at /study/); the table's page reads it from there.

/**
 * A share in percent with one decimal, rounded as the Oracle's words round it, so that a figure
 * reads the same in a table and in the reason beside it: the figure as the answer gives it
 * (four decimals) in whole hundredths of a percent, half up, then in tenths, half up again, on
 * integers (0.1275 -> 1275 -> 128: "12.8"; toFixed on 12.75, stored as 12.7499…, gave 12.7).
 */
export function tenths(p) {
  const n = Math.round(p * 10000);
  const t = Math.floor((n + 5) / 10);
  const a = Math.abs(t);
  return `${t < 0 ? "-" : ""}${Math.floor(a / 10)}.${a % 10}`;
}
