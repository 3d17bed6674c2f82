//! A round as one player sees it, once checked by replaying the Oracle's input ([`StateInput`],
//! `state`) through the round's transitions (`replay`): the [`View`] that inference and playouts
//! start from, the [`PublicRound`] and what the player knows, with what each opponent visibly
//! did.

use super::StateInput;
use crate::error::Result;
use crate::hand::{Card, CardSet};
use crate::model::Model;
use crate::round::{knock_limits_allow, PublicRound};
use crate::rules::MAX_SEATS;

/// What an opponent visibly did on one turn, with what the table looked like then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OppTurn {
    /// The top discard at the start of the turn, and whether this player could take it.
    pub top: Card,
    pub may_take: bool,
    /// Whether the table allowed a knock then, before the player's own limits (the knock
    /// minimum and one-suit rule, which depend on the hidden hand).
    pub knock_open: bool,
    /// Whether somebody else had knocked: this is the player's final turn.
    pub final_turn: bool,
    /// The round's lap: the turns played before this one, over the seats (at most 255).
    pub lap: u8,
    pub stock_empty: bool,
    pub act: OppAct,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OppAct {
    Knock,
    /// Took the top discard (`top`) and put down `discard`.
    Take {
        discard: Card,
        shows: Option<[Card; 3]>,
    },
    /// Drew the next stock card (their `draw`-th, from 0) and put down `discard`.
    Draw {
        draw: u8,
        discard: Card,
        shows: Option<[Card; 3]>,
    },
}

/// One opponent's round so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    pub seat: u8,
    pub turns: Vec<OppTurn>,
    /// How many cards they drew from the stock.
    pub stock_draws: u8,
    /// Cards they put down that had been hidden in their hand (dealt or drawn), in order, each
    /// with the number of their hidden slots filled by then (3 dealt + the draws made so far).
    pub hidden_discards: Vec<(Card, u8)>,
    /// Cards they took from the pile and still hold.
    pub known_held: CardSet,
    /// Their whole hand, when a 31 they showed revealed it.
    pub shown_hand: Option<[Card; 3]>,
    /// How the Oracle believes they play (the table's rule unless told).
    pub model: Model,
}

impl Opponent {
    /// Hidden cards in their hand now.
    pub fn hidden_now(&self) -> usize {
        if self.shown_hand.is_some() {
            0
        } else {
            3 - self.known_held.len()
        }
    }
}

/// A checked view of the round, at the advised player's turn: the [`PublicRound`] (with a
/// pending draw already applied) and what the player knows.
#[derive(Clone, Debug)]
pub struct View {
    pub public: PublicRound,
    pub me: u8,
    pub hand: [Card; 3],
    /// A pending draw: the new card and whether it came from the pile.
    pub pending: Option<(Card, bool)>,
    /// Cards whose place is unknown to you: in the stock or hidden in an opponent's hand.
    pub unseen: CardSet,
    pub opponents: Vec<Opponent>,
    /// You hold a 31 you kept hidden (it counts as 30 at the showdown).
    pub hid_31: [bool; MAX_SEATS],
}

impl View {
    /// Check a state by replaying it through the table's transitions, and build the view. Every
    /// refusal names its problem.
    pub fn from_input(input: &StateInput) -> Result<View> {
        crate::view::replay::check(input)
    }

    /// The same view, each opponent modelled as `models` says (by seat; yours is ignored).
    pub fn with_models(mut self, models: &[Model]) -> View {
        for o in &mut self.opponents {
            if let Some(&m) = models.get(usize::from(o.seat)) {
                o.model = m;
            }
        }
        self
    }

    /// Whether every opponent is read by the table's rule.
    pub fn all_table(&self) -> bool {
        self.opponents.iter().all(|o| o.model == Model::Table)
    }

    /// Whether you may knock now (before a pending draw only).
    pub fn may_knock(&self) -> bool {
        self.public.knock_closed().is_none() && knock_limits_allow(&self.public.rules, self.hand)
    }

    /// Whether you may take the top discard now.
    pub fn may_take(&self) -> bool {
        self.public.may_take()
    }
}
