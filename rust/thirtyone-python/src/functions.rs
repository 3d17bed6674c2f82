//! Module-level functions: card text, hand scores and the table's decision rule.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::hand::decision::{self, Start};

use crate::convert::{card, cards, points, round_rules, threshold};

/// The two-character ASCII form of a card given in any accepted spelling.
#[pyfunction]
pub fn parse_card(text: &str) -> PyResult<String> {
    Ok(card(text)?.to_string())
}

/// A card's value: ace 11, ten and picture cards 10, the others their pip value.
#[pyfunction]
pub fn card_value(text: &str) -> PyResult<u8> {
    Ok(card(text)?.value())
}

/// The score of a three-card hand under the given round rules (standard when omitted).
#[pyfunction]
#[pyo3(signature = (hand, rules=None))]
pub fn score(hand: Vec<String>, rules: Option<&Bound<'_, PyDict>>) -> PyResult<f64> {
    let rules = round_rules(rules)?;
    Ok(points(rules.scoring.score(cards::<3>(&hand, "a hand")?)))
}

/// Rules 1–3 of the table's decision rule: "knock", "take", "draw" or "decline".
#[pyfunction]
#[pyo3(signature = (hand, top, may_knock, stock_empty, knock_at=27.0, rules=None))]
pub fn choose_start(
    hand: Vec<String>,
    top: Option<String>,
    may_knock: bool,
    stock_empty: bool,
    knock_at: f64,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<&'static str> {
    let rules = round_rules(rules)?;
    let hand = cards::<3>(&hand, "a hand")?;
    let top = top.as_deref().map(card).transpose()?;
    let start = decision::choose_start(
        &rules.scoring,
        hand,
        top,
        may_knock,
        stock_empty,
        threshold("knock_at", knock_at)?,
    );
    Ok(match start {
        Start::Knock => "knock",
        Start::Take => "take",
        Start::Draw => "draw",
        Start::Decline => "decline",
    })
}

/// Rule 4: the card to put down from `hand` plus `new` (taken from the pile when `from_pile`).
#[pyfunction]
#[pyo3(signature = (hand, new, from_pile, rules=None))]
pub fn choose_put_down(
    hand: Vec<String>,
    new: &str,
    from_pile: bool,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let rules = round_rules(rules)?;
    let p = decision::choose_put_down(
        &rules.scoring,
        cards::<3>(&hand, "a hand")?,
        card(new)?,
        from_pile,
    );
    Ok(p.card.to_string())
}
