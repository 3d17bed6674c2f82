// The game told in words: each turn, each round's end, who is out and who won; for the log, the
// seats' "this round" lines and the live region that a screen reader announces.

import { label, labels } from "./cards.js";

export function score(x) {
  return Number.isInteger(x) ? String(x) : String(x);
}

/** What your hand counts: "24", or a 31 you keep hidden, "30 (31 hidden)". */
export function counted(table) {
  return table.hidden_31 ? `${score(table.score)} (31 hidden)` : score(table.score);
}

/** A 31 shown, in the table's words: "31", or where the table names it, "31: a Cadillac". */
export function shownWords(e) {
  return e.called ? `${score(e.shown)}: ${e.called}` : "31";
}

export function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

export function unitWord(n, unit) {
  const one = unit === "letters" ? "letter" : "life";
  return `${n} ${n === 1 ? one : unit}`;
}

/** What a player loses, in the table's words (as the terminal's ``Rules.loses``): "loses 1
 * life", "lose 2 lives"; under Gin lives a letter is taken: "takes a letter", "take 2 letters"
 * (ruling 311). ``you``: the verb for "you". */
export function losesWords(n, unit, you = false) {
  if (unit === "letters") return `${you ? "take" : "takes"} ${n === 1 ? "a letter" : `${n} letters`}`;
  return `${you ? "lose" : "loses"} ${unitWord(n, unit)}`;
}

/** The players' names, "you" for your seat. */
export class Names {
  constructor(names, you) {
    this.names = names;
    this.you = you;
  }
  of(seat) {
    return seat === this.you ? "You" : this.names[seat];
  }
  lower(seat) {
    return seat === this.you ? "you" : this.names[seat];
  }
  /** "Dan's", or "Your" (a sentence's first word). */
  possessive(seat) {
    return seat === this.you ? "Your" : `${this.names[seat]}'s`;
  }
}

/** One turn in a few words: "took 7H, put down 2C" (for a seat's line). */
export function turnShort(e) {
  const parts = [];
  if (e.action === "knock") parts.push("knocked");
  else if (e.action === "decline") parts.push("left the discard");
  else if (e.action === "blind") parts.push("called the blind showdown");
  else if (e.action === "take") parts.push(`took ${label(e.card)}`);
  else if (e.action === "draw") parts.push(e.drew ? `drew ${label(e.drew)}` : "drew");
  if (e.discard) parts.push(`put down ${label(e.discard)}`);
  let text = parts.join(", ");
  if (e.showed_31) text += ` — ${shownWords(e)}!`;
  if (e.hid_31) text += " (31 kept hidden)";
  return text;
}

/** One turn as a sentence: "Alice took 7H and put down 2C." */
export function turnSentence(e, names) {
  const who = names.of(e.seat);
  if (e.action === "knock") return `${who} knocked.`;
  if (e.action === "decline") return `${who} left the discard: the round ends.`;
  if (e.action === "blind") return `${who} called the blind showdown.`;
  const first = e.action === "take"
    ? `took ${label(e.card)} from the pile`
    : e.drew ? `drew ${label(e.drew)} from the stock` : "drew from the stock";
  let text = `${who} ${first} and put down ${label(e.discard)}.`;
  if (e.showed_31) text += ` ${who === "You" ? "You have" : who + " has"} ${shownWords(e)}!`;
  if (e.hid_31) text += " You keep your 31 hidden.";
  return text;
}

/** The step of a turn under way: "Ben draws…". */
export function stepSentence(e, names) {
  if (e.step === "look") return `${names.of(e.seat)} looked at the cards.`;
  return e.step === "draw" ? `${names.of(e.seat)} drew from the stock…` : `${names.of(e.seat)} took the top discard…`;
}

/** Words in a list: "Alice", "Alice and Ben", "Alice, Ben and Cara" ("… or Cara" with "or"). */
export function together(words, last = "and") {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} ${last} ${words.at(-1)}` : words.join("");
}

/** How the round ended, as a title. */
export function endTitle(e, names) {
  const by = e.by === null || e.by === undefined ? null : names.of(e.by);
  switch (e.end) {
    case "dealt_31": {
      // (No one seat ends it: every hand dealt 31 is shown at once: "Alice and you were dealt 31!")
      const dealt = (e.dealt || []).map((s, i) => (i === 0 ? names.of(s) : names.lower(s)));
      const who = together(dealt);
      const called = e.dealt_called; // (several, at a table that names them: each one's name)
      if (called && dealt.length > 1) {
        return called.every((c) => c === called[0]) ? `${who} were each dealt ${called[0]}!` : `${who} were dealt ${together(called)}!`;
      }
      return `${who} ${dealt.length > 1 || who === "You" ? "were" : "was"} dealt ${shownWords(e)}!`;
    }
    case "thirty_one": return `${by} showed ${shownWords(e)}!`;
    case "stock_out": return "The stock ran out";
    case "blind": return "The blind showdown";
    default: return e.knocker !== null && e.knocker !== undefined
      ? `Showdown: ${names.lower(e.knocker)} knocked` : "Showdown";
  }
}

/** Who lost what: "Ben loses 1 life; you lose 2 lives (the knock penalty)" ("Ben takes a
 * letter" under Gin lives); where a 31 was
 * shown after the knock and the round went on, what it cost first ("Dan's 31 after the knock:
 * everybody else loses 1 life."), the knock penalty named only where the showdown charged it. */
export function lossSentence(e, names, unit) {
  if (e.kind === "wash") return "Nobody would be left in the game: nothing is lost, and the round is dealt again.";
  const lost = Object.entries(e.losses).filter(([, n]) => n > 0);
  if (!lost.length) return "Nobody loses anything.";
  const shown = e.shown_31 || [];
  // (In the words of the losses after it: under Gin lives a letter is taken, not lost; ruling 313.)
  const first = shown.map((s) => `${names.possessive(s)} 31 after the knock: everybody else ${losesWords(1, unit)}. `);
  return first.join("") + lost.map(([seat, n], i) => {
    const s = Number(seat);
    const who = i === 0 ? names.of(s) : names.lower(s); // ("Ben loses 1 life; you lose 2 lives")
    const atShowdown = n - shown.filter((x) => x !== s).length;
    const penalty = e.knocker === s && atShowdown > 1 ? " (the knock penalty)" : "";
    return `${who} ${losesWords(n, unit, s === names.you)}${penalty}`;
  }).join("; ") + ".";
}

/** A round's end as one line for the log and the live region. */
export function endSentence(e, names, unit) {
  const title = endTitle(e, names);
  const stop = /[.!?]$/.test(title) ? "" : "."; // ("Eve showed 31!", not "31!.")
  return `${title}${stop} ${lossSentence(e, names, unit)}`;
}

export function handsLine(e, names) {
  return Object.entries(e.hands)
    .map(([seat, cards]) => `${names.of(Number(seat))}: ${labels(cards)} (${score(e.scores[seat])})`)
    .join("; ");
}

/** Any event in words (null: nothing to say). */
export function sentence(e, names, unit) {
  switch (e.kind) {
    case "deal": return `Round ${e.round}: ${names.of(e.dealer)} ${e.dealer === names.you ? "deal" : "deals"}, ${names.lower(e.first)} ${e.first === names.you ? "play" : "plays"} first. The upcard is ${label(e.upcard)}.`;
    case "turn": return turnSentence(e, names);
    case "mid_turn": return e.seat === names.you ? null : stepSentence(e, names);
    case "round_end": case "wash": return endSentence(e, names, unit);
    case "county": return `${names.of(e.seat)} ${e.seat === names.you ? "are" : "is"} on the county.`;
    case "out": return `${names.of(e.seat)} ${e.seat === names.you ? "are" : "is"} out of the game, in ${ordinal(e.place)} place.`;
    case "game_over": return e.winner === names.you ? "You won the game!" : `${names.of(e.winner)} won the game.`;
    default: return null;
  }
}

/** Your turn, for the live region: your hand (or the card drawn) and the top of the pile. */
export function turnAnnouncement(s) {
  if (s.pending.phase === "put_down") {
    const how = s.drawn.from === "stock" ? "drew" : "took";
    return `You ${how} ${label(s.drawn.card)}. Put a card down: ${s.table.hand.map(label).join(", ")} or ${label(s.drawn.card)}.`;
  }
  if (s.pending.phase === "blind") return "Your turn, before anybody looks: call the blind showdown or look at your cards.";
  return `Your turn. Your hand: ${s.table.hand.map(label).join(", ")}, score ${counted(s.table)}. Top of the pile: ${label(s.table.top)}.`;
}
