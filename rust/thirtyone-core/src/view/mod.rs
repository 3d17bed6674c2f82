//! A round as one player sees it: the Oracle's input, the round as that player saw it turn by turn
//! (`state`); that input checked by replaying it through the round's one transition function
//! (`replay`) into a [`View`], what the inference and the playouts start from (`checked`); and a
//! dealt round kept with its record, every turn as played and each seat's view of it (`record`).
//! This room may use [`crate::model`], [`crate::round`], [`crate::rules`], [`crate::hand`] and
//! [`crate::error`].

mod checked;
mod record;
mod replay;
mod state;

pub use checked::{OppAct, OppTurn, Opponent, View};
pub use record::{Played, PlayedTurn, RoundRecord};
pub use state::{PendingInput, StateInput, TurnInput};
