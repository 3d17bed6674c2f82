"""The table's words and pieces for the terminal, as ``rich`` renderables: cards, scores, lives,
a turn in words, the opening lines, help, the put-down choices, a round's headline and result,
the placing. Nothing here reads input; :mod:`thirtyone.terminal.narrator` tells the game with these
pieces and :mod:`thirtyone.terminal.advice_view` shows the Oracle's advice.

Cards are printed in the two-character ASCII form (``AH``, ``TD``), as the rules ask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from thirtyone.game.cards import hand_score
from thirtyone.game.rules import Rules

if TYPE_CHECKING:
    from thirtyone.game.session import Event

YOU_STYLE = "bold cyan"
WARN_STYLE = "bold yellow"
BAD_STYLE = "red"


# -- small pieces ---------------------------------------------------------------------------------


def say(console: Console, *lines: Text) -> None:
    """``lines`` printed as a player reads them: on a terminal, broken between words (a word
    longer than the line, such as a long path, is cut where the line ends: a command to copy
    goes through ``save_start.say_command`` instead); elsewhere each line whole, for a program
    reading it (ruling 194)."""
    console.print(*lines, sep="\n", soft_wrap=not console.is_terminal)


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


def name_text(names: Sequence[str], seat: int, me: int | None) -> Text:
    return Text(names[seat], style=YOU_STYLE if seat == me else "bold")


def possessive(names: Sequence[str], seat: int, me: int | None) -> Text:
    """``Alice's``, or ``your`` for the person called "You"."""
    if names[seat] == "You":
        return Text("your", style=YOU_STYLE if seat == me else "bold")
    return name_text(names, seat, me).append("'s")


def describe_turn(data: Mapping[str, Any], *, reveal: bool = False, shown: str = "31") -> Text:
    """What a player did in a turn event, e.g. ``took 7H, put down 2C``.

    ``reveal``: show the card drawn from the stock (only its player saw it). ``shown``: a 31
    shown in the table's words (:func:`shown_words`).
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
        out.append(f" and showed {shown}!", style="bold green")
    elif reveal and data.get("hid_31"):
        out.append(" and kept the 31 hidden (it counts 30)", style="bold green")
    return out


def shown_words(score: float, rules: Rules) -> str:
    """A hand of 31 or more shown, in the table's words: ``31``, or where the table names it
    (:meth:`Rules.hand_name`) its score and name, ``31: a Cadillac``, ``33: a Grand Cadillac``."""
    name = rules.hand_name(score)
    return f"{fmt_score(score)}: {name}" if name else "31"


def counted(score: float, hidden: bool) -> str:
    """What a hand counts: ``24``, or a 31 kept hidden, ``30 (31 hidden)``."""
    return f"{fmt_score(score)} (31 hidden)" if hidden else fmt_score(score)


def standing_text(lives: int, rules: Rules | None) -> str:
    """A player's lives in a few characters: ``3``, ``out``, ``county``; the letters taken under
    Gin lives; the table's life name."""
    r = rules or Rules.standard()
    if r.life_names or r.gin:
        return r.standing(lives)
    if r.is_out(lives):
        return "out"
    return "county" if r.on_county(lives) else str(lives)


class Packed(NamedTuple):
    """Pieces joined by `` · ``, broken only between two (:func:`packed`; ruling 190)."""

    pieces: list[Text]

    @property
    def plain(self) -> str:
        return " · ".join(p.plain for p in self.pieces)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield packed(self.pieces, options.max_width)


def lives_line(
    names: Sequence[str],
    lives: Sequence[int],
    me: int | None,
    rules: Rules | None = None,
    head: str = "",
    seats: Sequence[int] | None = None,
) -> Packed:
    """``Lives: You 3 · Alice 2 · Ben out`` (``Letters: You G · ...`` under Gin lives), after
    ``head``; of ``seats`` (default: every seat), a player never parted from their lives."""
    r = rules or Rules.standard()
    parts = []
    for seat in range(len(lives)) if seats is None else seats:
        n, part = lives[seat], name_text(names, seat, me)
        standing = r.standing(n) if r.on_county(n) else standing_text(n, r)
        parts.append(part.append(f" {standing}", style="dim" if r.is_out(n) else ""))
    parts[0] = Text(head + ("Letters: " if r.gin else "Lives: ")).append_text(parts[0])
    return Packed(parts)


#: How the opening line names a computer player of each kind.
KIND_WORDS = {"table": "the table's rule", "expert": "expert"}


def intro(
    rules: Rules,
    names: Sequence[str],
    me: int | None,
    seed: int | None,
    preset: str | None = None,
    width: int = 80,
    kinds: Sequence[str] | None = None,
) -> Text:
    """The lines that open a game: who plays, then the table (its preset, lives and the options
    that differ from the preset) and the seed, its parts separated by `` · `` and a line broken
    only between parts, fitted to ``width`` columns. ``kinds``: each seat's computer player
    (``table`` or ``expert``), named beside each opponent unless every one is a table player."""
    others = [n for s, n in enumerate(names) if s != me]
    if kinds is not None and any(kinds[s] != "table" for s in range(len(names)) if s != me):
        others = [f"{n} ({KIND_WORDS[kinds[s]]})" for s, n in enumerate(names) if s != me]
    out = Text("Thirty-One: ", style="bold")
    if me is not None:
        out.append_text(name_text(names, me, me))
        out.append(" against ")
    out.append(", ".join(others))
    if preset is None:
        preset = preset_of(rules) or "standard"
    out.append("\n")
    pieces: list[Text] = []
    if preset != "standard":
        info = Rules.PRESET_INFO[preset]
        pieces.append(Text(f"{preset} table", style="bold").append(f", {info.document}"))
    pieces += [Text(rules.lives_summary()), Text(f"knock penalty {rules.knock_penalty}")]
    base = Rules.preset(preset)
    shown = ("seats", "lives", "knock_penalty", "county", "lives_mode", "life_names")
    changed = [
        f"{key}={_option_text(getattr(rules, key))}"
        for key in Rules.option_names()
        if key not in shown and getattr(base, key) != getattr(rules, key)
    ]
    if changed:
        pieces.append(Text(", ".join(changed)))
    if seed is not None:
        pieces.append(Text(f"seed {seed}", style="dim"))
    return out.append_text(packed(pieces, width))


def packed(pieces: Sequence[Text], width: int, sep: str = " · ") -> Text:
    """``pieces`` joined by ``sep``, with a line break in place of a separator where the next
    piece would pass ``width`` columns (a piece wider than a line wraps by itself)."""
    out, used = Text(), 0
    for i, piece in enumerate(pieces):
        n = piece.cell_len
        if i and used + len(sep) + n > width:
            out.append("\n")
            used = 0
        elif i:
            out.append(sep)
            used += len(sep)
        out.append_text(piece)
        used = width if used + n > width else used + n
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


#: The most rows of prose (the reason, the "Why" line) a turn shows unasked.
PROSE_ROWS = 3


class Layouts(NamedTuple):
    """The same advice in several layouts, the fullest first: the screen shows the fullest that
    fits the rows left and whose prose (``proses``, one per layout, None: none to count) takes
    at most :data:`PROSE_ROWS` rows (:func:`render_advice`)."""

    bodies: tuple[RenderableType, ...]
    proses: tuple[RenderableType | None, ...] = ()


def rows_of(console: Console, renderable: RenderableType) -> int:
    """How many rows ``renderable`` takes on ``console``."""
    return len(console.render_lines(renderable, console.options, pad=False))


def render_advice(
    advice: object, *, console: Console | None = None, room: int | None = None
) -> RenderableType | None:
    """The advisor's answer (the Oracle's, later) as something to print; None prints nothing.
    Of :class:`Layouts`, the fullest whose panel takes at most ``room`` rows of ``console``
    (the last when none does; the first without a ``room``)."""
    if advice is None:
        return None
    if isinstance(advice, Layouts):
        panels = [_advice_panel(body) for body in advice.bodies]
        if console is None or room is None:
            return panels[0]
        inner = console.options.update_width(max(1, console.width - 4))  # (the panel's edges)

        def short(prose: RenderableType | None) -> bool:
            return prose is None or len(console.render_lines(prose, inner, pad=False)) <= (
                PROSE_ROWS
            )

        proses = [*advice.proses, *[None] * len(panels)]
        fitting = (p for p, t in zip(panels, proses, strict=False) if short(t))
        return next((p for p in fitting if rows_of(console, p) <= room), panels[-1])
    if isinstance(advice, str | Text) or hasattr(advice, "__rich_console__"):
        body: Any = advice
    elif hasattr(advice, "__rich__"):
        body = advice
    else:
        body = Text(str(advice))
    return _advice_panel(body)


def _advice_panel(body: RenderableType) -> Panel:
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
        number = str(i + 1)
        if card == new and source == "pile":  # (no number: it may not be chosen)
            number = ""
            note = Text("taken from the pile: it may not go straight back", style="dim")
        else:
            rest = [c for c in cards if c != card]
            note = Text(f"leaves {fmt_score(hand_score(rest, rules))}", style="dim")
        table.add_row(number, card_text(card), note)
    return Group(head, Padding(table, (0, 0, 0, 2), expand=False))


_ENDINGS = {
    "dealt_31": "dealt 31",
    "thirty_one": "31 shown",
    "showdown": "knock showdown",
    "stock_out": "stock out",
    "blind": "blind showdown",
}


def round_headline(
    event: Event, names: Sequence[str], me: int | None, rules: Rules | None = None
) -> Text:
    """How a round ended, in one line, in the table's words."""
    r = rules or Rules.standard()
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
        out.append(
            f": the dealt hands are shown; the lowest {r.loses(1, article=True)}, "
            f"and {r.unit(2)} if it is the caller."
        )
    elif end == "dealt_31":
        dealt = data["dealt"]
        out.append("dealt 31", style="bold green")
        out.append(" — ")
        out.append_text(Text(" and ").join(_named(names, s, me, data, r) for s in dealt))
        # (Only those dealt it are safe: "all are safe" read as the whole table.)
        out.append(" showed it at once." if len(dealt) == 1 else " showed theirs: they are safe.")
    elif end == "thirty_one":
        score = hand_score(data["hands"][by], r) if by is not None else 31.0
        shown = fmt_score(score) if r.hand_name(score) else "31"  # (a Grand Cadillac: 33)
        out.append(f"{shown} shown", style="bold green")
        if by is not None:
            out.append(" by ")
            out.append_text(_named(names, by, me, data, r))
        out.append(f": everybody else {r.loses(1, article=True)}.")
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
            out.append(f": the lowest hand {r.loses(1, article=True)}.")
    else:
        if knocker is not None:
            out.append("showdown", style="bold")
            out.append(" after ")
            out.append_text(possessive(names, knocker, me))
            out.append(" knock.")
            for seat in data.get("shown_31", []):  # (a table where a 31 then goes on)
                whose = possessive(names, seat, me)
                out.append(" ")
                out.append_text(Text("Your", whose.style) if whose.plain == "your" else whose)
                # (In the words of the losses: a letter is taken under Gin lives; ruling 313.)
                out.append(f" 31 after it: everybody else {r.loses(1, article=True)}.")
        else:
            out.append(_ENDINGS.get(end, end), style="bold")
    return out


def _named(
    names: Sequence[str], seat: int, me: int | None, data: Mapping[str, Any], rules: Rules
) -> Text:
    """A player who showed 31 at a round's end, with the name the table gives the hand shown
    (``Cara (a Cadillac)``), if any."""
    out = name_text(names, seat, me)
    name = rules.hand_name(hand_score(data["hands"][seat], rules))
    return out.append(f" ({name})") if name else out


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
            result = Text(r.loses(lost), style=BAD_STYLE)
            if lives is not None:
                result.append(f" → {r.standing(lives[seat])}", style=BAD_STYLE)
        else:
            result = Text("safe", style="green")
        table.add_row(who, cards_text(hand), counted(data["scores"][seat], seat in hidden), result)
    parts: list[RenderableType] = [round_headline(event, names, me, r)]
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
    if points is not None:  # (the numbers right-aligned within it: "1 point" under "3 points")
        table.add_column()
        width = max(len(str(p)) for p in points.values())
    for place, seat in enumerate(order, start=1):
        row: list[RenderableType] = [ordinal(place), name_text(names, seat, me)]
        if points is not None:
            p = points.get(seat, 0)
            said = f"{p:>{width}} point" + ("" if p == 1 else "s")
            row.append(Text(said, style="" if p else "dim"))
        table.add_row(*row)
    head = Text("Game over. ", style="bold")
    head.append("Winner: ")
    head.append_text(name_text(names, winner, me))
    if winner == me:
        head.append(" — well played!", style="bold green")
    title = "Placing and points (ranked):" if points is not None else "Placing:"
    return Group(head, Text(title), Padding(table, (0, 0, 0, 2), expand=False))
