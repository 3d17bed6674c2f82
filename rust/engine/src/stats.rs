//! Proportions, their 95% margins, means, and statistical ties.

/// Successes and costs over a number of trials. Costs are whole numbers, so sums are exact and
/// independent of the order in which the threads add them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub n: u64,
    pub successes: u64,
    pub cost: u64,
    /// The sum of the squared costs (for the margin of the mean cost).
    pub cost_sq: u64,
}

impl Tally {
    #[inline]
    pub fn add(&mut self, success: bool, cost: u32) {
        self.n += 1;
        self.successes += u64::from(success);
        self.cost += u64::from(cost);
        self.cost_sq += u64::from(cost) * u64::from(cost);
    }
    pub fn merge(&mut self, o: &Tally) {
        self.n += o.n;
        self.successes += o.successes;
        self.cost += o.cost;
        self.cost_sq += o.cost_sq;
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

/// Whether a proportion `p` is statistically tied with the best `p_best` whose margin is
/// `margin_best`: within that margin of it.
pub fn tied(p_best: f64, margin_best: f64, p: f64) -> bool {
    p_best - p <= margin_best + 1e-12
}

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        assert_eq!(best(&[t(10, 5, 5), t(10, 6, 9)]), Some(1));
        assert_eq!(best(&[t(10, 6, 5), t(10, 6, 4)]), Some(1));
        assert_eq!(best(&[t(10, 6, 4), t(20, 12, 8)]), Some(0));
        assert_eq!(best(&[]), None);
    }

    #[test]
    fn the_margin_of_a_mean_cost() {
        // Costs 0, 0, 2, 2: mean 1, variance 1; over 4 units the margin is 1.96 / 2.
        let mut t = Tally::default();
        for c in [0, 0, 2, 2] {
            t.add(c == 0, c);
        }
        assert!((t.cost_margin(4) - 0.98).abs() < 1e-12);
        // Always the same cost: no spread, no margin; no units: nothing known.
        let mut t = Tally::default();
        t.add(false, 1);
        t.add(false, 1);
        assert_eq!(t.cost_margin(2), 0.0);
        assert_eq!(t.cost_margin(0), 1.0);
    }

    #[test]
    fn ties_within_the_margin() {
        assert!(tied(0.7421, 0.0086, 0.7365));
        assert!(!tied(0.7421, 0.0086, 0.6012));
    }
}
