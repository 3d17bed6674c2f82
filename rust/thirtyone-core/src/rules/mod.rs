//! The rules of a table, as data: the round-level rules that decide how a round is played and
//! what it costs (`round_rules`); a table's whole rule set, with the game-level options (seats,
//! lives, the county, the names of a standing, placing) and the named presets (`rule_set`); and
//! the one reader of a rule option given by name (`by_name`). This room may use [`crate::hand`]
//! (scores and scoring options) and [`crate::error`].

mod by_name;
mod round_rules;
mod rule_set;

pub use by_name::{assignment, build, RuleValue};
pub use round_rules::{
    score_from_points, FirstTurnKnock, KnockerTie, LivesMode, RoundRules, ThirtyOneAfterKnock,
};
pub use rule_set::{
    sorted_presets, Placing, RuleSet, GIN_LETTERS, MAX_LIVES, MAX_NAME_CHARS, MAX_SEATS, PRESETS,
};
