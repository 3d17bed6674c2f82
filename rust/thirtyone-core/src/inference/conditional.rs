//! One opponent's counted posterior, drawn given the unseen cards the other opponents hold: the
//! step of the engine's importance-weighted deals ([`montecarlo::sequential`]).
//!
//! Given the cards `taken` by the opponents drawn before, this opponent's hands that use none of
//! them keep their counts and the others drop out; the draw is from what is left, and the share
//! of the count it keeps is the draw's weight. Two forms:
//!
//! - **flat**: an opponent who has not played yet holds any three unseen cards but a dealt 31,
//!   each once. What is left given `taken` is counted from the number of cards left (every three
//!   of them, less the 31s among them) and drawn as three of those cards.
//! - **listed**: otherwise what is left is counted by walking the hands (one pass over a few
//!   hundred to a few thousand), or for a large posterior and few cards taken, by inclusion and
//!   exclusion over the cards taken: the whole count, less the hands holding each taken card,
//!   plus those holding each two, less those holding each three (a hand holds at most three
//!   unseen cards). Over more unseen cards the walk reads the hands' sets in two 32-bit halves
//!   (`halves`), four hands at a time. Over at most 32 (late in a round of many seats) the hands
//!   are also kept in 32-bit masks (`narrow`): the walk reads half the memory, and when few of the
//!   cards the hands use are left, what is left is the sum over the sets of those cards, looked
//!   up, instead of a walk; and what either counted is remembered by the cards it was given
//!   (`memo`), as the same few sets of cards taken come back draw after draw. A hand is drawn
//!   by rejection from the whole posterior when enough of it is left (`alias`, whose buckets
//!   carry their hands' cards), else from the walk (or the sets, visited in the same order: the
//!   same hand). The rejection sampler's draws from the whole posterior find their hand through
//!   a guide table (`guide`).

mod alias;
mod guide;
mod halves;
mod holding;
mod memo;
mod narrow;
mod subsets;

use std::sync::Arc;

use montecarlo::Rng;

use super::OppDeal;
use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::{Card, CardSet, Scoring};
use crate::view::Opponent;

use alias::Alias;
use guide::Guide;
use halves::Halves;
use holding::Holding;
use narrow::Narrow;
pub(crate) use narrow::Places;

/// One opponent's posterior, ready to be drawn given the cards others hold. (One a counted
/// opponent: the listed form's size costs nothing, where a box would add a load to every draw.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Conditional {
    Flat(Flat),
    Listed(Listed),
}

/// Every three unseen cards but the `except`ed ones, each with the same count.
#[derive(Clone, Debug)]
pub(crate) struct Flat {
    unseen: Vec<Card>,
    except: Vec<u64>,
    /// The cards of the `except`ed hands, together: a hand with a card outside them is allowed.
    except_cards: u64,
    /// The number of allowed hands.
    hands: u64,
}

/// The posterior's hands: their unseen cards and counts, and the running total of the counts.
#[derive(Clone, Debug)]
pub(crate) struct Listed {
    /// Each hand and its unseen cards, whole (copied in one piece when drawn).
    deals: Vec<OppDeal>,
    sets: Vec<CardSet>,
    counts: Vec<u64>,
    /// For draws from the whole posterior (the rejection sampler's).
    guide: Guide,
    total: u64,
    /// For a large posterior: the counts of the hands holding each card, two cards, three.
    holding: Option<Box<Holding>>,
    /// For draws from the whole posterior in one step.
    alias: Alias,
    /// Over at most 32 unseen cards: the hands in 32-bit masks, for the walks.
    narrow: Option<Narrow>,
    /// Over more: the hands' sets in halves, for the walks.
    halves: Option<Box<Halves>>,
}

/// Hands (and fewer) at which a listed posterior also keeps its [`Holding`] counts.
const LARGE: usize = 512;
/// A draw from the whole posterior (rejecting hands that meet the cards taken) while at least
/// this share of it is left; below it, a walk.
const REJECT_DOWN_TO: u64 = 16;

impl Conditional {
    /// The posterior of `o` given by its hands (with their unseen cards) and cumulative counts.
    pub fn new(
        o: &Opponent,
        unseen: &[Card],
        scoring: &Scoring,
        hands: &[([Card; 3], CardSet)],
        cumulative: &[u64],
        places: Option<&Arc<Places>>,
    ) -> Conditional {
        if o.turns.is_empty() && o.shown_hand.is_none() {
            if let Some(f) = Flat::new(unseen, scoring, hands.len(), cumulative) {
                return Conditional::Flat(f);
            }
        }
        Conditional::Listed(Listed::new(hands, cumulative, places))
    }

    /// How many hands the posterior has (the order of the draws: fewest first).
    pub fn len(&self) -> u64 {
        match self {
            Conditional::Flat(f) => f.hands,
            Conditional::Listed(l) => l.deals.len() as u64,
        }
    }

    /// Whether this is a large listed posterior (see [`Holding`]).
    pub fn large(&self) -> bool {
        matches!(self, Conditional::Listed(l) if l.holding.is_some())
    }

    /// A hand drawn from the whole posterior in proportion to its count (a part of the rejection
    /// sampler; None when it has no hand).
    pub fn draw_any(&self, rng: &mut Rng) -> Option<OppDeal> {
        match self {
            // (With nothing taken, every allowed hand is left: no share to count.)
            Conditional::Flat(f) => (f.hands > 0).then(|| f.hand(0, rng)),
            Conditional::Listed(l) => Some(l.deals[l.draw_any(rng)]),
        }
    }

    /// A hand that uses none of `taken`, drawn in proportion to its count, and the share of the
    /// whole count such hands hold (None: none is left).
    pub fn draw(&self, taken: CardSet, rng: &mut Rng) -> Option<(OppDeal, f64)> {
        match self {
            Conditional::Flat(f) => f.draw(taken, rng),
            Conditional::Listed(l) => l.draw(taken, rng),
        }
    }
}

/// `n` choose 3.
fn triples(n: u64) -> u64 {
    if n < 3 {
        0
    } else {
        n * (n - 1) * (n - 2) / 6
    }
}

impl Flat {
    /// The flat form, if the posterior is every three unseen cards but a dealt 31, each once.
    fn new(unseen: &[Card], scoring: &Scoring, hands: usize, cumulative: &[u64]) -> Option<Flat> {
        let n = unseen.len();
        let mut except = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    let hand = [unseen[a], unseen[b], unseen[c]];
                    if scoring.score(hand).is_blitz() {
                        except.push(hand.iter().fold(0u64, |s, x| s | 1 << x.index()));
                    }
                }
            }
        }
        let all = triples(n as u64);
        let flat =
            hands as u64 + except.len() as u64 == all && cumulative.last() == Some(&(hands as u64));
        flat.then(|| Flat {
            unseen: unseen.to_vec(),
            except_cards: except.iter().fold(0, |u, e| u | e),
            except,
            hands: hands as u64,
        })
    }

    fn draw(&self, taken: CardSet, rng: &mut Rng) -> Option<(OppDeal, f64)> {
        let t = taken.bits();
        let left = self.unseen.len() as u64 - u64::from(t.count_ones());
        let barred = self.except.iter().filter(|&&e| e & t == 0).count() as u64;
        let kept = triples(left) - barred;
        if kept == 0 {
            return None;
        }
        Some((self.hand(t, rng), kept as f64 / self.hands as f64))
    }

    /// An allowed hand of three unseen cards outside `t` (the taken cards' bits), uniformly:
    /// three distinct cards drawn until they are not an `except`ed hand. At least one such hand
    /// must be left.
    #[inline]
    fn hand(&self, t: u64, rng: &mut Rng) -> OppDeal {
        let n = self.unseen.len() as u32;
        loop {
            let mut cards = [Card::from_index(0); 3];
            let mut bits = 0u64;
            let mut k = 0;
            while k < 3 {
                let c = self.unseen[rng.below(n) as usize];
                let b = 1u64 << c.index();
                if (t | bits) & b == 0 {
                    bits |= b;
                    cards[k] = c;
                    k += 1;
                }
            }
            if bits & !self.except_cards == 0 && self.except.contains(&bits) {
                continue; // a dealt 31: not a hand this opponent can hold
            }
            cards.sort_unstable();
            return OppDeal {
                hand: cards,
                unseen_used: cards.into_iter().collect(),
                knock_at: TABLE_KNOCK_AT,
                row: OppDeal::UNLISTED,
            };
        }
    }
}

impl Listed {
    fn new(
        hands: &[([Card; 3], CardSet)],
        cumulative: &[u64],
        places: Option<&Arc<Places>>,
    ) -> Listed {
        let mut before = 0;
        let counts: Vec<u64> = cumulative
            .iter()
            .map(|&c| {
                let n = c - before;
                before = c;
                n
            })
            .collect();
        let sets: Vec<CardSet> = hands.iter().map(|h| h.1).collect();
        let holding = (hands.len() >= LARGE).then(|| Box::new(Holding::new(&sets, &counts)));
        let alias = Alias::new(&counts, before, &sets);
        let narrow = places.and_then(|p| Narrow::new(p.clone(), &sets, &counts, before));
        let halves = narrow
            .is_none()
            .then(|| Halves::new(&sets, &counts, before).map(Box::new))
            .flatten();
        Listed {
            halves,
            narrow,
            alias,
            deals: (0u32..)
                .zip(hands)
                .map(|(row, &(hand, unseen_used))| OppDeal {
                    hand,
                    unseen_used,
                    knock_at: TABLE_KNOCK_AT,
                    row,
                })
                .collect(),
            sets,
            counts,
            guide: Guide::new(cumulative.to_vec()),
            total: before,
            holding,
        }
    }

    /// The total count of the hands that use none of `taken` (`narrow`: the narrow form and
    /// the places of `taken`).
    fn kept(&self, taken: CardSet, narrow: Option<(&Narrow, u32)>) -> u64 {
        if let Some(h) = &self.holding {
            let k = taken.len();
            // A lookup (scattered over a table of 177 kB) costs about what walking sixteen
            // hands does (measured).
            if 16 * Holding::cost(k) < self.deals.len() {
                return self.total - h.meeting(taken, k);
            }
        }
        if let Some((n, t)) = narrow {
            return n.kept(t);
        }
        if let Some(h) = &self.halves {
            return h.kept(taken);
        }
        let t = taken.bits();
        // Without branches or 64-bit comparisons (which baseline x86-64 vectors lack): a hand
        // meets `taken` when `x = set & taken` is not 0, that is when the top bit of `x | -x` is 1.
        self.sets
            .iter()
            .zip(&self.counts)
            .map(|(&s, &c)| {
                let x = s.bits() & t;
                let meets = (x | x.wrapping_neg()) >> 63;
                c & meets.wrapping_sub(1)
            })
            .sum()
    }

    /// A hand drawn from the whole posterior, as by the rejection sampler.
    fn draw_any(&self, rng: &mut Rng) -> usize {
        self.guide.find(rng.below_u64(self.total))
    }

    fn draw(&self, taken: CardSet, rng: &mut Rng) -> Option<(OppDeal, f64)> {
        let t = taken.bits();
        let narrow = self.narrow.as_ref().map(|n| (n, n.places.mask(taken)));
        let kept = self.kept(taken, narrow);
        if kept == 0 {
            return None;
        }
        let k = if kept >= self.total / REJECT_DOWN_TO {
            // Enough of the posterior is left: draw from all of it until a hand fits.
            self.alias.draw_outside(taken, rng)
        } else if let Some((n, t)) = narrow {
            n.nth(t, rng.below_u64(kept))
        } else {
            let mut r = rng.below_u64(kept);
            let mut k = 0;
            loop {
                if self.sets[k].bits() & t == 0 {
                    if r < self.counts[k] {
                        break k;
                    }
                    r -= self.counts[k];
                }
                k += 1;
            }
        };
        Some((self.deals[k], kept as f64 / self.total as f64))
    }
}

#[cfg(test)]
mod tests;
