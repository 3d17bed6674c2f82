//! The Oracle's input as data (`oracle.md`): a round as one player saw it, turn by turn, with their
//! hand and a pending draw. It is read from JSON or Python by `crate::oracle::input`, made by a
//! dealt round's record for each seat (`record`), and checked into a [`View`](super::View) by
//! replaying it (`replay`).

use crate::hand::Card;
use crate::round::Source;
use crate::rules::RoundRules;

/// One turn of the round as the table saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnInput {
    Knock {
        seat: u8,
    },
    Play {
        seat: u8,
        from: Source,
        /// Your own stock draws carry the card drawn; nobody else's do.
        drew: Option<Card>,
        discard: Card,
        /// A 31 shown after a knock at a table where the round goes on (seed 001).
        shows: Option<[Card; 3]>,
    },
    /// One of your own turns whose put-down left a 31 that you kept hidden (`may_hide_31`,
    /// seed 003): otherwise like [`TurnInput::Play`]. Only you know it; opponents are modelled
    /// by the table's rule, which always shows a 31.
    PlayHiding31 {
        seat: u8,
        from: Source,
        drew: Option<Card>,
        discard: Card,
    },
}

impl TurnInput {
    /// The turn as a play or knock, and whether it hid a 31.
    pub(crate) fn unhidden(&self) -> (TurnInput, bool) {
        match *self {
            TurnInput::PlayHiding31 {
                seat,
                from,
                drew,
                discard,
            } => (
                TurnInput::Play {
                    seat,
                    from,
                    drew,
                    discard,
                    shows: None,
                },
                true,
            ),
            ref t => (t.clone(), false),
        }
    }
}

/// You have drawn and now choose the card to put down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingInput {
    pub from: Source,
    pub drew: Option<Card>,
}

/// The Oracle's input: a round as one player sees it.
#[derive(Clone, Debug)]
pub struct StateInput {
    pub rules: RoundRules,
    pub seats: u8,
    pub me: u8,
    pub first: u8,
    pub upcard: Card,
    pub hand: [Card; 3],
    pub turns: Vec<TurnInput>,
    pub pending: Option<PendingInput>,
}
