"""Rendering for the terminal: game events and a turn's state as ``rich`` renderables.

Nothing here reads input. :class:`Narrator` is the game's event listener: it prints the story of
the game (deals, round ends, who went out, the placing) and remembers what the opponents did
since the person's last turn, which :meth:`Narrator.turn_panel` shows on the person's next turn.

Two styles: the *table* (interactive play: a panel on each of your turns, opponents' moves
summed up there, boxed round results) and *compact* (``--autoplay``, and the rest of the game
once you are out: one line per turn, short results).

Cards are printed in the two-character ASCII form (``AH``, ``TD``), as ``rules.md`` asks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from thirtyone._core import Action
from thirtyone.cards import hand_score
from thirtyone.rules import Rules

if TYPE_CHECKING:
    from thirtyone.game import Event, Game
    from thirtyone.oracle import Advice, OptionAdvice, Sweep
    from thirtyone.turn import Turn

YOU_STYLE = "bold cyan"
WARN_STYLE = "bold yellow"
BAD_STYLE = "red"


# -- small pieces ---------------------------------------------------------------------------------


def card_text(card: str) -> Text:
    """A card in ASCII form, red for hearts and diamonds."""
    return Text(card, style="bold red" if card[-1:] in ("H", "D") else "bold")


def cards_text(cards: Sequence[str]) -> Text:
    return Text(" ").join(card_text(c) for c in cards)


def fmt_score(score: float) -> str:
    """``21`` for 21.0, ``30.5`` for 30.5."""
    return str(int(score)) if float(score).is_integer() else str(score)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def lives_word(n: int) -> str:
    return f"{n} life" if n == 1 else f"{n} lives"


def name_text(names: Sequence[str], seat: int, me: int | None) -> Text:
    return Text(names[seat], style=YOU_STYLE if seat == me else "bold")


def possessive(names: Sequence[str], seat: int, me: int | None) -> Text:
    """``Alice's``, or ``your`` for the person called "You"."""
    if names[seat] == "You":
        return Text("your", style=YOU_STYLE if seat == me else "bold")
    return name_text(names, seat, me).append("'s")


def describe_turn(data: Mapping[str, Any], *, reveal: bool = False) -> Text:
    """What a player did in a turn event, e.g. ``took 7H, put down 2C``.

    ``reveal``: show the card drawn from the stock (only its player saw it).
    """
    action = data["action"]
    if action == "knock":
        return Text("knocked", style=WARN_STYLE)
    if action == "blind":
        return Text("called a blind showdown before anybody looked!", style=WARN_STYLE)
    if action == "decline":
        return Text("declined the top card with the stock empty, which ends the round")
    out = Text()
    if action == "take":
        out.append("took ")
        out.append_text(card_text(data["card"]))
    elif reveal and data.get("drew"):
        out.append("drew ")
        out.append_text(card_text(data["drew"]))
    else:
        out.append("drew from the stock")
    if data.get("discard"):
        out.append(", put down ")
        out.append_text(card_text(data["discard"]))
    if data.get("showed_31"):
        out.append(" and showed 31!", style="bold green")
    elif reveal and data.get("hid_31"):
        out.append(" and kept the 31 hidden (it counts 30)", style="bold green")
    return out


def standing_text(lives: int, rules: Rules | None) -> str:
    """A player's lives in a few characters: ``3``, ``out``, ``county``; the letters taken under
    Gin lives; the table's life name."""
    r = rules or Rules.standard()
    if r.life_names or r.gin:
        return r.standing(lives)
    if r.is_out(lives):
        return "out"
    return "county" if r.on_county(lives) else str(lives)


def lives_line(
    names: Sequence[str], lives: Sequence[int], me: int | None, rules: Rules | None = None
) -> Text:
    """``Lives: You 3 · Alice 2 · Ben out`` (``Letters: You G · ...`` under Gin lives)."""
    r = rules or Rules.standard()
    parts = []
    for seat, n in enumerate(lives):
        part = name_text(names, seat, me)
        out = r.is_out(n)
        part.append(f" {standing_text(n, r)}", style="dim" if out else "")
        parts.append(part)
    head = "Letters: " if r.gin else "Lives: "
    return Text(head).append_text(Text(" · ").join(parts))


def intro(
    rules: Rules,
    names: Sequence[str],
    me: int | None,
    seed: int | None,
    preset: str | None = None,
) -> Text:
    """The line that opens a game: who plays, the table (its preset, lives and the options that
    differ from the preset), the seed."""
    others = [n for s, n in enumerate(names) if s != me]
    out = Text("Thirty-One: ", style="bold")
    if me is not None:
        out.append_text(name_text(names, me, me))
        out.append(" against ")
    out.append(", ".join(others))
    if preset is None:
        preset = preset_of(rules) or "standard"
    out.append("\n")
    if preset != "standard":
        info = Rules.PRESET_INFO[preset]
        out.append(f"{preset} table", style="bold")
        out.append(f", {info.document} · ")
    out.append(f"{rules.lives_summary()} · knock penalty {rules.knock_penalty}")
    base = Rules.preset(preset)
    shown = ("seats", "lives", "knock_penalty", "county", "lives_mode", "life_names")
    changed = [
        f"{key}={_option_text(getattr(rules, key))}"
        for key in Rules.option_names()
        if key not in shown and getattr(base, key) != getattr(rules, key)
    ]
    if changed:
        out.append(" · " + ", ".join(changed))
    if seed is not None:
        out.append(f" · seed {seed}", style="dim")
    return out


def preset_of(rules: Rules) -> str | None:
    """The preset these rules are (seats aside), if any."""
    for name in Rules.PRESETS:
        if Rules.preset(name).replace(seats=rules.seats) == rules:
            return name
    return None


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return fmt_score(value)
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def help_text(legal: Sequence[Action], *, putting_down: bool) -> RenderableType:
    """What the person may type, and the rules in short."""
    lines = [Text("What you can type:", style="bold")]
    if putting_down:
        lines.append(Text("  1-4        put down the card at that position"))
        lines.append(Text("  AH, 10d    put down that card (rank A 2-9 T/10 J Q K, suit C D H S)"))
        if any(a.kind == "hide" for a in legal):
            lines.append(
                Text("             (a put-down that leaves 31: you are asked to show or hide it)")
            )
    else:
        meanings = {
            "knock": "  k          knock: everybody else gets one more turn, then showdown",
            "draw": "  d          draw the top card of the stock",
            "take": "  t          take the top card of the discard pile",
            "decline": "  x          decline the top card (stock empty): the round ends",
        }
        kinds = {a.kind for a in legal}
        for action, meaning in meanings.items():
            if action in kinds:
                lines.append(Text(meaning))
    lines.append(Text("  ?          this help"))
    lines.append(Text("  q          quit the game"))
    lines.append(
        Text(
            "Your score is the best total of one suit (ace 11, pictures 10). The lowest hand "
            "at the end of a round loses a life; a knocker who is lowest pays the knock "
            "penalty. 31 ends the round at once: everybody else loses a life.",
            style="dim",
        )
    )
    return Group(*lines)


def render_advice(advice: object) -> RenderableType | None:
    """The advisor's answer (the Oracle's, later) as something to print; None prints nothing."""
    if advice is None:
        return None
    if isinstance(advice, str | Text) or hasattr(advice, "__rich_console__"):
        body: Any = advice
    elif hasattr(advice, "__rich__"):
        body = advice
    else:
        body = Text(str(advice))
    return Panel(body, title="Advice", title_align="left", border_style="magenta", expand=False)


def put_down_choices(
    hand: Sequence[str], new: str, source: str, rules: Rules | None = None
) -> RenderableType:
    """After a draw or take: the four cards numbered 1-4 and the score each put-down leaves."""
    cards = [*hand, new]
    head = Text("You drew " if source == "stock" else "You took ")
    head.append_text(card_text(new))
    head.append(" from the stock." if source == "stock" else " from the pile.")
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(justify="right")
    table.add_column()
    table.add_column()
    for i, card in enumerate(cards):
        if card == new and source == "pile":
            note = Text("taken from the pile: it may not go straight back", style="dim")
        else:
            rest = [c for c in cards if c != card]
            note = Text(f"leaves {fmt_score(hand_score(rest, rules))}", style="dim")
        table.add_row(str(i + 1), card_text(card), note)
    return Group(head, Padding(table, (0, 0, 0, 2), expand=False))


_ENDINGS = {
    "dealt_31": "dealt 31",
    "thirty_one": "31 shown",
    "showdown": "knock showdown",
    "stock_out": "stock out",
    "blind": "blind showdown",
}


def round_headline(event: Event, names: Sequence[str], me: int | None) -> Text:
    """How a round ended, in one line."""
    data = event.data
    end = data["end"]
    by = data.get("by")
    knocker = data.get("knocker")
    out = Text(f"Round {event.round}: ", style="bold")
    if event.kind == "wash":
        out.append("wash", style=WARN_STYLE)
        out.append(
            " — that round would have left nobody in the game: nothing is lost, "
            "the round is dealt again."
        )
        return out
    if end == "blind":
        out.append("blind showdown", style=WARN_STYLE)
        if by is not None:
            out.append(" called by ")
            out.append_text(name_text(names, by, me))
        out.append(": the dealt hands are shown; the lowest loses one, the caller two.")
    elif end == "dealt_31":
        dealt = [s for s, sc in data["scores"].items() if sc >= 31]
        out.append("dealt 31", style="bold green")
        out.append(" — ")
        out.append_text(Text(" and ").join(name_text(names, s, me) for s in dealt))
        out.append(" showed it at once." if len(dealt) == 1 else " showed it: all are safe.")
    elif end == "thirty_one":
        out.append("31 shown", style="bold green")
        if by is not None:
            out.append(" by ")
            out.append_text(name_text(names, by, me))
        out.append(": everybody else loses a life.")
    elif end == "stock_out":
        out.append("stock out", style=WARN_STYLE)
        if by is not None:
            out.append(" — ")
            out.append_text(name_text(names, by, me))
            out.append(" declined the top card")
        if knocker is not None:
            out.append(", settled as the showdown after ")
            out.append_text(possessive(names, knocker, me))
            out.append(" knock.")
        else:
            out.append(": the lowest hand loses a life.")
    else:
        if knocker is not None:
            out.append("showdown", style="bold")
            out.append(" after ")
            out.append_text(possessive(names, knocker, me))
            out.append(" knock.")
        else:
            out.append(_ENDINGS.get(end, end), style="bold")
    return out


def round_result(
    event: Event,
    names: Sequence[str],
    me: int | None,
    *,
    compact: bool,
    rules: Rules | None = None,
) -> Group:
    """Every hand with its score, who lost what and the lives left (round_end or wash event)."""
    r = rules or Rules.standard()
    data = event.data
    lives = data.get("lives")
    knocker = data.get("knocker")
    hidden = set(data.get("hidden_31", ()))
    if compact:
        table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    else:
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    for head, justify in (("Player", "left"), ("Hand", "left"), ("Score", "right")):
        table.add_column(head, justify=justify)  # type: ignore[arg-type]
    table.add_column("Result")
    for seat, hand in data["hands"].items():
        who = name_text(names, seat, me)
        if seat == knocker:
            who.append(" (knocked)", style="dim")
        lost = data["losses"].get(seat, 0)
        if event.kind == "wash":
            result = Text("")
        elif lost:
            result = Text(f"loses {r.unit(lost)}", style=BAD_STYLE)
            if lives is not None:
                result.append(f" → {r.standing(lives[seat])}", style=BAD_STYLE)
        else:
            result = Text("safe", style="green")
        score = fmt_score(data["scores"][seat])
        if seat in hidden:
            score += " (31 hidden)"
        table.add_row(who, cards_text(hand), score, result)
    parts: list[RenderableType] = [round_headline(event, names, me)]
    parts.append(Padding(table, (0, 0, 0, 2), expand=False) if compact else table)
    if lives is not None:
        line = lives_line(names, lives, me, r)
        parts.append(Padding(line, (0, 0, 0, 2), expand=False) if compact else line)
    return Group(*parts)


def placing(event: Event, names: Sequence[str], me: int | None) -> Group:
    """The end of the game: the placing and the winner, with the points of a ranked table."""
    winner = event.data["winner"]
    order: list[int] = event.data["placing"]
    points: dict[int, int] | None = event.data.get("points")
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(justify="right")
    table.add_column()
    if points is not None:
        table.add_column(justify="right")
    for place, seat in enumerate(order, start=1):
        row: list[RenderableType] = [ordinal(place), name_text(names, seat, me)]
        if points is not None:
            p = points.get(seat, 0)
            row.append(Text(f"{p} point" + ("" if p == 1 else "s"), style="" if p else "dim"))
        table.add_row(*row)
    head = Text("Game over. ", style="bold")
    head.append("Winner: ")
    head.append_text(name_text(names, winner, me))
    if winner == me:
        head.append(" — well played!", style="bold green")
    title = "Placing and points (ranked):" if points is not None else "Placing:"
    return Group(head, Text(title), Padding(table, (0, 0, 0, 2), expand=False))


# -- the narrator ---------------------------------------------------------------------------------


class Narrator:
    """The game's event listener for the terminal.

    ``me``: the person's game seat (None: nobody's seat is special). ``compact``: print every
    turn as one line (``--autoplay``). In table style, opponents' turns are kept until the
    person's next turn (:meth:`turn_panel`) or the round's end. Once the person is out of the
    game the rest is told compactly.
    """

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        me: int | None = 0,
        *,
        compact: bool = False,
        game: Game | None = None,
    ) -> None:
        self.console = console
        self.names = list(names)
        self.me = me
        self.compact = compact
        self.game = game  # to show your own hand in compact style
        self.knocker: int | None = None
        self.round_seats: list[int] = []
        self.recent: dict[int, list[Text]] = {}
        self._my_turns = 0
        self._me_out = False
        self._alive = len(self.names)

    @property
    def rules(self) -> Rules:
        """The game's rules (standard until the game is known)."""
        return self.game.rules if self.game is not None else Rules.standard()

    @property
    def watching(self) -> bool:
        """True when turns are told one line each (compact style, or the person is out)."""
        return self.compact or self.me is None or self._me_out

    def __call__(self, event: Event) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)

    # -- events

    def _on_deal(self, event: Event) -> None:
        data = event.data
        self.knocker = None
        self.round_seats = list(data["seats"])
        self.recent = {}
        self._my_turns = 0
        head = Text(f"Round {event.round}", style="bold")
        head.append(" · dealer ")
        head.append_text(name_text(self.names, data["dealer"], self.me))
        head.append(" · upcard ")
        head.append_text(card_text(data["upcard"]))
        if self.watching:
            self.console.print(head)
        else:
            self.console.print()
            self.console.print(Rule(head, align="left"))

    def _on_turn(self, event: Event) -> None:
        data = event.data
        seat = data["seat"]
        if data["action"] == "knock":
            self.knocker = seat
        if self.watching:
            line = Text("  ").append_text(name_text(self.names, seat, self.me))
            if seat == self.me:
                hand = self._my_hand()
                if hand is not None:
                    line.append(" [")
                    line.append_text(cards_text(hand[0]))
                    line.append(f" = {fmt_score(hand[1])}]")
            line.append(": ")
            line.append_text(describe_turn(data, reveal=seat == self.me))
            self.console.print(line)
        elif seat == self.me:
            line = Text("You " if self.names[seat] == "You" else "You (")
            if self.names[seat] != "You":
                line.append_text(name_text(self.names, seat, self.me)).append(") ")
            line.append_text(describe_turn(data, reveal=True))
            line.append(".")
            self.console.print(line)
        else:
            self.recent.setdefault(seat, []).append(describe_turn(data))

    def _on_round_end(self, event: Event) -> None:
        self._alive = sum(1 for n in event.data["lives"] if not self.rules.is_out(n))
        self._flush_recent()
        self.console.print(
            round_result(event, self.names, self.me, compact=self.watching, rules=self.rules)
        )

    def _on_wash(self, event: Event) -> None:
        self._flush_recent()
        self.console.print(
            round_result(event, self.names, self.me, compact=self.watching, rules=self.rules)
        )

    def _on_county(self, event: Event) -> None:
        seat = event.data["seat"]
        line = name_text(self.names, seat, self.me)
        you = self.names[seat] == "You"
        where = self.rules.standing(0)
        verb = " are " if you else " is "
        line.append(verb + (where if where.startswith("on ") else f"on the county ({where})"))
        who = "you" if you else "them"
        line.append(f": the next loss puts {who} out.", style=WARN_STYLE)
        self.console.print(Padding(line, (0, 0, 0, 2), expand=False) if self.watching else line)

    def _on_out(self, event: Event) -> None:
        seat = event.data["seat"]
        line = Text("Out: ", style=BAD_STYLE)
        line.append_text(name_text(self.names, seat, self.me))
        line.append(f", {ordinal(event.data['place'])} place.")
        self.console.print(Padding(line, (0, 0, 0, 2), expand=False) if self.watching else line)
        if seat == self.me and not self.watching:
            self._me_out = True
            if self._alive >= 2:
                self.console.print(
                    Text("You are out of the game; the others play on.", style="dim")
                )

    def _on_game_over(self, event: Event) -> None:
        self.console.print()
        self.console.print(placing(event, self.names, self.me))

    # -- the person's turn

    def turn_panel(self, turn: Turn) -> RenderableType:
        """The table as the person sees it at the start of their turn (forgets the recent moves)."""
        game = turn.game
        me = turn.seat
        rows = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False)
        rows.add_column("Player")
        rows.add_column("Letters" if game.rules.gin else "Lives", justify="right")
        rows.add_column("This round so far" if self._my_turns == 0 else "Since your last turn")
        n = len(game.lives)
        for step in range(1, n):
            seat = (me + step) % n
            lives = game.lives[seat]
            did = self.recent.get(seat, [])
            who = name_text(self.names, seat, me)
            if seat == self.knocker:
                who.append(" (knocked)", style=WARN_STYLE)
            if game.rules.is_out(lives) or seat in game.places:
                rows.add_row(who, Text(standing_text(lives, game.rules), style="dim"), Text(""))
            else:
                rows.add_row(
                    who,
                    standing_text(lives, game.rules),
                    Text("; then ").join(did) if did else Text("—"),
                )
        self.recent = {}
        self._my_turns += 1

        parts: list[RenderableType] = [rows]
        if self.knocker is not None:
            warn = name_text(self.names, self.knocker, me)
            warn.append(" has knocked: this is your final turn.", style=WARN_STYLE)
            parts.append(warn)
        table_line = Text("Top of the pile: ").append_text(card_text(turn.top))
        stock = turn.stock_len
        table_line.append("   Stock: ")
        if stock:
            table_line.append(f"{stock} card" + ("" if stock == 1 else "s"))
        else:
            table_line.append("empty", style=WARN_STYLE)
            table_line.append(" (nobody may knock: take the top card or decline)")
        parts.append(table_line)
        hand = Text("Your hand: ", style="bold").append_text(cards_text(turn.hand))
        hand.append(f"   score {fmt_score(turn.score)}", style="bold")
        if game.rules.gin:
            hand.append(f"   · your letters: {game.rules.letters(game.lives[me])}")
        elif game.rules.life_names:
            hand.append(f"   · you are: {game.standing(me)}")
        elif game.on_county(me):
            hand.append("   · you are on the county: ")
            hand.append("the next loss puts you out", style=WARN_STYLE)
        else:
            hand.append(f"   · your lives: {game.lives[me]}")
        parts.append(hand)
        title = f"Round {game.round_number} · your turn"
        if self.knocker is not None:
            title += " · FINAL TURN"
        return Panel(
            Group(*parts), title=title, title_align="left", border_style="cyan", expand=False
        )

    # -- helpers

    def _flush_recent(self) -> None:
        if self.watching or not self.recent:
            self.recent = {}
            return
        for seat in self.round_seats:
            for did in self.recent.get(seat, []):
                line = Text("  ").append_text(name_text(self.names, seat, self.me))
                self.console.print(line.append(" ").append_text(did))
        self.recent = {}

    def _my_hand(self) -> tuple[list[str], float] | None:
        game = self.game
        if game is None or game.round is None or self.me not in self.round_seats:
            return None
        i = self.round_seats.index(self.me)
        return game.round.hand(i), game.round.score(i)


# -- the Oracle -----------------------------------------------------------------------------------

BEST_MARK = "★"
#: The lowest score a hand can have (three twos, of three suits).
LOWEST_SCORE = 2
TIED_MARK = "≈"
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(fraction: float, width: int) -> str:
    """A horizontal bar ``width`` characters wide at most, filled to ``fraction`` (0 to 1), in
    eighths of a character."""
    fraction = min(1.0, max(0.0, fraction)) if math.isfinite(fraction) else 0.0
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(width)


def pct(p: float) -> str:
    """``94.9%``."""
    return f"{100 * p:.1f}%"


def points(margin: float) -> str:
    """A margin in percentage points: ``±1.0``."""
    return f"±{100 * margin:.1f}"


def option_label(option: OptionAdvice) -> str:
    """An option in a few words: ``knock``, ``draw``, ``take QC, put down 4H``, ``put down 9C``."""
    if option.option == "take":
        return f"take {option.card}, put down {option.discard}"
    if option.option.startswith("discard:"):
        return f"put down {option.option.split(':', 1)[1]}"
    return option.option


def knock_at_text(option: OptionAdvice) -> str:
    """The later knock score of a swept option (``27``, ``never``); ``—`` when not swept."""
    if not option.swept:
        return "—"
    return "never" if option.knock_at is None else fmt_score(option.knock_at)


def ranked(advice: Advice) -> list[OptionAdvice]:
    """The options to show: the best first, then the others from the safest down."""
    rest = sorted(advice.options[1:], key=lambda o: -o.p_safe)
    return [advice.options[0], *rest]


def later_plan(option: OptionAdvice) -> str:
    """When a swept option knocks later: ``knock at 25 or more``, ``never knock``, or ``knock at
    the first chance`` when the kept score is one every hand has (2: any three cards)."""
    if option.knock_at is None:
        return "never knock"
    if option.knock_at <= LOWEST_SCORE:
        return "knock at the first chance"
    return f"knock at {knock_at_text(option)} or more"


def _tied_names(advice: Advice) -> set[str]:
    return {o.option for o in advice.tied}


def _best_line(advice: Advice) -> Text:
    best = advice.best
    line = Text("Best: ", style="bold")
    line.append(option_label(best), style="bold green")
    if best.swept:
        line.append(f" (then {later_plan(best)})")
    if advice.tied:
        line.append(" — statistically tied with ", style=WARN_STYLE)
        line.append(", ".join(option_label(o) for o in advice.tied), style=WARN_STYLE)
    return line


def advice_panel_body(advice: Advice) -> RenderableType:
    """The advice in the game's Advice panel: the best option and the reason, then one line per
    option (best first) with its percentage safe, margin and later knock score."""
    tied = _tied_names(advice)
    rows = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    rows.add_column(width=1)
    rows.add_column()
    rows.add_column(justify="right")
    rows.add_column(justify="right")
    rows.add_column(style="dim")
    for i, o in enumerate(ranked(advice)):
        mark = BEST_MARK if i == 0 else TIED_MARK if o.option in tied else ""
        rows.add_row(
            mark,
            Text(option_label(o), style="bold" if i == 0 else ""),
            pct(o.p_safe),
            points(o.margin),
            later_plan(o) if o.swept else "",
        )
    parts: list[RenderableType] = [_best_line(advice), Text(advice.reason), rows]
    for warning in advice.warnings:
        parts.append(Text(f"Note: {warning}", style="dim yellow"))
    return Group(*parts)


def advice_table(advice: Advice, *, bar_width: int = 20) -> Table:
    """Every option, best first: percentage safe, margin, lives lost, later knock score, a bar."""
    tied = _tied_names(advice)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False)
    table.add_column("", width=1)
    table.add_column("Option", no_wrap=True)
    table.add_column("Safe", justify="right")
    table.add_column("Margin", justify="right")
    table.add_column(f"{advice.unit.capitalize()} lost", justify="right")
    table.add_column("Knock at", justify="right")
    table.add_column("", no_wrap=True)
    for i, o in enumerate(ranked(advice)):
        best = i == 0
        mark = BEST_MARK if best else TIED_MARK if o.option in tied else ""
        style = "green" if best else "yellow" if o.option in tied else "blue"
        table.add_row(
            mark,
            Text(option_label(o), style="bold" if best else ""),
            pct(o.p_safe),
            points(o.margin),
            f"{o.lives_lost:.2f}",
            knock_at_text(o),
            Text(bar(o.p_safe, bar_width), style=style),
        )
    return table


def _sweep_rows(sweep: Sweep) -> list[tuple[str, float, float, list[float | None]]]:
    """The sweep's knock scores grouped where the figures are equal: (label, p_safe, lives lost,
    the scores in the group; None = never)."""
    rows: list[tuple[str, float, float, list[float | None]]] = []
    run: list[float] = []
    figures: tuple[float, float] | None = None

    def close() -> None:
        if run and figures is not None:
            label = fmt_score(run[0])
            if len(run) > 1:
                label += "\u2013" + fmt_score(run[-1])
            rows.append((label, figures[0], figures[1], list(run)))

    for k, p, lost in zip(sweep.knock_at, sweep.p_safe, sweep.lives_lost, strict=True):
        k, p, lost = float(k), float(p), float(lost)
        if math.isnan(k):
            close()
            run, figures = [], None
            rows.append(("never", p, lost, [None]))
            continue
        if figures != (p, lost):
            close()
            run, figures = [], (p, lost)
        run.append(k)
    close()
    return rows


def sweep_chart(option: OptionAdvice, playouts: int, *, bar_width: int = 30) -> RenderableType:
    """The sweep of a swept option as a bar chart: percentage safe by the score at which you
    knock on a later turn (equal neighbours grouped), the kept score marked. The bars run from a
    round percentage just below the lowest figure (the axis in the header), so that differences
    show."""
    sweep = option.sweep
    assert sweep is not None
    rows = _sweep_rows(sweep)
    values = [p for _, p, _, _ in rows]
    low = math.floor((min(values) - 0.005) * 20) / 20
    high = math.ceil(max(values) * 20) / 20
    low, high = max(0.0, low), min(1.0, max(high, low + 0.05))
    head = Text(f"If you {option_label(option)}: safe by the score you knock at later", "bold")
    left, right = f"{100 * low:.0f}%", f"{100 * high:.0f}%"
    axis = left + right.rjust(bar_width - len(left))
    table = Table(box=None, show_header=True, padding=(0, 1), pad_edge=False)
    table.add_column("Knock at", justify="right", header_style="dim")
    table.add_column(axis, no_wrap=True, header_style="dim")
    table.add_column("Safe", justify="right", header_style="dim")
    table.add_column("Lives", justify="right", header_style="dim")
    table.add_column("")
    for label, p, lost, scores in rows:
        kept = option.knock_at in scores
        table.add_row(
            label,
            Text(bar((p - low) / (high - low), bar_width), style="green" if kept else "blue"),
            pct(p),
            f"{lost:.2f}",
            Text("◀ kept", style="bold green") if kept else "",
        )
    foot = Text(
        f"The kept choice was played {playouts:,} more times to confirm it: "
        f"{pct(option.p_safe)} safe, the figure above (a sweep's best is biased upward).",
        style="dim",
    )
    return Group(head, Padding(table, (0, 0, 0, 2), expand=False), foot)


def advice_report(advice: Advice, *, sweeps: str = "best", width: int = 80) -> Group:
    """``thirtyone oracle``'s report: the best option and the reason, the table of options, the
    ties, the warnings, and the sweep chart (``sweeps``: ``best`` = the best swept option,
    ``all``, or ``none``), fitted to ``width`` columns."""
    labels = max(len(option_label(o)) for o in advice.options)
    bar_width = max(6, min(24, width - 42 - labels))
    parts: list[RenderableType] = []
    head = Text("The Oracle", style="bold magenta")
    head.append(
        f" · {advice.deals:,} consistent deals · {advice.playouts:,} playouts per option",
        style="dim",
    )
    parts += [head, Text(""), _best_line(advice), Text(advice.reason), Text("")]
    parts.append(advice_table(advice, bar_width=bar_width))
    if advice.tied:
        names = ", ".join(option_label(o) for o in advice.tied)
        line = Text(f"{TIED_MARK} Statistically tied with the best: ", style=WARN_STYLE)
        line.append(names, style="bold")
        line.append(f" (within the margin of {points(advice.best.margin)} points).")
        parts.append(line)
    else:
        parts.append(Text("No other option is within the margin of the best.", style="dim"))
    if advice.warnings:
        parts.append(Text(""))
    for warning in advice.warnings:
        parts.append(Text(f"Warning: {warning}", style=WARN_STYLE))
    swept = [o for o in ranked(advice) if o.sweep is not None and len(o.sweep.knock_at)]
    if sweeps == "best":
        swept = swept[:1]
    elif sweeps == "none":
        swept = []
    for option in swept:
        parts.append(Text(""))
        parts.append(sweep_chart(option, advice.playouts, bar_width=max(10, min(30, width - 40))))
    return Group(*parts)
