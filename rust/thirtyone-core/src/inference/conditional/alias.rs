//! Walker's alias table in whole numbers: a posterior's hands drawn in one step, exactly.

use montecarlo::Rng;

/// Walker's alias table over the hands, in whole numbers (exact): hand `k` is drawn with
/// probability `counts[k] / total` by one uniform bucket and one uniform threshold.
#[derive(Clone, Debug)]
pub(super) struct Alias {
    /// Per bucket: keep the bucket's own hand when the threshold draw is below `keep` (out of
    /// `total`), else take `other`.
    pub(super) keep: Vec<u64>,
    pub(super) other: Vec<u32>,
    total: u64,
    /// Lemire's threshold for uniform draws below `total`: `2^64 mod total`.
    below: u64,
}

impl Alias {
    /// Vose's construction: bucket `k` starts with `counts[k] * n` (out of `total` per bucket).
    pub(super) fn new(counts: &[u64], total: u64) -> Alias {
        let n = counts.len();
        let mut mass: Vec<u128> = counts.iter().map(|&c| c as u128 * n as u128).collect();
        let cap = total as u128;
        let mut keep = vec![total; n];
        let mut other: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&k| mass[k] < cap);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            keep[s] = mass[s] as u64;
            other[s] = l as u32;
            mass[l] -= cap - mass[s];
            if mass[l] < cap {
                large.pop();
                small.push(l);
            }
        }
        // Whatever is left holds exactly `cap` (whole numbers: no rounding is left over).
        Alias {
            keep,
            other,
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

    pub(super) fn draw(&self, rng: &mut Rng) -> usize {
        let k = rng.below(self.keep.len() as u32) as usize;
        let (keep, other) = (self.keep[k], self.other[k] as usize);
        // Without a branch (an unpredictable one): `k` or `other`.
        let to_other = usize::from(self.uniform(rng) >= keep).wrapping_neg();
        k ^ ((k ^ other) & to_other)
    }
}
