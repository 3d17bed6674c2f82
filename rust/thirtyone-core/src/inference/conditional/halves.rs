//! A listed posterior over more than 32 unseen cards, for its walks: each hand's unseen cards in
//! two 32-bit halves of its card set, and counts in 32 bits when their total fits. Baseline x86-64
//! vectors compare 32-bit lanes, not 64-bit ones: a hand meets the cards taken when either half
//! does, so the walk compares four hands at once, where over the whole sets it took one at a
//! time (without branches). It counts exactly what the walk over the whole sets does.

use crate::hand::CardSet;

/// The hands' card sets in halves, and their counts, in the listed order.
#[derive(Clone, Debug)]
pub(super) struct Halves {
    low: Vec<u32>,
    high: Vec<u32>,
    counts: Vec<u32>,
}

impl Halves {
    /// The halves, when the total count fits in 32 bits.
    pub fn new(sets: &[CardSet], counts: &[u64], total: u64) -> Option<Halves> {
        u32::try_from(total).ok()?;
        Some(Halves {
            low: sets.iter().map(|s| s.bits() as u32).collect(),
            high: sets.iter().map(|s| (s.bits() >> 32) as u32).collect(),
            counts: counts.iter().map(|&c| c as u32).collect(),
        })
    }

    /// The total count of the hands that use none of `taken`. Not inlined: a walk over
    /// hundreds of hands or more outweighs a call, and the draws of the narrow posteriors keep
    /// their code as it was (measured: inlined, the late 9-seat position took 6% more
    /// instructions).
    #[inline(never)]
    pub fn kept(&self, taken: CardSet) -> u64 {
        let (low, high) = (taken.bits() as u32, (taken.bits() >> 32) as u32);
        let kept = self
            .low
            .iter()
            .zip(&self.high)
            .zip(&self.counts)
            .map(|((&l, &h), &c)| if (l & low) | (h & high) == 0 { c } else { 0 })
            // (The total fits in 32 bits: so does any part of it.)
            .fold(0u32, u32::wrapping_add);
        u64::from(kept)
    }
}
