//! A hand of three cards and what it is worth, whatever the table around it: the pack, card
//! text and card sets (`cards`); hand scores with every scoring option (`scoring`); the table's
//! decision rule over a hand, the one implementation of the computer players and of the
//! Oracle's model of every player (`decision`); each hand's profile, what that rule does with any
//! fourth card, for the playouts (`profile`). This room may use only [`crate::error`]; every
//! other room builds on it.

mod cards;
pub mod decision;
pub(crate) mod profile;
mod scoring;

pub use cards::{same_cards, Card, CardSet, RANKS, SUITS};
pub use scoring::{best_suit_total, Score, ScoreTable, Scoring, ThreeOfAKind};
