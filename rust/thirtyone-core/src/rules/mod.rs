//! The rules of a table, as data: the round-level rules that decide how a round is played and
//! what it costs (`round_rules`); and a table's whole rule set, with the game-level options
//! (seats, lives, the county, the names of a standing, placing), the named presets and the one
//! reader of a rule option given by name (`rule_set`). This room may use [`crate::hand`]
//! (scores and scoring options) and [`crate::error`].

mod round_rules;
mod rule_set;

pub use round_rules::{
    score_from_points, FirstTurnKnock, KnockerTie, LivesMode, RoundRules, ThirtyOneAfterKnock,
};
pub use rule_set::{
    assignment, build, sorted_presets, Placing, RuleValue, TableRules, GIN_LETTERS, MAX_LIVES,
    MAX_NAME_CHARS, MAX_SEATS, PRESETS,
};
