"""Every table's rules: the presets follow their rule documents, and rules that contradict
themselves or the table are refused naming the field.

Expected values are written from the documents' words (our account of them: seeds/) and
the rulings in notes/DECISIONS.md, with stacked decks; never read back from the code under test.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from thirtyone import RuleError, Rules
from variant_helpers import PRESETS

# -- the presets follow their documents -----------------------------------------------------------


def test_every_preset_says_which_document_it_follows_and_how_it_differs() -> None:
    assert sorted(Rules.PRESETS) == sorted(PRESETS)
    for name in PRESETS:
        info = Rules.PRESET_INFO[name]
        assert info.name == name and "rule document 00" in info.document and info.differs
        Rules.preset(name)  # valid
    assert Rules.preset("standard") == Rules()


def test_preset_fields_follow_the_documents() -> None:
    # 001: five lives; trips 30.5; a 31 after a knock and the round continues; the knocker 2.
    r = Rules.preset("five-lives")
    assert (r.lives, r.three_of_a_kind, r.thirty_one_after_knock, r.knock_penalty) == (
        5,
        "30.5",
        "continues",
        2,
    )
    assert not r.county
    # 002: four corners, then a fifth loss puts you out; the knocker's penalty doubled.
    r = Rules.preset("four-corners")
    assert (r.lives, r.county, r.knock_penalty) == (4, True, 2)
    # 003's main rules.
    r = Rules.preset("scat")
    assert (r.lives, r.county, r.knocker_tie, r.knock_penalty) == (3, True, "others_pay", 2)
    assert r.two_player_mercy and r.may_hide_31 and r.first_turn_knock == "allowed"
    assert r.thirty_one_after_knock == "ends_round" and r.three_of_a_kind == "none"
    # 003's Cadillac.
    r = Rules.preset("cadillac")
    assert (r.lives, r.three_of_a_kind, r.three_aces, r.knocker_tie) == (4, "30", "33", "cadillac")
    # 003's Ride the Bus: back, middle, front, stairs (the county), off the bus.
    r = Rules.preset("ride-the-bus")
    assert r.county and r.lives == 3
    assert [r.standing(n) for n in (3, 2, 1, 0, -1)] == list(r.life_names)
    assert "back" in r.life_names[0] and "stairs" in r.life_names[3] and "off" in r.life_names[4]
    # 003's Gin lives.
    r = Rules.preset("gin-lives")
    assert (r.lives_mode, r.lives, r.county, r.knock_penalty) == ("gin", 3, False, 1)


def test_describe_and_options_cover_every_field() -> None:
    names = Rules.option_names()
    for new in ("county", "lives_mode", "life_names", "placing", "may_hide_31"):
        assert new in names
    opts = {o.name: o for o in Rules.options()}
    assert set(opts) == set(names)
    assert "blind" in opts["first_turn_knock"].values
    assert all(o.meaning and o.seed for o in opts.values())
    assert opts["county"].default == "false" and opts["placing"].default == "winner_takes_all"


# -- validation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Rules.preset("poker"), "poker"),
        (lambda: Rules().replace(jokers=True), "jokers"),
        (lambda: Rules.from_spec({"preset": "scat", "bogus": 1}), "bogus"),
        (lambda: Rules(min_knock=32), "min_knock"),
        (lambda: Rules(lives=0), "lives"),
        (lambda: Rules(seats=1), "seats"),
        (lambda: Rules(seats=10), "seats"),
        (lambda: Rules(placing="podium"), "placing"),
        (lambda: Rules(lives_mode="letters"), "lives_mode"),
        (lambda: Rules(first_turn_knock="hammer"), "first_turn_knock"),
        (lambda: Rules(county="yes"), "county"),
        (lambda: Rules(may_hide_31=1), "may_hide_31"),
        (lambda: Rules(lives_mode="gin", county=True), "county"),
        (lambda: Rules(lives_mode="gin", lives=4), "lives"),
        (lambda: Rules(lives_mode="gin", knocker_tie="others_pay"), "knocker_tie"),
        (lambda: Rules.preset("scat").replace(lives_mode="gin"), "county"),
        (lambda: Rules(life_names=("a", "b")), "life_names"),
        (lambda: Rules.preset("ride-the-bus").replace(lives=4), "life_names"),
        (lambda: Rules(life_names=("a", "", "c", "d")), "life_names"),
        (lambda: Rules.parse_assignment("county=maybe"), "county"),
        (lambda: Rules.parse_assignment("colour=red"), "colour"),
    ],
)
def test_invalid_rules_are_refused_naming_the_field(make: Callable[[], Any], field: str) -> None:
    with pytest.raises(RuleError, match=field):
        make()


def test_assignments_and_specs_of_the_new_options() -> None:
    assert Rules.parse_assignment("life_names=a, b ,c,d") == ("life_names", ("a", "b", "c", "d"))
    assert Rules.parse_assignment("life_names=") == ("life_names", ())
    assert Rules.parse_assignment("county=yes") == ("county", True)
    assert Rules.parse_assignment("first-turn-knock=blind") == ("first_turn_knock", "blind")
    r = Rules.from_spec({"preset": "standard", "life_names": ["w", "x", "y", "z"]})
    assert r.life_names == ("w", "x", "y", "z")
    assert r.standing(3) == "w" and r.standing(0) == "z"
    # A state's rules object round-trips through to_dict (JSON-friendly).
    for name in PRESETS:
        r = Rules.preset(name)
        assert Rules.from_spec(json.loads(json.dumps(r.to_dict()))) == r
    # Gin lives works from the standard table by setting the mode.
    assert Rules(lives_mode="gin").gin
