"""A game review shown at the terminal: the table of decisions and the summary (rich). Its JSON
is :mod:`thirtyone.study.review_json`."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from thirtyone.oracle.rank import percent_shown
from thirtyone.oracle.words import pct
from thirtyone.study.review import LABELS, PUT_DOWN, Decision, Review, Reviewed
from thirtyone.terminal.advice_view import BEST_MARK, TIED_MARK, option_label
from thirtyone.terminal.display import ordinal


def _r4(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def choice_label(d: Decision) -> str:
    """The choice in a few words: ``knock``, ``draw``, ``take QC``, ``put down 9C``, ``hide 31,
    put down 9C``, ``blind showdown`` (the put-down after a take is a decision of its own)."""
    if d.step == PUT_DOWN:
        return ("hide 31, " if d.hid else "") + f"put down {d.put_down}"
    if d.choice == "take":
        return f"take {d.took}"
    if d.choice == "blind":
        return "blind showdown"
    return d.choice


def hand_label(d: Decision) -> str:
    """The hand held: ``7H 8H 4C``, and at a put-down the card drawn or taken: ``7H 8H 4C
    +3D``."""
    hand = " ".join(d.hand)
    return f"{hand} +{d.drew or d.took}" if d.step == PUT_DOWN else hand


def points(cost: float | None) -> str:
    """A cost in percentage points: ``12.3``; ``—`` when there is none."""
    return "—" if cost is None else percent_shown(cost)


def ranked_points(cost: float | None) -> str:
    """A cost in expected ranked points, to two decimals as the Oracle shows them: ``0.25``;
    ``—`` when there is none."""
    return "—" if cost is None else f"{cost:.2f}"


def _game_cost(r: Reviewed) -> str:
    """The cost for the game: in percentage points of ``p_win``, or in expected points."""
    return ranked_points(r.cost_points) if r.cost_points is not None else points(r.cost_win)


# -- the terminal ---------------------------------------------------------------------------------


def _mark(r: Reviewed) -> str:
    if r.best is not None and r.chosen is not None and r.chosen.option == r.best.option:
        return BEST_MARK
    return TIED_MARK if r.agreed else ""


def decisions_table(review: Review) -> Table:
    """One row per decision: round, turn, hand, top discard, choice, best, cost."""
    with_win = any(r.cost_win is not None for r in review.reviewed)
    with_points = any(r.cost_points is not None for r in review.reviewed)
    # No vertical rules, one space between columns and the cost of p_win headed on two rows:
    # at 80 columns the figures, the choices and the labels stay whole (``inaccuracy`` was cut
    # to ``inaccur…``); only a long best option breaks, between its words.
    table = Table(
        title=None,
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=0,
        header_style="bold",
    )
    for name in ("#", "round", "turn"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("hand", min_width=8)
    table.add_column("top", no_wrap=True)
    table.add_column("choice", min_width=13)  # (``put down 9C ★`` on one line)
    table.add_column("best", min_width=8)
    table.add_column("cost", justify="right", no_wrap=True)
    if with_win or with_points:
        # (Under ranked placing the game's figure is expected points, not a chance.)
        head = "points\ncost" if with_points else "win\ncost"
        table.add_column(head, justify="right", no_wrap=True, vertical="top")
    table.add_column("label", no_wrap=True, min_width=max(len(name) for name, _ in LABELS))
    for i, r in enumerate(review.reviewed, start=1):
        d = r.decision
        best = "no advice" if r.best is None else option_label(r.best)
        cost = points(r.cost_safe)
        style = "bold red" if (r.cost_safe or 0.0) > 0.0 and not r.agreed else ""
        row = [str(i), str(d.round), str(d.turn), hand_label(d), d.top]
        row += [f"{choice_label(d)} {_mark(r)}".rstrip(), best, cost]
        if with_win or with_points:
            row.append(_game_cost(r))
        row.append(r.label or "")
        table.add_row(*row, style=style)
    return table


def _head(review: Review) -> str:
    replay, s = review.replay, review.settings
    game, names = replay.game, replay.saved.names
    turns = len({(r.decision.round, r.decision.turn) for r in review.reviewed})
    if game.over and game.winner is not None:
        place = game.places.get(replay.seat)
        end = f"{names[game.winner]} won" + (f", {ordinal(place)} place" if place else "")
    else:
        end = f"unfinished, reviewed up to round {game.round_number}"
    return (
        f"{names[replay.seat]}: {len(review.reviewed)} decisions in {turns} turns "
        f"({end}; a decision is a turn's start and, after a draw or take, the put-down, as "
        f"thirtyone stats counts them). The Oracle at {s.deals:,} deals / {s.playouts:,} "
        f"playouts per decision, seed {s.seed}."
    )


def _costly_text(r: Reviewed) -> str:
    d, best = r.decision, r.best
    assert best is not None and r.chosen is not None
    line = (
        f"round {d.round}, turn {d.turn}: {choice_label(d)}, the best was "
        f"{option_label(best)}: safe {pct(best.p_safe)} against "
        f"{pct(r.chosen.p_safe)}, cost {points(r.cost_safe)} points"
    )
    if r.cost_win is not None:
        line += f" ({points(r.cost_win)} of p_win)"
    elif r.cost_points is not None:
        line += f" ({ranked_points(r.cost_points)} expected points)"
    return line


def _costliest(costly: list[Reviewed]) -> Table:
    """The costliest decisions, numbered, each entry's later lines under its first word (a
    narrow terminal broke them back to the first column)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", min_width=4, no_wrap=True)
    grid.add_column(ratio=1)
    for n, r in enumerate(costly, start=1):
        grid.add_row(f"{n}.", _costly_text(r))
    return grid


def labels_line(review: Review) -> str:
    """``Labels: 12 best, 3 good, 1 inaccuracy, 0 mistakes, 1 blunder (by the cost in p_win:
    best is the game's best or within the margins, good under 2 points, inaccuracy from 2,
    mistake from 5, blunder from 10).``"""
    counts = review.labels()
    plural = {"best": "best", "good": "good", "inaccuracy": "inaccuracies"}
    said = [f"{n} {name if n == 1 else plural.get(name, name + 's')}" for name, n in counts.items()]
    bounds = [f"{name} from {100 * least:g}" for name, least in LABELS[2:] if least is not None]
    by = {r.label_by for r in review.counted if r.label_by is not None}
    measure = " or ".join(sorted(by, reverse=True)) or "p_win"
    # (The game's best when every label measures p_win: not the round's best of the agreement
    # line, whose count differs.)
    best = "the game's best" if by == {"p_win"} else "the best"
    return (
        f"Labels: {', '.join(said)} (by the cost in {measure}: best is {best} or within the "
        f"margins, good under {100 * (LABELS[2][1] or 0):g} points, {', '.join(bounds)})."
    )


def summary(review: Review) -> Group:
    """Agreement, total cost and the three costliest decisions."""
    counted = review.counted
    lines = [_head(review)]
    if review.agreement is not None:
        best = sum(1 for r in counted if _mark(r) == BEST_MARK)
        lines.append(
            f"Agreement: {review.agreed} of {len(review.advised)} ({pct(review.agreement)}) "
            f"were the round's best ({BEST_MARK}: {best}) or statistically tied with it "
            f"({TIED_MARK}: {review.agreed - best})."
        )
    win, ranked = review.cost_win, review.cost_points
    if ranked is not None:
        win_text = f"in expected points (ranked placing): {ranked_points(ranked)}"
    elif win is not None:
        win_text = f"of p_win: {points(win)} points"
    else:
        win_text = "of p_win: not given by this Oracle"
    lines.append(
        f"Total cost: {points(review.cost_safe)} points of p_safe (the chance of losing no "
        f"life in the round); {win_text}."
    )
    lines.append(labels_line(review))
    parts: list[Text | Table] = []
    costly = review.costliest()
    if costly:
        lines.append("Costliest decisions:")
        parts.append(_costliest(costly))
    skipped = [r for r in review.reviewed if not r.counted]
    after = [f"Round {r.decision.round}, turn {r.decision.turn}: {r.note}." for r in skipped]
    return Group(Text("\n".join(lines)), *parts, *([Text("\n".join(after))] if after else []))


def report(review: Review) -> Group:
    return Group(decisions_table(review), Text(), summary(review))
