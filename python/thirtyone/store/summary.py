"""What the record of games says: games and wins (with a 95% Wilson interval), by preset, by
opponents and by who played your seat, the mean place, and how your decisions agree with the
Oracle and what they cost; as text (``thirtyone stats``), as JSON (``--json``) and as the
lines shown at the end of a game.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from thirtyone import statistics as stats
from thirtyone.oracle.rank import percent_shown
from thirtyone.oracle.words import points_word
from thirtyone.store import record
from thirtyone.store.record import Decision, GameRecord


@dataclass
class Tally:
    """The games of one group: how many, won, and the sum of places."""

    label: str
    games: int = 0
    wins: int = 0
    places: int = 0

    def add(self, game: GameRecord) -> None:
        self.games += 1
        self.wins += game.place == 1
        self.places += game.place

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def ci(self) -> tuple[float, float]:
        return stats.wilson(self.wins, self.games)

    @property
    def mean_place(self) -> float | None:
        return self.places / self.games if self.games else None

    def to_dict(self, key: str) -> dict[str, Any]:
        return {
            key: self.label,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci": list(self.ci) if self.games else None,  # (nothing to count: null)
            "mean_place": self.mean_place,
        }


@dataclass
class Agreement:
    """Decisions set against the Oracle's advice: all of them, those with advice, those that
    played its best, and the costs (over the decisions whose cost is known). The cost for the
    game is in ``p_win`` where the winner takes all, and in expected points under ranked
    placing (``cost_points``), kept apart: a point is not a chance."""

    decisions: int = 0
    advised: int = 0
    agreed: int = 0
    costs_p_safe: int = 0
    cost_p_safe: float = 0.0
    costs_p_win: int = 0
    cost_p_win: float = 0.0
    costs_points: int = 0
    cost_points: float = 0.0

    def add(self, d: Decision, ranked: bool = False) -> None:
        self.decisions += 1
        if d.best is None:
            return
        self.advised += 1
        self.agreed += record.agrees(d.played, d.best)  # (no margins kept: ★ alone)
        if d.cost_p_safe is not None:
            self.costs_p_safe += 1
            self.cost_p_safe += d.cost_p_safe
        if d.cost_p_win is not None and ranked:
            self.costs_points += 1
            self.cost_points += d.cost_p_win
        elif d.cost_p_win is not None:
            self.costs_p_win += 1
            self.cost_p_win += d.cost_p_win

    @property
    def agreement(self) -> float | None:
        return self.agreed / self.advised if self.advised else None

    @property
    def mean_cost_p_safe(self) -> float | None:
        return self.cost_p_safe / self.costs_p_safe if self.costs_p_safe else None

    @property
    def mean_cost_p_win(self) -> float | None:
        return self.cost_p_win / self.costs_p_win if self.costs_p_win else None

    @property
    def mean_cost_points(self) -> float | None:
        return self.cost_points / self.costs_points if self.costs_points else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "advised": self.advised,
            "agreed": self.agreed,
            "agreement": self.agreement,
            "mean_cost_p_safe": self.mean_cost_p_safe,
            "with_p_win": self.costs_p_win,
            "mean_cost_p_win": self.mean_cost_p_win,
            "with_points": self.costs_points,
            "mean_cost_points": self.mean_cost_points,
        }


def _groups(games: Iterable[GameRecord], key: Callable[[GameRecord], str]) -> list[Tally]:
    """A tally per value of ``key``, the most played first."""
    found: dict[str, Tally] = {}
    for g in games:
        label = key(g)
        found.setdefault(label, Tally(label)).add(g)
    return sorted(found.values(), key=lambda t: (-t.games, t.label))


def _agreement(games: Iterable[GameRecord]) -> Agreement:
    out = Agreement()
    for g in games:
        for d in g.decisions:
            out.add(d, ranked=g.points is not None)
    return out


def _played_by(game: GameRecord) -> str:
    return "autoplay" if game.autoplay else "you"


def summary(games: Sequence[GameRecord], path: Path, skipped: int = 0) -> dict[str, Any]:
    """The JSON of ``thirtyone stats --json`` (every number finite; an undefined one is null);
    ``skipped``: the rows of the record that did not read as a game."""
    total = Tally("all")
    for g in games:
        total.add(g)
    return {
        "record": str(path),
        "skipped": skipped,
        **{k: v for k, v in total.to_dict("group").items() if k != "group"},
        "by_preset": [t.to_dict("preset") for t in _groups(games, lambda g: g.preset)],
        "by_opponents": [t.to_dict("opponents") for t in _groups(games, lambda g: g.opponents)],
        "by_played_by": [t.to_dict("played_by") for t in _groups(games, _played_by)],
        "decisions": {
            "you": _agreement(g for g in games if not g.autoplay).to_dict(),
            "autoplay": _agreement(g for g in games if g.autoplay).to_dict(),
        },
        "first": games[0].finished if games else None,
        "last": games[-1].finished if games else None,
        "history": [_history_entry(g) for g in games],
    }


def to_text(summary: dict[str, Any]) -> str:
    """The JSON text of ``thirtyone stats --json`` (without the final newline), which the
    stats page's ``GET /api/stats`` sends too."""
    return json.dumps(summary, indent=2, allow_nan=False, ensure_ascii=False)


def _history_entry(game: GameRecord) -> dict[str, Any]:
    """One game of the record in the order played, for a chart of results over time."""
    return {
        "finished": game.finished,
        "preset": game.preset,
        "opponents": game.opponents,
        "played_by": _played_by(game),
        "seats": game.seats,
        "place": game.place,
        "won": game.place == 1,
    }


def _pct(x: float | None) -> str:
    """A share as every screen shows it (the Stats page too): ``61.8%``."""
    return "-" if x is None else f"{percent_shown(x)}%"


#: The width of a win rate with its interval at its widest, ``100.0% (100.0\u2013100.0)``.
RATE_WIDTH = 20


def _row(label: str, t: Tally) -> str:
    """A row of the table; the win rate with its interval as the tournament's table and the
    knock atlas write them, ``50.0% (15.0\u201385.0)`` (ruling 352)."""
    rate = f"{_pct(t.win_rate)} {stats.percent_interval(*t.ci)}"
    place = "-" if t.mean_place is None else f"{t.mean_place:.2f}"
    return f"{label:<22} {t.games:>6,} {t.wins:>6,} {rate:>{RATE_WIDTH}} {place:>11}"


def _when(game: GameRecord) -> str:
    """``2025-01-31 18:04`` from the ISO 8601 time the game finished."""
    return game.finished[:16].replace("T", " ")


def _wrapped(text: str, width: int | None) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken between words (a word longer than
    a line, such as a long path, stands whole on its own); one line when ``width`` is None."""
    if width is None:
        return [text]
    return textwrap.wrap(text, max(width, 20), break_long_words=False, break_on_hyphens=False)


def report(games: Sequence[GameRecord], path: Path, width: int | None = None) -> str:
    """The text of ``thirtyone stats`` (``games`` not empty); its sentences wrapped between
    words at ``width`` columns (the table's rows are not: they are shorter than 80)."""
    total = Tally("all")
    for g in games:
        total.add(g)
    # (Each time kept on one line: a no-break space, put back after wrapping.)
    first, last = (_when(g).replace(" ", "\xa0") for g in (games[0], games[-1]))
    head = f"Record of games: {path} ({first} to {last}\xa0UTC)"
    lines = [
        *(line.replace("\xa0", " ") for line in _wrapped(head, width)),
        "",
        f"{'':<22} {'games':>6} {'wins':>6} {'win rate (95% CI)':>{RATE_WIDTH}} {'mean place':>11}",
        # (With autoplayed games the first row says it holds them: the record at a game's end,
        # "Your record", is the row of the games played by you.)
        _row("all (you and autoplay)" if any(g.autoplay for g in games) else "all", total),
    ]
    for word, key in (
        ("played by", _played_by),
        ("preset", lambda g: g.preset),
        ("opponents", lambda g: g.opponents),
    ):
        # (Yours before the autoplayed: stable, the most played first otherwise.)
        tallies = sorted(_groups(games, key), key=lambda t: t.label != "you")
        lines += [_row(f"{word} {t.label}", t) for t in tallies]
    lines.append("")
    yours = _agreement(g for g in games if not g.autoplay)
    lines += _wrapped(decisions_line("Your decisions", yours), width)
    if yours.advised:
        lines += _wrapped(f"({record.STAR_ONLY[0].upper()}{record.STAR_ONLY[1:]}.)", width)
    autoplayed = _agreement(g for g in games if g.autoplay)
    if autoplayed.decisions:
        head = "Decisions of your seat played by the table's rule"
        lines += _wrapped(decisions_line(head, autoplayed), width)
    return "\n".join(lines)


#: What a decision is, said wherever decisions are counted (``thirtyone review`` counts the same).
DECISION = "a turn's start and, after a draw or take, the put-down"


def _points(cost: float, ranked: bool = False) -> str:
    """A cost in percentage points: ``2.9 points``; ``ranked``: beside ranked points (a cost in
    expected points, a game placed ranked), ``2.9 percentage points`` (ruling 358)."""
    return f"{100 * cost:.1f} {points_word(ranked)}"


def decisions_line(head: str, a: Agreement) -> str:
    """``Your decisions (a turn's start and, after a draw or take, the put-down): 240; the
    Oracle's advice was computed for 200: its best played in 160 (80.0%), mean cost 2.1 points
    of p_safe, 1.3 points of p_win (over 120).``"""
    head = f"{head} ({DECISION})"
    if not a.advised:
        return f"{head}: {a.decisions:,}; the Oracle's advice was computed for none of them."
    text = (
        f"{head}: {a.decisions:,}; the Oracle's advice was computed for {a.advised:,}: its best "
        f"played in {a.agreed:,} ({_pct(a.agreement)})"
    )
    ranked = a.mean_cost_points is not None  # (said beside it: the others in percentage points)
    if a.mean_cost_p_safe is not None:
        text += f", mean cost {_points(a.mean_cost_p_safe, ranked)} of p_safe"
    if a.mean_cost_p_win is not None:
        text += f", {_points(a.mean_cost_p_win, ranked)} of p_win (over {a.costs_p_win:,})"
    if a.mean_cost_points is not None:
        text += (
            f", {a.mean_cost_points:.2f} expected points under ranked placing "
            f"(over {a.costs_points:,})"
        )
    return text + "."


def record_lines(
    games: Sequence[GameRecord], more: str = "thirtyone stats", ranked: bool = False
) -> list[str]:
    """One or two lines for the end of a game: your record over the games you played yourself
    (not autoplayed), and your agreement with the Oracle when it advised you (costs in
    percentage points, as ``thirtyone review`` and ``thirtyone stats`` give them). ``more``:
    where the player finds the rest (the command in the terminal, the Stats page in the
    browser); ``ranked``: said after a game placed ranked, its points listed above (the cost
    then in "percentage points")."""
    mine = [g for g in games if not g.autoplay]
    if not mine:
        return []
    t = Tally("you")
    for g in mine:
        t.add(g)
    lo, hi = t.ci
    lines = [
        f"Your record: {t.games:,} game{'s' if t.games != 1 else ''}, {t.wins:,} won "
        f"({_pct(t.win_rate)}, 95% CI {stats.percent_range(lo, hi)}), "
        f"mean place {t.mean_place:.2f} ({more} tells more)."
    ]
    a = _agreement(mine)
    if a.advised:
        # (In the words of the advice's "safe" column: a player need not know the field's name.)
        cost = (
            ""
            if a.mean_cost_p_safe is None
            else f", mean cost {_points(a.mean_cost_p_safe, ranked)} of your chance of losing "
            "nothing in the round (p_safe)"
        )
        # (Over the record, not this game alone: said so when it holds more than this one,
        # which its review counts alone; ruling 310.)
        who = f"Over your {t.games:,} games, you" if t.games > 1 else "You"
        lines.append(
            f"{who} played the Oracle's best in {a.agreed:,} of {a.advised:,} advised decisions "
            f"({_pct(a.agreement)}){cost}."
        )
    return lines


def after_game(
    game: GameRecord, path: Path | None = None, more: str = "thirtyone stats"
) -> list[str]:
    """Write ``game`` to the record and return the lines to show: the record when the game was
    yours (nothing for an autoplayed game), or one line saying why it could not be recorded.
    ``more``: as for :func:`record_lines`."""
    path = path or record.default_path()
    try:
        record.add(path, game)
    except record.RecordError as err:
        return [f"This game was not recorded: {err}."]
    except KeyboardInterrupt:  # (the transaction was rolled back: nothing of it is written)
        return ["This game was not recorded: interrupted."]
    try:
        contents = record.read(path)
    except (record.RecordError, KeyboardInterrupt):
        return []
    if game.autoplay:
        return []
    lines = record_lines(contents.games, more, ranked=game.points is not None)
    if contents.skipped:
        count = len(contents.skipped)
        rows = "1 row" if count == 1 else f"{count:,} rows"
        lines.append(f"({rows} of the record did not read as a game: thirtyone stats says why.)")
    return lines
