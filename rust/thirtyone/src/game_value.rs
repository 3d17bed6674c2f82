//! The game-value table: the chance that one player wins the game (under ranked placing, the
//! points they can expect) from every lives configuration at or below the present one, and every
//! dealer, by dynamic programming over rounds.
//!
//! The later rounds are assumed to be played by everybody (you included) by the table's rule,
//! knocking at 27: a round then does the same thing to the positions around the table whoever
//! sits where and whatever their lives, so one simulated distribution of a round's results per
//! seat count ([`crate::round_outcomes`]) drives the whole table. A wash (a round that would
//! leave nobody) is dealt again by the same dealer, so its share is taken out; a round that
//! costs nobody anything (two players dealt 31 at two seats) passes the deal on with the lives
//! unchanged, and those states are solved together.

use std::sync::{Arc, Mutex};

use montecarlo::Runner;

use crate::game::GameRules;
use crate::round_outcomes::{distribution, Distribution, RoundResult};
use crate::rules::RoundRules;
use crate::table::Placing;

/// The most work (states × dealers × results × seats) a table may take; a game with more lives
/// left than this allows gets no game-level figures.
pub const MAX_WORK: u64 = 400_000_000;

/// My value from every state at or below the present one.
pub struct GameValue {
    rules: GameRules,
    me: usize,
    /// Each seat's digit now: 0 is out, `d` is `lowest_in + d - 1` lives.
    top: Vec<u8>,
    strides: Vec<usize>,
    /// One distribution per seat count still in (index: seats in).
    dists: Vec<Option<Arc<Distribution>>>,
    /// `values[state * n + dealer]`.
    values: Vec<f64>,
}

/// Why there is no table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// It would take this much work, more than [`MAX_WORK`].
    TooLarge(u64),
    /// The work was stopped (cancelled).
    Stopped,
}

/// What a round's result leads to from a state and dealer.
enum Step {
    /// Nobody would be left: dealt again by the same dealer.
    Wash,
    /// Nobody lost anything: the deal passes to this dealer, lives unchanged.
    Unchanged(usize),
    Value(f64),
}

impl GameValue {
    /// The table for `me` at `lives` (one per seat of the round), or why there is none.
    pub fn new(
        round_rules: &RoundRules,
        rules: GameRules,
        lives: &[u8],
        me: usize,
        runner: &Runner,
    ) -> std::result::Result<GameValue, Unavailable> {
        let low = rules.lowest_in();
        let top: Vec<u8> = lives
            .iter()
            .map(|&l| (i16::from(l) - low + 1) as u8)
            .collect();
        let n = top.len();
        let mut strides = vec![1usize; n];
        for i in 1..n {
            strides[i] = strides[i - 1] * (usize::from(top[i - 1]) + 1);
        }
        let states = strides[n - 1] * (usize::from(top[n - 1]) + 1);
        let results_guess = 40 * n as u64;
        let work = (states as u64) * (n as u64) * results_guess * (n as u64);
        if work > MAX_WORK {
            return Err(Unavailable::TooLarge(work));
        }
        let keep_order = rules.placing == Placing::Ranked;
        let mut dists = vec![None; n + 1];
        for (m, d) in dists.iter_mut().enumerate().skip(2) {
            *d = Some(
                distribution(round_rules, m as u8, keep_order, runner)
                    .ok_or(Unavailable::Stopped)?,
            );
        }
        let mut g = GameValue {
            rules,
            me,
            top,
            strides,
            dists,
            values: vec![0.0; states * n],
        };
        for state in 0..states {
            g.solve(state);
        }
        Ok(g)
    }

    fn digits(&self, state: usize) -> Vec<u8> {
        self.strides
            .iter()
            .zip(&self.top)
            .map(|(&s, &t)| ((state / s) % (usize::from(t) + 1)) as u8)
            .collect()
    }

    fn index(&self, digits: &[u8]) -> usize {
        digits
            .iter()
            .zip(&self.strides)
            .map(|(&d, &s)| usize::from(d) * s)
            .sum()
    }

    /// The next seat after `seat` still in (digits above 0).
    fn next_in(digits: &[u8], seat: usize) -> usize {
        let n = digits.len();
        (1..=n)
            .map(|k| (seat + k) % n)
            .find(|&s| digits[s] > 0)
            .unwrap_or(seat)
    }

    /// The value of every dealer of one state (every smaller state already solved).
    fn solve(&mut self, state: usize) {
        let n = self.top.len();
        let digits = self.digits(state);
        let alive = digits.iter().filter(|&&d| d > 0).count();
        if digits[self.me] == 0 || alive < 2 {
            let v = if digits[self.me] > 0 {
                f64::from(self.rules.points(1))
            } else {
                0.0
            };
            self.values[state * n..(state + 1) * n].fill(v);
            return;
        }
        let dist = self.dists[alive]
            .clone()
            .expect("a distribution per seat count");
        // Per dealer: the value from rounds that change something, the share of washes, and
        // where a round that costs nobody passes the deal.
        let mut direct = vec![0.0; n];
        let mut washes = vec![0.0; n];
        let mut pass = vec![(0.0, 0usize); n];
        let total = dist.rounds as f64;
        for dealer in (0..n).filter(|&d| digits[d] > 0) {
            for (result, count) in &dist.results {
                let p = *count as f64 / total;
                match self.step(&digits, dealer, result) {
                    Step::Wash => washes[dealer] += p,
                    Step::Unchanged(next) => pass[dealer] = (pass[dealer].0 + p, next),
                    Step::Value(v) => direct[dealer] += p * v,
                }
            }
        }
        // V_d = (direct_d + pass_d V_next) / (1 - wash_d), solved by iteration (passes are
        // rare, so it converges in a few steps).
        let mut v: Vec<f64> = (0..n)
            .map(|d| direct[d] / (1.0 - washes[d]).max(1e-12))
            .collect();
        for _ in 0..200 {
            let mut change: f64 = 0.0;
            for d in (0..n).filter(|&d| digits[d] > 0) {
                let (p, next) = pass[d];
                let new = (direct[d] + p * v[next]) / (1.0 - washes[d]).max(1e-12);
                change = change.max((new - v[d]).abs());
                v[d] = new;
            }
            if change < 1e-15 {
                break;
            }
        }
        for d in (0..n).filter(|&d| digits[d] > 0) {
            self.values[state * n + d] = v[d];
        }
    }

    /// What `result` (by position from the dealer's left) leads to from `digits` and `dealer`.
    fn step(&self, digits: &[u8], dealer: usize, result: &RoundResult) -> Step {
        let n = digits.len();
        // The seats still in, in turn order from the dealer's left (the dealer last).
        let mut seats = [0usize; crate::round::MAX_SEATS];
        let mut m = 0;
        for s in (1..=n).map(|k| (dealer + k) % n).filter(|&s| digits[s] > 0) {
            seats[m] = s;
            m += 1;
        }
        let mut after = [0u8; crate::round::MAX_SEATS];
        after[..n].copy_from_slice(digits);
        let mut lost_any = false;
        for p in 0..m {
            let l = result.losses[p];
            lost_any |= l > 0;
            after[seats[p]] = digits[seats[p]].saturating_sub(l);
        }
        let left = (0..m).filter(|&p| after[seats[p]] > 0).count();
        if left == 0 {
            return Step::Wash;
        }
        if !lost_any {
            return Step::Unchanged(Self::next_in(digits, dealer));
        }
        if after[self.me] == 0 {
            // Out this round: placed by the order of the hands among those going out.
            let mut place = m;
            for &p in &result.order[..m] {
                let seat = seats[p as usize];
                if after[seat] == 0 {
                    if seat == self.me {
                        return Step::Value(f64::from(self.rules.points(place)));
                    }
                    place -= 1;
                }
            }
            unreachable!("the player out is in the order");
        }
        if left == 1 {
            return Step::Value(f64::from(self.rules.points(1)));
        }
        let next = Self::next_in(&after[..n], dealer);
        Step::Value(self.values[self.index(&after[..n]) * n + next])
    }

    /// My value now, before the round is dealt, with `dealer` dealing.
    pub fn now(&self, dealer: usize) -> f64 {
        let n = self.top.len();
        self.values[self.index(&self.top) * n + dealer]
    }

    /// My value once the present round (dealt by `dealer`) has ended with `result`.
    pub fn after_round(&self, dealer: usize, result: &RoundResult) -> f64 {
        let n = self.top.len();
        match self.step(&self.top, dealer, result) {
            Step::Wash => self.now(dealer),
            Step::Unchanged(next) => self.values[self.index(&self.top) * n + next],
            Step::Value(v) => v,
        }
    }

    /// Whether values are points (ranked placing) rather than chances; then a round's result
    /// must keep the order of the hands.
    pub fn points(&self) -> bool {
        self.rules.placing == Placing::Ranked
    }

    /// The dealer of a round whose first player is `first`.
    pub fn dealer_of(&self, first: u8) -> usize {
        let n = self.top.len();
        (usize::from(first) + n - 1) % n
    }
}

type CacheKey = (String, GameRules, Vec<u8>, usize);
static CACHE: Mutex<Vec<(CacheKey, Arc<GameValue>)>> = Mutex::new(Vec::new());
const CACHE_SIZE: usize = 8;

/// The table for these rules, lives and player, from the few kept, else built.
pub fn game_value(
    round_rules: &RoundRules,
    rules: GameRules,
    lives: &[u8],
    me: usize,
    runner: &Runner,
) -> std::result::Result<Arc<GameValue>, Unavailable> {
    let key: CacheKey = (format!("{round_rules:?}"), rules, lives.to_vec(), me);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = cache.iter().position(|(k, _)| *k == key) {
        let hit = cache.remove(i);
        let g = hit.1.clone();
        cache.push(hit);
        return Ok(g);
    }
    drop(cache);
    let g = Arc::new(GameValue::new(round_rules, rules, lives, me, runner)?);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= CACHE_SIZE {
        cache.remove(0);
    }
    cache.push((key, g.clone()));
    Ok(g)
}

#[cfg(test)]
#[path = "game_value_tests.rs"]
mod tests;
