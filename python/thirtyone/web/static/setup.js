// The start screen: the game saved (or why there is none), the unfinished games kept beside it,
// and the new-game form with everything `thirtyone play` offers.

import { element } from "./view.js";

const $ = (id) => document.getElementById(id);
// Fields shown at the top of the form (the rest are under "More rule options").
const TOP = ["seats", "lives", "knock_penalty"];

let choices = null;
let bound = false; // (the form's listeners, bound once)

function preset(name) {
  return choices.presets.find((p) => p.name === name) || choices.presets[0];
}

function fieldValue(option, p) {
  const input = $(`f-${option.name}`);
  if (!input) return undefined;
  if (option.type === "bool") return input.checked;
  // (A number as typed: the server reads it and quotes it back as typed when it is wrong, where
  // a number of the script's would be none for 1e400, or another for 23 nines.)
  if (option.type === "number") return input.value.trim() || null;
  if (option.type === "names") {
    // (The preset's names as setField wrote them are the preset's: four-corners' last name,
    // "out, stake in the centre", holds a comma, and split there it made one name too many.)
    const preset = p.values[option.name] || [];
    if (input.value.trim() === preset.join(", ")) return preset;
    return splitNames(input.value);
  }
  if (option.name === "knock_penalty") return Number(input.value);
  return input.value;
}

/** Names typed, split at their commas; a preset's name that holds one is kept whole where it
 *  stands (four-corners' "out, stake in the centre": with another of the names edited, it was
 *  split and the six names refused as seven). */
function splitNames(text) {
  const known = choices.presets.flatMap((p) => p.values.life_names || []);
  const pieces = text.split(",").map((s) => s.trim());
  const names = [];
  for (let i = 0; i < pieces.length; i += 1) {
    let j = pieces.length;
    while (j > i + 1 && !known.includes(pieces.slice(i, j).join(", "))) j -= 1;
    names.push(pieces.slice(i, j).join(", "));
    i = j - 1;
  }
  return names.filter(Boolean);
}

function setField(option, value) {
  const input = $(`f-${option.name}`);
  if (!input) return;
  if (option.type === "bool") input.checked = Boolean(value);
  else if (option.type === "names") input.value = (value || []).join(", ");
  else input.value = String(value);
}

/** Whether a field's value is the preset's: a number field's text is the preset's number as
 *  the form writes it ("4" is 4). */
function same(a, b) {
  if (typeof a === "string" && typeof b === "number") return a === String(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Build the form's fields from the server's choices. The welcome that comes again at each
 *  reconnection, with the same choices, leaves the form as it is, with what was typed in it (it
 *  was built again and bound again: one click on "Start the game" then sent one new game per
 *  connection, the second of them asked about the first). */
export function initForm(setupChoices, onSubmit) {
  if (JSON.stringify(setupChoices) === JSON.stringify(choices)) return;
  choices = setupChoices;
  const select = $("f-preset");
  // (The preset's name alone: with its rule document beside it, the list was wider than a
  // phone; the document is named in the note under it.)
  select.replaceChildren(...choices.presets.map((p) => element("option", { value: p.name, text: p.name })));
  const more = $("f-more");
  more.replaceChildren();
  for (const option of choices.options) {
    if (TOP.includes(option.name)) {
      if (option.type === "choice") $(`f-${option.name}`).replaceChildren(...choiceOptions(option));
      continue;
    }
    let input;
    if (option.type === "bool") input = element("input", { type: "checkbox", id: `f-${option.name}` });
    else if (option.type === "choice") {
      input = element("select", { id: `f-${option.name}` }, ...choiceOptions(option));
    } else if (option.type === "number") {
      // (A text field, for what is typed to be sent and quoted as typed; the hint gives a
      // phone's number keyboard.)
      const mode = Number.isInteger(option.step) ? "numeric" : "decimal";
      input = element("input", { id: `f-${option.name}`, class: "number", inputmode: mode, autocomplete: "off" });
    } else input = element("input", { id: `f-${option.name}`, placeholder: "names, separated by commas" });
    // (Named by its label alone, "County", and described by its meaning: the meaning inside
    // the label made a name of forty words that a screen reader said at every Tab.)
    const text = element("span", { id: `f-${option.name}-name`, text: option.label });
    input.setAttribute("aria-labelledby", `f-${option.name}-name`);
    input.setAttribute("aria-describedby", `f-${option.name}-meaning`);
    const labelled = option.type === "bool"
      ? element("label", { class: "check" }, input, text)
      : element("label", {}, text, input);
    labelled.append(element("span", { class: "meaning", id: `f-${option.name}-meaning`, text: option.meaning }));
    more.append(labelled);
  }
  if (!bound) {
    bound = true;
    select.addEventListener("change", () => applyPreset(select.value));
    // (On the form, which is built once: County is made again with the fields.)
    $("new-game").addEventListener("input", (event) => {
      if (["f-lives", "f-county"].includes(event.target.id)) presetNamesFollow();
    });
    $("f-tutor-on").addEventListener("change", () => { $("f-tutor").disabled = !$("f-tutor-on").checked; });
    $("new-game").addEventListener("submit", (event) => {
      event.preventDefault();
      onSubmit(readForm());
    });
  }
  applyPreset("standard");
  $("f-name").value = localStorage.getItem("thirtyone.name") || "You";
  $("f-tutor").disabled = true;
}

/** A choice's options: the rule's value (as the server reads it), shown in words. */
function choiceOptions(option) {
  return option.choices.map((c, i) => element("option", { value: String(c), text: option.words[i] }));
}

function applyPreset(name) {
  const p = preset(name);
  $("f-preset").value = p.name;
  $("f-preset-note").textContent = `${p.differs} From ${p.document}.`;
  for (const option of choices.options) setField(option, p.values[option.name]);
}

/** A preset's names of the lives are for its own lives and county (ruling 332): with either
 *  changed the field shows none, as the game will (the lives told as numbers), and the
 *  preset's again when both are back. Names the player typed stay. (The field kept the six
 *  names of four-corners at 2 lives, which the game leaves out, and at 5 lives without the
 *  county, where one of them, "all 4 corners folded", would name a life: ruling 340.) */
function presetNamesFollow() {
  const p = preset($("f-preset").value);
  const own = (p.values.life_names || []).join(", ");
  const input = $("f-life_names");
  const shown = input.value.trim();
  if (!own || (shown !== "" && shown !== own)) return;
  const its = $("f-lives").value.trim() === String(p.values.lives) && $("f-county").checked === p.values.county;
  input.value = its ? own : "";
}

/** Fill the form with a game's table (the last game's, for "play again" or a new game). */
export function fillForm(setup) {
  if (!choices || !setup) return;
  applyPreset(setup.preset);
  for (const option of choices.options) {
    if (option.name in setup.rules) setField(option, setup.rules[option.name]);
  }
  $("f-name").value = setup.name;
  $("f-opponents").value = setup.opponents;
  $("f-advice").value = setup.advice;
  $("f-tutor-on").checked = setup.tutor !== null && setup.tutor !== undefined;
  $("f-tutor").disabled = !$("f-tutor-on").checked;
  if (setup.tutor) $("f-tutor").value = String(setup.tutor);
  $("f-seed").value = "";
}

/** The form as the server reads it: only the rule options that differ from the preset. */
export function readForm() {
  const p = preset($("f-preset").value);
  const rules = {};
  for (const option of choices.options) {
    const value = fieldValue(option, p);
    if (value !== undefined && !same(value, p.values[option.name])) rules[option.name] = value;
  }
  const name = $("f-name").value;
  localStorage.setItem("thirtyone.name", name);
  // (The points as typed, which the server quotes back when they are wrong; an empty field is
  // sent as "", which the server calls empty: 0 or null would say otherwise.)
  const points = $("f-tutor").value.trim();
  const tutor = $("f-tutor-on").checked ? points : null;
  return {
    preset: p.name,
    rules,
    name,
    seed: $("f-seed").value.trim() || null,
    opponents: $("f-opponents").value,
    advice: $("f-advice").value,
    tutor,
  };
}

/** The start screen for a lobby message; ``shown``: it was on show already (a reconnection's
 *  answer), and the form keeps what was typed in it rather than the last game's table. */
export function drawLobby(message, { onContinue, onAgain, shown = false }) {
  const note = $("lobby-note");
  // (Game n is a backup: that none is there says nothing of the game at the save, which may
  // well be under way; a link leads to it.)
  const n = message.game;
  const texts = {
    missing: n ? `There is no game ${n}: nothing is saved at ${message.save}.`
      : "No game is saved yet. Choose your table and start one.",
    finished: `${n ? `Game ${n}` : "Your last game"} is over. Play again, or choose another table.`,
    damaged: n ? `${message.why}.` : `${message.why}. Starting a new game keeps it as a numbered file beside it.`,
    refused: `${message.why}.`,
  };
  const where = n && message.found === "missing" ? "" : ` (Saved at ${message.save}.)`;
  note.replaceChildren(`${texts[message.found] || ""}${where}`);
  if (n) note.append(" ", element("a", { class: "button", href: "/", text: "Go to your main game" }));
  $("lobby-last").hidden = !message.last;
  $("lobby-again").onclick = message.last ? () => onAgain(message.last) : null;
  if (message.last && !shown) fillForm(message.last);
  const others = message.others || [];
  $("lobby-others").hidden = others.length === 0;
  $("others-list").replaceChildren(...others.map((g) => {
    // (Named for its game: a list of "Continue", "Continue" told a screen reader nothing.)
    const button = element("button", { type: "button", text: "Continue", "aria-label": `Continue ${g.file}` });
    button.addEventListener("click", () => onContinue(g.game));
    return element("li", {}, element("span", { text: `${g.file}: ${g.names.join(", ")} · ${g.preset} · ${g.moves} moves` }), button);
  }));
}

export function formProblem(text) {
  const p = $("form-problem");
  p.hidden = !text;
  p.textContent = text || "";
  // A field refused under "More rule options" is shown: names of the lives typed that do not
  // fit the lives stayed folded away out of sight (ruling 330; a preset's own names no longer
  // refuse other lives: ruling 332).
  const option = text && choices ? choices.options.find((o) => text.startsWith(`${o.label}:`)) : null;
  const folded = option ? $(`f-${option.name}`)?.closest("details") : null;
  if (folded) folded.open = true;
}
