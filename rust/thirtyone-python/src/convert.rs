//! Python values to core values and back.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use pythonize::Depythonizer;
use thirtyone_core::oracle::input::rule_value;
use thirtyone_core::rules::{score_from_points, RuleSet};
use thirtyone_core::{Card, Error, RoundRules, Score};

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

/// The round-level rules from the dict `Rules.round_rules()` gives (absent keys: standard),
/// read by the core's one reader of rule options.
pub fn round_rules(d: Option<&Bound<'_, PyDict>>) -> PyResult<RoundRules> {
    let mut t = RuleSet::default();
    if let Some(d) = d {
        for (k, v) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| to_py(Error::BadRule("rules", "option names must be text".into())))?;
            let value = rule_value(&key, &mut Depythonizer::from_object(&v)).py_err()?;
            t.apply(&key, &value).py_err()?;
        }
    }
    t.validate().py_err()?;
    Ok(t.round)
}
