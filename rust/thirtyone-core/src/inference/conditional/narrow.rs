//! A listed posterior over at most 32 unseen cards, in 32-bit masks: each hand's unseen cards by
//! their places among the unseen cards, and counts in 32 bits when their total fits. A walk then
//! reads half the memory and compares four hands at once (baseline x86-64 vectors compare 32-bit
//! lanes, not 64-bit ones). When few of the places the hands use are left, the hands within them
//! are looked up by their sets instead ([`Subsets`]); and for a posterior of many hands, the
//! counts either found are remembered ([`Memo`]).
//!
//! Everything here counts and finds exactly what the walk over the wide sets does: the same
//! count left, and the same hand at each place of it (the listed order), so the draws are the
//! same.

use std::sync::Arc;

use super::memo::Memo;
use super::subsets::Subsets;
use crate::hand::{Card, CardSet};

/// The unseen cards' places (in card order), for at most 32 of them: a set's unseen cards as a
/// 32-bit mask by one lookup per byte of the set.
#[derive(Clone, Debug)]
pub(crate) struct Places {
    by_byte: [[u32; 256]; 7],
}

impl Places {
    pub fn new(unseen: &[Card]) -> Option<Arc<Places>> {
        if unseen.len() > 32 {
            return None;
        }
        let mut by_byte = [[0u32; 256]; 7];
        for (place, c) in unseen.iter().enumerate() {
            let (byte, bit) = (c.index() as usize / 8, c.index() % 8);
            for (b, mask) in by_byte[byte].iter_mut().enumerate() {
                if b >> bit & 1 == 1 {
                    *mask |= 1 << place;
                }
            }
        }
        Some(Arc::new(Places { by_byte }))
    }

    /// The places of the unseen cards of `set` (cards not unseen have none).
    pub fn mask(&self, set: CardSet) -> u32 {
        let b = set.bits().to_le_bytes();
        (0..7).fold(0, |m, k| m | self.by_byte[k][b[k] as usize])
    }
}

/// The hands' masks and counts, in the listed order.
#[derive(Clone, Debug)]
pub(super) struct Narrow {
    pub places: Arc<Places>,
    masks: Vec<u32>,
    counts: Vec<u32>,
    /// Every place any hand uses.
    cards: u32,
    total: u32,
    /// The hands by their sets, when the listed order is the order of the masks.
    pub subsets: Option<Box<Subsets>>,
    /// The counts the walks found, for a posterior of many hands.
    memo: Option<Memo>,
}

impl Narrow {
    /// The narrow form, when the total count fits in 32 bits.
    pub fn new(
        places: Arc<Places>,
        sets: &[CardSet],
        counts: &[u64],
        total: u64,
    ) -> Option<Narrow> {
        let total = u32::try_from(total).ok()?;
        let masks: Vec<u32> = sets.iter().map(|&s| places.mask(s)).collect();
        let counts: Vec<u32> = counts.iter().map(|&c| c as u32).collect();
        let cards = masks.iter().fold(0, |u, &m| u | m);
        let subsets =
            Subsets::new(&masks, &counts, 32 - cards.leading_zeros() as usize).map(Box::new);
        let memo = (masks.len() >= MEMO_FROM).then(|| Memo::new(masks.len()));
        Some(Narrow {
            memo,
            masks,
            counts,
            cards,
            total,
            subsets,
            places,
        })
    }

    /// The hands by their sets and the places left, when a visit of those costs less than a
    /// walk.
    pub fn subsets(&self, t: u32) -> Option<(&Subsets, u32)> {
        let s = self.subsets.as_ref()?;
        let avail = self.cards & !t;
        (avail.count_ones() <= s.most).then_some((s, avail))
    }

    /// The total count of the hands that use none of the places `t`.
    pub fn kept(&self, t: u32) -> u64 {
        if self.cards & t == 0 {
            return u64::from(self.total);
        }
        // (What is left depends only on the places taken that the hands use.)
        let key = self.cards & t;
        let memo = self.memo.as_ref();
        if let Some(kept) = memo.and_then(|m| m.get(key)) {
            return u64::from(kept);
        }
        let kept = match self.subsets(t) {
            Some((s, avail)) => s.kept(avail),
            None => kept_of(&self.masks, &self.counts, t),
        };
        if let Some(m) = memo {
            m.put(key, kept);
        }
        u64::from(kept)
    }

    /// The hand at `r` (below what is kept) among those that use none of `t`, in the listed order.
    pub fn nth(&self, t: u32, mut r: u64) -> usize {
        if let Some((s, avail)) = self.subsets(t) {
            return s.nth(avail, r as u32); // below what is kept: in 32 bits
        }
        // Block by block (each block's count left without a branch), then hand by hand in the
        // block: a branch a block, taken once, instead of an unpredictable one a hand.
        let mut k = 0;
        for (m, c) in self
            .masks
            .chunks_exact(BLOCK)
            .zip(self.counts.chunks_exact(BLOCK))
        {
            let left = u64::from(kept_of(m, c, t));
            if r < left {
                break;
            }
            r -= left;
            k += BLOCK;
        }
        loop {
            if self.masks[k] & t == 0 {
                let c = u64::from(self.counts[k]);
                if r < c {
                    return k;
                }
                r -= c;
            }
            k += 1;
        }
    }
}

/// Hands (and more) at which a posterior remembers the counts it works out: below, a walk costs
/// little more than a lookup (measured on the late positions of 6 to 9 seats: from 16 hands they
/// take fewer instructions than from 32, none more).
const MEMO_FROM: usize = 16;

/// The hands in a block of the walk that finds a hand.
const BLOCK: usize = 8;

/// The total count of the hands `masks` (counts `counts`) that use none of the places `t`
/// (the total fits in 32 bits: so does any part of it).
#[inline(always)]
fn kept_of(masks: &[u32], counts: &[u32], t: u32) -> u32 {
    masks
        .iter()
        .zip(counts)
        .map(|(&m, &c)| if m & t == 0 { c } else { 0 })
        .fold(0u32, u32::wrapping_add)
}
