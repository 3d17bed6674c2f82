//! Consistent deals: each opponent's hidden cards re-dealt until the table's decision rule,
//! replayed over the round, does exactly what that opponent visibly did (`oracle.md`).
//!
//! An opponent's hidden cards are their three dealt cards and the cards they drew from the
//! stock, in order ("slots"). The cards they put down from those slots are known; the others are
//! the hidden cards they hold now. Under a uniform deal every filling of the slots is equally
//! likely, and the rule is deterministic, so the consistent deals are equally likely too, and
//! what the future needs — the opponent's hand now — has the posterior "number of consistent
//! fillings that end in this hand".
//!
//! That posterior is counted exactly (`count`) by walking the opponent's turns in order: the dealt
//! cards, then at each stock draw the card drawn (forced when the card put down was not yet in
//! hand), the rule replayed at every step so that a branch ends at its first mismatch. The hands
//! are then drawn from the counts. Should the walk grow too large, the opponent is sampled by plain
//! rejection instead: the known put-downs placed in slots they could have come from, uniformly, the
//! rest dealt from the unseen cards, kept when the replay matches. Opponents are combined by the
//! engine (their hidden cards must differ): see `deals`.

use std::sync::atomic::AtomicBool;

use montecarlo::Rng;
use rayon::prelude::*;

use super::conditional::{Conditional, Places};
use super::count::count_by_rule;
use super::weighted::{count_modelled, Effort, Knocks};
use crate::hand::decision::{choose_put_down, choose_start, Start, TABLE_KNOCK_AT};
use crate::hand::{Card, CardSet, Score};
use crate::round::knock_limits_allow;
use crate::rules::MAX_SEATS;
use crate::view::{OppAct, Opponent, View};

/// One opponent's sampled hand now and the unseen cards it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OppDeal {
    pub hand: [Card; 3],
    pub unseen_used: CardSet,
    /// The score they knock at in the playouts: the table's, or a modelled player's own.
    pub knock_at: Score,
    /// The hand's row in the opponent's listed posterior, where its knock scores are kept
    /// ([`OppDeal::UNLISTED`] for a hand drawn otherwise).
    pub row: u32,
}

impl OppDeal {
    /// The row of a hand not drawn from a listed posterior.
    pub const UNLISTED: u32 = u32::MAX;
}

/// A consistent deal: every opponent's hand now, and the unseen cards left (the stock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    pub hands: [[Card; 3]; MAX_SEATS],
    pub stock: CardSet,
    /// The score each opponent knocks at in the playouts (the table's for your seat).
    pub knock_at: [Score; MAX_SEATS],
}

/// How one opponent's hand now is drawn.
#[derive(Clone, Debug)]
pub(crate) enum Posterior {
    /// From exact counts: the hands, their unseen cards, and cumulative counts.
    Counted {
        hands: Vec<([Card; 3], CardSet)>,
        cumulative: Vec<u64>,
    },
    /// By rejection (the count grew too large).
    Rejection,
}

/// Steps one opponent's count may take before rejection sampling takes over (bounded in work,
/// not time: a count is part of the least work of an answer).
pub const COUNT_BUDGET: u64 = 4_000_000;
/// The deals of a full-precision query (the default of [`Inference::new`]).
const FULL_DEALS: usize = 10_000;

/// Samples consistent deals for one view.
pub struct Inference<'a> {
    pub(crate) view: &'a View,
    unseen: Vec<Card>,
    pub(crate) posteriors: Vec<Posterior>,
    /// Each counted posterior, ready to be drawn given the cards other opponents hold.
    pub(crate) conditionals: Vec<Option<Conditional>>,
    /// A modelled opponent's knock scores by hand (None: the table's rule, knocking at 27).
    pub(crate) knocks: Vec<Option<Knocks>>,
}

impl<'a> Inference<'a> {
    pub fn new(view: &'a View) -> Self {
        Inference::cancellable(view, &AtomicBool::new(false), FULL_DEALS)
    }

    /// The same for a query of `deals` deals (a modelled opponent's posterior is as fine as
    /// they need: [`Effort`]), the counting stopped when `cancel` is set (an opponent whose
    /// count is not done by then is left to rejection: the caller is to see the flag and stop).
    pub fn cancellable(view: &'a View, cancel: &AtomicBool, deals: usize) -> Self {
        let effort = Effort::for_deals(deals);
        let unseen: Vec<Card> = view.unseen.iter().collect();
        // Opponents are counted in parallel (in the caller's rayon pool), those with the most
        // stock draws begun first (their counts are the longest: begun last, one of them kept a
        // thread busy alone at the end), then put back in seat order. The same counts in any
        // order.
        let mut order: Vec<usize> = (0..view.opponents.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(view.opponents[i].stock_draws));
        let mut counted: Vec<(usize, Posterior, Option<Knocks>)> = order
            .par_iter()
            .with_max_len(1)
            .map(|&i| {
                let o = &view.opponents[i];
                match o.model.params_at(view.public.seats) {
                    None => (i, count_by_rule(view, o, &unseen, cancel), None),
                    Some(params) => {
                        let (p, k) = count_modelled(view, o, &unseen, cancel, params, effort);
                        (i, p, Some(k))
                    }
                }
            })
            .collect();
        counted.sort_by_key(|c| c.0);
        let (posteriors, knocks): (Vec<Posterior>, Vec<Option<Knocks>>) =
            counted.into_iter().map(|(_, p, k)| (p, k)).unzip();
        let places = Places::new(&unseen);
        let conditionals = view
            .opponents
            .par_iter()
            .zip(&posteriors)
            .map(|(o, p)| match p {
                Posterior::Counted { hands, cumulative } => Some(Conditional::new(
                    o,
                    &unseen,
                    &view.public.rules.scoring,
                    hands,
                    cumulative,
                    places.as_ref(),
                )),
                Posterior::Rejection => None,
            })
            .collect();
        Inference {
            view,
            unseen,
            posteriors,
            conditionals,
            knocks,
        }
    }

    /// Sample every opponent by rejection only (no counting): slower, but a second, independent
    /// way to the same posterior, for checks (every opponent read by the table's rule).
    pub fn by_rejection(view: &'a View) -> Self {
        Inference {
            view,
            unseen: view.unseen.iter().collect(),
            posteriors: view
                .opponents
                .iter()
                .map(|_| Posterior::Rejection)
                .collect(),
            conditionals: view.opponents.iter().map(|_| None).collect(),
            knocks: view.opponents.iter().map(|_| None).collect(),
        }
    }

    /// The number of consistent fillings of each opponent's slots (None: not counted).
    pub fn counts(&self) -> Vec<Option<u64>> {
        self.posteriors
            .iter()
            .map(|p| match p {
                Posterior::Counted { cumulative, .. } => {
                    Some(cumulative.last().copied().unwrap_or(0))
                }
                Posterior::Rejection => None,
            })
            .collect()
    }

    /// `k` distinct unseen cards chosen uniformly, none of `taken` (which must leave `k`).
    fn unseen_cards(
        &self,
        k: usize,
        taken: CardSet,
        rng: &mut Rng,
        out: &mut [Card; 3],
    ) -> CardSet {
        draw_unseen(&self.unseen, k, taken, rng, out)
    }

    /// One attempt for opponent `o`: a sampled history, replayed by the rule.
    pub(crate) fn attempt(&self, o: &Opponent, rng: &mut Rng) -> Option<OppDeal> {
        if let Some(h) = o.shown_hand {
            return Some(OppDeal {
                hand: h,
                unseen_used: CardSet::EMPTY,
                knock_at: TABLE_KNOCK_AT,
                row: OppDeal::UNLISTED,
            });
        }
        let mut slots = [Card::from_index(0); 64];
        let used = sample_history(&self.unseen, o, rng, &mut slots);
        let hand = replay(self.view, o, &slots[..3 + o.stock_draws as usize])?;
        Some(OppDeal {
            hand,
            unseen_used: used,
            knock_at: TABLE_KNOCK_AT,
            row: OppDeal::UNLISTED,
        })
    }

    /// Opponent `o` dealt without the test: the cards they took and still hold, and unseen cards
    /// that none of the hands dealt before (`taken`) uses.
    pub(crate) fn untested(&self, o: &Opponent, taken: CardSet, rng: &mut Rng) -> OppDeal {
        if let Some(h) = o.shown_hand {
            return OppDeal {
                hand: h,
                unseen_used: CardSet::EMPTY,
                knock_at: TABLE_KNOCK_AT,
                row: OppDeal::UNLISTED,
            };
        }
        let mut hand = [Card::from_index(0); 3];
        let held: Vec<Card> = o.known_held.iter().collect();
        let mut fresh = [Card::from_index(0); 3];
        let used = self.unseen_cards(3 - held.len(), taken, rng, &mut fresh);
        for (i, slot) in hand.iter_mut().enumerate() {
            *slot = if i < held.len() {
                held[i]
            } else {
                fresh[i - held.len()]
            };
        }
        OppDeal {
            hand,
            unseen_used: used,
            knock_at: TABLE_KNOCK_AT,
            row: OppDeal::UNLISTED,
        }
    }
}

/// `k` distinct cards of `unseen` chosen uniformly, none of `taken` (which must leave `k`).
fn draw_unseen(
    unseen: &[Card],
    k: usize,
    taken: CardSet,
    rng: &mut Rng,
    out: &mut [Card; 3],
) -> CardSet {
    let mut used = CardSet::EMPTY;
    let n = unseen.len() as u32;
    let mut got = 0;
    while got < k {
        let c = unseen[rng.below(n) as usize];
        if !used.contains(c) && !taken.contains(c) {
            used.insert(c);
            out[got] = c;
            got += 1;
        }
    }
    used
}

/// A history of opponent `o` drawn uniformly from those the card facts allow: the known
/// put-downs placed in slots they could have come from, the other slots (3 dealt, then their
/// stock draws in order) dealt from the unseen cards. Fills `slots`; returns the unseen cards
/// used (those they hold now).
pub(super) fn sample_history(
    unseen: &[Card],
    o: &Opponent,
    rng: &mut Rng,
    slots: &mut [Card; 64],
) -> CardSet {
    let slots_len = 3 + o.stock_draws as usize;
    let below = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut filled = 0u64; // bit i: slot i holds a card put down later
    for &(card, avail) in &o.hidden_discards {
        // The `r`-th free slot of the first `avail`: the lowest free ones dropped `r` times.
        let mut free = below(avail as usize) & !filled;
        for _ in 0..rng.below(free.count_ones()) {
            free &= free - 1;
        }
        let s = free.trailing_zeros() as usize;
        filled |= 1 << s;
        slots[s] = card;
    }
    let mut fresh = [Card::from_index(0); 3];
    let k = slots_len - o.hidden_discards.len();
    let used = draw_unseen(unseen, k, CardSet::EMPTY, rng, &mut fresh);
    // The free slots in order, from the lowest.
    let mut free = below(slots_len) & !filled;
    for &card in &fresh[..k] {
        slots[free.trailing_zeros() as usize] = card;
        free &= free - 1;
    }
    used
}

/// Replay the table's rule for one opponent over their slots (3 dealt, then their stock draws in
/// order). Returns their hand now if the rule does exactly what they visibly did.
fn replay(view: &View, o: &Opponent, slots: &[Card]) -> Option<[Card; 3]> {
    let scoring = &view.public.rules.scoring;
    let mut hand = [slots[0], slots[1], slots[2]];
    if scoring.score(hand).is_blitz() {
        return None; // a dealt 31 would have ended the round before play
    }
    for t in &o.turns {
        let may_knock = t.knock_open && knock_limits_allow(&view.public.rules, hand);
        let top = t.may_take.then_some(t.top);
        let start = choose_start(scoring, hand, top, may_knock, t.stock_empty, TABLE_KNOCK_AT);
        let (new, from_pile, discard, shows) = match t.act {
            OppAct::Knock => {
                if start != Start::Knock {
                    return None;
                }
                continue;
            }
            OppAct::Take { discard, shows } => {
                if start != Start::Take {
                    return None;
                }
                (t.top, true, discard, shows)
            }
            OppAct::Draw {
                draw,
                discard,
                shows,
            } => {
                if start != Start::Draw {
                    return None;
                }
                (slots[3 + draw as usize], false, discard, shows)
            }
        };
        let p = choose_put_down(scoring, hand, new, from_pile);
        if p.card != discard {
            return None;
        }
        hand = p.kept;
        let blitz = p.score.is_blitz();
        match shows {
            // A 31 after a put-down is always shown: an unshown one is not this history.
            None if blitz => return None,
            Some(_) if !blitz => return None,
            _ => {}
        }
    }
    Some(hand)
}

#[cfg(test)]
#[path = "posterior_tests.rs"]
mod tests;
