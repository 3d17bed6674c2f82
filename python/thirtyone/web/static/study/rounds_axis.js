// The review chart's axis of rounds: where each round's label goes under the chart, so that
// labels stand apart however narrow the page (ruling 295), and how wide a label is drawn.
import { svg } from "./common.js";

/**
 * Where each round's label goes under the chart (`spans`: each round's stretch, in order): at
 * the middle of its stretch, moved aside as little as needed so that no two overlap within
 * `left` to `right`. (A label was put at its round's first decision and left out when too near
 * the one before, so the round after a short round went unlabelled.) Only when the labels are
 * too many for the width even side by side is every second (fifth, tenth…) round labelled.
 * `textWidth(text)`: a label's width as drawn. Two labels are at least `LABEL_GAP` apart: at
 * 390 px they stood 7 px apart, "R3 R5 R7" read as one run (ruling 295).
 */
export function roundLabels(spans, left, right, textWidth) {
  const width = (s) => textWidth(`R${s.round}`) + LABEL_GAP;
  let shown = spans;
  for (const step of [2, 5, 10, 20, 50, 100]) {
    if (shown.reduce((sum, s) => sum + width(s), 0) <= right - left) break;
    shown = spans.filter((s, k) => k % step === 0);
  }
  const apart = (k) => (width(shown[k - 1]) + width(shown[k])) / 2;
  const at = [];
  shown.forEach((s, k) => {
    const least = k === 0 ? left + width(s) / 2 : at[k - 1] + apart(k);
    at.push(Math.max((s.from + s.to) / 2, least));
  });
  for (let k = at.length - 1; k >= 0; k -= 1) {
    const most = k === at.length - 1 ? right - width(shown[k]) / 2 : at[k + 1] - apart(k + 1);
    at[k] = Math.min(at[k], most);
  }
  return shown.map((s, k) => ({ round: s.round, at: at[k] }));
}

/** The least space between two round labels: one em of their 12 px figures. */
const LABEL_GAP = 12;

/** How wide ``text`` is drawn as a label of the chart ``node`` (measured there; 8 px a
 *  character, a wide font's, where the chart is not drawn yet). */
export function labelWidths(node) {
  const probe = svg("text", { "aria-hidden": "true" }, "");
  node.append(probe);
  return (text) => {
    probe.textContent = text;
    return probe.getComputedTextLength() || 8 * text.length;
  };
}
