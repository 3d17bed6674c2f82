//! Consistent deals: each opponent's hidden cards re-dealt until the table's decision rule,
//! replayed over the round, does exactly what that opponent visibly did (`oracle.md`).
//!
//! An opponent's hidden cards are their three dealt cards and the cards they drew from the
//! stock, in order ("slots"). The cards they put down from those slots are known, so a sample
//! places each of them in a slot it could have come from (a dealt slot, or a draw made by the
//! time it was put down), uniformly over the ways this can happen, and fills the other slots —
//! the hidden cards they hold now — with unseen cards. Every slot assignment is equally likely
//! under a uniform deal, and the rule is deterministic, so keeping the samples whose replay
//! matches gives every consistent deal the same chance. Opponents are sampled one by one and
//! combined by the engine (their hidden cards must differ).

use montecarlo::{Factored, Rng};

use crate::cards::{Card, CardSet};
use crate::decision::{choose_put_down, choose_start, Start, TABLE_KNOCK_AT};
use crate::round::MAX_SEATS;
use crate::view::{knock_limits_allow, OppAct, Opponent, View};

/// One opponent's sampled hand now and the unseen cards it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OppDeal {
    pub hand: [Card; 3],
    pub unseen_used: CardSet,
}

/// A consistent deal: every opponent's hand now, and the unseen cards left (the stock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    pub hands: [[Card; 3]; MAX_SEATS],
    pub stock: CardSet,
}

/// Samples consistent deals for one view.
pub struct Inference<'a> {
    view: &'a View,
    unseen: Vec<Card>,
}

impl<'a> Inference<'a> {
    pub fn new(view: &'a View) -> Self {
        Inference {
            view,
            unseen: view.unseen.iter().collect(),
        }
    }

    pub fn view(&self) -> &View {
        self.view
    }

    /// `k` distinct unseen cards chosen uniformly.
    fn unseen_cards(&self, k: usize, rng: &mut Rng, out: &mut [Card; 3]) -> CardSet {
        let mut used = CardSet::EMPTY;
        let n = self.unseen.len() as u32;
        let mut got = 0;
        while got < k {
            let c = self.unseen[rng.below(n) as usize];
            if !used.contains(c) {
                used.insert(c);
                out[got] = c;
                got += 1;
            }
        }
        used
    }

    /// One attempt for opponent `o`: a sampled history, replayed by the rule.
    fn attempt(&self, o: &Opponent, rng: &mut Rng) -> Option<OppDeal> {
        if let Some(h) = o.shown_hand {
            return Some(OppDeal {
                hand: h,
                unseen_used: CardSet::EMPTY,
            });
        }
        let slots_len = 3 + o.stock_draws as usize;
        let mut slots = [Card::from_index(0); 64];
        let mut filled = 0u64; // bit i: slot i holds a card put down later
        for &(card, avail) in &o.hidden_discards {
            let free = avail as u32 - filled.count_ones();
            let mut r = rng.below(free);
            let mut s = 0usize;
            loop {
                if filled & (1 << s) == 0 {
                    if r == 0 {
                        break;
                    }
                    r -= 1;
                }
                s += 1;
            }
            filled |= 1 << s;
            slots[s] = card;
        }
        let mut fresh = [Card::from_index(0); 3];
        let k = slots_len - o.hidden_discards.len();
        let used = self.unseen_cards(k, rng, &mut fresh);
        let mut j = 0;
        for (s, slot) in slots.iter_mut().enumerate().take(slots_len) {
            if filled & (1 << s) == 0 {
                *slot = fresh[j];
                j += 1;
            }
        }
        let hand = replay(self.view, o, &slots[..slots_len])?;
        Some(OppDeal {
            hand,
            unseen_used: used,
        })
    }

    /// Opponent `o` dealt without the test: the cards they took and still hold, and unseen cards.
    fn untested(&self, o: &Opponent, rng: &mut Rng) -> OppDeal {
        if let Some(h) = o.shown_hand {
            return OppDeal {
                hand: h,
                unseen_used: CardSet::EMPTY,
            };
        }
        let mut hand = [Card::from_index(0); 3];
        let held: Vec<Card> = o.known_held.iter().collect();
        let mut fresh = [Card::from_index(0); 3];
        let used = self.unseen_cards(3 - held.len(), rng, &mut fresh);
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
        }
    }
}

/// Replay the table's rule for one opponent over their slots (3 dealt, then their stock draws in
/// order). Returns their hand now if the rule does exactly what they visibly did.
fn replay(view: &View, o: &Opponent, slots: &[Card]) -> Option<[Card; 3]> {
    let scoring = &view.rules.scoring;
    let mut hand = [slots[0], slots[1], slots[2]];
    if scoring.score(hand).is_blitz() {
        return None; // a dealt 31 would have ended the round before play
    }
    for t in &o.turns {
        let may_knock = t.knock_open && knock_limits_allow(&view.rules, hand);
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

impl Factored for Inference<'_> {
    type Part = OppDeal;
    type World = Deal;

    fn parts(&self) -> usize {
        self.view.opponents.len()
    }

    fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<OppDeal> {
        self.attempt(&self.view.opponents[i], rng)
    }

    fn fallback_part(&self, i: usize, rng: &mut Rng) -> OppDeal {
        self.untested(&self.view.opponents[i], rng)
    }

    fn combine(&self, parts: &[OppDeal]) -> Option<Deal> {
        let mut used = CardSet::EMPTY;
        let mut hands = [[Card::from_index(0); 3]; MAX_SEATS];
        for (o, p) in self.view.opponents.iter().zip(parts) {
            if used.intersects(p.unseen_used) {
                return None;
            }
            used = used.union(p.unseen_used);
            hands[o.seat as usize] = p.hand;
        }
        Some(Deal {
            hands,
            stock: self.view.unseen.minus(used),
        })
    }
}
