"""The person's seat at the terminal: asks for each decision the session waits for.

:meth:`TerminalPlayer.choose` shows the table (rendered by :mod:`thirtyone.terminal.display`),
asks for a choice with short inputs (``k`` knock, ``d`` draw, ``t`` take, ``x`` decline when the
stock is empty, then the card to put down by position 1-4 or by name), and returns it as an
:class:`~thirtyone._core.Action` for the front-end to push into the session. Where the table
allows it, a put-down that leaves 31 is followed by the question whether to show it (``s``) or
keep it hidden (``h``: it counts 30), and at a blind table the first player of a round is asked,
before seeing their cards, whether to call the blind showdown (``b``) or look (Enter). Only what
the decision's legal actions allow is returned; anything else gets a one-line explanation and
the question again. ``q``, end of input (Ctrl-D) or Ctrl-C raise :class:`QuitGame`. A decision
that is a put-down at the start of a turn (a resumed game saved after a draw or take) shows the
table first.

``advisor`` is the hook for the Oracle: a callable given the :class:`~thirtyone.game.SeatView`,
called before the first question of a turn and again after a draw or take (``view.drawn`` is
then set), whose answer is printed (a string, a ``rich`` renderable, or anything with ``str``).
:class:`OracleAdvisor` is the advisor ``thirtyone play`` uses: the Oracle's advice, computed
under a spinner and shown, never applied. :class:`AdvisedPolicy` shows it for a seat the table's
rule plays (``--autoplay --oracle``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

from thirtyone._core import Action
from thirtyone.errors import CardError
from thirtyone.game.cards import parse_card
from thirtyone.game.seats import TABLE_KNOCK_AT, SeatView, TablePolicy, is_action_kind
from thirtyone.game.session import Session
from thirtyone.names import QUOTE_CHARS, quoted
from thirtyone.terminal import display, keys, rules_screen
from thirtyone.terminal.prompt import QuitGame, prompt_line

if TYPE_CHECKING:
    from thirtyone._core import _ActionKind
    from thirtyone.terminal.narrator import Narrator

#: An advisor: given what the seat sees, returns advice to print (None: nothing to say).
Advisor = Callable[[SeatView], object]
#: Reads one line after showing a prompt; None at the end of input.
LineReader = Callable[[str], str | None]

WORDS = {
    "k": "knock",
    "knock": "knock",
    "d": "draw",
    "draw": "draw",
    "t": "take",
    "take": "take",
    "x": "decline",
    "decline": "decline",
    "?": "help",
    "h": "help",
    "help": "help",
    "a": "advice",
    "advice": "advice",
    "o": "toggle",
    "r": "read",
    "l": "log",
    "log": "log",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}
KEYS = {"knock": "k", "draw": "d", "take": "t", "decline": "x"}


class TerminalPlayer:
    """A person playing at the terminal."""

    def __init__(
        self,
        name: str,
        console: Console,
        narrator: Narrator,
        *,
        advisor: Advisor | None = None,
        read: LineReader = prompt_line,
        advice: str = "always",
        on_mode: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self.console = console
        self.narrator = narrator
        self.advisor = advisor
        self.read = read
        #: ``always`` (advice on every turn), ``ask`` (on ``a``) or ``never``.
        self.advice = "never" if advisor is None else advice
        self.on_mode = on_mode
        self.session: Session | None = None
        #: The turn whose table was shown last (rounds dealt, turns played).
        self._shown: tuple[int, int] | None = None
        #: Whether the advice was shown at this position (Enter then plays its best at once).
        self.advice_shown = False
        self._table_rows = 0

    def __repr__(self) -> str:
        return f"TerminalPlayer({self.name!r})"

    # -- the decision -----------------------------------------------------------------------------

    def choose(self, session: Session) -> Action:
        """The person's decision for the seat to move in ``session`` (a legal action)."""
        self.session = session
        view = session.seat_view()
        where = (view.rounds_dealt, view.turns_played)
        if view.phase == "blind":
            return self._call_blind(view)
        fresh = where != self._shown
        self._shown = where
        if view.phase == "put_down":
            if fresh:  # a resumed game left after a draw or take
                self.console.print(self.narrator.turn_panel(view))
            return self._put_down(view)
        self._show_table(self.narrator.turn_panel(view))
        self.show_advice(view)
        return self._start(view)

    def _start(self, view: SeatView) -> Action:
        legal = view.pending.legal
        while True:
            text = self._ask(start_prompt(view, legal, self.advice))
            word = WORDS.get(text.lower())
            if not text and self.advisor is not None:
                accepted = keys.accept(self, view)
                if accepted is None:
                    continue
                word = accepted
            if word == "help":
                self.console.print(self._help(view, putting_down=False))
                continue
            if word in keys.KEYS:
                keys.handle(self, word, view)
                continue
            if not is_action_kind(word):  # (None: not a word of the game)
                self.say(start_mistake(text, legal))
                continue
            if Action(word) not in legal:
                self.say(self.why_not(word, view))
                continue
            return Action(word)

    def _put_down(self, view: SeatView) -> Action:
        assert view.drawn is not None, "a draw or take leaves a card pending"
        new, source = view.drawn
        cards = [*view.hand, new]
        self._show_table(display.put_down_choices(list(view.hand), new, source, view.rules))
        self.show_advice(view)
        while True:
            text = self._ask(put_down_prompt(self.advice, positions(cards, new, source)))
            word = WORDS.get(text.lower())
            if not text and self.advisor is not None:
                accepted = keys.accept(self, view)
                if accepted is None:
                    continue
                text = accepted
            elif word in keys.KEYS:
                keys.handle(self, str(word), view)
                continue
            choice = choose_card(text, cards, new, source)
            if choice == "help":
                self.console.print(self._help(view, putting_down=True))
                continue
            if choice.startswith("!"):
                self.say(choice[1:])
                continue
            if Action("put", choice) not in view.pending.legal:
                self.say(f"{choice} may not be put down now.")
                continue
            hide = Action("hide", choice) in view.pending.legal and self._hide_31(view)
            return Action("hide" if hide else "put", choice)

    def _hide_31(self, view: SeatView) -> bool:
        """Ask whether to show the 31 this put-down leaves, or keep it hidden."""
        title, words = view.rules.hide_question(knocked=view.knocker is not None)
        self.console.print(Text(f"{title} {words}", style="bold green"))
        while True:
            text = self._ask("Show it (s or Enter) or hide it (h)?").lower()
            if text in ("s", "show", ""):
                return False
            if text in ("h", "hide"):
                return True
            self.say("Type s to show your 31 or h to keep it hidden.")

    def _call_blind(self, view: SeatView) -> Action:
        """At a blind table, before looking: call the blind showdown or look."""
        self.console.print(
            Panel(
                Text(
                    "You play first, and nobody has looked at their cards yet. You may call a "
                    "blind showdown now: everybody shows the hand they were dealt, the lowest "
                    f"{view.rules.loses(1, article=True)}, and "
                    f"{view.rules.unit(2)} if it is you. Or look at your cards and play on "
                    "(no knock on this first turn, then)."
                ),
                title=f"Round {view.round_number} · before you look",
                title_align="left",
                border_style="cyan",
                expand=False,
            )
        )
        while True:
            text = self._ask("Call the blind showdown (b) or look at your cards (Enter)?").lower()
            if text in ("b", "blind"):
                return Action("blind")
            if text in ("", "l", "look"):
                return Action("look")
            if WORDS.get(text) == "help":
                self.console.print(
                    Text("  b          call the blind showdown\n  Enter      look at your cards")
                )
                continue
            self.say("Type b to call the blind showdown, or press Enter to look at your cards.")

    # -- explanations -----------------------------------------------------------------------------

    def why_not(self, action: _ActionKind, view: SeatView) -> str:
        """One line: why ``action`` is not allowed now (the core's reason), and what is."""
        options = _options(view.pending.legal, view.top)
        knocker = self.narrator.knocker
        if action == "knock" and knocker is not None:
            who = self.narrator.names[knocker]
            return f"{who} has already knocked: this is your final turn, {options}."
        why = self.session.why_not(Action(action)) if self.session else None
        why = why or "not allowed now"
        return f"{why[:1].upper()}{why[1:]}; {options}."

    # -- helpers ----------------------------------------------------------------------------------

    def _ask(self, prompt: str) -> str:
        text = self.read(prompt)
        if text is None:
            self.console.print()
            raise QuitGame
        text = text.strip()
        if WORDS.get(text.lower()) == "quit":
            raise QuitGame
        return text

    def say(self, message: str) -> None:
        self.console.print(Text(message, style=display.WARN_STYLE))

    def _help(self, view: SeatView, *, putting_down: bool) -> RenderableType:
        drawn = view.drawn
        where = "1-4" if drawn is None else positions([*view.hand, drawn[0]], *drawn)
        return rules_screen.help_text(
            list(view.pending.legal),
            putting_down=putting_down,
            rules=view.rules,
            advice_keys=self.advisor is not None,
            positions=where,
        )

    def _show_table(self, table: RenderableType) -> None:
        """Print what the advice follows (the turn's box, the put-down's choices) and keep how
        many rows it took; the advice has not been shown at this position yet."""
        self.console.print(table)
        self._table_rows = display.rows_of(self.console, table)
        self.advice_shown = False

    def _room(self, view: SeatView) -> int | None:
        """The rows the advice may take on a terminal screen without pushing the table off it:
        the screen's less the table's and the prompt's (None: not a terminal, no limit)."""
        if not self.console.is_terminal:
            return None
        return self.console.height - self._table_rows - self._prompt_rows(view)

    def _prompt_rows(self, view: SeatView) -> int:
        """The rows the turn's prompt takes, with ": " and a key typed."""
        if view.drawn is None:
            prompt = start_prompt(view, view.pending.legal, self.advice)
        else:
            new, source = view.drawn
            prompt = put_down_prompt(self.advice, positions([*view.hand, new], new, source))
        return -(-(len(prompt) + 3) // max(1, self.console.width))

    def show_advice(self, view: SeatView, *, asked: bool = False) -> None:
        """Show the advice (on every turn, or when ``asked``): the fullest layout that fits the
        screen below the table; asked again at the same position, in full. Asked first
        (``--advice ask``: ``a`` or Enter), it comes below the prompt answered and above the
        next one, so both are counted."""
        if self.advisor is None or (self.advice != "always" and not asked):
            return
        try:
            advice = self.advisor(view)
        except Exception as err:  # advice is optional: a failing advisor must not end the game
            self.say(f"(no advice this time: {err})")
            return
        room = None if asked and self.advice_shown else self._room(view)
        if asked and room is not None:
            room -= self._prompt_rows(view)  # (the next prompt, or Enter's question)
        shown = display.render_advice(advice, console=self.console, room=room)
        if shown is not None:
            self.console.print(shown)
            self.advice_shown = True


class AdvisedPolicy:
    """A seat the table's rule plays (``--autoplay``) that shows the advisor's answer at the start
    of each of its turns."""

    def __init__(
        self, console: Console, advisor: Advisor, knock_at: float = TABLE_KNOCK_AT
    ) -> None:
        self.console = console
        self.advisor = advisor
        self.rule = TablePolicy(knock_at)

    def __repr__(self) -> str:
        return f"AdvisedPolicy({self.rule!r})"

    def decide(self, view: SeatView) -> Action:
        if view.phase == "start":
            shown = display.render_advice(self.advisor(view))
            if shown is not None:
                self.console.print(shown)
        return self.rule.decide(view)


def _options(legal: Sequence[Action], top: str) -> str:
    """``draw (d) or take 7H (t)`` from the legal start actions."""
    names = {
        "knock": "knock (k)",
        "draw": "draw (d)",
        "take": f"take {top} (t)",
        "decline": "decline (x)",
    }
    kinds = {a.kind for a in legal}
    parts = [names[a] for a in ("draw", "take", "knock", "decline") if a in kinds]
    if not parts:
        return "nothing to choose"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def put_down_prompt(mode: str = "never", where: str = "1-4") -> str:
    """``Put down which card? (1-4 or its name, Enter: Oracle's best, ? help, q quit)``;
    ``where``: the positions that may be put down (``1-3`` after a take: see
    :func:`positions`)."""
    oracle = {"always": ", Enter: Oracle's best", "ask": ", a advice"}.get(mode, "")
    return f"Put down which card? ({where} or its name{oracle}, ? help, q quit)"


def may_go_down(cards: Sequence[str], new: str, source: str) -> list[str]:
    """The cards that may be put down: all but the card just taken from the pile (the last)."""
    return [c for c in cards if not (c == new and source == "pile")]


def positions(cards: Sequence[str], new: str, source: str) -> str:
    """The positions that may be put down: ``1-4``, or ``1-3`` after a take (the card taken is
    the last and may not go straight back)."""
    return f"1-{len(may_go_down(cards, new, source))}"


def start_prompt(view: SeatView, legal: Sequence[Action], mode: str = "never") -> str:
    """``Your move (d draw, t take 7H, k knock, ? help, q quit)``; with the Oracle, ``Enter``
    plays its best move (``a`` shows the advice when it is asked for)."""
    labels = {
        "draw": "d draw",
        "take": f"t take {view.top}",
        "knock": "k knock",
        "decline": "x decline",
    }
    kinds = {a.kind for a in legal}
    parts = [labels[a] for a in ("draw", "take", "knock", "decline") if a in kinds]
    oracle = {"always": ["Enter: Oracle's best"], "ask": ["a advice"]}.get(mode, [])
    return "Your move (" + ", ".join([*parts, *oracle, "? help", "q quit"]) + ")"


def start_mistake(text: str, legal: Sequence[Action]) -> str:
    """One line for an input that is not a choice at the start of a turn."""
    kinds = {a.kind for a in legal}
    keys = ", ".join(KEYS[a] for a in ("draw", "take", "knock", "decline") if a in kinds)
    if not text:
        return f"Type a choice: {keys} (? for help, q to quit)."
    if _is_position(text) or _is_card(text):
        return f"First draw or take a card ({keys}); then choose the card to put down."
    return f"{quoted(text)} is not a choice: type {keys} (? for help, q to quit)."


def choose_card(text: str, cards: Sequence[str], new: str, source: str) -> str:
    """The card meant by ``text`` among ``cards`` (the hand, then the new card), ``"help"``,
    or ``"!"`` followed by a one-line explanation."""
    # The card taken from the pile may not go back: it is not offered (it is the last).
    allowed = may_go_down(cards, new, source)
    hand_list = " ".join(allowed)
    where = positions(cards, new, source)
    if not text:
        return f"!Choose the card to put down: {where} or its name ({hand_list})."
    word = WORDS.get(text.lower())
    if word == "help":
        return "help"
    if word is not None:
        how = "drew" if source == "stock" else "took"
        return f"!You {how} {new} already: now put a card down ({where} or its name: {hand_list})."
    if _is_position(text):
        n = int(text)
        if not 1 <= n <= len(cards):
            shown = n if len(text) <= QUOTE_CHARS else quoted(text)
            return f"!There is no card {shown}: choose {where.replace('-', ' to ')}."
        card = cards[n - 1]
    else:
        try:
            card = parse_card(text)
        except CardError:
            return (
                f"!{quoted(text)} is not a card or a position: choose {where} or a card like "
                f"{cards[0]}."
            )
        if card not in cards:
            return f"!{card} is not in your hand: choose one of {hand_list}."
    if card == new and source == "pile":
        # (within 80 columns: the message is not broken between words)
        why = f"You took {card} from the pile: it may not go straight back"
        return f"!{why}. Choose {where}: {hand_list}."
    return card


def _is_position(text: str) -> bool:
    """Whether ``text`` is a number in ASCII digits (``²`` and ``٣`` are digits to Python)."""
    return text.isascii() and text.isdigit()


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except CardError:
        return False
    return True
