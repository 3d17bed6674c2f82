//! The PyO3 binding of `thirtyone-core`: conversion and error mapping only. No game logic here.

mod convert;
mod errors;
mod functions;
mod oracle;
mod round;
mod settings;
mod tables;

use pyo3::prelude::*;

#[pymodule(gil_used = false)]
mod _core {
    #[pymodule_export]
    use crate::errors::{
        CardError, IllegalMoveError, RuleError, SaveError, SettingsError, StateError,
        ThirtyOneError,
    };

    #[pymodule_export]
    use crate::round::PyRound;

    #[pymodule_export]
    use crate::functions::{choose_put_down, choose_start, parse_card, score};

    #[pymodule_export]
    use crate::oracle::{advise, check_state, sample_deals};

    #[pymodule_export]
    use crate::tables::{parse_rules, presets, rule_assignment, PyState};

    #[pymodule_export]
    use crate::settings::check_settings;
}
