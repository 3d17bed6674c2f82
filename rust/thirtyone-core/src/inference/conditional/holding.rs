//! The counts of the hands that hold each card, two cards and three: what is left given the
//! cards taken, by inclusion and exclusion.

use crate::hand::CardSet;

/// The counts of the hands that hold each card, each two cards and each three, for inclusion and
/// exclusion.
#[derive(Clone, Debug)]
pub(super) struct Holding {
    one: [u64; 52],
    /// By `52 * lower + higher`.
    two: Vec<u64>,
    /// By the combinatorial number of the three cards (`triple_index`).
    three: Vec<u64>,
}

/// The index of three distinct cards `a < b < c` among the `C(52, 3)` triples.
fn triple_index(a: usize, b: usize, c: usize) -> usize {
    c * (c - 1) * (c - 2) / 6 + b * (b - 1) / 2 + a
}

impl Holding {
    pub(super) fn new(sets: &[CardSet], counts: &[u64]) -> Holding {
        let mut h = Holding {
            one: [0; 52],
            two: vec![0; 52 * 52],
            three: vec![0; 52 * 51 * 50 / 6],
        };
        for (set, &n) in sets.iter().zip(counts) {
            let mut cards = [0usize; 3];
            let mut k = 0;
            for c in set.iter().take(3) {
                cards[k] = c.index() as usize;
                k += 1;
            }
            for x in 0..k {
                h.one[cards[x]] += n;
                for y in x + 1..k {
                    h.two[52 * cards[x] + cards[y]] += n;
                }
            }
            if k == 3 {
                h.three[triple_index(cards[0], cards[1], cards[2])] += n;
            }
        }
        h
    }

    /// The lookups of [`Holding::meeting`] for `k` cards taken.
    pub(super) fn cost(k: usize) -> usize {
        k + k * k.saturating_sub(1) / 2 + k * k.saturating_sub(1) * k.saturating_sub(2) / 6
    }

    /// The total count of the hands that hold any of the `k` cards of `taken`. Not inlined: its
    /// room for the cards would weigh on every count of a posterior drawn otherwise.
    #[inline(never)]
    pub(super) fn meeting(&self, taken: CardSet, k: usize) -> u64 {
        let mut cards = [0usize; 52];
        for (slot, c) in cards.iter_mut().zip(taken.iter()) {
            *slot = c.index() as usize;
        }
        let cards = &cards[..k];
        let (mut plus, mut minus) = (0u64, 0u64);
        for (x, &a) in cards.iter().enumerate() {
            plus += self.one[a];
            for (y, &b) in cards.iter().enumerate().skip(x + 1) {
                minus += self.two[52 * a + b];
                for &c in &cards[y + 1..] {
                    plus += self.three[triple_index(a, b, c)];
                }
            }
        }
        plus - minus
    }
}
