//! The PyO3 binding of `thirtyone-core`: conversion and error mapping only. No game logic here.

mod actions;
mod answer;
mod convert;
mod errors;
mod functions;
mod game;
mod game_rules;
mod memory;
mod oracle;
mod round;
mod rules;
mod settings;
mod state;

use pyo3::prelude::*;

#[pymodule(gil_used = false)]
mod _core {
    #[pymodule_export]
    use crate::errors::{
        Cancelled, CardError, IllegalMoveError, RuleError, SaveError, SettingsError, StateError,
        ThirtyOneError,
    };

    #[pymodule_export]
    use crate::round::PyRound;

    #[pymodule_export]
    use crate::actions::{PyAction, PyPlayedTurn};

    use pyo3::prelude::*;

    /// The core's defaults, exported once: the Oracle's deals and playouts, and the table's
    /// knock score (the decision rule knocks from it); and whether the allocator keeps freed
    /// memory for the next query (`memory`).
    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("KEEPS_FREED_MEMORY", crate::memory::keep_freed_memory())?;
        let defaults = thirtyone_core::oracle::Settings::default();
        m.add("DEFAULT_DEALS", defaults.deals)?;
        m.add("DEFAULT_PLAYOUTS", defaults.playouts)?;
        m.add(
            "TABLE_KNOCK_AT",
            thirtyone_core::hand::decision::TABLE_KNOCK_AT.points(),
        )?;
        Ok(())
    }

    #[pymodule_export]
    use crate::functions::{card_value, choose_put_down, choose_start, parse_card, score};

    #[pymodule_export]
    use crate::oracle::{advise, check_state, sample_deals, PyCancel};

    #[pymodule_export]
    use crate::answer::{PyAnswer, PyOptionRecord};

    #[pymodule_export]
    use crate::game::{game_value, knock_atlas, play_games, set_cache_folders, settle};

    #[pymodule_export]
    use crate::game_rules::PyGameRules;

    #[pymodule_export]
    use crate::rules::{parse_rules, presets, rule_assignment};

    #[pymodule_export]
    use crate::state::PyOracleState;

    #[pymodule_export]
    use crate::settings::check_settings;
}
