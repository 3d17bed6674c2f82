//! Thirty-One for the Monte Carlo engine: the game supplies only its own rules.
//!
//! The crate is built in rooms, each a folder whose `mod.rs` says what it holds and what it may
//! use; a room uses only the rooms above it in this list (and [`error`], which every room uses):
//!
//! - [`hand`]: the pack, card sets, hand scores, and the table's decision rule over a hand;
//! - [`rules`]: a table's rules as data: the round's rules, the whole rule set and its presets;
//! - [`round`]: one round as a state machine: its public state and one transition function, a
//!   dealt round, a turn by the table's rule, what an ended round costs;
//! - [`game`]: the game around the rounds: settling a round, the turn order, the game-value
//!   table and whole games played out (it knows no view);
//! - [`model`]: how the Oracle believes an opponent plays: the table's rule, or a rule with an
//!   unknown knock score and slips (a person, the expert), and the likelihood of their moves;
//! - [`view`]: a round as one player sees it: checked by replay, and a dealt round's record;
//! - [`inference`]: each opponent's consistent hidden hands, combined into deals for the engine;
//! - [`oracle`]: the Oracle's input, settings, playouts and answer.

pub mod error;
pub mod game;
pub mod hand;
pub mod inference;
pub mod model;
pub mod oracle;
pub mod round;
pub mod rules;
pub mod view;

pub use error::{Error, Result};
pub use hand::{Card, CardSet, Score, Scoring, ThreeOfAKind};
pub use round::{Action, End, Phase, Round, Source, TurnRecord};
pub use rules::{RoundRules, MAX_SEATS};
pub use view::{Played, PlayedTurn, RoundRecord};
