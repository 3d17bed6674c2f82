//! The Oracle's settings as Python gives them. Nothing is checked here but the kind of value:
//! the bounds are the core's (`thirtyone_core::settings`), so a number of any size reaches them
//! (one too large even for an `i128` as the largest or smallest `i128`) and gets their message.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};
use thirtyone_core::oracle::settings::{
    not_number, not_whole, Asked, Settings, DEFAULT_DEALS, DEFAULT_PLAYOUTS,
};
use thirtyone_core::Result;

use crate::errors::IntoPy;

/// A setting's value as given. Extracting one never fails: what is wrong with it is said when it
/// is checked, naming the setting.
#[derive(Clone, Debug)]
pub enum Given {
    Whole(i128),
    Real(f64),
    /// Anything else (True, a string, ...), as shown in messages.
    Other(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Given {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        if obj.is_instance_of::<PyBool>() {
            return Ok(Given::Other(shown(&obj)));
        }
        if !obj.is_instance_of::<PyFloat>() {
            match obj.extract::<i128>() {
                Ok(v) => return Ok(Given::Whole(v)),
                Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                    let negative = obj.lt(0)?;
                    return Ok(Given::Whole(if negative { i128::MIN } else { i128::MAX }));
                }
                Err(_) => {}
            }
        }
        Ok(match obj.extract::<f64>() {
            Ok(x) => Given::Real(x),
            Err(_) => Given::Other(shown(&obj)),
        })
    }
}

impl Given {
    fn whole(&self, name: &str) -> Result<i128> {
        match self {
            Given::Whole(v) => Ok(*v),
            Given::Real(x) => Err(not_whole(name, format!("{x:?}"))),
            Given::Other(s) => Err(not_whole(name, s)),
        }
    }

    fn number(&self, name: &str) -> Result<f64> {
        match self {
            // (An int too large for an i128 is as good as infinite.)
            Given::Whole(i128::MAX) => Ok(f64::INFINITY),
            Given::Whole(i128::MIN) => Ok(f64::NEG_INFINITY),
            Given::Whole(v) => Ok(*v as f64),
            Given::Real(x) => Ok(*x),
            Given::Other(s) => Err(not_number(name, s)),
        }
    }
}

/// A value as shown in a message, as the product shows a refused value (`thirtyone.names.shown`):
/// as JSON spells it (text in double quotes, cropped as the core quotes it; `true`, `null`), a
/// list or a tuple as `a list`, a mapping as `an object`, anything else by its type's name.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    if obj.is_none() {
        return "null".into();
    }
    if let Ok(flag) = obj.cast::<PyBool>() {
        return if flag.is_true() { "true" } else { "false" }.into();
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return match text.to_str() {
            Ok(t) => thirtyone_core::error::quote(t),
            Err(_) => "text that is not valid (a lone surrogate?)".into(),
        };
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return "a list".into();
    }
    if obj.is_instance_of::<PyDict>() {
        return "an object".into();
    }
    obj.get_type()
        .name()
        .map_or_else(|_| "a value that cannot be shown".into(), |n| n.to_string())
}

/// The settings given, checked by the core.
pub fn settings(
    deals: &Given,
    playouts: &Given,
    seed: &Given,
    threads: Option<&Given>,
    max_time: Option<&Given>,
    target_margin: Option<&Given>,
) -> Result<Settings> {
    Settings::checked(&Asked {
        deals: deals.whole("deals")?,
        playouts: playouts.whole("playouts")?,
        seed: seed.whole("seed")?,
        threads: threads.map(|t| t.whole("threads")).transpose()?,
        max_time: max_time.map(|t| t.number("max_time")).transpose()?,
        target_margin: target_margin
            .map(|m| m.number("target_margin"))
            .transpose()?,
    })
}

/// Whether the objective (`round` or `game`) is the game's.
pub fn game_objective(objective: &str) -> Result<bool> {
    match objective {
        "round" => Ok(false),
        "game" => Ok(true),
        other => Err(thirtyone_core::Error::BadSetting(format!(
            "objective must be round or game, not {}",
            thirtyone_core::error::quote(other)
        ))),
    }
}

/// A count of deals (a function's `n`), checked by the core.
pub fn count(name: &str, n: &Given) -> Result<usize> {
    thirtyone_core::oracle::settings::count(name, n.whole(name)?)
}

/// A seed and a number of threads, checked by the core.
pub fn seed_and_threads(seed: &Given, threads: Option<&Given>) -> Result<(u64, Option<usize>)> {
    let s = settings(
        &Given::Whole(1),
        &Given::Whole(1),
        seed,
        threads,
        None,
        None,
    )?;
    Ok((s.seed, s.threads))
}

/// Check the Oracle's settings without using them; raises SettingsError naming the first one
/// out of its bounds. (What `advise` does first; the command line calls it before a long run.)
#[pyfunction]
#[pyo3(
    signature = (deals=Given::Whole(DEFAULT_DEALS as i128), playouts=Given::Whole(DEFAULT_PLAYOUTS as i128), seed=Given::Whole(0), threads=None, max_time=None, target_margin=None),
    text_signature = "(deals=10000, playouts=50000, seed=0, threads=None, max_time=None, target_margin=None)"
)]
pub fn check_settings(
    deals: Given,
    playouts: Given,
    seed: Given,
    threads: Option<Given>,
    max_time: Option<Given>,
    target_margin: Option<Given>,
) -> PyResult<()> {
    settings(
        &deals,
        &playouts,
        &seed,
        threads.as_ref(),
        max_time.as_ref(),
        target_margin.as_ref(),
    )
    .map(drop)
    .py_err()
}
