"""The Oracle's advice in the terminal: the in-game panel (in three layouts, the fullest that
fits the rows left on the screen), the table of options with their margins, the knock-score sweep
chart and the report of ``thirtyone oracle``.

Every cell of the options' tables is short and never wraps: the units are in the headers
(``safe``, ``±`` in percentage points, the unit lost, ``win game``, ``knock at``), and the plan
is a score, ``first``, ``never`` or ``31: show``.
"""

from __future__ import annotations

import io
import math
import re
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from thirtyone.oracle.rank import game_lead_within, named_for_game, percent_shown, two_places

if TYPE_CHECKING:
    from thirtyone.oracle.answer import Advice, OptionAdvice, Sweep

from thirtyone.oracle.words import (
    FIRST_PLAN,
    KEEPS_31,
    MAKES_31,
    counted,
    gist,
    later_plan,
    lives_matter,
    makes_31,
    pct,
    plan,
    safest,
)
from thirtyone.oracle.words import label as option_label
from thirtyone.terminal.display import (
    WARN_STYLE,
    Layouts,
    fmt_score,
)

__all__ = [
    "advice_layouts",
    "advice_panel_body",
    "advice_report",
    "advice_table",
    "later_plan",
    "option_label",
    "sweep_chart",
]

BEST_MARK = "★"
TIED_MARK = "≈"
_EIGHTHS = " ▏▎▍▌▋▊▉"
#: The label of a put-down or take that makes 31, in the knock-at column.
SHOW_31 = "31: show"


def bar(fraction: float, width: int) -> str:
    """A horizontal bar ``width`` characters wide at most, filled to ``fraction`` (0 to 1), in
    eighths of a character."""
    fraction = min(1.0, max(0.0, fraction)) if math.isfinite(fraction) else 0.0
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(width)


def lost(x: float) -> str:
    """The unit lost on average: ``0.48``."""
    return two_places(x)


def points(margin: float) -> str:
    """A margin in percentage points: ``±1.0``."""
    return f"±{percent_shown(margin)}"


def knock_at_text(option: OptionAdvice) -> str:
    """The later knock score of a swept option (``27``, ``never``, or ``first`` for the lowest
    score swept: knock at the first chance, whatever the hand); ``—`` when not swept."""
    if not option.swept:
        return "—"
    if later_plan(option) == FIRST_PLAN:
        return "first"
    if option.knock_at is None or option.knock_at >= 31:
        return "never"
    return fmt_score(option.knock_at)


def plan_cell(option: OptionAdvice, none: str = "") -> str:
    """The knock-at cell: ``31: show`` for an option that makes 31, the later knock score of a
    swept option, else ``none``."""
    if makes_31(option) or option.shows_hidden_31:
        return SHOW_31
    return knock_at_text(option) if option.swept else none


def ranked(advice: Advice) -> list[OptionAdvice]:
    """The options to show: the best first, then the others from the safest down (when every
    option is hopeless, in the Oracle's order: by what they cost, then by the hand kept)."""
    if all(o.p_safe <= 0.0 for o in advice.options):
        return list(advice.options)
    rest = sorted(advice.options[1:], key=lambda o: -o.p_safe)
    return [advice.options[0], *rest]


def _tied_names(advice: Advice) -> set[str]:
    return {o.option for o in advice.tied}


def _best_line(advice: Advice) -> Text:
    """``Best: draw (then knock at 22 or more) — tied with knock``; ``Best: put down 5D (it
    makes 31 — show it)``."""
    best = advice.best
    line = Text("Best: ", style="bold")
    line.append(option_label(best), style="bold green")
    then = plan(best)
    if then in (MAKES_31, KEEPS_31):  # (a 31 to show: "(it makes 31 — show it)", as the reason)
        line.append(" (")
        line.append(f"it {then}", style="bold green")
        line.append(")")
    elif then:
        line.append(f" (then {then})")
    if advice.tied:
        names = (
            option_label(advice.tied[0])
            if len(advice.tied) == 1
            else f"{len(advice.tied)} others ({TIED_MARK})"
        )
        line.append(f" — tied with {names}", style=WARN_STYLE)
    return line


def game_cell(advice: Advice, option: OptionAdvice) -> str:
    """The option's game-level figure: ``41.2%`` to win the game, or ``1.62`` points."""
    if option.p_win is None:
        return ""
    return two_places(option.p_win) if advice.points else pct(option.p_win)


def game_header(advice: Advice) -> str:
    return "points" if advice.points else "win game"


def game_named(advice: Advice) -> OptionAdvice | None:
    """The option named best for the game (:func:`~thirtyone.oracle.rank.named_for_game`, the
    page's rule too): only when it is not the best and its figure is higher than the best's as
    shown."""
    return named_for_game(advice.best, advice.best_game, advice.points)


def _game_line(advice: Advice) -> Text | None:
    """``Best for the game: draw (27.5% against 27.4%, within ±0.5)`` when it is not the
    round's best."""
    g = game_named(advice)
    if g is None:
        return None
    line = Text("Best for the game: ", style="bold")
    line.append(option_label(g), style="bold cyan")
    unit = " points" if advice.points else ""
    figures = f"{game_cell(advice, g)} against {game_cell(advice, advice.best)}{unit}"
    margin = g.p_win_margin or 0.0
    if game_lead_within(advice.best, g):
        figures += (
            f", within ±{two_places(margin)}" if advice.points else f", within {points(margin)}"
        )
    line.append(f" ({figures})")
    return line


def lost_matters(advice: Advice) -> bool:
    """Whether the lives-lost column is shown (:func:`thirtyone.oracle.words.lives_matter`)."""
    return lives_matter(advice)


def options_rows(advice: Advice) -> Table:
    """One line per option (best first): its mark, a short label, percentage safe, margin, the
    unit lost when it changes the picture, the game-level figure, and the later knock score.
    No cell wraps."""
    tied = _tied_names(advice)
    show_lost = lost_matters(advice)
    rows = Table(box=None, show_header=True, padding=(0, 1), pad_edge=False)
    rows.add_column("", width=1, no_wrap=True)
    rows.add_column("", header_style="dim", no_wrap=True, overflow="ellipsis")
    rows.add_column("safe", justify="right", header_style="dim", no_wrap=True)
    rows.add_column("±", justify="right", header_style="dim", no_wrap=True)
    if show_lost:
        rows.add_column(f"{advice.unit} lost", justify="right", header_style="dim", no_wrap=True)
    game = advice.best_game is not None
    if game:
        rows.add_column(game_header(advice), justify="right", header_style="dim", no_wrap=True)
    shown = ranked(advice)
    plans = any(plan_cell(o) for o in shown)
    if plans:
        rows.add_column("knock at", justify="right", header_style="dim", no_wrap=True)
    for i, o in enumerate(shown):
        mark = BEST_MARK if i == 0 else TIED_MARK if o.option in tied else ""
        cells: list[RenderableType] = [
            mark,
            Text(option_label(o), style="bold" if i == 0 else ""),
            pct(o.p_safe),
            points(o.margin),
        ]
        if show_lost:
            cells.append(lost(o.lives_lost))
        if game:
            cells.append(game_cell(advice, o))
        if plans:
            cells.append(plan_cell(o))
        rows.add_row(*cells)
    return rows


#: Where a note cut to one line may end: after a clause (the cut ends with …).
_CLAUSE_END = re.compile(r"(?=[:;,] | \(| —)")


def short_note(text: str, width: int) -> str:
    """``text`` in ``width`` columns at most: whole, else cut after its last clause that fits
    (``Note: the chance … is not computed yet…``), else cut with … inside a word."""
    if len(text) <= width:
        return text
    ends = [m.start() for m in _CLAUSE_END.finditer(text) if m.start() + 1 <= width]
    if ends and ends[-1] >= width // 2:
        return text[: ends[-1]] + "…"
    return text[: max(0, width - 1)] + "…"


class OneLineNote:
    """A note on one line of whatever width it is given (:func:`short_note`); the advice in
    full (``a``) gives it whole."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = short_note(self.text, options.max_width)
        yield Text(line, style="dim yellow", no_wrap=True, overflow="ellipsis")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, min(len(self.text), options.max_width))


def cut_line(text: str, width: int) -> str:
    """``text`` in ``width`` columns at most: whole, else cut after its last clause that fits
    (when that keeps at least half of the width), else after its last whole word, with ``…``;
    a word is cut only when not even the first one fits."""
    if len(text) <= width:
        return text
    ends = [m.start() for m in _CLAUSE_END.finditer(text) if m.start() + 1 <= width]
    if ends and ends[-1] >= width // 2:
        return text[: ends[-1]] + "…"
    space = text.rfind(" ", 0, max(0, width - 1) + 1)
    if space > 0:
        return text[:space].rstrip(" ,;:") + "…"
    return text[: max(0, width - 1)] + "…"


class OneLineReason:
    """The reason in one line of whatever width it is given (:func:`cut_line`): alone, or after
    ``head`` (the best option's line, on the smallest screens)."""

    SEP = " — "

    def __init__(self, reason: str, head: Text | None = None) -> None:
        # (After the head and its dash the reason goes on as the line's clause: "Best: draw —
        # tied on safety with knock; …".)
        self.reason = reason if head is None else reason[:1].lower() + reason[1:]
        self.head = head

    def _line(self, width: int) -> Text:
        if self.head is None:
            return Text(cut_line(self.reason, width))
        line = self.head.copy()
        room = width - len(line.plain) - len(self.SEP)
        if room > 0:
            line.append(self.SEP + cut_line(self.reason, room))
        return line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._line(options.max_width).copy()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = len(self._line(10**6).plain)
        return Measurement(1, min(whole, options.max_width))


def _notes(advice: Advice, one_line: bool) -> list[RenderableType]:
    """The warnings, each on one line when ``one_line`` (cut after a clause)."""
    if one_line:
        return [OneLineNote(f"Note: {warning}") for warning in advice.warnings]
    return [
        Text(f"Note: {warning}", style="dim yellow", overflow="fold") for warning in advice.warnings
    ]


def advice_panel_body(advice: Advice, why: RenderableType | None = None) -> RenderableType:
    """The advice in full, for the game's Advice panel: the best option, the best for the game
    when it differs, the reason (and ``why``, the line drawn from the consistent deals), then
    the options' table and the warnings."""
    parts: list[RenderableType] = [_best_line(advice)]
    if (line := _game_line(advice)) is not None:
        parts.append(line)
    parts.append(Text(advice.reason))
    if why is not None:
        parts.append(why)
    parts.append(options_rows(advice))
    return Group(*parts, *_notes(advice, one_line=False))


def advice_compact(advice: Advice, *, gist_line: bool = True) -> RenderableType:
    """The advice on a small screen: the best option, the best for the game when it differs,
    the reason in one line (:func:`~thirtyone.oracle.words.gist`, cut after a clause or a word
    when it is wider), the options' table and the warnings, one line each. With
    ``gist_line=False`` (the smallest screens) the reason goes on the best option's line, after
    the option alone (the plan is in the table, the ties in its marks). The full reason is on
    ``a``, the read of the opponents on ``r``."""
    if gist_line:
        parts: list[RenderableType] = [_best_line(advice)]
    else:
        head = Text("Best: ", style="bold")
        head.append(option_label(advice.best), style="bold green")
        parts = [OneLineReason(gist(advice), head)]
    if (line := _game_line(advice)) is not None:
        parts.append(line)
    if gist_line:
        parts.append(OneLineReason(gist(advice)))
    parts.append(options_rows(advice))
    return Group(*parts, *_notes(advice, one_line=True))


def advice_layouts(advice: Advice, why: RenderableType | None = None) -> Layouts:
    """The advice in its three layouts, the fullest first: in full (its prose counted: the
    game's line, the reason and ``why``), compact, and the smallest: the best option and the
    reason on one line, with the options' table."""
    game = _game_line(advice)
    prose = Group(*([game] if game else []), Text(advice.reason), *([why] if why else []))
    return Layouts(
        (
            advice_panel_body(advice, why),
            advice_compact(advice),
            advice_compact(advice, gist_line=False),
        ),
        (prose, None, None),
    )


def advice_table(advice: Advice, *, bar_width: int = 20) -> Table:
    """Every option, best first: percentage safe, margin, lives lost, later knock score, a bar
    (none when ``bar_width`` is 0). Where the table is wider than the screen, an option's label
    breaks between its words, then a figure's heading ("Lives lost" over two lines): the figures
    and the marks are never cut (a figure is one word: its column is never narrower)."""
    tied = _tied_names(advice)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("Option", min_width=5)
    for head in ("Safe", "Margin", f"{advice.unit.capitalize()} lost", "Knock at"):
        table.add_column(head, justify="right")
    game = advice.best_game is not None
    if game:
        table.add_column(game_header(advice).capitalize(), justify="right")
    if bar_width:
        table.add_column("", no_wrap=True)
    for i, o in enumerate(ranked(advice)):
        best = i == 0
        mark = BEST_MARK if best else TIED_MARK if o.option in tied else ""
        style = "green" if best else "yellow" if o.option in tied else "blue"
        cells: list[RenderableType] = [
            mark,
            Text(option_label(o), style="bold" if best else ""),
            pct(o.p_safe),
            points(o.margin),
            lost(o.lives_lost),
            plan_cell(o, none="—"),
        ]
        if game:
            cells.append(game_cell(advice, o))
        if bar_width:
            cells.append(Text(bar(o.p_safe, bar_width), style=style))
        table.add_row(*cells)
    return table


def _sweep_rows(sweep: Sweep) -> list[tuple[str, float, float, list[float | None]]]:
    """The sweep's knock scores grouped where the figures are equal: (label, p_safe, lives lost,
    the scores in the group; None = never). A score of 31 or more is left out: no knock is
    made with it (such a hand is shown at once), so it is never."""
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
        if k >= 31:
            continue
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


def sweep_chart(
    option: OptionAdvice, playouts: int, *, bar_width: int = 30, unit: str = "lives"
) -> RenderableType:
    """The sweep of a swept option as a bar chart: percentage safe by the score at which you
    knock on a later turn (equal neighbours grouped), the kept score marked, and the ``unit``
    lost on average (``Letters`` under Gin lives, as the options' table heads it). The bars run
    from a round percentage just below the lowest figure (the axis in the header), so that
    differences show."""
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
    table.add_column(unit.capitalize(), justify="right", header_style="dim")
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
        f"The kept choice was played {counted(playouts, 'more time')} to confirm it: "
        f"{pct(option.p_safe)} safe, the figure above (a sweep's best is biased upward).",
        style="dim",
    )
    return Group(head, Padding(table, (0, 0, 0, 2), expand=False), foot)


def advice_report(advice: Advice, *, sweeps: str = "best", width: int = 80) -> Group:
    """``thirtyone oracle``'s report: the best option and the reason, the table of options, the
    ties, the warnings, and the sweep chart (``sweeps``: ``best`` = the best swept option,
    ``all``, or ``none``), fitted to ``width`` columns."""
    # The bar takes what the other columns leave (it is measured with a bar of one), and is
    # left out where fewer than 6 columns are left: a bar squeezed in cut the figures ("96.…")
    # and the ★ off a terminal of 77 columns or fewer.
    probe = Console(width=1000, file=io.StringIO())
    fixed = Measurement.get(probe, probe.options, advice_table(advice, bar_width=1)).maximum - 1
    bar_width = min(24, width - fixed) if width - fixed >= 6 else 0
    parts: list[RenderableType] = []
    head = Text("The Oracle", style="bold magenta")
    head.append(
        f" · {counted(advice.deals, 'consistent deal')} · "
        f"{counted(advice.playouts, 'playout')} per option",
        style="dim",
    )
    parts += [head, Text(""), _best_line(advice)]
    if (line := _game_line(advice)) is not None:
        parts.append(line)
    parts += [Text(advice.reason), Text("")]
    parts.append(advice_table(advice, bar_width=bar_width))
    if advice.tied:
        names = ", ".join(option_label(o) for o in advice.tied)
        margin = safest(advice.best, advice.tied).margin
        line = Text(f"{TIED_MARK} Statistically tied with the best: ", style=WARN_STYLE)
        line.append(names, style="bold")
        line.append(f" (within the margin of {points(margin)} percentage points).")
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
        chart_width = max(10, min(30, width - 40))
        parts.append(sweep_chart(option, advice.playouts, bar_width=chart_width, unit=advice.unit))
    return Group(*parts)
