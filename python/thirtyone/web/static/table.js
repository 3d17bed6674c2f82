// The table's page: the conversation with the server (docs/web.md), the events played at a
// readable pace, your decisions (buttons and keys), the dialogs, and the live region that tells
// a screen reader what the other players do.

import { backSvg, cardSvg, label } from "./cards.js";
import { Link } from "./link.js";
import { banner, bannerAway, flash, fly, wait } from "./motion.js";
import { askHide, askTutor, dialogAnswer, showOver, showResult } from "./dialogs.js";
import { actionOf, adviceWords, drawAdvice, tutorCheck } from "./oracle.js";
import { drawLobby, fillForm, formProblem, initForm } from "./setup.js";
import { Names, handsLine, sentence, shownWords, turnAnnouncement } from "./story.js";
import {
  addLog, doneThisRound, drawActions, drawCentre, drawHand, drawHead, drawLastResult, drawLog, drawSeats,
  drawTurnNote, element, keepFocus, refusedKey,
} from "./view.js";

const $ = (id) => document.getElementById(id);
const TITLES = { over: "Game over · thirtyone", yours: "Your turn · thirtyone", table: "thirtyone · the table" };

const app = {
  game: gameFromUrl(),
  greeted: false, // the game or the start page came for the last hello
  state: null, // the last state message
  info: null, // names, your seat, the unit
  table: null, // the table as shown (it moves ahead of the state while events play)
  log: [], // this round's events as shown
  lastResult: null, // the end of the last round before it, as shown
  advice: new Map(), // position -> {quick, full, error}
  asked: null, // the position at which the advice was asked for here
  saidAdvice: null, // the position whose advice asked for the live region has said
  busy: null, // the position a move was sent from ({game, at}): wait for the game's answer
  queue: [],
  running: false,
  stepped: null, // another seat's draw or take already shown (mid-turn)
  lastForm: null,
  overShown: null,
  waiters: [],
  away: false, // the new-game form is on show, asked for from a game: what comes is drawn behind it
  pace: Number(localStorage.getItem("thirtyone.pace") ?? 900),
};

// The game the address names: none is 0 (the save); digits are that number; anything else
// ("?game=abc", "0x1") is sent as written, for the server to say what is wrong with it.
function gameFromUrl() {
  const raw = new URLSearchParams(location.search).get("game");
  if (raw === null) return 0;
  return /^[0-9]{1,9}$/.test(raw) ? Number(raw) : raw;
}

function hello(game) {
  app.game = game;
  app.greeted = false; // (until the game or the start page comes: an error then is the hello's)
  return link.send({ type: "hello", game });
}

const link = new Link({
  onOpen: () => hello(app.game),
  onMessage: receive,
  onStatus: (text) => {
    $("connection").hidden = !text;
    $("connection").textContent = text || "";
  },
});

// -- what the server says ------------------------------------------------------------------------

function receive(m) {
  if (m.type === "welcome") initForm(m.setup, submitNew);
  else if (m.type === "advice") adviceCame(m);
  else if (m.type === "error") {
    if (app.busy) {
      app.busy = null;
      refreshButtons();
    }
    if (!app.greeted && app.game !== 0) wrongGame(m.message);
    else problem(m.message, { lasting: true }); // (the server's word stays its time: an event may follow it)
  } else {
    app.queue.push(m);
    if (!app.running) drain();
  }
}

async function drain() {
  app.running = true;
  while (app.queue.length) {
    const m = app.queue.shift();
    try {
      await handle(m);
    } catch (err) {
      console.error(err);
    }
  }
  app.running = false;
}

async function handle(m) {
  switch (m.type) {
    case "state": return showState(m);
    case "event": return playEvent(m);
    case "lobby": return showLobby(m);
    case "confirm_new": return confirmNew(m);
    case "moved":
      announce(m.message);
      openGame(m.game);
      return problem(m.message, { lasting: true });
    case "notice":
      app.busy = null; // (the game was replaced or read again: a move on its way gets no answer)
      return announce(m.message);
    default: return undefined;
  }
}

function openGame(number) {
  app.away = false;
  const url = number ? `/?game=${number}` : "/";
  history.replaceState(null, "", url);
  hello(number);
}

/** The game the address asked for is none the server has a number for: said, and "/" shown.
 *  What was asked for is quoted short, as every message quotes a value it refuses (24
 *  characters, then …): 400 digits filled the page (ruling 293). */
function wrongGame(message) {
  const asked = String(app.game);
  const shown = asked.length <= 24 ? asked : `${asked.slice(0, 24)}…`;
  openGame(0);
  problem(`"?game=${shown}" in the address is not a game (${message}): the page shows / instead.`, { lasting: true });
}

// -- the game as it stands -----------------------------------------------------------------------

function yours(s = app.state) {
  return Boolean(s && !s.over && s.pending && s.pending.seat === s.you);
}

function showState(s) {
  app.state = s;
  app.greeted = true;
  app.table = s.table;
  app.log = s.log;
  app.lastResult = s.last_result;
  // (A state of the position your move went from is no answer to it, but one sent before it, for
  // a mode changed meanwhile: the move is still on its way, and its buttons stay disabled.)
  if (!app.busy || app.busy.game !== s.game || app.busy.at !== s.at) app.busy = null;
  app.stepped = null;
  if (s.game !== app.game) {
    app.game = s.game;
    history.replaceState(null, "", s.game ? `/?game=${s.game}` : "/");
  }
  app.info = { names: s.names, you: s.you, unit: s.unit, lives_summary: s.lives_summary, kinds: s.kinds };
  clearProblem();
  // (The new-game form asked for stays on show: the game is drawn behind it, for "Back to your
  // game"; the table comes back with a game chosen.)
  if (!app.away) {
    if ($("game").hidden) window.scrollTo(0, 0); // (from the start screen: the table's top)
    $("lobby").hidden = true;
    $("game").hidden = false;
  }
  drawHead(app.info, s.table);
  drawSeats(app.info, s.table, doneThisRound(s.log));
  drawCentre(s.table);
  drawHand(app.info, s.table, s.pending, s.drawn, act);
  drawActions(app.info, s.table, s.pending, act);
  if (app.busy) refreshButtons();
  drawTurnNote(app.info, s.table, s.pending, s.over);
  drawLog(app.info, s.log, app.lastResult);
  $("advice-mode").value = s.setup.advice;
  $("tutor-on").checked = s.setup.tutor !== null;
  // (Points being typed are not written over by a state that comes meanwhile: the state of the
  // Tutor box ticked a moment before took the player's "-3" away before it was sent.)
  const typing = document.activeElement === $("tutor-points");
  if (s.setup.tutor !== null && !typing) $("tutor-points").value = String(s.setup.tutor);
  $("tutor-points").disabled = s.setup.tutor === null;
  // (A game over is not resumed: it is kept for the review, as last-game.json.)
  $("save-note").textContent = s.over ? "The game is over: the Review page (or thirtyone review) goes through it."
    : `Saved as you play, to ${s.save} (thirtyone play --resume continues it in the terminal).`;
  if (s.save_error) problem(s.save_error);
  drawOracle();
  document.title = s.over ? TITLES.over : yours(s) ? TITLES.yours : TITLES.table;
  if (yours(s) && !app.away && !app.busy) announce(turnAnnouncement(s));
  // Focus lost with the buttons redrawn (or the form gone): to your hand, your turn or not.
  if (!app.away) keepFocus();
  if (s.over && !app.away && app.overShown !== `${s.game}:${s.at}`) {
    app.overShown = `${s.game}:${s.at}`;
    showOver(s);
  }
}

function refreshButtons() {
  if (app.busy) {
    for (const button of document.querySelectorAll("#actions button, #hand button, #play-best")) button.disabled = true;
    return;
  }
  const s = app.state;
  if (!s || app.running) return;
  drawHand(app.info, s.table, s.pending, s.drawn, act);
  drawActions(app.info, s.table, s.pending, act);
  $("play-best").disabled = false;
}

function drawOracle() {
  const s = app.state;
  if (!s) return;
  const deciding = yours(s) && s.pending.phase !== "blind";
  const found = app.advice.get(s.at) || {};
  const shown = s.setup.advice === "always" || app.asked === s.at;
  drawAdvice(found, { shown, mode: s.setup.advice, thinking: deciding ? true : null, blind: yours(s) && s.pending.phase === "blind" });
  if (app.busy) $("play-best").disabled = true; // (figures come after your move went: no move)
  // Advice asked for (a, the button, the tutor's "Show me") is said once, at its first figures.
  const advice = knownAdvice(s.at);
  if (deciding && app.asked === s.at && advice && app.saidAdvice !== s.at) {
    app.saidAdvice = s.at;
    announce(adviceWords(advice));
  }
}

function adviceCame(m) {
  const entry = app.advice.get(m.at) || {};
  if (m.stage === "error") entry.error = m.message;
  else entry[m.stage] = m.advice;
  app.advice.set(m.at, entry);
  for (const key of app.advice.keys()) if (key < m.at - 4) app.advice.delete(key);
  if (app.state && app.state.at === m.at && !app.running) drawOracle();
  const waiting = app.waiters.filter((w) => w.at === m.at);
  app.waiters = app.waiters.filter((w) => w.at !== m.at);
  for (const w of waiting) w.resolve();
}

function knownAdvice(at) {
  const entry = app.advice.get(at) || {};
  return entry.full || entry.quick || null;
}

function adviceSoon(at, ms) {
  if (knownAdvice(at) || (app.advice.get(at) || {}).error) return Promise.resolve();
  return new Promise((resolve) => {
    app.waiters.push({ at, resolve });
    setTimeout(resolve, ms);
  });
}

// -- your decisions ------------------------------------------------------------------------------

async function act(action, { fromOracle = false } = {}) {
  const s = app.state;
  if (!yours(s) || app.busy || app.running) return;
  const at = s.at;
  if (action.action === "put" && !fromOracle && s.pending.legal.some((a) => a.kind === "hide" && a.card === action.card)) {
    const hide = await askHide(s.hide_question);
    if (hide === null) return;
    if (hide) action = { action: "hide", card: action.card };
  }
  if (s.setup.tutor !== null && !fromOracle && s.pending.phase !== "blind") {
    await adviceSoon(at, 3000);
    const found = tutorCheck(knownAdvice(at), action, s.setup.tutor);
    if (found) {
      const answer = await askTutor(found);
      if (answer === "show") {
        app.asked = at;
        link.send({ type: "hint", at });
        drawOracle();
        $("advice").scrollIntoView({ block: "nearest" });
        return;
      }
      if (answer !== "play") return;
    }
  }
  if (app.state !== s) return;
  if (!link.send({ type: "act", at, ...action })) {
    problem("Not connected: the move was not sent.");
    return;
  }
  clearProblem();
  app.busy = { game: s.game, at };
  refreshButtons();
  keepFocus(); // (the button pressed is disabled, then gone: not the page's body meanwhile)
}

function playBest() {
  const s = app.state;
  const advice = s && knownAdvice(s.at);
  if (!advice) return;
  const option = advice.options.find((o) => o.option === $("play-best").dataset.option) || advice.options[0];
  act(actionOf(option), { fromOracle: true });
}

function hint() {
  const s = app.state;
  if (!yours(s) || s.pending.phase === "blind") return;
  app.asked = s.at;
  link.send({ type: "hint", at: s.at });
  drawOracle();
}

// -- events, at a readable pace ------------------------------------------------------------------

function redraw(t) {
  // Your turn is said by the state that brings its buttons, not while the move before it is
  // still on show (the line stays empty until then).
  const others = t.to_move !== null && t.to_move !== app.info.you;
  const pending = others ? { seat: t.to_move, phase: "", legal: [] } : null;
  drawHead(app.info, t);
  drawSeats(app.info, t, doneThisRound(app.log));
  drawCentre(t);
  drawHand(app.info, t, null, null, act);
  $("actions").replaceChildren();
  drawTurnNote(app.info, t, pending, false);
  drawAdvice({}, { shown: false, mode: app.state.setup.advice, thinking: null });
  keepFocus();
  // (Your move is made and the others' are on show: the tab says so at once; your next turn,
  // or the game's end, comes with the state.)
  document.title = TITLES.table;
}

async function playEvent(m) {
  if (!app.info || !app.state) return;
  const e = m.event;
  const t = m.table;
  const names = new Names(app.info.names, app.info.you);
  const other = e.seat !== undefined && e.seat !== app.info.you;
  clearProblem();
  // (Behind the new-game form, the events are drawn at once and no result waits for Continue.)
  const ms = app.away ? 0 : app.pace;
  const glide = Math.min(450, ms / 2);
  const text = sentence(e, names, app.info.unit);
  switch (e.kind) {
    case "deal": {
      app.log = [e];
      app.table = t;
      redraw(t);
      addLog(app.info, e, names);
      // (Rounds may be played with no state between them, when you are out: the line under
      // the log follows the events.)
      drawLastResult(app.info, app.log, app.lastResult);
      announce(text);
      const flights = t.seats.map((seat, i) => wait(i * 60).then(() => fly($("stock"), seatElement(seat), backSvg(), glide)));
      await Promise.all(flights);
      await wait(ms / 2);
      return;
    }
    case "mid_turn":
      if (!other) return;
      flash(seatElement(e.seat));
      announce(text);
      app.stepped = e;
      await (e.step === "draw" ? fly($("stock"), seatElement(e.seat), backSvg(), glide)
        : e.step === "take" ? fly($("pile"), seatElement(e.seat), cardSvg(app.table.top), glide) : null);
      app.table = { ...app.table, to_move: e.seat };
      redraw({ ...t, to_move: e.seat });
      await wait(ms / 3);
      return;
    case "turn": {
      app.log.push(e);
      if (other) await flyTurn(e, glide);
      app.table = t;
      app.stepped = null;
      redraw(t);
      addLog(app.info, e, names);
      announce(text);
      if (e.action === "knock") await banner(`${names.of(e.seat)} ${other ? "knocks" : "knock"}!`, ms);
      else if (e.showed_31) await banner(`${names.of(e.seat)} ${other ? "shows" : "show"} ${shownWords(e)}!`, ms);
      else if (other) await wait(ms);
      return;
    }
    case "round_end":
    case "wash":
      app.log.push(e);
      app.lastResult = e;
      app.table = t;
      redraw(t);
      addLog(app.info, e, names);
      drawLastResult(app.info, app.log, app.lastResult);
      announce(`${text} ${handsLine(e, names)}.`);
      if (String(app.info.you) in e.hands && !app.away) {
        bannerAway(); // (a knock's banner still up: the result says it, the next deal must not)
        await showResult(e, t, names, app.info.unit);
      } else await banner(text, ms * 2); // (you are out: the game plays on without stopping)
      return;
    default:
      app.table = t;
      redraw(t);
      addLog(app.info, e, names);
      if (text) announce(text);
  }
}

function seatElement(seat) {
  return seat === app.info.you ? $("hand") : $(`seat-${seat}`);
}

async function flyTurn(e, ms) {
  const seat = seatElement(e.seat);
  flash(seat);
  const stepped = app.stepped && app.stepped.seat === e.seat;
  if (!stepped && e.action === "draw") await fly($("stock"), seat, backSvg(), ms);
  if (!stepped && e.action === "take") await fly($("pile"), seat, cardSvg(e.card), ms);
  if (e.discard) await fly(seat, $("pile"), cardSvg(e.discard), ms);
}

// -- the start screen and new games --------------------------------------------------------------

function showLobby(m) {
  app.greeted = true;
  // (A reconnection's answer for the game over on show here: it stays, as after its end.)
  const s = app.state;
  if (s && s.over && !app.away && m.found === "finished" && m.game === s.game) return;
  app.state = null;
  if ($("over-dialog").open) $("over-dialog").close(); // (its buttons play the game gone from here)
  $("game").hidden = true;
  const shown = !$("lobby").hidden;
  $("lobby").hidden = false;
  formProblem(null);
  drawLobby(m, {
    onContinue: (n) => openGame(n),
    onAgain: (setup) => submitNew({ ...setup, seed: null }),
    shown,
  });
}

function newGameScreen() {
  $("over-dialog").open && $("over-dialog").close();
  const s = app.state;
  app.away = Boolean(s);
  $("game").hidden = true;
  $("lobby").hidden = false;
  $("lobby-last").hidden = true;
  $("lobby-others").hidden = true;
  formProblem(null);
  const note = $("lobby-note");
  note.replaceChildren();
  if (s && !s.over) {
    note.append("Your game in progress is kept until you start another (you will be asked). ");
    const back = element("button", { type: "button", text: "Back to your game" });
    back.addEventListener("click", () => openGame(app.game));
    note.append(back);
  }
  if (s) fillForm(s.setup);
  $("f-preset").focus();
  // A game over: the start page as a reload shows it (the unfinished games, "play again").
  if (s && s.over) hello(app.game);
}

function submitNew(form) {
  app.lastForm = form;
  app.away = false; // (the new game's table comes)
  formProblem(null);
  if (!link.send({ type: "new", setup: form })) formProblem("Not connected to the server.");
}

async function confirmNew(m) {
  $("confirm-text").textContent = m.standing
    ? `You have an unfinished game saved at ${m.save}: ${m.standing}. Start the new game and keep that one as ${m.backup}?`
    : `${m.why}. Start the new game and keep that file as ${m.backup}?`;
  $("confirm-resume").hidden = !m.standing;
  const answer = await dialogAnswer($("confirm-dialog"), {
    "confirm-new": "new", "confirm-resume": "resume", "confirm-cancel": null,
  });
  if (answer === "new") link.send({ type: "new", setup: app.lastForm, keep: true });
  else if (answer === "resume") openGame(0);
}

// -- the page's furniture ------------------------------------------------------------------------

function announce(text) {
  if (!text) return;
  const region = $("announcer");
  region.append(element("p", { text }));
  while (region.childNodes.length > 6) region.firstChild.remove();
}

/** A message over the page. A refusal (a key with no move, the server's answer to a move) goes
 * with the next move or game; a ``lasting`` one (about the page itself) stays its time. */
function problem(text, { lasting = false } = {}) {
  if (!$("lobby").hidden) {
    formProblem(text);
    return;
  }
  const box = $("problem");
  box.textContent = text;
  box.hidden = false;
  box.dataset.lasting = lasting ? "1" : "";
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.hidden = true; }, 9000);
}

function clearProblem() {
  const box = $("problem");
  if (box.hidden || box.dataset.lasting) return;
  clearTimeout(box.timer);
  box.hidden = true;
}

function adviceModeChanged() {
  // Advice asked for goes with the mode it was asked under: turned to "never" (or "on
  // request"), the panel hides it at once, and "Play the Oracle's best" with it.
  app.asked = null;
  if (app.state) app.state.setup.advice = $("advice-mode").value;
  if (!app.running) drawOracle();
  sendMode();
}

function sendMode() {
  // (The points as typed: the server reads them as the form's and quotes them back when they
  // are wrong, where 1e400 made a number of nothing, and nothing made 5.)
  const tutor = $("tutor-on").checked ? $("tutor-points").value.trim() : null;
  link.send({ type: "mode", advice: $("advice-mode").value, tutor });
}

/** Settings or Keys. Closed, the focus goes back where it was, but not to the header's button
 * that opened it (Enter would open it again): with the table on show, to your hand, where
 * Enter plays the Oracle's best as the Keys say. */
function openTool(dialog) {
  const before = document.activeElement;
  dialog.addEventListener("close", () => {
    const kept = before && before !== document.body && document.contains(before) && !before.closest("header");
    if (kept) before.focus({ preventScroll: true });
    else if (!$("game").hidden) $("hand-area").focus({ preventScroll: true });
  }, { once: true });
  dialog.showModal();
}

const KEYS = { d: "draw", t: "take", k: "knock", x: "decline", b: "blind", l: "look" };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || document.querySelector("dialog[open]")) return;
  const tag = event.target.tagName;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if (event.key === "?") {
    event.preventDefault();
    openTool($("keys-dialog"));
    return;
  }
  const s = app.state;
  if (!s || $("game").hidden || !yours(s)) return;
  const key = event.key.toLowerCase();
  const legal = s.pending.legal;
  if (key === "enter") {
    if (["BUTTON", "A", "SUMMARY"].includes(tag)) return;
    event.preventDefault();
    if (s.pending.phase === "blind") act({ action: "look" });
    else if (!$("play-best").hidden) playBest();
    else if (s.setup.advice === "never" && app.asked !== s.at) problem("The Oracle is off in this game: a asks it about this decision.");
    else hint();
  } else if (KEYS[key]) {
    event.preventDefault();
    if (legal.some((a) => a.kind === KEYS[key])) act({ action: KEYS[key] });
    else problem(refusedKey(KEYS[key], s));
  } else if (/^[1-4]$/.test(key) && s.pending.phase === "put_down") {
    event.preventDefault();
    const cards = [...s.table.hand, s.drawn.card];
    const card = cards[Number(key) - 1];
    if (legal.some((a) => a.kind === "put" && a.card === card)) act({ action: "put", card });
    else problem(`${label(card)} may not go straight back on the pile: choose another card.`);
  } else if (/^[1-4]$/.test(key)) {
    event.preventDefault();
    problem(refusedKey("put", s)); // (no card to put down at a turn's start)
  } else if (key === "a") {
    event.preventDefault();
    hint();
  }
}

function setUp() {
  const fourColour = localStorage.getItem("thirtyone.fourColour") === "1";
  document.body.classList.toggle("four-colour", fourColour);
  $("four-colour").checked = fourColour;
  $("four-colour").addEventListener("change", () => {
    document.body.classList.toggle("four-colour", $("four-colour").checked);
    localStorage.setItem("thirtyone.fourColour", $("four-colour").checked ? "1" : "0");
  });
  $("pace").value = String(app.pace);
  $("pace").addEventListener("change", () => {
    app.pace = Number($("pace").value);
    localStorage.setItem("thirtyone.pace", String(app.pace));
  });
  $("settings-button").addEventListener("click", () => openTool($("settings-dialog")));
  $("keys-button").addEventListener("click", () => openTool($("keys-dialog")));
  $("new-game-button").addEventListener("click", newGameScreen);
  $("hint").addEventListener("click", hint);
  $("play-best").addEventListener("click", playBest);
  $("advice-mode").addEventListener("change", adviceModeChanged);
  $("tutor-on").addEventListener("change", () => {
    $("tutor-points").disabled = !$("tutor-on").checked;
    sendMode();
  });
  $("tutor-points").addEventListener("change", sendMode);
  $("over-again").addEventListener("click", () => {
    $("over-dialog").close();
    submitNew({ ...app.state.setup, seed: null });
  });
  $("over-new").addEventListener("click", newGameScreen);
  $("over-close").addEventListener("click", () => $("over-dialog").close());
  document.addEventListener("keydown", onKey);
  link.open();
}

setUp();
