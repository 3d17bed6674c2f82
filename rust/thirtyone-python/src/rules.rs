//! A table's rules, read and checked once by the core (`thirtyone_core::rules`, and
//! `thirtyone_core::oracle::input` for a mapping); here only the conversion to and from Python
//! objects.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use pythonize::Depythonizer;
use thirtyone_core::oracle::input::{self, Overrides};
use thirtyone_core::rules::{
    self, FirstTurnKnock, KnockerTie, LivesMode, Placing, RuleSet, RuleValue, ThirtyOneAfterKnock,
};
use thirtyone_core::{Error, ThreeOfAKind};

use crate::errors::{to_py, IntoPy};

fn name_of<T: PartialEq + Copy>(value: T, names: &[(&'static str, T)]) -> &'static str {
    names
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(n, _)| n)
}

/// Every option of a table by name, as `thirtyone.Rules` holds them.
pub fn rules_dict<'py>(py: Python<'py>, t: &RuleSet) -> PyResult<Bound<'py, PyDict>> {
    let r = &t.round;
    let d = PyDict::new(py);
    d.set_item("seats", t.seats)?;
    d.set_item("lives", t.lives)?;
    d.set_item("county", t.county)?;
    d.set_item("lives_mode", name_of(r.lives_mode, &LivesMode::NAMES))?;
    d.set_item("life_names", t.life_names.clone())?;
    d.set_item("placing", name_of(t.placing, &Placing::NAMES))?;
    d.set_item("knock_penalty", r.knock_penalty)?;
    d.set_item("knocker_tie", name_of(r.knocker_tie, &KnockerTie::NAMES))?;
    d.set_item(
        "three_of_a_kind",
        name_of(r.scoring.three_of_a_kind, &ThreeOfAKind::NAMES),
    )?;
    d.set_item(
        "three_aces",
        if r.scoring.three_aces_33 {
            "33"
        } else {
            "none"
        },
    )?;
    d.set_item("runs", r.scoring.runs)?;
    let mk = r.min_knock.points();
    if mk.fract() == 0.0 {
        d.set_item("min_knock", mk as i64)?;
    } else {
        d.set_item("min_knock", mk)?;
    }
    d.set_item("knock_needs_one_suit", r.knock_needs_one_suit)?;
    d.set_item(
        "first_turn_knock",
        name_of(r.first_turn_knock, &FirstTurnKnock::NAMES),
    )?;
    d.set_item(
        "thirty_one_after_knock",
        name_of(r.thirty_one_after_knock, &ThirtyOneAfterKnock::NAMES),
    )?;
    d.set_item("two_player_mercy", r.two_player_mercy)?;
    d.set_item("may_hide_31", r.may_hide_31)?;
    Ok(d)
}

/// Rule changes given as Python pairs (name, value).
fn changes(pairs: Option<Vec<(String, Bound<'_, PyAny>)>>) -> PyResult<Vec<(String, RuleValue)>> {
    pairs
        .unwrap_or_default()
        .into_iter()
        .map(|(key, value)| {
            let v = input::rule_value(&key, &mut Depythonizer::from_object(&value)).py_err()?;
            Ok((key, v))
        })
        .collect()
}

pub fn overrides(
    preset: Option<String>,
    pairs: Option<Vec<(String, Bound<'_, PyAny>)>>,
) -> PyResult<Overrides> {
    Ok(Overrides {
        preset,
        changes: changes(pairs)?,
    })
}

/// A table's rules from a preset name or a mapping `{"preset": …, option: value, …}` (None:
/// standard), then `changes` in order: every option by name, checked.
#[pyfunction]
#[pyo3(signature = (spec=None, changes=None))]
pub fn parse_rules<'py>(
    py: Python<'py>,
    spec: Option<&Bound<'py, PyAny>>,
    changes: Option<Vec<(String, Bound<'py, PyAny>)>>,
) -> PyResult<Bound<'py, PyDict>> {
    let o = overrides(None, changes)?;
    rules_dict(py, &rule_set(spec, &o)?)
}

/// A table's rules from a preset name or a mapping (None: standard), with `o` applied.
pub fn rule_set(spec: Option<&Bound<'_, PyAny>>, o: &Overrides) -> PyResult<RuleSet> {
    match spec {
        None => rules::build(None, &o.changes).py_err(),
        Some(s) => input::rules_from_deserializer(&mut Depythonizer::from_object(s), o).py_err(),
    }
}

/// `KEY=VALUE` (as given to `--rule`): the option's name and its value, typed.
#[pyfunction]
pub fn rule_assignment<'py>(py: Python<'py>, text: &str) -> PyResult<(String, Bound<'py, PyAny>)> {
    let (key, value) = rules::assignment(text).py_err()?;
    let mut t = RuleSet::default();
    t.apply(&key, &value).py_err()?;
    let d = rules_dict(py, &t)?;
    let typed = d
        .get_item(&key)?
        .ok_or_else(|| to_py(Error::BadRule("rules", format!("no option {key}"))))?;
    Ok((key, typed))
}

/// The preset names.
#[pyfunction]
pub fn presets() -> Vec<&'static str> {
    rules::PRESETS.to_vec()
}
