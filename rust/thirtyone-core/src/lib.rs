//! Thirty-One for the Monte Carlo engine: the game supplies only its own rules.
//!
//! - [`cards`]: the pack, card text, card sets;
//! - [`scoring`]: hand scores and the scoring options;
//! - [`rules`]: the round-level rules of a table; [`table`]: a table's whole rule set and presets;
//! - [`input`]: the Oracle's input read from JSON or any serde source, checked once;
//! - [`decision`]: the table's decision rule (the one implementation), precomputed for standard
//!   scoring in `put_downs`;
//! - [`round`]: one round as a state machine and what it costs each seat.

pub mod cards;
mod conditional;
pub mod costs;
pub mod deals;
pub mod decision;
pub mod error;
pub mod game;
pub mod game_value;
pub mod games;
pub mod inference;
pub mod input;
mod joint;
pub mod oracle;
pub mod playout;
pub mod public;
mod put_downs;
pub mod replay;
pub mod round;
pub mod round_outcomes;
pub mod rules;
pub mod scoring;
pub mod settings;
pub mod table;
#[cfg(test)]
mod test_positions;
pub mod view;

pub use cards::{Card, CardSet};
pub use error::{Error, Result};
pub use round::record::{Played, PlayedTurn, RoundRecord};
pub use round::{Action, End, Phase, Round, Source, TurnRecord, MAX_SEATS};
pub use rules::RoundRules;
pub use scoring::{Score, Scoring, ThreeOfAKind};
