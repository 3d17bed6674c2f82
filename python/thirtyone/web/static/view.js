// The table drawn from what the server sent: the seats with their lives and what each did this
// round, the stock and the pile, your hand and the buttons of your decision, the round's log.

import { backSvg, cardName, cardSvg, label } from "./cards.js";
import { Names, counted, losesWords, ordinal, sentence, together, turnShort, unitWord } from "./story.js";

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") e.className = value;
    else if (key === "text") e.textContent = value;
    else if (value !== null && value !== undefined && value !== false) e.setAttribute(key, value === true ? "" : value);
  }
  e.append(...children);
  return e;
}
export { element };

/** Focus lost (on the page's body, or on a control gone, hidden or disabled with a move made)
 * goes to your hand while the table is on show: Enter there plays the Oracle's best, Tab
 * reaches the buttons (ruling 240). Focus anywhere else is left where it is. */
export function keepFocus() {
  const e = document.activeElement;
  const lost = !e || e === document.body || !document.contains(e) || e.closest("[hidden]") || e.disabled;
  if (lost && !$("game").hidden) $("hand-area").focus({ preventScroll: true });
}

/** Each seat's turns this round, from the round's events. */
export function doneThisRound(log) {
  const done = {};
  for (const e of log) {
    if (e.kind === "turn") (done[e.seat] ||= []).push(turnShort(e));
  }
  return done;
}

function pips(lives, unit) {
  if (unit === "letters" || lives <= 0 || lives > 6) return "";
  return "♥".repeat(lives);
}

/** How a seat's badge names its computer player (the terminal's words). */
const KIND_WORDS = { table: "the table's rule", expert: "expert" };

/** The seats other than yours. */
export function drawSeats(game, table, done) {
  const list = $("seats");
  list.replaceChildren();
  const names = game.names;
  // Who plays how, where not every computer player plays the table's rule (as the terminal's
  // opening line says it: ruling 157).
  const kinds = game.kinds || [];
  const told = kinds.some((k) => k && k !== "table");
  for (let seat = 0; seat < names.length; seat++) {
    if (seat === game.you) continue;
    // (The winner is given the first place when the game ends: placed, but not out.)
    const place = table.places[String(seat)];
    const won = place === 1;
    const out = place && !won;
    const inRound = table.seats.includes(seat);
    const li = element("li", {
      class: `seat${table.to_move === seat ? " to-move" : ""}${out ? " out" : ""}`,
      id: `seat-${seat}`,
      "data-seat": seat,
    });
    const who = element("div", { class: "who" },
      element("span", { class: "name", text: names[seat] }),
      element("span", { class: "lives", text: table.standing[seat] }),
      element("span", { class: "pips", "aria-hidden": "true", text: out ? "" : pips(table.lives[seat], game.unit) }));
    const badges = element("div", { class: "badges" });
    if (told && kinds[seat]) badges.append(element("span", { class: "badge kind", text: KIND_WORDS[kinds[seat]] }));
    if (table.dealer === seat) badges.append(element("span", { class: "badge", text: "dealer" }));
    if (table.knocker === seat) badges.append(element("span", { class: "badge knock", text: "knocked" }));
    if (table.to_move === seat) badges.append(element("span", { class: "badge move", text: "to move" }));
    if (won) badges.append(element("span", { class: "badge won", text: "won the game" }));
    if (out) badges.append(element("span", { class: "badge", text: `out, ${ordinal(place)}` }));
    const hidden = element("div", { class: "hidden-hand", "aria-hidden": "true" });
    if (inRound && !place && table.hand) for (let i = 0; i < 3; i++) hidden.append(backSvg());
    const did = element("div", { class: "did" });
    const turns = done[seat] || [];
    did.textContent = turns.length ? `This round: ${turns.slice(-2).join("; ")}` : "";
    if (turns.length > 2) did.title = turns.join("; ");
    li.append(who, badges, hidden, did);
    list.append(li);
  }
}

/** The stock and the pile. */
export function drawCentre(table) {
  const stock = $("stock");
  stock.replaceChildren();
  if (table.stock !== null && table.stock !== undefined) {
    stock.append(table.stock > 0 ? backSvg(`the stock: ${table.stock} cards`) : element("span", { class: "empty" }));
    stock.append(element("span", { class: "caption", text: `Stock: ${table.stock} card${table.stock === 1 ? "" : "s"}` }));
  }
  const pile = $("pile");
  pile.replaceChildren();
  if (table.top) {
    pile.append(cardSvg(table.top));
    pile.append(element("span", { class: "caption", text: `Top of the pile: ${label(table.top)}` }));
  } else if (table.stock !== null && table.stock !== undefined) {
    pile.append(element("span", { class: "empty" }), element("span", { class: "caption", text: "The pile is empty" }));
  }
}

/** The line above the table: the round, the dealer, the lives the game started with (each
 * seat shows what it has left: "3 lives each" beside a seat of 2 would read as a contradiction). */
export function drawHead(game, table) {
  if (!table.round) {
    $("round-head").textContent = game.lives_summary;
    return;
  }
  const names = new Names(game.names, game.you);
  const lives = game.unit === "letters" ? game.lives_summary : `started with ${game.lives_summary}`;
  $("round-head").textContent = `Round ${table.round} · ${names.of(table.dealer)} dealt · ${lives}`;
}

/** Your hand: plain cards, or, when you put one down, a button per card. */
export function drawHand(game, table, pending, drawn, act) {
  const hand = $("hand");
  hand.replaceChildren();
  const mine = pending && pending.seat === game.you;
  $("score").textContent = table.hand ? `score ${counted(table)}` : "";
  $("my-lives").textContent = `· ${table.standing[game.you]}`;
  if (!table.hand) {
    if (table.seats.includes(game.you) && table.stock !== null) {
      for (let i = 0; i < 3; i++) {
        hand.append(element("div", { role: "listitem", class: "hand-item" },
          element("div", { class: "card-slot" }, backSvg("one of your cards, not looked at"))));
      }
    }
    return;
  }
  const cards = [...table.hand];
  if (drawn && mine) cards.push(drawn.card);
  const putting = mine && pending.phase === "put_down";
  // (Each card an item of the list "Your cards": a screen reader says its place, "2 of 4".)
  cards.forEach((card, i) => {
    const isNew = drawn && mine && i === cards.length - 1;
    const may = putting && pending.legal.some((a) => a.kind === "put" && a.card === card);
    let slot;
    if (putting) {
      // (A card taken from the pile may not go straight back: named so, not "Put down 2H".)
      const name = may ? `Put down ${label(card)}` : `${label(card)} (taken: may not go back)`;
      // (Described in words, "ace of diamonds, card 1 of 4, key 1": the name keeps the
      // buttons' short words, which a screen reader may spell out, "A D".)
      const how = isNew ? `, the card you ${drawn.from === "stock" ? "drew" : "took"}` : "";
      const said = `${cardName(card)}, card ${i + 1} of ${cards.length}${how}${may ? `, key ${i + 1}` : ""}`;
      slot = element("button", {
        type: "button",
        class: `card-slot${isNew ? " new" : ""}`,
        "data-card": card,
        "aria-label": name,
        "aria-describedby": `card-words-${i}`,
        "aria-keyshortcuts": String(i + 1),
        disabled: !may,
        title: may ? `Put down ${cardName(card)} (key ${i + 1})` : `You took ${label(card)} from the pile: it may not go straight back`,
      });
      const art = cardSvg(card);
      art.setAttribute("aria-hidden", "true");
      slot.append(art, element("span", { class: "label", text: may ? name : `${label(card)}: may not go back` }),
        element("span", { id: `card-words-${i}`, hidden: true, text: said }));
      if (may) slot.addEventListener("click", () => act({ action: "put", card }));
    } else {
      slot = element("div", { class: `card-slot${isNew ? " new" : ""}`, "data-card": card });
      slot.append(cardSvg(card), element("span", { class: "label", text: label(card) }));
    }
    if (isNew) {
      const how = drawn.from === "stock" ? "drawn" : "taken";
      slot.append(element("span", { class: "tag", id: "new-card-tag", text: how, title: `the card you have ${how}` }));
    }
    hand.append(element("div", { role: "listitem", class: "hand-item" }, slot));
  });
}

const BUTTONS = [
  ["draw", "Draw from the stock", "d"],
  ["take", "Take", "t"],
  ["knock", "Knock", "k"],
  ["decline", "Decline", "x"],
  ["blind", "Call the blind showdown", "b"],
  ["look", "Look at your cards", "l"],
];

/** An action of the start of a turn as its button names it ("Draw from the stock", "Take 7H"). */
export function actionName(kind, table) {
  const found = BUTTONS.find(([k]) => k === kind);
  if (!found) return kind;
  if (kind !== "take") return found[1];
  return table.top ? `Take ${label(table.top)}` : "Take the top discard";
}

/** What you may do now, in the buttons' words: "Put a card down: 7S, 9C, 4H or 10D." or
 * "draw from the stock, take 7H or knock", in the buttons' order (for "You cannot … now: …"). */
export function whatYouMay(table, pending, drawn) {
  const legal = pending.legal;
  const either = (words) => together(words, "or");
  if (pending.phase === "put_down") {
    const cards = [...table.hand, drawn.card].filter((c) => legal.some((a) => a.kind === "put" && a.card === c));
    return `Put a card down: ${either(cards.map(label))}.`;
  }
  const names = BUTTONS.filter(([kind]) => legal.some((a) => a.kind === kind)).map(([kind]) => actionName(kind, table));
  return either(names.map((n) => n[0].toLowerCase() + n.slice(1)));
}

/** A key whose action is not yours to take now, said in the buttons' words: "Put a card down:
 * 7S, 9C, 4H or 10D." or "You cannot decline now: draw from the stock, take 7H or knock."
 * (``s``: the state.) */
export function refusedKey(kind, s) {
  const may = whatYouMay(s.table, s.pending, s.drawn);
  if (s.pending.phase === "put_down") return may;
  const name = kind === "put" ? "Put down" : actionName(kind, s.table);
  return `You cannot ${name[0].toLowerCase()}${name.slice(1)} now: ${may}.`;
}

/** The buttons of your decision at the start of a turn (or before looking at a blind table). */
export function drawActions(game, table, pending, act) {
  const actions = $("actions");
  actions.replaceChildren();
  if (!pending || pending.seat !== game.you || pending.phase === "put_down") return;
  for (const [kind, , key] of BUTTONS) {
    if (!pending.legal.some((a) => a.kind === kind)) continue;
    const name = actionName(kind, table);
    const button = element("button", { type: "button", id: `act-${kind}`, "aria-keyshortcuts": key, "data-action": kind });
    button.append(name, element("span", { class: "key", "aria-hidden": "true", text: key }));
    button.addEventListener("click", () => act({ action: kind }));
    actions.append(button);
  }
}

/** The line that says whose turn it is. */
export function drawTurnNote(game, table, pending, over) {
  const note = $("turn-note");
  const names = new Names(game.names, game.you);
  note.classList.remove("yours");
  if (over) {
    note.textContent = "The game is over.";
  } else if (!pending) {
    note.textContent = "";
  } else if (pending.seat === game.you) {
    note.classList.add("yours");
    note.textContent = pending.phase === "put_down" ? "Your turn: put a card down."
      : pending.phase === "blind" ? `You play first, and nobody has looked yet: call the blind showdown (the lowest dealt hand ${losesWords(1, game.unit)}, and ${unitWord(2, game.unit)} if it is yours), or look at your cards (then no knock on this first turn).`
      : table.knocker !== null && table.knocker !== undefined ? `Your turn — your last: ${names.lower(table.knocker)} knocked.` : "Your turn.";
  } else {
    note.textContent = `${names.of(pending.seat)} is playing…`;
  }
}

/** The round's log. */
export function drawLog(game, log, lastResult) {
  const list = $("log");
  list.replaceChildren();
  const names = new Names(game.names, game.you);
  for (const e of log) addLog(game, e, names);
  drawLastResult(game, log, lastResult);
}

/** How the last round ended, under a round that has not ended yet. */
export function drawLastResult(game, log, lastResult) {
  const names = new Names(game.names, game.you);
  const last = $("last-result");
  if (lastResult && !log.some((e) => e.kind === "round_end" || e.kind === "wash")) {
    last.hidden = false;
    last.textContent = `Last round: ${sentence(lastResult, names, game.unit)}`;
  } else {
    last.hidden = true;
  }
}

export function addLog(game, e, names = new Names(game.names, game.you)) {
  if (e.kind === "mid_turn") return;
  const text = sentence(e, names, game.unit);
  if (!text) return;
  const list = $("log");
  if (e.kind === "deal") list.replaceChildren();
  const li = element("li", { class: e.seat === game.you && e.kind === "turn" ? "mine" : "", text });
  list.append(li);
  list.scrollTop = list.scrollHeight;
}
