"""A game review shown at the terminal: the table of decisions and the summary (rich). Its JSON
is :mod:`thirtyone.study.review_json`."""

from __future__ import annotations

from collections.abc import Iterator

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.table import Table
from rich.text import Text

from thirtyone.oracle.rank import percent_shown
from thirtyone.oracle.words import counted, pct, points_word
from thirtyone.study.review import LABELS, PUT_DOWN, Decision, Review, Reviewed
from thirtyone.terminal.advice_view import BEST_MARK, TIED_MARK, option_label
from thirtyone.terminal.display import ordinal

#: The hand of the blind call, which nobody had looked at (ruling 364).
UNSEEN = "unseen"
#: The summary of a review where the Oracle gave figures for no decision (ruling 364), the
#: review page's words too.
NO_FIGURES = "No cost and no labels: the Oracle gave no figures for any of your decisions."


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
    +3D``; ``unseen`` at the blind showdown, called before anybody looks (ruling 364: the
    review shows what you saw; the dealt hand is the JSON's alone)."""
    if d.choice == "blind":
        return UNSEEN
    hand = " ".join(d.hand)
    return f"{hand} +{d.drew or d.took}" if d.step == PUT_DOWN else hand


def points(cost: float | None) -> str:
    """A cost in percentage points: ``12.3``; ``—`` when there is none."""
    return "—" if cost is None else percent_shown(cost)


def _ranked(review: Review) -> bool:
    """Whether the game reviewed is placed ranked (its figure for the game is points)."""
    return review.replay.game.rules.placing == "ranked"


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


#: The columns of the decisions' table, in order: the header, its least width, and how it is
#: laid (right-justified; wrapped between words, else cut with ``…``).
_COLUMNS: dict[str, tuple[str, int, bool, bool]] = {
    "#": ("#", 2, True, False),
    "round": ("round", 5, True, False),
    "turn": ("turn", 4, True, False),
    "hand": ("hand", 8, False, True),
    "top": ("top", 3, False, False),
    "choice": ("choice", 8, False, True),
    "best": ("best", 8, False, True),
    "cost": ("cost", 4, True, False),
    "game": ("win\ncost", 4, True, False),
    "label": ("label", 5, False, False),
}
#: The columns left out first on a narrow terminal, in turn: the choice, the best and the
#: figures stay (they are what the review is for); the hand and the top discard go first.
_DROPPED_FIRST = ("hand", "top", "turn", "round", "game", "label")


def _fitted(names: list[str], width: int | None, least: dict[str, int]) -> list[str]:
    """``names`` less the columns left out (:data:`_DROPPED_FIRST`) until their ``least``
    widths, one space apart, fit ``width`` (None: any): the label counted whole while the
    hand, the top, the turn and the round go, and cut to its ``least`` after."""
    shown = list(names)
    whole = {**least, "label": max(len(label) for label, _ in LABELS)}

    def fits(need: dict[str, int]) -> bool:
        return width is None or sum(need[c] + 1 for c in shown) - 1 <= width

    for n, name in enumerate(_DROPPED_FIRST):
        if fits(whole if n < 4 else least):
            break
        if name in shown:
            shown.remove(name)
    return shown


def _row(i: int, r: Reviewed) -> dict[str, str]:
    d = r.decision
    return {
        "#": str(i),
        "round": str(d.round),
        "turn": str(d.turn),
        "hand": hand_label(d),
        "top": d.top,
        "choice": f"{choice_label(d)} {_mark(r)}".rstrip(),
        "best": "no advice" if r.best is None else option_label(r.best),
        "cost": points(r.cost_safe),
        "game": _game_cost(r),
        "label": r.label or "",
    }


def decisions_table(review: Review, width: int | None = None) -> Table:
    """One row per decision: round, turn, hand, top discard, choice, best, costs, label; at
    ``width`` columns, the hand, the top discard, the turn and the round (then the cost for the
    game and the label) are left out in turn where the rest would not fit, and a text cut ends
    with ``…``."""
    with_points = any(r.cost_points is not None for r in review.reviewed)
    with_game = with_points or any(r.cost_win is not None for r in review.reviewed)
    names = [n for n in _COLUMNS if n != "game" or with_game]
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
    least = {name: column[1] for name, column in _COLUMNS.items()}
    if with_points:
        least["game"] = len("points")  # (expected points under ranked placing)
    if width is None or width >= 80:
        least["choice"] = 13  # (``put down 9C ★`` on one line)
        least["label"] = max(len(label) for label, _ in LABELS)
    keys = _fitted(names, width, least)
    # (The label is the one column that is cut rather than wrapped: rich cuts it at the
    # terminal's edge, without a mark, when the others leave it less than its width.)
    room = None if width is None else width - sum(least[n] + 1 for n in keys if n != "label")
    for name in keys:
        head, _, right, wraps = _COLUMNS[name]
        if name == "game" and with_points:
            head = "points\ncost"
        table.add_column(
            head,
            justify="right" if right else "left",
            no_wrap=not wraps,
            overflow="fold" if wraps else "ellipsis",
            min_width=least[name],
            max_width=room if name == "label" else None,
        )
    for i, r in enumerate(review.reviewed, start=1):
        style = "bold red" if (r.cost_safe or 0.0) > 0.0 and not r.agreed else ""
        cells = _row(i, r)
        table.add_row(*(cells[k] for k in keys), style=style)
    return table


class _Decisions:
    """The decisions' table, laid out for the width it is printed at."""

    def __init__(self, review: Review) -> None:
        self.review = review

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        yield decisions_table(self.review, options.max_width)


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
        f"{names[replay.seat]}: {counted(len(review.reviewed), 'decision')} in "
        f"{counted(turns, 'turn')} "
        f"({end}; a decision is a turn's start and, after a draw or take, the put-down, as "
        f"thirtyone stats counts them). The Oracle at {counted(s.deals, 'deal')} / "
        f"{counted(s.playouts, 'playout')} per decision, seed {s.seed}."
    )


def _costly_text(r: Reviewed, ranked: bool = False) -> str:
    d, best = r.decision, r.best
    assert best is not None and r.chosen is not None
    line = (
        f"round {d.round}, turn {d.turn}: {choice_label(d)}, the best was "
        f"{option_label(best)}: safe {pct(best.p_safe)} against "
        f"{pct(r.chosen.p_safe)}, cost {points(r.cost_safe)} {points_word(ranked)}"
    )
    if r.cost_win is not None:
        line += f" ({points(r.cost_win)} of p_win)"
    elif r.cost_points is not None:
        line += f" ({ranked_points(r.cost_points)} expected points)"
    return line


def _costliest(costly: list[Reviewed], ranked: bool = False) -> Table:
    """The costliest decisions, numbered, each entry's later lines under its first word (a
    narrow terminal broke them back to the first column)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", min_width=4, no_wrap=True)
    grid.add_column(ratio=1)
    for n, r in enumerate(costly, start=1):
        grid.add_row(f"{n}.", _costly_text(r, ranked))
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
        f"margins, good under {100 * (LABELS[2][1] or 0):g} {points_word(_ranked(review))}, "
        f"{', '.join(bounds)})."
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
            f"({TIED_MARK}: {review.agreed - best}). thirtyone stats counts the {BEST_MARK} "
            "alone: the record keeps no margins."
        )
    lines += _costs(review) if counted else [NO_FIGURES]
    parts: list[Text | Table] = []
    costly = review.costliest()
    if costly:
        lines.append("Costliest decisions:")
        parts.append(_costliest(costly, _ranked(review)))
    elif counted:  # (said as the review page says it: ruling 363)
        made_of = ", so the total cost above is made of differences within them."
        lines.append(
            "Costliest decisions: none: every decision the Oracle gave figures for was the "
            "round's best or within its margins" + (made_of if _costs_something(review) else ".")
        )
    skipped = [r for r in review.reviewed if not r.counted]
    after = [f"Round {r.decision.round}, turn {r.decision.turn}: {r.note}." for r in skipped]
    return Group(Text("\n".join(lines)), *parts, *([Text("\n".join(after))] if after else []))


def _costs_something(review: Review) -> bool:
    """Whether the review's total cost, in any of its measures, is above nought (ruling 365:
    decisions within the margins of the best still count their differences in the total)."""
    costs = (review.cost_safe, review.cost_win, review.cost_points)
    return any((c or 0.0) > 0.0 for c in costs)


def _costs(review: Review) -> list[str]:
    """The total cost and the labels' line (of a review with some decision's figures)."""
    win, ranked = review.cost_win, review.cost_points
    if ranked is not None:
        win_text = f"in expected points (ranked placing): {ranked_points(ranked)}"
    elif win is not None:
        win_text = f"of p_win: {points(win)} points"
    else:
        win_text = "of p_win: not given by this Oracle"
    # (In the table's words: under Gin lives a round costs letters, not lives.)
    nothing = "taking no letter" if review.replay.game.rules.gin else "losing no life"
    return [
        f"Total cost: {points(review.cost_safe)} {points_word(_ranked(review))} of p_safe (the "
        f"chance of {nothing} in the round); {win_text}.",
        labels_line(review),
    ]


def report(review: Review) -> Group:
    return Group(_Decisions(review), Text(), summary(review))
