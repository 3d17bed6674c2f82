//! Walker's alias table in whole numbers: a posterior's hands drawn in one step, exactly.

use montecarlo::Rng;

use crate::hand::CardSet;

/// Walker's alias table over the hands, in whole numbers (exact): hand `k` is drawn with
/// probability `counts[k] / total` by one uniform bucket and one uniform threshold.
#[derive(Clone, Debug)]
pub(super) struct Alias {
    pub(super) buckets: Vec<Bucket>,
    total: u64,
    /// Lemire's threshold for uniform draws below `total`: `2^64 mod total`.
    below: u64,
}

/// One bucket of the table, with the unseen cards of both its hands: a draw that must miss some
/// cards reads one bucket, not a list of sets besides.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bucket {
    /// Keep the bucket's own hand when the threshold draw is below `keep` (out of `total`),
    /// else take `other`.
    pub(super) keep: u64,
    pub(super) other: u32,
    /// The unseen cards of the bucket's own hand and of `other`.
    own: CardSet,
    others: CardSet,
}

impl Alias {
    /// Vose's construction: bucket `k` starts with `counts[k] * n` (out of `total` per bucket).
    /// `sets`: each hand's unseen cards.
    pub(super) fn new(counts: &[u64], total: u64, sets: &[CardSet]) -> Alias {
        let n = counts.len();
        let mut mass: Vec<u128> = counts.iter().map(|&c| c as u128 * n as u128).collect();
        let cap = total as u128;
        // Every bucket starts whole, with its own hand (`other` unused until it is set).
        let mut buckets: Vec<Bucket> = sets
            .iter()
            .enumerate()
            .map(|(k, &own)| Bucket {
                keep: total,
                other: k as u32,
                own,
                others: own,
            })
            .collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&k| mass[k] < cap);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            let b = &mut buckets[s];
            b.keep = mass[s] as u64;
            b.other = l as u32;
            b.others = sets[l];
            mass[l] -= cap - mass[s];
            if mass[l] < cap {
                large.pop();
                small.push(l);
            }
        }
        // Whatever is left holds exactly `cap` (whole numbers: no rounding is left over).
        Alias {
            buckets,
            total,
            below: total.wrapping_neg().checked_rem(total).unwrap_or(0),
        }
    }

    /// A uniform number below `total` (Lemire's multiply and shift, with its rejection: exact).
    fn uniform(&self, rng: &mut Rng) -> u64 {
        loop {
            let m = u128::from(rng.next_u64()) * u128::from(self.total);
            if (m as u64) >= self.below {
                return (m >> 64) as u64;
            }
        }
    }

    /// A hand that uses none of `taken`: hands drawn from the table until one does (at least
    /// one must be there).
    pub(super) fn draw_outside(&self, taken: CardSet, rng: &mut Rng) -> usize {
        loop {
            let k = rng.below(self.buckets.len() as u32) as usize;
            let b = &self.buckets[k];
            // Without a branch (an unpredictable one): `k` or `other`, and its cards, by a mask
            // of all ones for `other` (written as a choice, the compiler made it a branch).
            let to_other = u64::from(self.uniform(rng) >= b.keep).wrapping_neg();
            let hand = k ^ ((k ^ b.other as usize) & to_other as usize);
            let (own, others) = (b.own.bits(), b.others.bits());
            if (own ^ ((own ^ others) & to_other)) & taken.bits() == 0 {
                return hand;
            }
        }
    }
}
