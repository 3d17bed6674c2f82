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

/// The sums of a chunk of playouts over a row of policies, kept as differences (see the module).
pub(crate) struct Runs {
    n: u64,
    successes: Vec<u64>,
    cost: Vec<u64>,
    cost_sq: Vec<u64>,
    value: Vec<u64>,
    value_sq: Vec<u128>,
    /// How many outcomes each policy was given (as differences): every playout must give each
    /// policy exactly one, which a debug build checks.
    #[cfg(debug_assertions)]
    given: Vec<u64>,
}

impl Runs {
    /// Sums for `k` policies (one slot more: a range may end at `k`).
    pub(crate) fn new(k: usize) -> Runs {
        Runs {
            n: 0,
            successes: vec![0; k + 1],
            cost: vec![0; k + 1],
            cost_sq: vec![0; k + 1],
            value: vec![0; k + 1],
            value_sq: vec![0; k + 1],
            #[cfg(debug_assertions)]
            given: vec![0; k + 1],
        }
    }

    /// The policies of this chunk's row.
    pub(crate) fn len(&self) -> usize {
        self.successes.len() - 1
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

    /// Policies `first..end` came out `o`.
    #[inline]
    fn add(&mut self, first: usize, end: usize, o: Outcome) {
        let cost = u64::from(o.cost);
        let pair = |col: &mut [u64], x: u64| {
            col[first] = col[first].wrapping_add(x);
            col[end] = col[end].wrapping_sub(x);
        };
        pair(&mut self.successes, u64::from(o.success));
        pair(&mut self.cost, cost);
        pair(&mut self.cost_sq, cost * cost);
        // (A round-level query values nothing: its outcomes skip the wide sums.)
        if o.value != 0 {
            pair(&mut self.value, u64::from(o.value));
            let sq = u128::from(o.value) * u128::from(o.value);
            self.value_sq[first] = self.value_sq[first].wrapping_add(sq);
            self.value_sq[end] = self.value_sq[end].wrapping_sub(sq);
        }
        #[cfg(debug_assertions)]
        pair(&mut self.given, 1);
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
        let mut at = Tally::default();
        let mut out = Vec::with_capacity(self.len());
        for j in 0..self.len() {
            at.successes = at.successes.wrapping_add(self.successes[j]);
            at.cost = at.cost.wrapping_add(self.cost[j]);
            at.cost_sq = at.cost_sq.wrapping_add(self.cost_sq[j]);
            at.value = at.value.wrapping_add(self.value[j]);
            at.value_sq = at.value_sq.wrapping_add(self.value_sq[j]);
            out.push(Tally { n: self.n, ..at });
        }
        #[cfg(debug_assertions)]
        {
            let mut given = 0u64;
            for j in 0..self.len() {
                given = given.wrapping_add(self.given[j]);
                debug_assert_eq!(given, self.n, "policy {j}: not one outcome per playout");
            }
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
    #[inline]
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
