"""``thirtyone tournament --plot FILE``: the win rates as a PNG.

One point per player of the list (as the table's rows: ``oracle #1``, ``table #2``, …) with its
95% Wilson interval, and the fair share (one game in the number of seats) as a dashed line.
matplotlib is optional (the ``plot`` extra: ``pip install 'thirtyone[plot]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from thirtyone import paths
from thirtyone.errors import ThirtyOneError
from thirtyone.study.tournament import Settings, Tally

INSTALL = "pip install 'thirtyone[plot]'"


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ThirtyOneError(f"--plot needs matplotlib: {INSTALL}") from None
    return plt


def check(path: Path) -> None:
    """Raise :class:`~thirtyone.errors.ThirtyOneError`, before a long run, when matplotlib is
    missing or the PNG cannot be written at ``path`` (:func:`thirtyone.paths.problem`: a folder
    there, no such folder, a file on the way, a folder that cannot be written, a name too long).
    A file already there is replaced."""
    _pyplot()
    where = paths.short(path)
    if paths.is_folder(path):
        example = paths.short(path / "wins.png")
        raise ThirtyOneError(f"--plot {where} is a folder: name a file, e.g. {example}")
    if why := paths.problem(path, create_folder=False):
        raise ThirtyOneError(f"--plot {where}: {why}")


def save(
    settings: Settings, tallies: Sequence[Tally], path: Path, played: int | None = None
) -> None:
    """Write the plot of ``tallies`` to ``path`` (PNG; ``played``: the games of a stopped
    run). Raises :class:`~thirtyone.errors.ThirtyOneError` when matplotlib is missing or the
    file cannot be written."""
    plt = _pyplot()
    labels = [f"{t.player} #{t.position}" for t in tallies]
    rates = [100 * t.win_rate for t in tallies]
    below = [100 * (t.win_rate - t.ci[0]) for t in tallies]
    above = [100 * (t.ci[1] - t.win_rate) for t in tallies]
    fair = 100 / len(settings.players)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(tallies) + 2), 4.5))
    xs = list(range(len(tallies)))
    ax.errorbar(xs, rates, yerr=[below, above], fmt="o", capsize=6, label="wins (95% CI)")
    ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"fair share {fair:.1f}%")
    ax.set_xticks(xs, labels)
    ax.set_xlim(-0.5, len(tallies) - 0.5)
    ax.set_ylim(0, 100)
    ax.set_ylabel("games won (%)")
    games = f"{settings.games:,}" if played is None else f"{played:,} of {settings.games:,}"
    ax.set_title(
        f"{games} games, {len(settings.players)} seats ({settings.preset}), seed {settings.seed}"
    )
    ax.legend(loc="upper right")
    fig.tight_layout()
    try:
        fig.savefig(path, format="png", dpi=110)
    except OSError as err:
        why = paths.why(err, path)
        raise ThirtyOneError(f"--plot {paths.short(path)} cannot be written: {why}") from None
    finally:
        plt.close(fig)
