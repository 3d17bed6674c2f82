// The dialogs of the table: a round's result with every hand, the game's end, and the questions
// asked before a move (show or hide a 31; the tutor's warning). Each returns a promise of the
// answer, so the page waits for it.

import { cardSvg } from "./cards.js";
import { tutorText } from "./oracle.js";
import { Names, endTitle, lossSentence, losesWords, ordinal, score, unitWord } from "./story.js";
import { element } from "./view.js";

const $ = (id) => document.getElementById(id);

export function dialogAnswer(dialog, buttons) {
  return new Promise((resolve) => {
    const handlers = [];
    const done = (value) => {
      for (const [b, h] of handlers) b.removeEventListener("click", h);
      dialog.removeEventListener("cancel", cancel);
      if (dialog.open) dialog.close();
      resolve(value);
    };
    const cancel = () => done(null);
    for (const [id, value] of Object.entries(buttons)) {
      const b = $(id);
      const h = () => done(value);
      b.addEventListener("click", h);
      handlers.push([b, h]);
    }
    dialog.addEventListener("cancel", cancel);
    dialog.showModal();
  });
}

/** A put-down that leaves you 31, which you may keep hidden; ``question``: the state's
 * ``hide_question``, its heading and words as the terminal asks it (they depend on the table and
 * on whether somebody has knocked). */
export function askHide(question) {
  $("hide-title").textContent = question.title;
  $("hide-text").textContent = question.text;
  return dialogAnswer($("hide-dialog"), { "hide-show": false, "hide-keep": true });
}

export function askTutor(found) {
  $("tutor-text").textContent = tutorText(found);
  return dialogAnswer($("tutor-dialog"), { "tutor-play": "play", "tutor-show": "show", "tutor-back": "back" });
}

// -- a round's end, the game's end ---------------------------------------------------------------

export function showResult(e, t, names, unit) {
  // A wash loses nothing: what the round would have cost is shown as such, not as a loss, and
  // the lives as they stay.
  const wash = e.kind === "wash";
  $("result-title").textContent = wash ? "A wash: the round is dealt again" : endTitle(e, names);
  $("result-lost-head").textContent = wash ? "Would have lost" : "Lost";
  $("result-how").textContent = resultHow(e, names, unit);
  const rows = Object.entries(e.hands).map(([seat, cards]) => {
    const s = Number(seat);
    const lost = e.losses[seat] || 0;
    const cells = element("td", { class: "cards" }, ...cards.map((c) => cardSvg(c)));
    const hidden = (e.hidden_31 || []).includes(s) ? " (31 hidden)" : "";
    return element("tr", { class: `${lost && !wash ? "lost" : ""}${s === names.you ? " you" : ""}` },
      element("th", { scope: "row", text: names.of(s) }),
      cells,
      element("td", { text: `${score(e.scores[seat])}${hidden}` }),
      element("td", { text: !lost ? "" : wash ? String(lost) : `−${lost}` }),
      element("td", { text: t.standing[s] }));
  });
  $("result-hands").replaceChildren(...rows);
  $("result-after").textContent = lossSentence(e, names, unit);
  const dialog = $("result-dialog");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(), { once: true });
    dialog.showModal();
  });
}

/** Who called a blind showdown and what it costs (the title names neither), or who had
 *  knocked before a round's other end. */
function resultHow(e, names, unit) {
  if (e.end === "blind" && e.by !== null && e.by !== undefined) {
    return `${names.of(e.by)} called it before anybody looked: the lowest dealt hand `
      + `${losesWords(1, unit)}, and ${unitWord(2, unit)} if it is the caller's.`;
  }
  return e.knocker !== null && e.knocker !== undefined && e.end !== "showdown"
    ? `${names.of(e.knocker)} had knocked.` : "";
}

export function showOver(s) {
  const names = new Names(s.names, s.you);
  const place = s.placing.indexOf(s.you) + 1;
  $("over-title").textContent = s.winner === s.you ? "You won the game!"
    : `${names.of(s.winner)} won the game. You finished ${ordinal(place)}.`;
  $("over-placing").replaceChildren(...s.placing.map((seat) => {
    const n = s.points ? s.points[seat] ?? 0 : null;
    const points = s.points ? ` · ${n} point${n === 1 ? "" : "s"}` : "";
    return element("li", { text: `${names.of(seat)}${points}` });
  }));
  const notes = [...(s.record || [])];
  if (s.keep_error) notes.push(`Note: ${s.keep_error}.`);
  $("over-record").textContent = notes.join("\n");
  $("over-dialog").showModal();
}
