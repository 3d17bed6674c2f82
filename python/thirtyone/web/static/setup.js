// The start screen: the game saved (or why there is none), the unfinished games kept beside it,
// and the new-game form with everything `thirtyone play` offers.

import { element } from "./view.js";

const $ = (id) => document.getElementById(id);
// Fields shown at the top of the form (the rest are under "More rule options").
const TOP = ["seats", "lives", "knock_penalty"];

let choices = null;

function preset(name) {
  return choices.presets.find((p) => p.name === name) || choices.presets[0];
}

function fieldValue(option) {
  const input = $(`f-${option.name}`);
  if (!input) return undefined;
  if (option.type === "bool") return input.checked;
  if (option.type === "number") return input.value === "" ? null : Number(input.value);
  if (option.type === "names") return input.value.split(",").map((s) => s.trim()).filter(Boolean);
  if (option.name === "knock_penalty") return Number(input.value);
  return input.value;
}

function setField(option, value) {
  const input = $(`f-${option.name}`);
  if (!input) return;
  if (option.type === "bool") input.checked = Boolean(value);
  else if (option.type === "names") input.value = (value || []).join(", ");
  else input.value = String(value);
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Build the form's fields from the server's choices (once). */
export function initForm(setupChoices, onSubmit) {
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
      input = element("input", { type: "number", id: `f-${option.name}`, min: option.min, max: option.max, step: option.step });
    } else input = element("input", { id: `f-${option.name}`, placeholder: "names, separated by commas" });
    const text = option.label;
    const labelled = option.type === "bool"
      ? element("label", { class: "check" }, input, text)
      : element("label", {}, text, input);
    labelled.append(element("span", { class: "meaning", text: option.meaning }));
    more.append(labelled);
  }
  select.addEventListener("change", () => applyPreset(select.value));
  $("f-tutor-on").addEventListener("change", () => { $("f-tutor").disabled = !$("f-tutor-on").checked; });
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(readForm());
  });
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
    const value = fieldValue(option);
    if (value !== undefined && !same(value, p.values[option.name])) rules[option.name] = value;
  }
  const name = $("f-name").value;
  localStorage.setItem("thirtyone.name", name);
  // (An empty field is sent as "", which the server calls empty: 0 or null would say otherwise.)
  const points = $("f-tutor").value.trim();
  const tutor = $("f-tutor-on").checked ? (points === "" ? "" : Number(points)) : null;
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

/** The start screen for a lobby message. */
export function drawLobby(message, { onContinue, onAgain }) {
  const note = $("lobby-note");
  const texts = {
    missing: "No game is saved yet. Choose your table and start one.",
    finished: "Your last game is over. Play again, or choose another table.",
    damaged: `${message.why}. Starting a new game keeps it as a numbered file beside it.`,
    refused: `${message.why}.`,
  };
  note.textContent = `${texts[message.found] || ""} (Saved at ${message.save}.)`;
  $("lobby-last").hidden = !message.last;
  $("lobby-again").onclick = message.last ? () => onAgain(message.last) : null;
  if (message.last) fillForm(message.last);
  const others = message.others || [];
  $("lobby-others").hidden = others.length === 0;
  $("others-list").replaceChildren(...others.map((g) => {
    const button = element("button", { type: "button", text: "Continue" });
    button.addEventListener("click", () => onContinue(g.game));
    return element("li", {}, element("span", { text: `${g.file}: ${g.names.join(", ")} · ${g.preset} · ${g.moves} moves` }), button);
  }));
}

export function formProblem(text) {
  const p = $("form-problem");
  p.hidden = !text;
  p.textContent = text || "";
}
