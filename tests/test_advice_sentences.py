"""Every sentence of the advice, checked against a table of real positions at every preset
(2, 4 and 6 seats): the decisions of games played by the table's rule, starts and put-downs,
with every seat's lives. What is checked is what the words must never do (issue 27): compare a
figure with its equal, plan a knock at 31, name an option twice, leave a sentence empty or
endless, list the lives out of seat order, put the ★ on an option that costs more than one tied
with it, or name a "best for the game" that does not show a higher figure."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_advice_agrees import real_positions
from test_advice_words import text_of
from thirtyone import Rules, advise
from thirtyone.oracle.answer import Advice, Kind
from thirtyone.oracle.rank import fewer_lost, higher_game
from thirtyone.oracle.reads import held_from_pile, reads, why_line
from thirtyone.oracle.words import gist, makes_31, safest
from thirtyone.terminal.advice_view import advice_panel_body

COMPARED = re.compile(r"(\d+(?:\.\d+)?%?) (?:against|to) (\d+(?:\.\d+)?%?)")


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def check_words(advice: Advice, state: dict[str, Any], names: list[str]) -> None:
    best, tied = advice.best, advice.tied
    panel = text_of(advice_panel_body(advice), width=100)
    why = why_line(advice, reads(state, names, advice))
    texts = [advice.reason, gist(advice), panel, why or ""]
    for text in texts:
        assert "31 or more" not in text and "knock at 31" not in text, text
        assert ".." not in text and " ." not in text and "()" not in text, text
        for a, b in COMPARED.findall(text):
            assert a != b, f"{a} compared with {b}: {text}"
    for sentence in sentences(advice.reason):
        assert len(sentence.split()) <= 80, sentence
        assert sentence[:1].isupper() and sentence[-1] in ".!", sentence
        for o in advice.options:
            if o.kind is Kind.PUT_DOWN:
                assert sentence.count(f"the {o.discard}") <= 1, sentence
    line = gist(advice)
    assert len(sentences(line)) <= 2 and len(line) <= 100, line
    # The lives, in turn order from the seat after yours.
    if "lives: you" in advice.reason or "letters left: you" in advice.reason:
        n, me = state["seats"], state["me"]
        order = [names[(me + k) % n] for k in range(1, n)]
        listed = advice.reason.split(": you ")[1].split(")")[0]
        # (Each part is a name and its lives: a count, "on the county", or at a table that
        # names its lives the name: "bill unfolded".)
        parts = listed.split(", ")[1:]
        shown = [max((m for m in names if p.startswith(m + " ")), key=len) for p in parts]
        assert shown == order, advice.reason
    # The star: no option tied with it loses fewer lives; when it is not the safest, the reason
    # says what decided.
    group = [best, *tied]
    assert not any(fewer_lost(o, best) for o in group), group
    top = safest(best, tied)
    if top is not best:
        assert "tied on safety" in advice.reason
        decided = (
            "loses fewer",
            "wins the game more",
            "more points",
            "higher chance to win the game",
            "higher expected points",
        )
        assert any(w in advice.reason for w in decided), advice.reason
    # The game's option, named only for a higher figure as shown.
    if advice.best_game is not None and advice.best_game.option != best.option:
        assert higher_game(advice.best_game, best, advice.points)
        assert "Best for the game" in panel
    else:
        assert "Best for the game" not in panel
    if makes_31(best):
        assert "makes 31" in advice.reason and "31: show" in panel
    if why is not None and " took the " in why:
        seat = names.index(why.split()[1])
        assert (
            why.split(" took the ")[1].split(":")[0].split(" and the ")
            == held_from_pile(state)[seat]
        )


@pytest.mark.parametrize("preset", Rules.PRESETS)
def test_the_words_of_real_positions(preset: str) -> None:
    checked = 0
    for seats, seed in ((2, 1), (4, 2), (6, 3)):
        for state in real_positions(preset, seed, seats=seats, most=6):
            names = [f"P{s}" for s in range(state["seats"])]
            advice = advise(state, deals=200, playouts=1000, seed=1, max_time=None, names=names)
            check_words(advice, state, names)
            checked += 1
    assert checked >= 12
