"""The Oracle's advice in the terminal: the in-game panel, the table of options with their
margins, the knock-score sweep chart and the report of ``thirtyone oracle``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from thirtyone.oracle.answer import Kind

if TYPE_CHECKING:
    from thirtyone.oracle.answer import Advice, OptionAdvice, Sweep

from thirtyone.oracle.words import FIRST_PLAN, later_plan, plan
from thirtyone.terminal.display import (
    WARN_STYLE,
    fmt_score,
)

__all__ = ["advice_panel_body", "advice_report", "advice_table", "later_plan", "sweep_chart"]

BEST_MARK = "★"
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


def lost(x: float) -> str:
    """The unit lost on average: ``0.48``."""
    return f"{x:.2f}"


def points(margin: float) -> str:
    """A margin in percentage points: ``±1.0``."""
    return f"±{100 * margin:.1f}"


def option_label(option: OptionAdvice) -> str:
    """An option in a few words: ``knock``, ``draw``, ``take QC, put down 4H``, ``put down 9C``."""
    if option.kind is Kind.TAKE:
        return f"take {option.card}, put down {option.discard}"
    if option.kind is Kind.PUT_DOWN:
        return f"put down {option.discard}"
    return option.option


def knock_at_text(option: OptionAdvice) -> str:
    """The later knock score of a swept option (``27``, ``never``, or ``first`` for the lowest
    score swept: knock at the first chance, whatever the hand); ``—`` when not swept."""
    if not option.swept:
        return "—"
    if option.knock_at is None:
        return "never"
    if later_plan(option) == FIRST_PLAN:
        return "first"
    return fmt_score(option.knock_at)


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
    best = advice.best
    line = Text("Best: ", style="bold")
    line.append(option_label(best), style="bold green")
    then = plan(best)
    if then == later_plan(best):
        line.append(f" (then {then})")
    elif then:
        line.append(f": {then}", style="bold green")
    if advice.tied:
        line.append(" — statistically tied with ", style=WARN_STYLE)
        line.append(", ".join(option_label(o) for o in advice.tied), style=WARN_STYLE)
    return line


def game_cell(advice: Advice, option: OptionAdvice) -> str:
    """The option's game-level figure: ``41.2%`` to win the game, or ``1.62`` points."""
    if option.p_win is None:
        return ""
    return f"{option.p_win:.2f}" if advice.points else pct(option.p_win)


def game_header(advice: Advice) -> str:
    return "points" if advice.points else "win game"


def _game_line(advice: Advice) -> Text | None:
    """``Best for the game: draw (wins the game 41.2% of the time)`` when it is not the round's
    best."""
    g = advice.best_game
    if g is None or g.option == advice.best.option:
        return None
    line = Text("Best for the game: ", style="bold")
    line.append(option_label(g), style="bold cyan")
    figure = f"{g.p_win:.2f} points" if advice.points else f"wins the game {pct(g.p_win or 0)}"
    line.append(f" ({figure}, against {game_cell(advice, advice.best)} for the round's best)")
    return line


def lost_matters(advice: Advice) -> bool:
    """Whether the unit lost changes the picture: every option is hopeless, or a safer option
    costs more on average than a less safe one, by more than the margin of that difference."""
    shown = ranked(advice)
    if all(o.p_safe <= 0.0 for o in shown):
        return True
    return any(
        a.p_safe > b.p_safe
        and a.lives_lost - b.lives_lost > a.lives_lost_margin + b.lives_lost_margin
        for a in shown
        for b in shown
    )


def advice_panel_body(advice: Advice, why: RenderableType | None = None) -> RenderableType:
    """The advice in the game's Advice panel: the best option and the reason (and ``why``, the
    line drawn from the consistent deals), then one line per option (best first) with its
    percentage safe, margin, the unit lost when it changes the picture, and what follows."""
    tied = _tied_names(advice)
    show_lost = lost_matters(advice)
    rows = Table(box=None, show_header=True, padding=(0, 1), pad_edge=False)
    rows.add_column("", width=1)
    rows.add_column("", header_style="dim")
    rows.add_column("safe", justify="right", header_style="dim")
    rows.add_column("±", justify="right", header_style="dim")
    if show_lost:
        rows.add_column(f"{advice.unit} lost", justify="right", header_style="dim")
    game = advice.best_game is not None
    if game:
        rows.add_column(game_header(advice), justify="right", header_style="dim")
    rows.add_column("", style="dim")
    for i, o in enumerate(ranked(advice)):
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
        cells.append(plan(o))
        rows.add_row(*cells)
    parts: list[RenderableType] = [_best_line(advice)]
    if (line := _game_line(advice)) is not None:
        parts.append(line)
    parts.append(Text(advice.reason))
    if why is not None:
        parts.append(why)
    parts.append(rows)
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
    game = advice.best_game is not None
    if game:
        table.add_column(game_header(advice).capitalize(), justify="right")
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
            "31 — show" if plan(o).startswith("makes 31") else knock_at_text(o),
        ]
        if game:
            cells.append(game_cell(advice, o))
        cells.append(Text(bar(o.p_safe, bar_width), style=style))
        table.add_row(*cells)
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
    # The columns beside the label and the bar take 42, and the game's column 9 more.
    fixed = 42 + (9 if advice.best_game is not None else 0)
    bar_width = max(6, min(24, width - fixed - labels))
    parts: list[RenderableType] = []
    head = Text("The Oracle", style="bold magenta")
    head.append(
        f" · {advice.deals:,} consistent deals · {advice.playouts:,} playouts per option",
        style="dim",
    )
    parts += [head, Text(""), _best_line(advice)]
    if (line := _game_line(advice)) is not None:
        parts.append(line)
    parts += [Text(advice.reason), Text("")]
    parts.append(advice_table(advice, bar_width=bar_width))
    if advice.tied:
        names = ", ".join(option_label(o) for o in advice.tied)
        line = Text(f"{TIED_MARK} Statistically tied with the best: ", style=WARN_STYLE)
        line.append(names, style="bold")
        line.append(f" (within the margin of {points(advice.best.margin)} percentage points).")
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
