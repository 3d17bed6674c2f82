"""Under ranked placing "points" are the game's figure, the ranked points to expect (3, 2 and 1
for the first three places): a difference of two chances, or their margin, is then said in
"percentage points", never in bare "points" (ruling 358). Seen in a game (`thirtyone play
--seats 3 --lives 1 --seed 11 --rules scat --rule placing=ranked`): "Best for the game: draw
(1.89 against 1.85 points)" above "1.3 points safer than draw (48.7% against 47.4%)".

A chance is shown to one decimal and ranked points to two, so in a ranked table's words a
one-decimal figure followed by "points" is a difference of chances said ambiguously."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console
from test_review import TABLE, TINY, play, review
from thirtyone import Rules
from thirtyone.oracle import rank
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice
from thirtyone.oracle.words import Lives, game_reason, gist, reason
from thirtyone.store import summary
from thirtyone.store.record import Decision, GameRecord
from thirtyone.terminal.advice_view import advice_layouts

#: A one-decimal figure said in bare points: a difference of chances where points are ranked.
BARE = re.compile(r"\b\d+\.\d points")
#: Three seats, one life each, as in the game the reviewer played.
LIVES = Lives([1, 1, 1], 0, ["you", "Alice", "Ben"])


def option(name: str, p: float, lost: float, points: float, **kw: object) -> OptionAdvice:
    kind, _, card = name.partition(":")
    given: dict[str, object] = {"kind": Kind(kind), "margin": 0.010, "p_win_margin": 0.05, **kw}
    if card:
        given["discard"] = card
    return OptionAdvice(
        p_safe=p,
        lives_lost=lost,
        lives_lost_margin=0.02,
        p_win=points,
        **given,  # type: ignore[arg-type]
    )


def advised(options: list[OptionAdvice], tied: list[OptionAdvice], points: bool = True) -> Advice:
    """The advice the query builds (``query._advice``) from the core's order and ties."""
    ordered, still_tied = rank.best_first(options, tied, points)
    highest = max(ordered, key=lambda o: o.p_win or 0.0)
    best_game = rank.best_for_game(ordered[0], highest, points)
    assert best_game is not None
    text = reason(ordered, still_tied, points=points)
    text += game_reason(ordered[0], best_game, LIVES, points=points)
    return Advice(ordered, still_tied, text, 10_000, 50_000, best_game=best_game, points=points)


def seen(points: bool = True) -> Advice:
    """The reviewer's turn: take 7S, put down 3D 48.7% safe (1.85 points), draw 47.4% (1.89),
    knock 0.9% (1.02); margins ±1.0 on safety, ±0.03 on the points."""
    take = option("take", 0.487, 0.63, 1.85, card="7S", discard="3D", p_win_margin=0.03)
    draw = option("draw", 0.474, 0.57, 1.89, p_win_margin=0.03)
    knock = option("knock", 0.009, 1.97, 1.02, margin=0.002, p_win_margin=0.03)
    return advised([take, draw, knock], [], points)


def screens(advice: Advice) -> list[str]:
    """Every layout of the terminal's advice panel at 80 columns, line by line."""
    console = Console(width=80, record=True, file=None, color_system=None)
    lines = []
    for layout in advice_layouts(advice).bodies:
        with console.capture() as cap:
            console.print(layout)
        lines += [" ".join(line.split()) for line in cap.get().splitlines()]
    return lines


def test_the_one_line_reason_says_percentage_points_beside_ranked_points() -> None:
    advice = seen()
    lines = screens(advice)
    assert "Best for the game: draw (1.89 against 1.85 points)" in lines
    # 48.7% against 47.4%: 1.3 apart, a difference of two chances.
    assert "1.3 percentage points safer than draw (48.7% against 47.4%)." in lines
    assert not [line for line in lines if BARE.search(line)]
    assert "percentage points better than" in advice.reason  # (the full reason, as before)


def test_a_table_without_ranked_points_keeps_the_short_word() -> None:
    """Where the game's figure is a chance to win, nothing else is in points: the one-line
    reason stays short (README: "6.6 points safer than draw …")."""
    assert gist(seen(points=False)) == "1.3 points safer than draw (48.7% against 47.4%)."


def test_options_tied_on_safety_say_their_margin_in_percentage_points() -> None:
    draw = option("draw", 0.471, 0.55, 1.87, margin=0.022)
    take = option("take", 0.467, 0.55, 1.84, margin=0.022, card="7S", discard="3D")
    advice = advised([draw, take], [take])
    assert gist(advice) == (
        "Tied with take 7S, put down 3D: 47.1% against 46.7%, within ±2.2 percentage points."
    )
    assert not BARE.search(gist(advice) + advice.reason)


def test_the_games_margin_in_ranked_points_is_said_in_points() -> None:
    """The best for the game leads by 0.04 points, within its margin of 0.05 points: the
    reason said "within the margin of ±5.0 percentage points" (the margin of points read as a
    chance)."""
    take = option("take", 0.487, 0.60, 1.85, card="7S", discard="3D")
    draw = option("draw", 0.474, 0.60, 1.89)
    text = game_reason(take, draw, LIVES, points=True)
    assert "1.89 points against 1.85 to take the 7S and put down the 3D" in text
    assert ", within the margin of ±0.05 points." in text
    assert "percentage" not in text
    # Where the figure is a chance, its margin is in percentage points, as before.
    chance = game_reason(
        option("knock", 0.69, 0.61, 0.896), option("draw", 0.68, 0.61, 0.899), LIVES
    )
    assert ", within the margin of ±5.0 percentage points." in chance


def test_a_ranked_games_review_says_percentage_points(tmp_path: Path) -> None:
    """`thirtyone review` of a game placed ranked gives its costs for the game in expected
    points: its costs in p_safe are said in percentage points beside them."""
    play(tmp_path, [*TABLE, "--rule", "placing=ranked"])
    text = " ".join(review(tmp_path, *TINY).output.split())
    summary_text = text[text.index("Total cost:") :]
    assert re.search(r"Total cost: \d+\.\d percentage points of p_safe", summary_text)
    assert "good under 2 percentage points, inaccuracy from 2" in summary_text
    assert not BARE.search(summary_text), summary_text


def _game(rules: Rules, points: int | None) -> GameRecord:
    """A finished three-seat game of yours, one decision costing 20.0 percentage points."""
    return GameRecord(
        finished="2025-01-31T18:04:00+00:00",
        preset="scat",
        rules=rules.to_dict(),
        names=["You", "Alice", "Ben"],
        you=0,
        placing=[0, 1, 2],
        points=points,
        rounds=4,
        opponents="table",
        autoplay=False,
        seed=11,
        decisions=[Decision(1, "draw", "knock", 0.2, "knock", 0.5 if points else 0.1)],
    )


def test_the_record_after_a_ranked_game_says_percentage_points(tmp_path: Path) -> None:
    """The game's end lists the ranked points ("1st You 3 points"), then your agreement with
    the Oracle: its mean cost said "20.0 points of your chance of losing nothing"."""
    scat = Rules.preset("scat").replace(seats=3, lives=1)
    ranked = summary.after_game(_game(scat.replace(placing="ranked"), 3), tmp_path / "r.sqlite3")
    assert "mean cost 20.0 percentage points of your chance of losing nothing" in ranked[1]
    plain = summary.after_game(_game(scat, None), tmp_path / "w.sqlite3")
    assert "mean cost 20.0 points of your chance of losing nothing" in plain[1]
