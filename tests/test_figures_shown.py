"""Every screen shows a figure with the same digits: the words (terminal, reason, review) and a
page that formats the JSON answer's figure (rounded to four places) agree, because both round
the JSON's figure half up in tenths (`thirtyone.oracle.rank.tenths`). Before, the reason was
written from the unrounded figure and the browser rounded the JSON's again: "12.7%" in the
reason beside "12.8%" in the table for a `p_win` of 0.1275."""

from __future__ import annotations

import json
import math

from hypothesis import example, given
from hypothesis import strategies as st
from thirtyone import advise
from thirtyone.oracle.rank import percent_shown, shown_gap, tenths, two_places
from thirtyone.oracle.words import pct, pp
from thirtyone.terminal.advice_view import points

STATE = {
    "rules": {"preset": "standard", "seats": 4},
    "seats": 4,
    "me": 0,
    "first": 0,
    "upcard": "JH",
    "hand": ["9D", "6D", "TD"],
    "turns": [],
}


def as_a_page_shows(reported: float) -> str:
    """What a page makes of a figure of the JSON answer: hundredths of a percentage, then
    tenths half up (the integer arithmetic of the table page's script)."""
    hundredths = math.floor(reported * 10_000 + 0.5)
    whole = (hundredths + 5) // 10
    return f"{whole // 10}.{whole % 10}"


def test_halves_go_up_from_the_four_places_the_json_reports() -> None:
    assert percent_shown(0.1275) == "12.8"
    assert percent_shown(0.12749) == "12.8"  # reported as 0.1275
    assert percent_shown(0.12744) == "12.7"  # reported as 0.1274
    assert percent_shown(0.1225) == "12.3"
    assert percent_shown(0.0215) == "2.2"
    assert percent_shown(0.99995) == "100.0"
    assert percent_shown(0.0) == "0.0"
    assert percent_shown(-0.0215) == "-2.2"
    assert tenths(0.0215) == 22 and tenths(-0.0215) == -22
    assert (pct(0.1275), pp(0.0215), points(0.0215)) == ("12.8%", "2.2 percentage points", "±2.2")
    # Two decimals (lives lost, points) the same way: four places, then hundredths half up.
    assert (two_places(0.125), two_places(0.12449), two_places(1.625)) == ("0.13", "0.12", "1.63")
    assert (two_places(-0.125), two_places(-0.00004), two_places(2.0)) == ("-0.13", "0.00", "2.00")
    assert percent_shown(float("nan")) == two_places(float("nan")) == "—"
    # A difference said beside two figures is theirs: 64.3% against 61.3% is 3.0 points (the
    # unrounded difference, 0.0305, reads 3.1).
    assert pp(shown_gap(0.643, 0.6125)) == "3.0 percentage points"


@given(st.floats(min_value=0.0, max_value=1.0))
@example(0.12749999)
@example(0.02154)
def test_the_words_show_what_a_page_makes_of_the_json(x: float) -> None:
    reported = json.loads(json.dumps(round(x, 4)))
    assert percent_shown(x) == as_a_page_shows(reported) == percent_shown(reported)


def test_the_reason_names_each_figure_as_the_json_reports_it() -> None:
    advice = advise(STATE, deals=300, playouts=1000, seed=4, max_time=None)
    data = advice.to_dict()
    # Every percentage the reason names is one a page shows for an option from the JSON.
    page = {as_a_page_shows(o["p_safe"]) + "%" for o in data["options"]}
    named = [w.strip("(.,);") for w in data["reason"].split() if "%" in w]
    assert named, data["reason"]
    for figure in named:
        assert figure in page, (figure, page, data["reason"])
