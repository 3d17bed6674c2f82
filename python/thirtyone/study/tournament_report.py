"""The tournament's results as a table for the terminal (``thirtyone tournament``): the settings
in a few lines, then one line a player, in 80 columns where the players' names allow."""

from __future__ import annotations

import textwrap

from thirtyone.oracle.player import EXPERT_DEALS, EXPERT_PLAYOUTS
from thirtyone.statistics import percent_interval
from thirtyone.study.tournament import ORACLE_KINDS, Settings, Tally, parse_kind, split_read

#: The width the report keeps to: an 80-column terminal's.
REPORT_WIDTH = 80


def _num(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def budgets(settings: Settings) -> list[str]:
    """The Oracle's budget of each kind of player at the table that asks it: ``oracle at 1,000
    deals / 2,000 playouts`` (``oracle``, ``oracle-game``: ``--deals``/``--playouts``) and
    ``expert at 300 deals / 1,000 playouts``; none when nobody asks it (table and noisy
    players)."""
    kinds = {parse_kind(split_read(p)[0])[0] for p in settings.players}
    found = []
    if kinds & {"oracle", "oracle-game"}:
        found.append(f"oracle at {settings.deals:,} deals / {settings.playouts:,} playouts")
    if "expert" in kinds:
        found.append(f"expert at {EXPERT_DEALS:,} deals / {EXPERT_PLAYOUTS:,} playouts")
    return found


def read_as_words(settings: Settings) -> str:
    """The header's ``opponents read as person; `` (none without ``--read-as``): ``by those
    without @`` when some players read by a model of their own, which ``--read-as`` does not
    change, and ``as each @ says`` when every Oracle player does."""
    if settings.read_as is None:
        return ""
    own = [split_read(p) for p in settings.players]
    marked = [reads for kind, reads in own if reads is not None]
    if not marked:
        return f"opponents read as {settings.read_as}; "
    if all(reads is not None for kind, reads in own if kind in ORACLE_KINDS):
        return "opponents read as each @ says; "
    return f"opponents read as {settings.read_as} by those without @; "


def report(settings: Settings, tallies: list[Tally], played: int | None = None) -> str:
    """The table of results, one line a player (``played``: the games of a stopped run), in
    80 columns where the players' names allow: the settings wrapped between words, each
    column as wide as its widest entry, two spaces between (one where two would not fit)."""
    games = f"{settings.games:,}" if played is None else f"{played:,} of {settings.games:,}"
    games += " game" if settings.games == 1 else " games"
    head = (
        f"{games}, {len(settings.players)} seats ({settings.preset}), seats rotated; "
        + "".join(f"{budget}; " for budget in budgets(settings))
        + read_as_words(settings)
        + f"seed {settings.seed}"
    )
    rows = [
        [
            f"{t.player} #{t.position}",
            f"{t.wins:,}",
            f"{t.win_rate:.1%} {percent_interval(*t.ci)}",
            _num(t.mean_place, ".2f"),
            _num(t.lives_per_round, ".3f"),
            f"{t.knocks:,}",
            _num(t.caught_rate, ".1%"),
        ]
        for t in tallies
    ]
    cols = ["player", "wins", "win rate (95% CI)", "place", "lives/round", "knocks", "caught"]
    widths = [max(len(row[k]) for row in [cols, *rows]) for k in range(len(cols))]
    gap = "  " if sum(widths) + 2 * (len(cols) - 1) <= REPORT_WIDTH else " "

    def line(row: list[str]) -> str:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)]
        return gap.join(cells)

    return "\n".join([*settings_lines(head), "", line(cols), *map(line, rows)])


def settings_lines(head: str) -> list[str]:
    """The settings in lines of at most 80 columns, broken after a "; " where they can be, and
    between words within a part too long for a line of its own."""
    lines: list[str] = []
    for part in head.split("; "):
        joined = f"{lines[-1]}; {part}" if lines else part
        if lines and len(joined) <= REPORT_WIDTH:
            lines[-1] = joined
            continue
        if lines:
            lines[-1] += ";"
        lines += textwrap.wrap(part, REPORT_WIDTH, break_long_words=False, break_on_hyphens=False)
    return lines
