//! One round of Thirty-One as a state machine, the only one: its public state and the one
//! transition function every player sees (`public`); a dealt round, that state plus the hands, the
//! stock and the hidden 31s (`dealt`); the actions of the player to move, with every private check
//! (`actions`); a whole turn by the table's decision rule (`rule_turn`); the playouts' hot path,
//! the same turns read from the hands' profiles (`profiled`, the hands as they hold them:
//! `hands`), with a playout's stock draws made once
//! for all its trajectories (`draws`); and what an ended round costs each
//! seat (`costs`). The game, the views, the inference and the playouts all go through it. This
//! room may use [`crate::rules`], [`crate::hand`], [`crate::error`] and the engine's random
//! streams.

mod actions;
mod costs;
mod dealt;
mod draws;
mod finals;
mod hands;
mod profiled;
mod public;
mod reading;
mod rule_turn;

pub use actions::Action;
pub(crate) use costs::Losses;
pub use dealt::{Phase, Round};
pub(crate) use draws::Draws;
pub(crate) use finals::knock_loss_applies;
pub(crate) use hands::Hands;
#[cfg(test)]
pub(crate) use profiled::hands_of;
pub(crate) use profiled::{set_sorted_hands, Profiled};
pub use public::{
    knock_limits, knock_limits_allow, knock_limits_allow_with, End, Move, PublicRound, Source,
    Stage,
};
pub use rule_turn::TurnRecord;
pub(crate) use rule_turn::TurnRule;

/// Table-rule turns played, counted per thread (the `count-turns` feature only).
#[cfg(feature = "count-turns")]
pub mod turn_count;
