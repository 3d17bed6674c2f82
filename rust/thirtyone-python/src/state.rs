//! `thirtyone._core.State`: the Oracle's input (`oracle.md`), read and checked once by the core
//! (`thirtyone_core::oracle::input`); here only the conversion from Python objects and the
//! getters.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use pythonize::Depythonizer;
use thirtyone_core::oracle::input::{self, State};
use thirtyone_core::Error;

use crate::errors::{to_py, IntoPy};
use crate::rules::{overrides, rules_dict};

/// The Oracle's input, read and checked once (`oracle.md`): the table's rules, the round as the
/// player saw it, the lives if given.
#[pyclass(frozen, module = "thirtyone._core", name = "State")]
pub struct PyOracleState {
    pub inner: State,
}

#[pymethods]
impl PyOracleState {
    /// Read a state from JSON text (str or bytes) or a mapping. `preset` replaces the state's
    /// rules; `changes` (name, value) apply on top.
    #[staticmethod]
    #[pyo3(signature = (data, preset=None, changes=None))]
    fn parse(
        data: &Bound<'_, PyAny>,
        preset: Option<String>,
        changes: Option<Vec<(String, Bound<'_, PyAny>)>>,
    ) -> PyResult<PyOracleState> {
        let o = overrides(preset, changes)?;
        let inner = if let Ok(b) = data.cast::<PyBytes>() {
            input::from_json(b.as_bytes(), &o)
        } else if let Ok(s) = data.cast::<PyString>() {
            let text = s.to_str().map_err(|_| {
                to_py(Error::BadState(
                    "the state is not valid text (a lone surrogate?)".into(),
                ))
            })?;
            input::from_json(text.as_bytes(), &o)
        } else {
            input::from_deserializer(&mut Depythonizer::from_object(data), &o)
        };
        Ok(PyOracleState {
            inner: inner.map_err(plain_text).py_err()?,
        })
    }

    /// Every rule of the table, by name (as `thirtyone.Rules` holds them).
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rules_dict(py, &self.inner.rules)
    }

    #[getter]
    fn seats(&self) -> u8 {
        self.inner.round.seats
    }

    #[getter]
    fn me(&self) -> u8 {
        self.inner.round.me
    }

    /// The lives of every seat, when the state gave them.
    #[getter]
    fn lives(&self) -> Option<Vec<u32>> {
        self.inner
            .lives
            .as_ref()
            .map(|l| l.iter().map(|&x| u32::from(x)).collect())
    }
}

/// Python's words for a string that is not valid text (a lone surrogate, which the reader of
/// Python objects passes on as Python's `UnicodeEncodeError`) or for an int too large to read
/// (`OverflowError`), in the product's: the place the message names is kept.
fn plain_text(e: Error) -> Error {
    const PYTHONS: &str = "UnicodeEncodeError";
    // A Python int beyond what the reader of numbers holds (128 bits).
    const OVERFLOW: &str = "OverflowError";
    let said = |m: String| match (m.find(PYTHONS), m.find(OVERFLOW)) {
        (Some(at), _) => format!("{}not valid text (a lone surrogate?)", &m[..at]),
        (None, Some(at)) => format!("{}too large a number", &m[..at]),
        (None, None) => m,
    };
    match e {
        Error::BadState(m) => Error::BadState(said(m)),
        Error::CardAt(m) => Error::CardAt(said(m)),
        Error::BadRule(field, m) => Error::BadRule(field, said(m)),
        other => other,
    }
}
