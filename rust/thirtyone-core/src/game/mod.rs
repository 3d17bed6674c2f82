//! The game around the rounds: the game-level rules a round's result is settled by, who goes
//! out in which place, ranked points, the wash, the turn order and the next dealer
//! (`game_rules`); the distribution of a whole round's results when everybody plays the table's
//! rule, simulated and kept in memory and on disk (`round_outcomes`); the game-value table built
//! on it, every player's chance of winning (or points) by dynamic programming over rounds
//! (`game_value`); and whole games played out round by round, the table's independent check
//! (`games`); and the strategy atlas of the knock, each turn's knock tried against waiting on
//! the same cards (`knock_atlas`). This room may use [`crate::round`], [`crate::rules`],
//! [`crate::hand`], [`crate::error`] and the `montecarlo` engine; it knows no view and no Oracle.

mod game_rules;
pub mod game_value;
mod games;
pub mod knock_atlas;
pub mod round_outcomes;

pub use game_rules::{check_lives, next_dealer, settle, turn_order, GameRules, Settled};
pub use games::play_games;
