//! Proportions, their 95% margins, means, and statistical ties.

/// The fixed-point scale of a playout's value: a value `v` is carried as `round(v * VALUE_ONE)`,
/// so that sums are whole numbers (exact, and the same whatever order the threads add them in).
/// Values up to 4 fit in the `u32` of an outcome.
pub const VALUE_ONE: f64 = (1u64 << 30) as f64;

/// A value in fixed point (clamped to what an outcome carries): `(v * VALUE_ONE).round()`, as
/// [`rounded`] works it out (every playout's end values one with `lives`).
#[inline]
pub fn to_fixed(v: f64) -> u32 {
    rounded(v * VALUE_ONE).min(u64::from(u32::MAX)) as u32
}

/// `x.round() as u64` (a half away from zero; below 0 and NaN give 0, past `u64::MAX` gives
/// it), without the library's call, which is not an instruction on every x86-64: the whole
/// part, and one more when what is left is a half or more (exact below 2^52, where `x` less its
/// whole part is a float; above it `x` is whole).
#[inline]
pub fn rounded(x: f64) -> u64 {
    let whole = x as u64;
    whole.saturating_add(u64::from(x - whole as f64 >= 0.5))
}

/// Successes, costs and values over a number of trials. Costs are whole numbers and values are
/// fixed-point, so sums are exact and independent of the order in which the threads add them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub n: u64,
    pub successes: u64,
    pub cost: u64,
    /// The sum of the squared costs (for the margin of the mean cost).
    pub cost_sq: u64,
    /// The sum of the values, in units of `1 / VALUE_ONE`.
    pub value: u64,
    /// The sum of the squared values, in the same units squared.
    pub value_sq: u128,
}

impl Tally {
    #[inline]
    pub fn add(&mut self, success: bool, cost: u32, value: u32) {
        self.n += 1;
        self.successes += u64::from(success);
        self.cost += u64::from(cost);
        self.cost_sq += u64::from(cost) * u64::from(cost);
        self.value += u64::from(value);
        self.value_sq += u128::from(value) * u128::from(value);
    }
    pub fn merge(&mut self, o: &Tally) {
        self.n += o.n;
        self.successes += o.successes;
        self.cost += o.cost;
        self.cost_sq += o.cost_sq;
        self.value += o.value;
        self.value_sq += o.value_sq;
    }
    /// The mean value (0 with no trials).
    pub fn mean_value(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.value as f64 / VALUE_ONE / self.n as f64
        }
    }
    /// The 95% margin of the mean value over `units` independent units (as
    /// [`Tally::cost_margin`]).
    pub fn value_margin(&self, units: u64) -> f64 {
        if units == 0 || self.n == 0 {
            return 1.0;
        }
        let n = self.n as f64;
        let mean = self.value as f64 / n;
        let var = (self.value_sq as f64 / n - mean * mean).max(0.0);
        1.96 * (var / units as f64).sqrt() / VALUE_ONE
    }
    /// The proportion of successes (0 with no trials).
    pub fn p(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.successes as f64 / self.n as f64
        }
    }
    /// The mean cost (0 with no trials).
    pub fn mean_cost(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.cost as f64 / self.n as f64
        }
    }
}

impl Tally {
    /// The 95% margin of the mean cost over `units` independent units (the cost's standard
    /// deviation over the trials, divided by the root of the units): `1.96 * sd / sqrt(units)`.
    /// Without units nothing is known: the margin is the largest cost seen, or 1.
    pub fn cost_margin(&self, units: u64) -> f64 {
        if units == 0 || self.n == 0 {
            return 1.0;
        }
        let mean = self.mean_cost();
        let var = (self.cost_sq as f64 / self.n as f64 - mean * mean).max(0.0);
        1.96 * (var / units as f64).sqrt()
    }
}

/// The 95% margin of a proportion `p` estimated from `n` independent units:
/// `1.96 * sqrt(p (1 - p) / n)`. Without units nothing is known: the margin is 1, the whole
/// range of a proportion (wider than any margin a unit gives, and a finite number).
pub fn margin(p: f64, n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    1.96 * (p * (1.0 - p) / n as f64).sqrt()
}

/// How two tallies rank: `Greater` when `a` is better — a higher proportion, then a lower mean
/// cost. Exact (the ratios are compared by cross-multiplying).
pub fn compare(a: &Tally, b: &Tally) -> std::cmp::Ordering {
    let pa = a.successes as u128 * b.n as u128;
    let pb = b.successes as u128 * a.n as u128;
    let ca = a.cost as u128 * b.n as u128;
    let cb = b.cost as u128 * a.n as u128;
    pa.cmp(&pb).then(cb.cmp(&ca))
}

/// The index of the best of several tallies: the highest proportion, then the lowest mean cost,
/// then the first.
pub fn best(tallies: &[Tally]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, t) in tallies.iter().enumerate() {
        match best {
            Some(b) if compare(t, &tallies[b]).is_le() => {}
            _ => best = Some(i),
        }
    }
    best
}

/// The index of the tally with the highest mean value (exact: cross-multiplied), then the best
/// by [`compare`], then the first.
pub fn best_by_value(tallies: &[Tally]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, t) in tallies.iter().enumerate() {
        match best {
            Some(b) => {
                let o = &tallies[b];
                let va = t.value as u128 * o.n as u128;
                let vb = o.value as u128 * t.n as u128;
                if va.cmp(&vb).then(compare(t, o)).is_gt() {
                    best = Some(i);
                }
            }
            None => best = Some(i),
        }
    }
    best
}

/// Whether a proportion `p` is statistically tied with the best `p_best` whose margin is
/// `margin_best`: within that margin of it.
pub fn tied(p_best: f64, margin_best: f64, p: f64) -> bool {
    p_best - p <= margin_best + 1e-12
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rounded` is `f64::round` at halves, the floats either side of them, whole numbers
    /// just below, a spread of fractions up to 2^32, and the ends; `to_fixed` is the rounding
    /// it replaced, clamped.
    #[test]
    fn rounded_is_the_librarys_round() {
        let mut xs = vec![
            0.0,
            -0.0,
            -0.4,
            -3.0,
            0.5,
            1.0,
            1.5,
            2.5,
            2f64.powi(52) + 1.0,
        ];
        xs.extend([1e300, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]);
        for whole in [
            0.0,
            1.0,
            2.0,
            3.0,
            1023.0,
            1048575.0,
            4294967295.0,
            2f64.powi(51),
        ] {
            let half: f64 = whole + 0.5;
            xs.extend([
                half,
                half.next_down(),
                half.next_up(),
                whole + 1.0 - f64::EPSILON,
            ]);
        }
        let mut rng = crate::Rng::stream(1, 2, 3);
        for _ in 0..100_000 {
            let x = f64::from(rng.below(u32::MAX)) / f64::from(u32::MAX);
            xs.extend([x, x * 4.0, x * 1_048_576.0, x * 4_294_967_296.0]);
        }
        for x in xs {
            assert_eq!(rounded(x), x.round() as u64, "{x:e}");
            let before = (x * VALUE_ONE).round().clamp(0.0, u32::MAX as f64) as u32;
            assert_eq!(to_fixed(x), before, "{x:e}");
        }
    }

    #[test]
    fn margin_matches_the_formula() {
        // The example of oracle.md: p = 0.7421 over 10,000 deals gives 0.0086.
        assert!((margin(0.7421, 10_000) - 0.0086).abs() < 5e-5);
        assert_eq!(margin(0.0, 100), 0.0);
        assert_eq!(margin(0.5, 0), 1.0);
        assert!(margin(0.5, 1) < margin(0.5, 0));
    }

    #[test]
    fn best_prefers_proportion_then_cost_then_first() {
        let t = |n, s, c| Tally {
            n,
            successes: s,
            cost: c,
            cost_sq: c,
            ..Tally::default()
        };
        assert_eq!(best(&[t(10, 5, 5), t(10, 6, 9)]), Some(1));
        assert_eq!(best(&[t(10, 6, 5), t(10, 6, 4)]), Some(1));
        assert_eq!(best(&[t(10, 6, 4), t(20, 12, 8)]), Some(0));
        assert_eq!(best(&[]), None);
    }

    #[test]
    fn best_by_value_prefers_the_value_then_the_proportion() {
        let t = |n: u64, s: u64, v: u64| Tally {
            n,
            successes: s,
            value: v,
            ..Tally::default()
        };
        assert_eq!(best_by_value(&[t(10, 9, 5), t(10, 1, 6)]), Some(1));
        assert_eq!(best_by_value(&[t(10, 1, 6), t(20, 9, 12)]), Some(1));
        assert_eq!(best_by_value(&[t(10, 1, 6), t(20, 2, 12)]), Some(0));
        assert_eq!(best_by_value(&[]), None);
    }

    #[test]
    fn the_margin_of_a_mean_cost() {
        // Costs 0, 0, 2, 2: mean 1, variance 1; over 4 units the margin is 1.96 / 2.
        let mut t = Tally::default();
        for c in [0, 0, 2, 2] {
            t.add(c == 0, c, 0);
        }
        assert!((t.cost_margin(4) - 0.98).abs() < 1e-12);
        // Always the same cost: no spread, no margin; no units: nothing known.
        let mut t = Tally::default();
        t.add(false, 1, 0);
        t.add(false, 1, 0);
        assert_eq!(t.cost_margin(2), 0.0);
        assert_eq!(t.cost_margin(0), 1.0);
    }

    #[test]
    fn values_are_summed_exactly_with_their_margin() {
        // Values 0.25 and 0.75 alternately: mean 0.5, sd 0.25; over 4 units 1.96 * 0.25 / 2.
        let mut t = Tally::default();
        for v in [0.25, 0.75, 0.25, 0.75] {
            t.add(true, 0, to_fixed(v));
        }
        assert_eq!(t.mean_value(), 0.5);
        assert!((t.value_margin(4) - 0.245).abs() < 1e-9);
        let mut a = Tally::default();
        a.add(true, 0, to_fixed(0.25));
        let mut b = Tally::default();
        b.add(true, 0, to_fixed(0.75));
        let (mut ab, mut ba) = (a, b);
        ab.merge(&b);
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(to_fixed(3.0) as f64 / VALUE_ONE, 3.0);
        assert_eq!(to_fixed(-1.0), 0);
    }

    #[test]
    fn ties_within_the_margin() {
        assert!(tied(0.7421, 0.0086, 0.7365));
        assert!(!tied(0.7421, 0.0086, 0.6012));
    }
}
