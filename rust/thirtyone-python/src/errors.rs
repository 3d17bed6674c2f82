//! The one place where Rust errors become Python exceptions.
//!
//! Hierarchy (re-exported by `thirtyone.errors`):
//! `ThirtyOneError(ValueError)` → `CardError`, `RuleError`, `StateError`, `IllegalMoveError`,
//! `SettingsError`, `SaveError` (raised by the Python side's saved games).
//! A computation stopped by Ctrl-C becomes `KeyboardInterrupt`; one stopped by its `Cancel`
//! (from another thread) becomes `Cancelled`, which is no `ThirtyOneError`: nothing was wrong
//! with the input.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyValueError};
use pyo3::PyErr;
use thirtyone_core::Error;

create_exception!(
    thirtyone._core,
    ThirtyOneError,
    PyValueError,
    "Base of every error thirtyone raises for bad input."
);
create_exception!(
    thirtyone._core,
    CardError,
    ThirtyOneError,
    "Text that is not a card."
);
create_exception!(
    thirtyone._core,
    RuleError,
    ThirtyOneError,
    "A rule option that is unknown, out of range or inconsistent."
);
create_exception!(
    thirtyone._core,
    StateError,
    ThirtyOneError,
    "A round state that cannot have happened, or is not the player's turn."
);
create_exception!(
    thirtyone._core,
    IllegalMoveError,
    ThirtyOneError,
    "An action the rules do not allow now."
);

create_exception!(
    thirtyone._core,
    SettingsError,
    ThirtyOneError,
    "A setting of the Oracle (deals, playouts, threads, seed, max_time, target_margin) out of \
     its bounds, or a time limit too short to find anything."
);
create_exception!(
    thirtyone._core,
    SaveError,
    ThirtyOneError,
    "A saved game that is missing, damaged, or cannot be replayed or written."
);

create_exception!(
    thirtyone._core,
    Cancelled,
    PyException,
    "A query stopped by its `Cancel` before it was answered (not bad input: no ThirtyOneError)."
);

/// Map a core error to its Python exception.
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::BadCard(_) | Error::CardAt(_) => CardError::new_err(msg),
        Error::BadRule(..) => RuleError::new_err(msg),
        Error::BadState(_) => StateError::new_err(msg),
        Error::IllegalAction(_) => IllegalMoveError::new_err(msg),
        Error::BadSetting(_) => SettingsError::new_err(msg),
        Error::Cancelled => PyKeyboardInterrupt::new_err(msg),
    }
}

/// `?`-friendly conversion for core results.
pub trait IntoPy<T> {
    fn py_err(self) -> pyo3::PyResult<T>;
}

impl<T> IntoPy<T> for thirtyone_core::Result<T> {
    fn py_err(self) -> pyo3::PyResult<T> {
        self.map_err(to_py)
    }
}
