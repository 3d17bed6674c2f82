//! The counts left that a narrow posterior's walks (or visits of its sets) found, remembered for
//! the draws that follow: late in a round of many seats the opponents drawn first leave the same
//! few sets of cards taken again and again (a few thousand sets over hundreds of thousands of
//! draws), and a walk over hundreds of hands, or a visit of dozens of sets, is then a lookup.
//!
//! A count found here is exactly the count worked out, so the draws are the same whether it was
//! found or worked out, on any number of threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Slots per hand of the posterior, and the most slots (512 kB): enough that the sets taken
/// in a query mostly keep their slots (measured on the late 9-seat positions).
const SLOTS_PER_HAND: usize = 256;
const MOST_SLOTS: usize = 1 << 16;

/// The count left by each set of places taken (among the places the hands use) that was worked
/// out, in a table of fixed size indexed by a hash of the set. Each slot holds one set and its
/// count in one 64-bit word (the set in the high half; 0 for none, as a set worked out is never
/// empty), so that the threads of a query share the table without a lock, each seeing a whole
/// entry or none; an entry may replace another in its slot. The table is made at the first count
/// worked out (a posterior never drawn after cards it uses never needs it).
pub(super) struct Memo {
    slots: OnceLock<Box<[AtomicU64]>>,
    hands: usize,
}

impl Memo {
    /// A memo for a posterior of `hands` hands.
    pub fn new(hands: usize) -> Memo {
        Memo {
            slots: OnceLock::new(),
            hands,
        }
    }

    /// The count left by `key` (not 0), if remembered.
    #[inline]
    pub fn get(&self, key: u32) -> Option<u32> {
        debug_assert_ne!(key, 0, "an empty slot reads as key 0");
        let e = self.slot(self.slots.get()?, key).load(Ordering::Relaxed);
        ((e >> 32) as u32 == key).then_some(e as u32)
    }

    /// Remember the count left by `key` (not 0).
    #[inline]
    pub fn put(&self, key: u32, kept: u32) {
        let slots = self.slots.get_or_init(|| self.table());
        self.slot(slots, key)
            .store(u64::from(key) << 32 | u64::from(kept), Ordering::Relaxed);
    }

    /// The slot of `key`: the high bits of its product with the golden ratio (Fibonacci hashing).
    #[inline]
    fn slot<'a>(&self, slots: &'a [AtomicU64], key: u32) -> &'a AtomicU64 {
        let shift = 32 - slots.len().trailing_zeros();
        &slots[(key.wrapping_mul(0x9E37_79B1) >> shift) as usize]
    }

    #[cold]
    #[inline(never)]
    fn table(&self) -> Box<[AtomicU64]> {
        let n = (self.hands * SLOTS_PER_HAND)
            .next_power_of_two()
            .min(MOST_SLOTS);
        (0..n).map(|_| AtomicU64::new(0)).collect()
    }
}

impl Clone for Memo {
    /// A memo of the same size with nothing remembered (what it remembers is only a shortcut).
    fn clone(&self) -> Memo {
        Memo::new(self.hands)
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let slots = self.slots.get().map_or(0, |s| s.len());
        write!(f, "Memo({} hands, {slots} slots)", self.hands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the memo gives back is the count put for that key, however many keys share its
    /// slots: 256 slots for keys that come back (a few, asked again and again, mostly found) and
    /// for keys that crowd them out (thousands, each put once).
    #[test]
    fn a_remembered_count_is_the_count_of_its_key() {
        let memo = Memo::new(1);
        let count = |key: u32| key.wrapping_mul(2_654_435_761) >> 7;
        let (mut found, mut missed) = (0, 0);
        let mut ask = |key: u32| {
            match memo.get(key) {
                Some(c) => {
                    assert_eq!(c, count(key), "key {key}");
                    found += 1;
                }
                None => {
                    memo.put(key, count(key));
                    missed += 1;
                }
            }
            assert_eq!(memo.get(key), Some(count(key)), "key {key}, just put");
        };
        for _ in 0..10 {
            (1..=20u32).for_each(&mut ask);
        }
        (1..=5_000u32).for_each(&mut ask);
        (1..=20u32).for_each(&mut ask);
        assert!(
            found >= 150 && missed >= 5_000,
            "found {found}, missed {missed}"
        );
        assert_eq!(memo.slots.get().map(|s| s.len()), Some(SLOTS_PER_HAND));
        // A copy remembers nothing, and a memo never used has no table.
        assert_eq!(memo.clone().get(1), None);
        assert!(Memo::new(100).slots.get().is_none());
    }
}
