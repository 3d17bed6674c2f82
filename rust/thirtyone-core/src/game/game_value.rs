//! The game-value table: every player's chance of winning the game (under ranked placing, the
//! points they can expect) from the lives of the players still in, by dynamic programming over
//! rounds.
//!
//! The later rounds are assumed to be played by everybody (you included) by the table's rule,
//! knocking at 27: a round then does the same thing to the positions around the table whoever sits
//! there and whatever their lives, so one simulated distribution of a round's results per seat
//! count ([`crate::game::round_outcomes`]) drives the whole table, and a state is only the lives of
//! the players still in, in turn order from the next round's first player (the dealer last). A wash
//! (a round that would leave nobody) is dealt again by the same dealer, so its share is taken out;
//! a round that costs nobody anything (two players dealt 31 at two seats) passes the deal on with
//! the lives unchanged: the states that pass the deal round to one another are solved together.

mod solver;

use std::sync::Arc;
use std::time::Instant;

use montecarlo::{Runner, Stop};

use super::round_outcomes::{distribution_noting, Distribution, RoundResult};
use super::GameRules;
use crate::rules::{Placing, RoundRules, MAX_SEATS};
use solver::{pack, solved, step, work, Memo, Step, TableKey};

/// The most work (states × results × seats) a table may take; a game with more lives left than
/// this allows gets no game-level figures.
pub const MAX_WORK: u64 = 400_000_000;

/// Why there is no table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// It would take this much work, more than [`MAX_WORK`].
    TooLarge(u64),
    /// The work was stopped (cancelled).
    Stopped,
    /// The time allowed ran out before the table was done (what was solved is kept, and the
    /// next question goes on from there).
    Time,
}

/// One player's value at a table, now and after the round being played.
pub struct GameValue {
    rules: GameRules,
    memo: Arc<Memo>,
    /// The losses each player can take before they are out (their lives, and the county's
    /// stage where the table has one), in turn order from this round's first player.
    seq: Vec<u8>,
    /// My position in `seq`.
    me: usize,
    /// [`GameValue::after_round`] by the losses alone, for every result where each position
    /// lost at most 2 (index: the losses as a base-3 number, position 0 lowest); empty under
    /// ranked placing, where the order of the hands counts too. A playout values its round
    /// here: the lookup replaces the step and the search of the state.
    by_losses: Vec<f64>,
}

/// Where a round's losses, by seat, are listed among [`GameValue::by_losses`]: each seat's weight
/// is its position's power of 3 (0 for a seat not at the table), and the place the sum of every
/// seat's losses times its weight. A playout's end reads it ([`LossWeights::index`]), so it is
/// laid out for a few instructions: the first eight seats' losses, once each is known to be at
/// most 2, make two bytes of four 2-bit fields (`four_fields`), and each byte's weighed sum is
/// read from a table of 256; the ninth seat's is added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LossWeights {
    /// By seats 0–3 and 4–7: each byte of four 2-bit losses' weighed sum.
    by_four: [[u32; 256]; 2],
    /// Each seat's weight.
    by_seat: [u32; MAX_SEATS],
}

// Eight seats fit a u64 of losses, the ninth is read alone.
const _: () = assert!(MAX_SEATS == 9);

/// Four losses of at most 3, the bytes of `four` (lowest first), as the 2-bit fields of a byte
/// (lowest first): each loss's two bits moved next to the one before.
#[inline(always)]
fn four_fields(four: u32) -> usize {
    let x = (four | (four >> 6)) & 0x000F_000F;
    ((x | (x >> 12)) & 0xFF) as usize
}

impl LossWeights {
    /// The weights of `weights` (by seat) laid out as [`LossWeights`] reads them.
    fn new(weights: [u32; MAX_SEATS]) -> LossWeights {
        let mut by_four = [[0u32; 256]; 2];
        for (half, table) in by_four.iter_mut().enumerate() {
            for (code, sum) in table.iter_mut().enumerate() {
                *sum = (0..4)
                    .map(|j| ((code >> (2 * j)) & 3) as u32 * weights[4 * half + j])
                    .sum();
            }
        }
        LossWeights {
            by_four,
            by_seat: weights,
        }
    }

    /// The place of the losses where `seat` alone lost `lives` (None: more than the table lists).
    #[inline(always)]
    pub fn index_of_one(&self, seat: u8, lives: u8) -> Option<usize> {
        let lives = u32::from(lives);
        (lives <= BY_LOSSES_UP_TO).then(|| (lives * self.by_seat[usize::from(seat)]) as usize)
    }

    /// The place of `lost` (every seat's losses, by seat; 0 for a seat not at the table) among
    /// the listed values; None where a seat lost more than the table lists.
    #[inline(always)]
    pub fn index(&self, lost: &[u8; MAX_SEATS]) -> Option<usize> {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&lost[..8]);
        let v = u64::from_le_bytes(eight);
        // A byte of 3 to 0x82 reaches its top bit when 0x7D is added (without a carry to the
        // next byte); a byte of 0x80 or more has it already.
        let over = (v | v.wrapping_add(0x7D7D_7D7D_7D7D_7D7D)) & 0x8080_8080_8080_8080 != 0;
        if over || u32::from(lost[8]) > BY_LOSSES_UP_TO {
            return None;
        }
        let low = self.by_four[0][four_fields(v as u32)];
        let high = self.by_four[1][four_fields((v >> 32) as u32)];
        Some((low + high + self.by_seat[8] * u32::from(lost[8])) as usize)
    }
}

/// The losses per position that [`GameValue::by_losses`] lists, at most.
const BY_LOSSES_UP_TO: u32 = 2;

/// The index of a round's losses, by position from its first player, in
/// [`GameValue::by_losses`] (None: a position lost more).
#[inline]
fn losses_index(losses: impl DoubleEndedIterator<Item = u8>) -> Option<usize> {
    let mut index = 0usize;
    for l in losses.rev() {
        if u32::from(l) > BY_LOSSES_UP_TO {
            return None;
        }
        index = index * (BY_LOSSES_UP_TO as usize + 1) + usize::from(l);
    }
    Some(index)
}

/// The result listed at `index` of [`GameValue::by_losses`] for `m` positions (the positions
/// in order: the order counts only under ranked placing).
fn losses_result(mut index: u32, m: usize) -> RoundResult {
    let mut result = RoundResult {
        losses: [0; MAX_SEATS],
        order: [0; MAX_SEATS],
    };
    for p in 0..m {
        result.losses[p] = (index % (BY_LOSSES_UP_TO + 1)) as u8;
        result.order[p] = p as u8;
        index /= BY_LOSSES_UP_TO + 1;
    }
    result
}

/// A table ready to be solved: its round results are at hand.
pub struct Prepared {
    rules: GameRules,
    key: TableKey,
    dists: Vec<Option<Arc<Distribution>>>,
    seq: Vec<u8>,
    me: usize,
    /// A line for each file of round results that could not be used (and was made again).
    notes: Vec<String>,
}

impl Prepared {
    /// The lines saying which files of round results could not be used (each was ignored and
    /// made again): for the answer's warnings. Taken once.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// Solve the table, until `deadline` at the latest (what is solved is kept either way).
    pub fn solve(
        self,
        runner: &Runner,
        deadline: Option<Instant>,
    ) -> std::result::Result<GameValue, Unavailable> {
        let memo = solved(&self, runner, deadline).map_err(|stop| match stop {
            Stop::Cancelled => Unavailable::Stopped,
            Stop::Time => Unavailable::Time,
        })?;
        let mut g = GameValue {
            rules: self.rules,
            memo,
            seq: self.seq,
            me: self.me,
            by_losses: Vec::new(),
        };
        if !g.points() {
            let m = g.seq.len() as u32;
            g.by_losses = (0..(BY_LOSSES_UP_TO + 1).pow(m))
                .map(|index| g.stepped(&losses_result(index, g.seq.len())))
                .collect();
        }
        Ok(g)
    }
}

impl GameValue {
    /// What the table for `me` at `lives` (one per seat of the round, every seat in), the
    /// round played first by `first`, needs: its round results, from memory, disk or
    /// simulation (no time limit but cancellation); or why there is none.
    pub fn prepare(
        round_rules: &RoundRules,
        rules: GameRules,
        lives: &[u8],
        (me, first): (usize, usize),
        runner: &Runner,
    ) -> std::result::Result<Prepared, Unavailable> {
        let w = work(&rules, lives);
        if w > MAX_WORK {
            return Err(Unavailable::TooLarge(w));
        }
        let n = lives.len();
        let seq: Vec<u8> = (0..n)
            .map(|p| rules.losses_until_out(lives[(first + p) % n]))
            .collect();
        let keep_order = rules.placing == Placing::Ranked;
        let mut dists = vec![None; n + 1];
        let mut notes = Vec::new();
        for (m, d) in dists.iter_mut().enumerate().skip(2) {
            *d = Some(
                distribution_noting(round_rules, m as u8, keep_order, runner, &mut notes)
                    .ok_or(Unavailable::Stopped)?,
            );
        }
        Ok(Prepared {
            rules,
            key: (format!("{round_rules:?}"), rules),
            dists,
            seq,
            me: (me + n - first % n) % n,
            notes,
        })
    }

    /// [`GameValue::prepare`], then [`Prepared::solve`] until `deadline`.
    pub fn new(
        round_rules: &RoundRules,
        rules: GameRules,
        lives: &[u8],
        me_first: (usize, usize),
        runner: &Runner,
        deadline: Option<Instant>,
    ) -> std::result::Result<GameValue, Unavailable> {
        Self::prepare(round_rules, rules, lives, me_first, runner)?.solve(runner, deadline)
    }

    fn value(&self, seq: &[u8], pos: usize) -> f64 {
        self.memo.0.get(&pack(seq)).map_or(0.0, |v| v[pos])
    }

    /// My value now, before the round is dealt.
    pub fn now(&self) -> f64 {
        self.value(&self.seq, self.me)
    }

    /// My value once the present round has ended with `result` (by position from its first
    /// player).
    #[inline]
    pub fn after_round(&self, result: &RoundResult) -> f64 {
        if !self.by_losses.is_empty() {
            if let Some(index) = losses_index(result.losses[..self.seq.len()].iter().copied()) {
                return self.by_losses[index];
            }
        }
        self.stepped(result)
    }

    /// [`GameValue::after_round`] read from each seat's losses (`lost`, by seat; `first` the
    /// round's first player of its `seats`) where the losses alone decide it and the table
    /// lists them: a playout's end valued without laying its result out by position. None:
    /// ask [`GameValue::after_round`].
    #[inline]
    pub fn after_losses(&self, lost: &[u8; MAX_SEATS], first: usize, seats: usize) -> Option<f64> {
        if !self.lists_losses(first, seats) {
            return None;
        }
        let index = losses_index((0..seats).map(|p| lost[(first + p) % seats]))?;
        Some(self.by_losses[index])
    }

    /// The weights that make a round's losses by seat into their place in the listed values,
    /// for a round of `seats` first played by `first` (None where the table does not list
    /// them: [`GameValue::lists_losses`]): worked out once for a query's every playout (the
    /// same values as [`GameValue::after_losses`]).
    pub fn loss_weights(&self, first: usize, seats: usize) -> Option<LossWeights> {
        if !self.lists_losses(first, seats) {
            return None;
        }
        let mut weights = [0u32; MAX_SEATS];
        let mut w = 1;
        for p in 0..seats {
            weights[(first + p) % seats] = w;
            w *= BY_LOSSES_UP_TO + 1;
        }
        Some(LossWeights::new(weights))
    }

    /// The values [`GameValue::after_losses`] reads, by the place [`LossWeights::index`] finds
    /// (empty where the table does not list them): for a query to lay them out as it counts
    /// them.
    pub fn listed_by_losses(&self) -> &[f64] {
        &self.by_losses
    }

    /// Whether [`GameValue::after_losses`] answers a round of `seats` first played by `first`
    /// whenever no position lost more than the table lists (a playout may then value its round
    /// from the seats' losses alone).
    pub fn lists_losses(&self, first: usize, seats: usize) -> bool {
        !self.by_losses.is_empty() && seats == self.seq.len() && first < seats
    }

    /// [`GameValue::after_round`] worked out: the step to the next state and its value.
    fn stepped(&self, result: &RoundResult) -> f64 {
        match step(&self.rules, &self.seq, result) {
            Step::Wash => self.now(),
            Step::Turn => {
                let turned: Vec<u8> = self.seq[1..]
                    .iter()
                    .chain(&self.seq[..1])
                    .copied()
                    .collect();
                self.value(&turned, (self.me + self.seq.len() - 1) % self.seq.len())
            }
            Step::Next { state, to, scored } => {
                let later = match (state, to[self.me]) {
                    (Some(s), Some(q)) => self.memo.0.get(&s).map_or(0.0, |v| v[usize::from(q)]),
                    _ => 0.0,
                };
                scored[self.me] + later
            }
        }
    }

    /// Whether values are points (ranked placing) rather than chances; then a round's result
    /// must keep the order of the hands.
    pub fn points(&self) -> bool {
        self.rules.placing == Placing::Ranked
    }

    /// The most lives you can lose in this round: the losses that put you out (your lives, and
    /// the county's stage after the last where the table has one; a loss past them puts you
    /// out all the same, so a round's lives lost count no further).
    pub fn most_you_can_lose(&self) -> u8 {
        self.seq[self.me]
    }

    /// The largest value there is: 1 (a chance), or the winner's points.
    pub fn most(&self) -> f64 {
        f64::from(self.rules.points(1))
    }
}

#[cfg(test)]
#[path = "game_value_tests.rs"]
mod tests;
