//! Python values to core values and back.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::rules::{score_from_points, FirstTurnKnock, KnockerTie, ThirtyOneAfterKnock};
use thirtyone_core::{Card, Error, RoundRules, Score, ThreeOfAKind};

use crate::errors::{to_py, IntoPy};

pub fn card(text: &str) -> PyResult<Card> {
    Card::parse(text).py_err()
}

pub fn cards<const N: usize>(texts: &[String], what: &str) -> PyResult<[Card; N]> {
    if texts.len() != N {
        return Err(to_py(Error::BadState(format!(
            "{what} must be {N} cards, not {}",
            texts.len()
        ))));
    }
    let mut out = [Card::from_index(0); N];
    for (slot, t) in out.iter_mut().zip(texts) {
        *slot = card(t)?;
    }
    Ok(out)
}

pub fn points(s: Score) -> f64 {
    s.points()
}

pub fn threshold(field: &'static str, points: f64) -> PyResult<Score> {
    score_from_points(field, points).py_err()
}

fn bad_type(field: &'static str, want: &str) -> PyErr {
    to_py(Error::BadRule(field, format!("must be {want}")))
}

/// The round-level rules from the dict `Rules.round_rules()` gives (absent keys: standard).
pub fn round_rules(d: Option<&Bound<'_, PyDict>>) -> PyResult<RoundRules> {
    let mut r = RoundRules::default();
    let Some(d) = d else { return Ok(r) };
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| to_py(Error::BadRule("rules", "keys must be text".into())))?;
        let text = |field: &'static str| -> PyResult<String> {
            v.extract::<String>().map_err(|_| bad_type(field, "text"))
        };
        let flag = |field: &'static str| -> PyResult<bool> {
            v.extract::<bool>()
                .map_err(|_| bad_type(field, "true or false"))
        };
        match key.as_str() {
            "knock_penalty" => {
                r.knock_penalty = v
                    .extract::<u8>()
                    .map_err(|_| bad_type("knock_penalty", "1 or 2"))?
            }
            "knocker_tie" => r.knocker_tie = KnockerTie::parse(&text("knocker_tie")?).py_err()?,
            "three_of_a_kind" => {
                r.scoring.three_of_a_kind =
                    ThreeOfAKind::parse(&text("three_of_a_kind")?).py_err()?
            }
            "three_aces" => {
                r.scoring.three_aces_33 = match text("three_aces")?.as_str() {
                    "none" => false,
                    "33" => true,
                    other => {
                        return Err(to_py(Error::BadRule(
                            "three_aces",
                            format!("{other:?} is not one of none, 33"),
                        )))
                    }
                }
            }
            "runs" => r.scoring.runs = flag("runs")?,
            "min_knock" => {
                let p: f64 = v.extract().map_err(|_| bad_type("min_knock", "a score"))?;
                r.min_knock = threshold("min_knock", p)?;
            }
            "knock_needs_one_suit" => r.knock_needs_one_suit = flag("knock_needs_one_suit")?,
            "first_turn_knock" => {
                r.first_turn_knock = FirstTurnKnock::parse(&text("first_turn_knock")?).py_err()?
            }
            "thirty_one_after_knock" => {
                r.thirty_one_after_knock =
                    ThirtyOneAfterKnock::parse(&text("thirty_one_after_knock")?).py_err()?
            }
            "two_player_mercy" => r.two_player_mercy = flag("two_player_mercy")?,
            _ => {
                return Err(to_py(Error::BadRule(
                    "rules",
                    format!("{key:?} is not a round rule"),
                )))
            }
        }
    }
    r.validate().py_err()?;
    Ok(r)
}
