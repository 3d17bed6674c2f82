"""The Oracle's advice in words: fixed positions and fixed figures, under every table whose words
differ (lives, Gin letters, a hidden 31 at scat)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from rich.console import Console
from thirtyone import Rules, advise
from thirtyone._core import Action
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice, Sweep
from thirtyone.oracle.words import glossary, later_plan, plan, rank_hopeless, reason
from thirtyone.terminal.advice_view import SHOW_31, advice_panel_body
from thirtyone.terminal.rules_screen import help_text, rules_in_short


def text_of(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, file=None, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return " ".join(cap.get().split())


def position(preset: str) -> dict[str, object]:
    """You drew the QS to AS KS 5D: putting down the 5D makes 31."""
    return {
        "rules": {"preset": preset},
        "seats": 2,
        "me": 0,
        "first": 0,
        "upcard": "2C",
        "hand": ["AS", "KS", "5D"],
        "turns": [],
        "lives": [3, 3],
        "pending": {"draw": "stock", "drew": "QS"},
    }


@pytest.mark.parametrize("preset", ["standard", "scat", "gin-lives"])
def test_a_31_making_put_down_says_show_it_not_a_knock_plan(preset: str) -> None:
    advice = advise(position(preset), deals=200, playouts=1000, seed=1, max_time=None)
    assert advice.best.option == "discard:5D" and advice.best.keeps == 31
    assert "makes 31 — show it" in advice.reason
    assert "knock" not in advice.reason  # not described as a plan for later
    assert "percentage points better" in advice.reason
    shown = text_of(advice_panel_body(advice))
    assert "put down 5D (it makes 31 — show it)" in shown
    assert "then knock" not in shown and "never knock" not in shown.split("put down KS")[0]


def _named(name: str) -> dict[str, object]:
    """An option named as the JSON names it (``discard:QS``: a put-down of the QS)."""
    kind, _, card = name.partition(":")
    return {"kind": Kind(kind), "discard": card or None}


def _opt(
    name: str, p: float, lost: float, keeps: float | None = None, **kw: object
) -> OptionAdvice:
    given = {**_named(name), **kw}  # (a take names its put-down itself)
    return OptionAdvice(p_safe=p, margin=0.01, lives_lost=lost, keeps=keeps, **given)  # type: ignore[arg-type]


@pytest.mark.parametrize("unit", ["lives", "letters"])
def test_every_option_hopeless_ranks_by_cost_then_by_the_hand_kept(unit: str) -> None:
    # The order the simulation gave: the QS put-down (keeping 9) first, by a coin's toss.
    options = [
        _opt("discard:QS", 0.0, 1.0, keeps=9),
        _opt("discard:2H", 0.0, 1.0, keeps=19),
        _opt("discard:3C", 0.0, 2.0, keeps=25),
    ]
    ranked = rank_hopeless(options)
    assert [o.option for o in ranked] == ["discard:2H", "discard:QS", "discard:3C"]
    text = reason(ranked, [], unit=unit)
    assert "No option comes through safe in any simulated round" in text
    assert f"ranked by the {unit} they cost, then by the hand they keep" in text
    assert "put down the 2H" in text and "keeps 19" in text and f"1.00 {unit}" in text


def test_equal_figures_are_not_compared() -> None:
    best = _opt("draw", 0.8431, 0.48)
    other = _opt("take", 0.8429, 0.4802, card="7H", discard="2C")
    tied_text = reason([best, other], [other])
    assert "equally safe: 84.3% of the simulated rounds each" in tied_text
    assert "marginally ahead" not in tied_text
    untied = reason([best, other], [])
    assert "as is to take the 7H" in untied and "better than" not in untied
    assert "costs more" not in untied  # 0.48 against 0.48


def test_a_lives_trade_off_is_said_only_beyond_its_margin() -> None:
    best = OptionAdvice("knock", 0.70, 0.01, 0.60, lives_lost_margin=0.02)
    second = OptionAdvice("draw", 0.60, 0.01, 0.40, lives_lost_margin=0.02)
    text = reason([best, second], [], unit="letters")
    assert "10.0 percentage points better than to draw from the stock (60.0%)" in text
    assert "It costs more when it fails, though: 0.60 letters lost on average against 0.40." in text
    near = OptionAdvice("draw", 0.60, 0.01, 0.57, lives_lost_margin=0.02)
    assert "costs more" not in reason([best, near], [])


def _swept(name: str, p: float, knock_at: float | None) -> OptionAdvice:
    sweep = Sweep(np.array([20.0, 25.0, np.nan]), np.array([p, p, p]), np.array([0.3, 0.3, 0.3]))
    return OptionAdvice(
        p_safe=p,
        margin=0.01,
        lives_lost=0.3,
        swept=True,
        knock_at=knock_at,
        sweep=sweep,
        **_named(name),  # type: ignore[arg-type]
    )


def test_never_knock_reads_as_playing_for_31() -> None:
    best, other = _swept("draw", 0.7, None), _swept("discard:2C", 0.5, 25.0)
    text = reason([best, other], [])
    assert "Draw from the stock, then never knocking (playing for 31): safe in 70.0%" in text
    advice = Advice([best, other], [], text, 100, 1000)
    shown = text_of(advice_panel_body(advice))
    assert "Best: draw (then never knock: play for 31)" in shown
    assert "knock at 31 or more" not in shown


def test_never_knock_after_keeping_30_waits_for_another_knock() -> None:
    # Kept 30 (the Oracle may keep 30 rather than show a 31, for the game): never knocking is
    # waiting, not playing for 31.
    best = replace(_swept("discard:AH", 0.7, None), keeps=30)
    other = replace(_swept("discard:KH", 0.5, 25.0), keeps=31)
    assert later_plan(best) == plan(best) == "never knock: wait for another's knock"
    text = reason([best, other], [])
    assert "then never knocking (waiting for another's knock): safe in 70.0%" in text
    assert "play for 31" not in text and "playing for 31" not in text
    shown = text_of(advice_panel_body(Advice([best, other], [], text, 100, 1000)))
    assert "never knock: wait for another's knock" in shown
    # Below 30 the never plan still plays for 31.
    assert later_plan(replace(best, keeps=29)) == "never knock: play for 31"


def test_the_margin_is_in_percentage_points_and_ties_compare_what_differs() -> None:
    best, tied = _opt("draw", 0.62, 0.4), _opt("knock", 0.60, 0.4)
    text = reason([best, tied], [tied])
    assert "±1.0 percentage points" in text
    assert "marginally ahead at 62.0% safe against 60.0%" in text


@pytest.mark.parametrize(
    ("preset", "present", "absent"),
    [
        ("standard", ["loses a life", "pays 2 lives", "31 ends the round at once"], ["letter"]),
        ("gin-lives", ["takes a letter", "G, I, N and you are out"], ["loses a life"]),
        ("scat", ["keep a 31 made in play hidden", "counts 30"], ["31 ends the round at once"]),
    ],
)
def test_help_speaks_of_the_table(preset: str, present: list[str], absent: list[str]) -> None:
    rules = Rules.preset(preset)
    text = text_of(help_text([Action("draw")], putting_down=False, rules=rules, advice_keys=True))
    for words in present:
        assert words in text
    for words in absent:
        assert words not in text
    unit = "letters" if rules.gin else "lives"
    assert f"{unit} lost" in text and "percentage points" in text and "tied" in text
    assert "Enter play the Oracle's best move" in text
    assert rules_in_short(rules) in " ".join(text_of(rules_in_short(rules)).split())


KNOCK_FROM = "This table allows a knock only from a score of"
ONE_SUIT = "This table allows a knock only with three cards of one suit."
COUNTY = "After your last life you play on,"


@pytest.mark.parametrize(
    ("rules", "present"),
    [
        (Rules(), []),
        (Rules.preset("gin-lives"), []),
        (Rules(min_knock=17), [f"{KNOCK_FROM} 17."]),
        (Rules(min_knock=21.5), [f"{KNOCK_FROM} 21.5."]),
        (Rules(knock_needs_one_suit=True), [ONE_SUIT]),
        (Rules.preset("scat"), [f"{COUNTY} on the county; the next loss puts you out."]),
        (Rules.preset("ride-the-bus"), [f"{COUNTY} on the stairs; the next loss puts you out."]),
        (
            Rules.preset("cadillac").replace(min_knock=17, knock_needs_one_suit=True),
            [f"{KNOCK_FROM} 17.", ONE_SUIT, f"{COUNTY} on the county;"],
        ),
    ],
)
def test_help_tells_the_tables_knock_limits_and_county(rules: Rules, present: list[str]) -> None:
    """A table's knock minimum, its one-suit knock and its county each get a line of the help
    where the table plays them (docs/tables.md), and nothing where it does not."""
    text = text_of(help_text([Action("draw")], putting_down=False, rules=rules), 200)
    for words in present:
        assert words in text
    for words, played in ((KNOCK_FROM, rules.min_knock), (ONE_SUIT, rules.knock_needs_one_suit)):
        assert (words in text) == bool(played)
    assert (COUNTY in text) == rules.county
    if not rules.county:
        assert "county" not in text


FIRST_TURN = "no knock on the first turn"
BLIND = "blind showdown before anybody looks"
MERCY = "With two players left, your final turn after the other's knock may take back"


@pytest.mark.parametrize(
    ("rules", "present", "absent"),
    [
        (Rules(), [], [FIRST_TURN, BLIND, MERCY]),
        (Rules(first_turn_knock="forbidden"), [FIRST_TURN], [BLIND, MERCY]),
        (Rules(first_turn_knock="blind"), [BLIND, "no knock on that first turn"], [MERCY]),
        (Rules.preset("scat"), [MERCY], [FIRST_TURN, BLIND]),
        (Rules.preset("gin-lives").replace(first_turn_knock="blind"), [BLIND, MERCY], []),
    ],
)
def test_help_tells_the_tables_first_turn_and_mercy(
    rules: Rules, present: list[str], absent: list[str]
) -> None:
    """The first turn's rule (no knock; the blind showdown) and the two players' mercy are said
    in the help where the table plays them (docs/tables.md): the mercy's take of your own card is
    otherwise against the rule that nobody takes back a card they put down."""
    text = text_of(help_text([Action("draw")], putting_down=False, rules=rules), 200)
    for words in present:
        assert words in text
    for words in absent:
        assert words not in text
    if rules.first_turn_knock == "blind":  # the lowest 1; the caller 2 only when among them
        unit = "letter" if rules.gin else "life"
        assert re.search(rf"lowest dealt hand (loses|takes) a {unit}, and 2 \w+ if it is the", text)


@pytest.mark.parametrize("preset", ["scat", "cadillac", "gin-lives"])
def test_help_says_a_31_after_a_knock_goes_on_where_it_does(preset: str) -> None:
    """With a 31 after a knock played as "continues" (docs/tables.md), the round goes on after a
    knock: the help of a table where a 31 may also be hidden says so, not that a 31 shown ends
    the round at once."""
    rules = Rules.preset(preset).replace(thirty_one_after_knock="continues")
    text = " ".join(text_of(rules_in_short(rules)).split())
    assert "after a knock the round goes on" in text
    assert "ends the round at once" not in text
    assert "keep a 31 made in play hidden" in text


def test_glossary_names_every_word_the_advice_uses() -> None:
    words = [w for w, _ in glossary("letters") if w]  # (an empty word goes on with a meaning)
    assert words == [
        "safe",
        "±",
        "★ best",
        "≈ tied",
        "knock at",
        "letters lost",
        "win game",
        "for the game",
    ]
    # Every word the knock-at cell shows besides a score is said (the help's glossary left
    # "never" and "31: show" to the README).
    knock_at = " ".join(m for w, m in glossary("lives")[5:8])
    assert glossary("lives")[5][0] == "knock at"
    for cell in ("first:", "never:", f"{SHOW_31}:"):
        assert cell in knock_at, cell


def _game_opt(name: str, p_safe: float, lost: float, p_win: float) -> OptionAdvice:
    return OptionAdvice(
        name, p_safe, 0.01, lost, lives_lost_margin=0.02, p_win=p_win, p_win_margin=0.005
    )


def test_the_game_reason_names_the_lives_and_why() -> None:
    from thirtyone.oracle.words import Lives, game_reason

    knock = _game_opt("knock", 0.69, 0.61, 0.896)
    draw = _game_opt("draw", 0.68, 0.42, 0.917)
    lives = Lives([3, 1], 0, ["you", "Ben"])
    same = game_reason(knock, knock, lives)
    assert same == " For the game too: it wins the game 89.6% of the time."
    text = game_reason(knock, draw, lives)
    assert "For the game, draw from the stock is better: it wins the game 91.7% of the time" in text
    assert "against 89.6% to knock (lives: you 3, Ben 1)" in text
    # Drawing loses fewer lives by more than both margins: that is the reason given.
    assert "It loses fewer lives on average (0.42 against 0.61)" in text
    assert "within the margin" not in text
    # Equal lives lost: an opponent one loss from going out is the reason.
    close = _game_opt("draw", 0.68, 0.60, 0.899)
    text = game_reason(knock, close, lives)
    assert "within the margin of ±0.5 percentage points" in text
    assert "Ben is one loss from going out" in text
    # Nobody on a last life: the general reason; the county and Gin letters in words.
    calm = game_reason(knock, close, Lives([3, 2, 0], 0, None, county=True), unit="lives")
    assert "(lives: you 3, seat 1 2, seat 2 on the county)" in calm
    assert "Seat 2 is one loss from going out" in calm
    gin = game_reason(knock, close, Lives([2, 3], 1), unit="letters")
    assert "(letters left: you 3, seat 0 2)" in gin
    assert "The game counts the lives every outcome leaves" in gin
    # Gin lives with names of the lives (ruling 341): a name is the letters taken, not left.
    named = Lives([2, 3], 1, None, standings=["bee", "apple"])
    assert "(letters: you apple, seat 0 bee)" in game_reason(knock, close, named, unit="letters")


def test_ranked_points_in_words() -> None:
    from thirtyone.oracle.words import Lives, game_reason

    knock = _game_opt("knock", 0.69, 0.61, 1.62)
    draw = _game_opt("draw", 0.68, 0.42, 1.70)
    text = game_reason(knock, draw, Lives([3, 1], 0), points=True)
    assert "1.70 points against 1.62 to knock" in text
    assert game_reason(knock, knock, Lives([3, 1], 0), points=True).endswith("expects 1.62 points.")


def _first_chance(lowest: float) -> OptionAdvice:
    """A draw whose later knock is at the lowest score swept (``lowest``)."""
    scores = np.array([*np.arange(lowest, 31.0), np.nan])
    sweep = Sweep(scores, np.full(len(scores), 0.7), np.full(len(scores), 0.3))
    return _opt("draw", 0.72, 0.3, swept=True, knock_at=lowest, sweep=sweep)


def test_whatever_you_hold_only_where_any_hand_may_knock() -> None:
    # At a table with a knock minimum (21: the sweep's lowest score) or that needs one suit, a
    # knock at the first chance is not "whatever you hold": the rules refuse a lower or mixed
    # hand. A QA check of 1,855 positions found it said so at 59 of them.
    other = _opt("take", 0.60, 0.4, card="4H", discard="3H")
    anywhere = reason([_first_chance(2.0), other], [])
    assert "then knocking at your next turn whatever you hold" in anywhere
    for lowest in (21.0, 2.0):  # a knock minimum of 21; one suit needed (the sweep from 2)
        said = reason([_first_chance(lowest), other], [], any_hand=False)
        assert "whatever you hold" not in said
        assert "then knocking at the first chance the table's knock rules allow" in said
    tied = reason([_first_chance(21.0), other], [other], any_hand=False)
    assert "whatever you hold" not in tied and "the table's knock rules allow" in tied


def test_at_a_table_with_a_knock_minimum_the_advice_never_says_whatever_you_hold() -> None:
    # (A position a QA session found: eight seats, a knock minimum of 21; the best is to draw,
    # then knock at the first chance, 21, the lowest score swept.)
    turns = [("stock", "4S"), ("stock", "9C"), ("stock", "3S"), ("pile", "4H")]
    state = {
        "rules": {"preset": "standard", "seats": 8, "lives": 5, "min_knock": 21},
        "seats": 8,
        "me": 4,
        "first": 0,
        "upcard": "AC",
        "hand": ["3H", "QD", "KH"],
        "turns": [{"seat": i, "draw": d, "discard": c} for i, (d, c) in enumerate(turns)],
    }
    advice = advise(state, deals=300, playouts=1000, seed=2, max_time=None)
    best = advice.best
    assert best.option == "draw" and best.sweep is not None
    assert best.knock_at == best.sweep.knock_at[0] == 21
    assert "whatever you hold" not in advice.reason
    assert "the first chance the table's knock rules allow" in advice.reason


#: You hid a 31 (AS KS QS) on your first turn; the two others drew and put down.
HIDDEN_31: dict[str, Any] = {
    "rules": {"preset": "standard", "may_hide_31": True},
    "seats": 3,
    "me": 0,
    "first": 0,
    "upcard": "2D",
    "hand": ["AS", "KS", "QS"],
    "turns": [
        {"seat": 0, "draw": "stock", "drew": "QS", "discard": "5C", "hides": True},
        {"seat": 1, "draw": "stock", "discard": "4H"},
        {"seat": 2, "draw": "stock", "discard": "7C"},
    ],
}


def test_a_draw_with_a_31_kept_hidden_says_it_shows_it() -> None:
    """You hid a 31 (AS KS QS) on your first turn: a draw keeps it and shows it at the put-down
    (the core's rule; the round ends there), which is why it is safe. Its plan says so in the
    reason, the "Best" line and the table's cell, as a put-down that makes 31 says it (the draw
    had no words at all beside its 100.0%)."""
    position = HIDDEN_31
    advice = advise(position, deals=200, playouts=1000, seed=1, max_time=None)
    draw = advice.option("draw")
    assert draw.shows_hidden_31 and draw.p_safe == 1.0 and advice.best is draw
    assert plan(draw) == "show your 31"
    assert advice.reason.startswith("Draw from the stock, then showing your 31: safe in 100.0%")
    shown = text_of(advice_panel_body(advice))
    assert "Best: draw (then show your 31)" in shown and "draw 100.0% ±0.0 31: show" in shown
    assert not any(o.shows_hidden_31 for o in advice.options if o is not draw)
    # With no 31 hidden (a 30 kept), no draw says it.
    first = {"seat": 0, "draw": "stock", "drew": "9S", "discard": "5C"}
    kept_30 = {**position, "hand": ["AS", "KS", "9S"], "turns": [first, *position["turns"][1:]]}
    assert not any(o.shows_hidden_31 for o in advise(kept_30, deals=100, seed=1).options)


def test_a_put_down_that_keeps_a_31_kept_hidden_says_it_keeps_it() -> None:
    """Ruling 314: you hid a 31 (AS KS QS) and drew the 8H; putting the 8H down keeps the 31,
    which is shown at once. It said "it makes 31 — show it", of a 31 you already held; it says
    "it keeps your 31 — show it" in the plan, the reason and the "Best" line, and the options
    that leave no 31 say nothing of it."""
    position = {**HIDDEN_31, "pending": {"draw": "stock", "drew": "8H"}}
    advice = advise(position, deals=200, playouts=1000, seed=1, max_time=None)
    keep = advice.option("discard:8H")
    assert advice.best is keep and keep.shows_hidden_31 and keep.keeps == 31
    assert plan(keep) == "keeps your 31 — show it"
    assert advice.reason.startswith("Put down the 8H (it keeps your 31 — show it): safe in")
    assert "Best: put down 8H (it keeps your 31 — show it)" in text_of(advice_panel_body(advice))
    assert not any(o.shows_hidden_31 for o in advice.options if o is not keep)
    # Without the 31 hidden (AS KS 9S, a 30), a put-down that makes 31 still says "makes".
    made = {**position, "hand": ["AS", "KS", "9S"], "pending": {"draw": "stock", "drew": "QS"}}
    made["turns"] = [{**position["turns"][0], "drew": "9S", "hides": False}, *position["turns"][1:]]
    shown = advise(made, deals=200, playouts=1000, seed=1, max_time=None).option("discard:9S")
    assert not shown.shows_hidden_31 and plan(shown) == "makes 31 — show it"


def test_a_tie_level_as_shown_is_not_said_to_be_ahead() -> None:
    # Ruling 308: 49.2% and 49.2% as shown are not "marginally ahead"; the third, lower, tied too.
    best = _opt("discard:TH", 0.4922, 0.5)
    level = _opt("discard:QC", 0.4918, 0.5)
    lower = _opt("discard:4S", 0.474, 0.5)
    text = reason([best, level, lower], [level, lower])
    assert "marginally ahead" not in text
    assert "The first is safe in 49.2% of the simulated rounds, as is to put down the QC." in text
    two = _opt("discard:QD", 0.4921, 0.5)
    text = reason([best, level, two, lower], [level, two, lower])
    assert "as are to put down the QC and the QD." in text
