"""Advice that never contradicts itself (issue 27, items 1 to 6): the best among options tied on
safety, the game's option named only when it shows a higher figure, a 31 called a 31, a knock
score no hand knocks at read as never, the "Why" line true to the table and only when it explains
the risk, and sentences that say something once.

The figures are set by hand where a rule is about figures; the positions are real where a rule
is about what the table did."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from test_advice_words import text_of
from thirtyone import advise
from thirtyone._core import Action
from thirtyone.oracle import rank
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice, Sweep
from thirtyone.oracle.reads import Read, held_from_pile, why_line
from thirtyone.oracle.words import Lives, game_reason, gist, reason
from thirtyone.terminal.advice_view import advice_layouts, advice_panel_body


def opt(
    name: str,
    p: float,
    lost: float,
    *,
    margin: float = 0.021,
    lost_margin: float = 0.02,
    p_win: float | None = None,
    **kw: Any,
) -> OptionAdvice:
    kind, _, card = name.partition(":")
    given: dict[str, Any] = {"kind": Kind(kind), "discard": card or None, **kw}
    return OptionAdvice(
        p_safe=p,
        margin=margin,
        lives_lost=lost,
        lives_lost_margin=lost_margin,
        p_win=p_win,
        p_win_margin=None if p_win is None else 0.004,
        **given,
    )


def ranked_advice(options: list[OptionAdvice], tied: list[OptionAdvice]) -> Advice:
    """The advice the query builds from the core's order (safest first) and ties."""
    ordered, still_tied = rank.best_first(options, tied)
    highest = max(ordered, key=lambda o: o.p_win or 0.0) if ordered[0].p_win else None
    best_game = rank.best_for_game(ordered[0], highest)
    text = reason(ordered, still_tied)
    return Advice(ordered, still_tied, text, 1000, 1000, best_game=best_game)


# -- 1. the star goes to the option that costs less ------------------------------------------------


def test_of_two_options_tied_on_safety_the_best_loses_fewer_lives() -> None:
    # The figures: knock 63.6% safe, 0.67 lives lost, 52.8% to win the game; draw
    # 63.0%, 0.38, 62.4%. Within the margin on safety, far apart on lives: draw is the best.
    knock = opt("knock", 0.636, 0.67, p_win=0.528)
    draw = opt("draw", 0.630, 0.38, p_win=0.624)
    advice = ranked_advice([knock, draw], [draw])
    assert advice.best is draw and advice.tied == [knock]
    assert advice.to_dict()["best"] == "draw" and advice.to_dict()["tied"] == ["knock"]
    assert "The first loses fewer lives on average (0.38 against 0.67)" in advice.reason
    assert (
        gist(advice)
        == "Tied on safety with knock; it loses fewer lives on average (0.38 against 0.67)."
    )
    shown = text_of(advice_panel_body(advice))
    assert "★ draw" in shown and "≈ knock" in shown
    assert "lives lost" in shown  # the figure that decided is on the screen


def test_with_lives_lost_alike_the_best_wins_the_game_more_often_then_is_the_safest() -> None:
    knock = opt("knock", 0.640, 0.40, p_win=0.300)
    draw = opt("draw", 0.630, 0.41, p_win=0.320)  # 0.01 apart: within the margins of lives
    advice = ranked_advice([knock, draw], [draw])
    assert advice.best is draw
    assert "The first wins the game more often (32.0% against 30.0%)" in advice.reason
    # Equal as shown on lives and on the game: the safest stays the best.
    same = opt("draw", 0.630, 0.41, p_win=0.30004)
    advice = ranked_advice([knock, same], [same])
    assert advice.best is knock and advice.tied == [same]
    assert "marginally ahead at 64.0% safe against 63.0%" in advice.reason


def test_a_game_figure_higher_by_less_than_its_margin_is_said_to_be_within_it() -> None:
    # Seen in a game: tied on safety, the star went to the higher game figure by 0.1 point,
    # and the words said it "wins the game more often" with nothing about the margin.
    five = opt("discard:5H", 0.604, 0.40, p_win=0.246)
    four = opt("discard:4H", 0.607, 0.40, p_win=0.245)
    advice = ranked_advice([four, five], [five])
    assert advice.best is five
    assert (
        "The first has the higher chance to win the game as shown (24.6% against 24.5%), "
        "within the margin of ±0.4 percentage points." in advice.reason
    )
    assert "more often" not in advice.reason
    assert gist(advice) == "Tied on safety with put down 4H; game 24.6% against 24.5%, within ±0.4."
    # Apart by more than the margin: no such words.
    clear = opt("discard:5H", 0.604, 0.40, p_win=0.250)
    advice = ranked_advice([four, clear], [clear])
    assert "within the margin" not in advice.reason + gist(advice)


def test_an_option_outside_the_margin_never_takes_the_star() -> None:
    knock = opt("knock", 0.70, 0.67, margin=0.01)
    draw = opt("draw", 0.60, 0.10, margin=0.01)  # far fewer lives lost, but far less safe
    advice = ranked_advice([knock, draw], [])
    assert advice.best is knock and advice.tied == []


def test_enter_plays_the_star(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter's offer names the option the panel marks ★."""
    from thirtyone.terminal import keys

    knock = opt("knock", 0.636, 0.67)
    draw = opt("draw", 0.630, 0.38)
    advice = ranked_advice([knock, draw], [draw])
    asked: list[str] = []

    class Advisor(keys.OracleAdvisor):
        def __init__(self) -> None:
            pass

        def advice(self, turn: Any) -> Any:
            return advice, None

    class Seat:
        console: Any = None
        narrator: Any = None
        advisor = Advisor()
        advice = "always"
        on_mode = None
        advice_shown = True

        def read(self, prompt: str) -> str:
            asked.append(prompt)
            return ""

        def say(self, message: str) -> None:
            raise AssertionError(message)

        def show_advice(self, turn: Any, *, asked: bool = False) -> None:
            raise AssertionError("shown already")

    assert keys.accept(Seat(), view=None) == "draw"  # type: ignore[arg-type]
    assert asked == ["Play the Oracle's best: draw from the stock? (Enter or y: yes, n: no)"]


# -- 2. the best for the game, only for a figure that differs --------------------------------------


def test_the_game_names_another_option_only_for_a_higher_figure_as_shown() -> None:
    best = opt("draw", 0.70, 0.30, p_win=0.35700)
    other = opt("take", 0.60, 0.35, p_win=0.35704, card="4S", discard="7D")
    assert rank.best_for_game(best, other) is best  # 35.7% against 35.7%: the same
    advice = Advice([best, other], [], "", 100, 100, best_game=rank.best_for_game(best, other))
    shown = text_of(advice_panel_body(advice))
    assert "Best for the game" not in shown
    lives = Lives([3, 3], 0, ["You", "Ben"])
    assert (
        game_reason(best, other, lives) == " For the game too: it wins the game 35.7% of the time."
    )
    higher = opt("take", 0.60, 0.35, p_win=0.361, card="4S", discard="7D")
    assert rank.best_for_game(best, higher) is higher
    advice = Advice([best, higher], [], "", 100, 100, best_game=higher)
    shown = text_of(advice_panel_body(advice))
    assert "Best for the game: take 4S, put down 7D (36.1% against 35.7%)" in shown


def test_ranked_points_compare_as_shown_too() -> None:
    best = opt("draw", 0.70, 0.30, p_win=1.621)
    other = opt("knock", 0.60, 0.35, p_win=1.624)
    assert rank.best_for_game(best, other, points=True) is best  # 1.62 against 1.62
    assert rank.best_for_game(best, opt("knock", 0.6, 0.3, p_win=1.63), points=True) is not best


# -- 3. a take that makes 31 is a 31 ---------------------------------------------------------------


def test_a_take_that_makes_31_is_called_a_31() -> None:
    # You play first holding QS JS TC, the AS turned up: taking it and putting down the TC
    # makes 31, which is shown at once.
    state = {
        "rules": "standard",
        "seats": 3,
        "me": 0,
        "first": 0,
        "upcard": "AS",
        "hand": ["QS", "JS", "TC"],
        "turns": [],
        "lives": [3, 3, 3],
    }
    advice = advise(state, deals=300, playouts=2000, seed=1, max_time=None)
    take = advice.option("take")
    assert (take.card, take.discard, take.keeps) == ("AS", "TC", 31)
    assert advice.best is take and take.p_safe == 1.0
    assert advice.reason.startswith("Take the AS and put down the TC (it makes 31 — show it)")
    assert "knocking" not in advice.reason.split(".")[0]
    shown = text_of(advice_panel_body(advice))
    assert "Best: take AS, put down TC (it makes 31 — show it)" in shown
    assert "31: show" in shown and "first" not in shown.split("take AS, put down TC")[2][:30]


# -- 4. a knock score no hand knocks at is never ---------------------------------------------------


def test_a_knock_score_of_31_or_more_reads_as_never() -> None:
    assert rank.knock_score(31.0) is None and rank.knock_score(33.0) is None
    assert rank.knock_score(30.5) == 30.5 and rank.knock_score(None) is None
    sweep = Sweep(np.array([20.0, 31.0, np.nan]), np.array([0.5, 0.6, 0.6]), np.zeros(3))
    swept = OptionAdvice("draw", 0.6, 0.01, 0.3, swept=True, knock_at=31.0, sweep=sweep)
    text = reason([swept, opt("knock", 0.2, 0.8, margin=0.01)], [])
    assert "31 or more" not in text and "never knocking (playing for 31)" in text


@pytest.mark.parametrize("preset", ["standard", "gin-lives", "cadillac"])
def test_no_answer_plans_a_knock_at_31(preset: str) -> None:
    """At every table a hand of 31 (33) is shown at once: no option of a real answer says it
    knocks at 31 or more (gin-lives used to say so on every option)."""
    for state in _first_turns(preset, seeds=range(3)):
        advice = advise(state, deals=200, playouts=1000, seed=1, max_time=None)
        for o in advice.options:
            assert o.knock_at is None or o.knock_at < 31, o
            assert o.to_dict().get("knock_at") in (None, *range(0, 31), 30.5)
        shown = advice.reason + text_of(advice_panel_body(advice))
        assert "31 or more" not in shown and "knock at 31" not in shown


def _first_turns(preset: str, seeds: range) -> list[dict[str, Any]]:
    """The view of the first seat to move in the first round of a game (a real deal)."""
    return [next(real_positions(preset, seed, most=1)) for seed in seeds]


def real_positions(
    preset: str, seed: int, *, seats: int = 4, most: int = 8
) -> Iterator[dict[str, Any]]:
    """The views of every decision of a game played by the table's rule (a turn's start and
    the put-down after a draw or take), the first ``most``."""
    from thirtyone import Rules, Session, TablePolicy

    session = Session(Rules.preset(preset).replace(seats=seats), seed=seed)
    rule = TablePolicy()
    session.advance()
    found = 0
    while found < most and not session.over:
        pending = session.pending
        if pending is None:
            session.advance()
            continue
        if pending.phase in ("start", "put_down"):
            yield session.view()
            found += 1
        if pending.phase == "blind":
            session.act(Action("look"))
        else:
            session.act(rule.decide(session.seat_view()))


# -- 5. the Why line -------------------------------------------------------------------------------


def test_a_card_taken_and_put_down_again_is_not_named() -> None:
    state: dict[str, Any] = {
        "upcard": "4H",
        "turns": [
            {"seat": 1, "draw": "pile", "discard": "2C"},  # Ben takes the 4H
            {"seat": 2, "draw": "stock", "discard": "9D"},
            {"seat": 0, "draw": "stock", "discard": "5S"},
            {"seat": 1, "draw": "stock", "discard": "4H"},  # ... and puts it down again
            {"seat": 2, "draw": "pile", "discard": "3C"},  # Cara takes the 4H
        ],
    }
    assert held_from_pile(state) == {2: ["4H"]}


def _read(name: str, scores: list[float], took: tuple[str, ...] = ()) -> Read:
    return Read(1, name, np.array(scores, dtype=float), took)


def test_the_why_line_is_said_only_when_it_explains_the_risk() -> None:
    # A 96.3% safe knock keeping 30: nobody holds more than 30 in any deal, so the line would
    # explain nothing of the 3.7% risk.
    knock = OptionAdvice("knock", 0.963, 0.01, 0.04, keeps=30.0)
    advice = Advice([knock], [], "", 100, 100)
    assert why_line(advice, [_read("Alice", [20.0, 25.0, 30.0, 28.0])]) is None
    # A 49.1% safe option whose named opponent beats it in 1.8% of deals: no line either.
    keep = OptionAdvice("knock", 0.491, 0.01, 0.6, keeps=23.0)
    scores = [24.0] * 18 + [15.0] * 982
    assert why_line(Advice([keep], [], "", 100, 100), [_read("Alice", scores)]) is None
    # A 60% safe knock that Ben beats in 60% of the deals: that is its risk, and it is said.
    risky = OptionAdvice("knock", 0.60, 0.01, 0.4, keeps=21.0)
    line = why_line(Advice([risky], [], "", 100, 100), [_read("Ben", [25.0] * 6 + [10.0] * 4)])
    assert line == (
        "Why: Ben holds more than your 21 in 60.0% of the deals consistent with Ben's play."
    )
    # A safe option has no risk to explain.
    safe = OptionAdvice("knock", 1.0, 0.0, 0.0, keeps=21.0)
    assert why_line(Advice([safe], [], "", 100, 100), [_read("Ben", [25.0])]) is None


def test_the_why_line_names_only_what_an_opponent_really_took() -> None:
    """In real games, every card a Why line says an opponent took is a card they took from the
    pile this round and have not put down since."""
    from thirtyone.oracle.reads import reads

    named = 0
    for seed in range(4):
        for state in real_positions("standard", seed, most=10):
            names = [f"P{s}" for s in range(state["seats"])]
            advice = advise(state, deals=200, playouts=1000, seed=1, max_time=None)
            for r in reads(state, names, advice):
                assert list(r.took) == held_from_pile(state).get(r.seat, [])
            line = why_line(advice, reads(state, names, advice))
            if line is not None and " took the " in line:
                who = int(line.split()[1][1:])
                cards = line.split(" took the ")[1].split(":")[0].split(" and the ")
                assert cards == held_from_pile(state)[who]
                named += 1
    assert named > 0  # the positions do name cards taken


# -- 6. sentences that say something, once --------------------------------------------------------


def test_equal_put_downs_are_listed_once_each() -> None:
    cards = ["QC", "QD", "TC", "KH"]
    options = [opt(f"discard:{c}", 1.0, 0.0, margin=0.0) for c in cards]
    text = reason(options, options[1:])
    assert text.startswith(
        "To put down the QC, the QD, the TC and the KH are equally safe: 100.0% of the "
        "simulated rounds each."
    )
    assert text.count("to put down") + text.count("To put down") == 1


def test_the_game_reason_says_nothing_it_cannot_back() -> None:
    knock = opt("knock", 0.69, 0.54, lost_margin=0.02, p_win=0.40)
    draw = opt("draw", 0.68, 0.53, lost_margin=0.02, p_win=0.45)
    full = Lives([3, 3, 3], 0, ["You", "Ben", "Cy"])
    text = game_reason(knock, draw, full)
    assert "0.53 against 0.54" not in text  # within the margins: no difference to tell
    assert "weighs more" not in text
    fewer = opt("draw", 0.68, 0.30, lost_margin=0.02, p_win=0.45)
    assert "It loses fewer lives on average (0.30 against 0.54)." in game_reason(knock, fewer, full)
    last = game_reason(knock, fewer, Lives([1, 3, 3], 0, ["You", "Ben", "Cy"]))
    assert "(0.30 against 0.54), and you are one loss from going out." in last


def test_lives_are_listed_from_the_seat_after_yours_whoever_deals() -> None:
    names = ["Alice", "Ben", "you", "Cara"]
    lives = Lives([1, 2, 2, 2], 2, names)
    assert lives.summary() == "lives: you 2, Cara 2, Alice 1, Ben 2"
    # The same table a round later, the seats numbered from another first player: the same
    # order.
    later = Lives([2, 2, 1, 2], 0, ["you", "Cara", "Alice", "Ben"])
    assert later.summary() == "lives: you 2, Cara 2, Alice 1, Ben 2"


def test_layouts_all_carry_the_best_and_the_table() -> None:
    knock = opt("knock", 0.636, 0.67, p_win=0.528)
    draw = opt("draw", 0.630, 0.38, p_win=0.624)
    advice = ranked_advice([knock, draw], [draw])
    for body in advice_layouts(advice).bodies:
        shown = text_of(body)
        # (The smallest layout says the tie in the reason it puts on the best's line.)
        assert shown.startswith(("Best: draw — tied with knock", "Best: draw — tied on safety"))
        assert "★ draw" in shown
