//! Where playouts write their outcomes, and how a chunk of playouts is tallied.
//!
//! A sweep's policies mostly share one playout's outcome (every knock threshold not reached
//! plays the same game), so a playout writes an outcome for a *range* of policies at once. The
//! chunk keeps its sums as differences between neighbouring policies: a range costs two
//! additions per figure however many policies it covers, and the sums per policy are recovered
//! once per chunk (a running total). The arithmetic wraps: the differences may go below zero
//! on the way, the totals they add up to never do, so they come out exact.

use std::ops::Range;

use crate::stats::Tally;

/// The outcome of one playout for the advised player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The player came through safe.
    pub success: bool,
    /// What it cost the player.
    pub cost: u32,
    /// What the outcome is worth to the player beyond the playout (in a game of several rounds:
    /// the chance of winning the game from there), in fixed point (`stats::to_fixed`); 0 when
    /// the game has no such value.
    pub value: u32,
}

/// One outcome's share of the sums, or a difference of sums (wrapping).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Sums {
    successes: u64,
    cost: u64,
    cost_sq: u64,
    value: u64,
    value_sq: u128,
    /// Outcomes given: a debug build checks one per policy and playout (a release build
    /// keeps no count: two instructions less at each range of outcomes written).
    #[cfg(debug_assertions)]
    given: u64,
}

impl Sums {
    /// The successes and the costs of `o` (its value's sums left at 0).
    #[inline]
    fn of_counts(o: Outcome) -> Sums {
        let cost = u64::from(o.cost);
        Sums {
            successes: u64::from(o.success),
            cost,
            cost_sq: cost * cost,
            value: 0,
            value_sq: 0,
            #[cfg(debug_assertions)]
            given: 1,
        }
    }

    /// The successes and the costs of `d` added (wrapping), its value's sums left out.
    #[inline]
    fn add_counts(&mut self, d: &Sums) {
        self.successes = self.successes.wrapping_add(d.successes);
        self.cost = self.cost.wrapping_add(d.cost);
        self.cost_sq = self.cost_sq.wrapping_add(d.cost_sq);
        #[cfg(debug_assertions)]
        {
            self.given = self.given.wrapping_add(d.given);
        }
    }

    /// The successes and the costs of `d` taken away (wrapping), its value's sums left out.
    #[inline]
    fn sub_counts(&mut self, d: &Sums) {
        self.successes = self.successes.wrapping_sub(d.successes);
        self.cost = self.cost.wrapping_sub(d.cost);
        self.cost_sq = self.cost_sq.wrapping_sub(d.cost_sq);
        #[cfg(debug_assertions)]
        {
            self.given = self.given.wrapping_sub(d.given);
        }
    }

    /// A value and its square added (wrapping).
    #[inline]
    fn add_value(&mut self, (value, value_sq): (u64, u128)) {
        self.value = self.value.wrapping_add(value);
        self.value_sq = self.value_sq.wrapping_add(value_sq);
    }

    /// A value and its square taken away (wrapping).
    #[inline]
    fn sub_value(&mut self, (value, value_sq): (u64, u128)) {
        self.value = self.value.wrapping_sub(value);
        self.value_sq = self.value_sq.wrapping_sub(value_sq);
    }

    /// Every sum of `d` added (wrapping).
    #[inline]
    fn add(&mut self, d: &Sums) {
        self.add_counts(d);
        self.add_value((d.value, d.value_sq));
    }
}

/// The sums of a chunk of playouts over a row of policies, kept as differences (see the module).
pub(crate) struct Runs {
    n: u64,
    /// Slot `j`: the sums of policy `j` less those of policy `j - 1`; one slot more than there
    /// are policies, as a range may end at the last.
    diffs: Vec<Sums>,
}

impl Runs {
    /// Sums for `k` policies.
    pub(crate) fn new(k: usize) -> Runs {
        Runs {
            n: 0,
            diffs: vec![Sums::default(); k + 1],
        }
    }

    /// The policies of this chunk's row.
    pub(crate) fn len(&self) -> usize {
        self.diffs.len() - 1
    }

    /// Where the next playout writes its outcomes (the whole row).
    pub(crate) fn playout(&mut self) -> Outcomes<'_> {
        self.n += 1;
        let len = self.len();
        Outcomes {
            runs: self,
            first: 0,
            len,
        }
    }

    /// Policies `first..end` came out `o`. An outcome worth nothing beyond the playout (every
    /// outcome of a round-level query) leaves the value's sums alone: adding 0 and its square
    /// changes nothing, and the square's product and the 128-bit sums are left out.
    #[inline]
    fn add(&mut self, first: usize, end: usize, o: Outcome) {
        let d = Sums::of_counts(o);
        self.diffs[first].add_counts(&d);
        self.diffs[end].sub_counts(&d);
        if o.value != 0 {
            let value = (
                u64::from(o.value),
                u128::from(o.value) * u128::from(o.value),
            );
            self.diffs[first].add_value(value);
            self.diffs[end].sub_value(value);
        }
    }

    /// The outcome of a one-playout chunk under `policy`.
    pub(crate) fn outcome_of(self, policy: usize) -> Outcome {
        debug_assert_eq!(self.n, 1);
        let t = self.into_tallies()[policy];
        Outcome {
            success: t.successes == 1,
            cost: t.cost as u32,
            value: t.value as u32,
        }
    }

    /// The tallies per policy.
    pub(crate) fn into_tallies(self) -> Vec<Tally> {
        let mut at = Sums::default();
        let mut out = Vec::with_capacity(self.len());
        for (j, d) in self.diffs[..self.len()].iter().enumerate() {
            at.add(d);
            #[cfg(debug_assertions)]
            assert_eq!(at.given, self.n, "policy {j}: not one outcome per playout");
            #[cfg(not(debug_assertions))]
            let _ = j;
            out.push(Tally {
                n: self.n,
                successes: at.successes,
                cost: at.cost,
                cost_sq: at.cost_sq,
                value: at.value,
                value_sq: at.value_sq,
            });
        }
        out
    }
}

/// Where one playout writes its outcome under each policy of a row (a choice's policies, or a
/// part of them): a range of policies at a time.
pub struct Outcomes<'a> {
    runs: &'a mut Runs,
    /// The row's first policy among the chunk's.
    first: usize,
    len: usize,
}

impl Outcomes<'_> {
    /// The policies of this row.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The playout came out `o` under the row's `policies` (each policy of a row is given one
    /// outcome per playout).
    #[inline(always)]
    pub fn set(&mut self, policies: Range<usize>, o: Outcome) {
        assert!(
            policies.start <= policies.end && policies.end <= self.len,
            "policies {policies:?} of a row of {}",
            self.len
        );
        if policies.start < policies.end {
            self.runs
                .add(self.first + policies.start, self.first + policies.end, o);
        }
    }

    /// The row's `policies` as a row of their own (numbered from 0).
    pub fn part(&mut self, policies: Range<usize>) -> Outcomes<'_> {
        assert!(
            policies.start <= policies.end && policies.end <= self.len,
            "policies {policies:?} of a row of {}",
            self.len
        );
        Outcomes {
            runs: self.runs,
            first: self.first + policies.start,
            len: policies.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(success: bool, cost: u32, value: u32) -> Outcome {
        Outcome {
            success,
            cost,
            value,
        }
    }

    #[test]
    fn ranges_tally_as_the_outcomes_of_each_policy_would() {
        // Two playouts over 5 policies, written as ranges, against the tallies added one
        // policy at a time.
        let plays: [&[(Range<usize>, Outcome)]; 2] = [
            &[(0..2, o(true, 0, 7)), (2..5, o(false, 2, u32::MAX))],
            &[
                (0..1, o(false, 3, 0)),
                (1..4, o(true, 0, 5)),
                (4..5, o(false, 1, 1)),
            ],
        ];
        let mut runs = Runs::new(5);
        let mut want = vec![Tally::default(); 5];
        for play in plays {
            let mut out = runs.playout();
            for (r, x) in play.iter().cloned() {
                for t in &mut want[r.clone()] {
                    t.add(x.success, x.cost, x.value);
                }
                out.set(r, x);
            }
        }
        assert_eq!(runs.into_tallies(), want);
    }

    #[test]
    fn a_part_writes_into_its_own_policies() {
        let mut runs = Runs::new(6);
        let mut out = runs.playout();
        out.set(0..2, o(true, 0, 0));
        let mut part = out.part(2..6);
        assert_eq!(part.len(), 4);
        part.set(0..1, o(false, 1, 0));
        part.set(1..4, o(true, 0, 0));
        let t = runs.into_tallies();
        let successes: Vec<u64> = t.iter().map(|t| t.successes).collect();
        assert_eq!(successes, [1, 1, 0, 1, 1, 1]);
        assert_eq!(t[2].cost, 1);
        assert!(t.iter().all(|t| t.n == 1));
    }

    #[test]
    #[should_panic(expected = "of a row of 3")]
    fn a_range_past_the_row_is_refused() {
        let mut runs = Runs::new(3);
        runs.playout().set(1..4, o(true, 0, 0));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "not one outcome per playout")]
    fn a_policy_given_two_outcomes_is_caught() {
        let mut runs = Runs::new(3);
        let mut out = runs.playout();
        out.set(0..3, o(true, 0, 0));
        out.set(1..2, o(false, 1, 0));
        runs.into_tallies();
    }
}
