//! The one error type of the Thirty-One crate. Every refusal names its problem.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that is not a card.
    BadCard(String),
    /// A rule value out of range, or a combination the rules cannot honour: (field, message).
    BadRule(&'static str, String),
    /// A round state (a player's view) that cannot have happened, or is not the player's turn.
    BadState(String),
    /// An action that the rules do not allow now.
    IllegalAction(String),
    /// A setting of the Oracle (deals, playouts, threads, seed, max_time, target_margin) out
    /// of its bounds, or a time limit too short to find anything.
    BadSetting(String),
    /// The work was cancelled (Ctrl-C) before it finished.
    Cancelled,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadCard(t) => write!(
                f,
                "{t:?} is not a card: use a rank A 2-9 T(10) J Q K and a suit C D H S, e.g. AH, TD, 10D"
            ),
            Error::BadRule(field, msg) => write!(f, "rule {field}: {msg}"),
            Error::BadState(msg) => f.write_str(msg),
            Error::IllegalAction(msg) => f.write_str(msg),
            Error::BadSetting(msg) => f.write_str(msg),
            Error::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
