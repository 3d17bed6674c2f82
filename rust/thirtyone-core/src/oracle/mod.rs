//! The Oracle, the top of the crate: its input read once from JSON or any serde source and checked
//! (`input`); the bounds of every setting (`settings`); a view continued as a dealt round and
//! played to the end for each option, with the knock sweep on one trajectory (`playout`), each
//! opponent played on by the rule, reading the table or knocking by the lap (`opponents`), and
//! valued by the game from every seat's losses where the query has lives (`game_losses`); the
//! Oracle itself: options, deals, playouts, the time limit (`advise`); and its answer put together:
//! reports, ranking, ties, warnings, the game-level figures checked (`answer`). This room may use
//! every other room and the `montecarlo` engine.

mod advise;
mod answer;
mod game_losses;
pub mod input;
mod models_input;
mod opponents;
mod playout;
pub mod settings;

pub use advise::{
    advise, advise_modelled, deal_settings, knock_thresholds, most_attempts, Advice, GameInput,
    OptionKind, OptionReport, Sweep,
};
pub use playout::{Choice, Playouts};
pub use settings::Settings;
