//! The dynamic programming behind the game-value table: a state (the lives of the players
//! still in, in turn order) packed in a word, what a round's result does to it (`step`), the
//! solver that values a state after every state it leads to, within the time allowed, and the
//! solved states kept between queries (`solved`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use montecarlo::{Runner, Stop};

use super::Prepared;
use crate::game::round_outcomes::{Distribution, RoundResult};
use crate::game::GameRules;
use crate::rules::MAX_SEATS;

/// The results a table may go through between two readings of the clock (which is also read
/// at every 64th state begun): a state costs its distribution's results, so the time limit
/// holds however many a distribution has.
const CLOCK_EVERY: u64 = 1 << 20;

/// A state: each player's lives as a digit (1 is the fewest a player still in holds), in turn
/// order from the first to play; packed with its length.
pub(super) type Key = u64;

pub(super) fn pack(seq: &[u8]) -> Key {
    seq.iter()
        .fold(seq.len() as u64, |k, &d| (k << 5) | u64::from(d))
}

pub(super) fn unpack(key: Key) -> Vec<u8> {
    let mut digits = Vec::with_capacity(MAX_SEATS);
    let mut k = key;
    while k >= 32 {
        digits.push((k & 31) as u8);
        k >>= 5;
    }
    digits.reverse();
    digits
}

/// A hasher for packed states: one multiplication (the keys are small and well spread).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ (k >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Every state solved so far: each position's value. A state is only ever put in once every
/// state it leads to is in, so a table cut short by the time is right as far as it goes.
#[derive(Clone, Default)]
pub(super) struct Memo(pub(super) HashMap<Key, Vec<f64>, BuildHasherDefault<KeyHasher>>);

/// What a round's result does to a state.
pub(super) enum Step {
    /// Nobody would be left: dealt again by the same dealer.
    Wash,
    /// Nobody lost anything: the deal passes on (the state turns by one position).
    Turn,
    /// The next state, packed (None: the game is over), where each position went (None: out),
    /// and what each position scored now (its place's points when it went out or won).
    Next {
        state: Option<Key>,
        to: [Option<u8>; MAX_SEATS],
        scored: [f64; MAX_SEATS],
    },
}

pub(super) fn step(rules: &GameRules, seq: &[u8], result: &RoundResult) -> Step {
    let m = seq.len();
    let mut after = [0u8; MAX_SEATS];
    let mut lost_any = false;
    for p in 0..m {
        lost_any |= result.losses[p] > 0;
        after[p] = seq[p].saturating_sub(result.losses[p]);
    }
    let left = after[..m].iter().filter(|&&d| d > 0).count();
    if left == 0 {
        return Step::Wash;
    }
    if !lost_any {
        return Step::Turn;
    }
    let mut scored = [0.0; MAX_SEATS];
    // Out this round: the lower hand takes the lower place.
    let mut place = m;
    for &p in &result.order[..m] {
        if after[usize::from(p)] == 0 {
            scored[usize::from(p)] = f64::from(rules.points(place));
            place -= 1;
        }
    }
    let mut to = [None; MAX_SEATS];
    if left == 1 {
        let winner = (0..m).find(|&p| after[p] > 0).unwrap_or(0);
        scored[winner] = f64::from(rules.points(1));
        return Step::Next {
            state: None,
            to,
            scored,
        };
    }
    // The deal passes to the first position still in (the dealer was the last); the next
    // round starts at the one after it.
    let mut alive = [0usize; MAX_SEATS];
    let mut a = 0;
    for p in (0..m).filter(|&p| after[p] > 0) {
        alive[a] = p;
        a += 1;
    }
    let mut state = a as u64;
    for k in 0..a {
        let p = alive[(1 + k) % a];
        to[p] = Some(k as u8);
        state = (state << 5) | u64::from(after[p]);
    }
    Step::Next {
        state: Some(state),
        to,
        scored,
    }
}

/// The results of one round's losses in a distribution (sorted by the losses, they stand
/// together): the losses, how often, and where the results stand (each with its order of
/// hands, which only ranked placing keeps apart).
pub(super) struct Group {
    losses: [u8; MAX_SEATS],
    count: u64,
    results: std::ops::Range<usize>,
}

/// Each distribution's results by their losses ([`Group`]), by seat count.
fn grouped(dists: &[Option<Arc<Distribution>>]) -> Vec<Vec<Group>> {
    let group = |d: &Distribution| {
        let mut groups: Vec<Group> = Vec::new();
        for (i, (r, c)) in d.results.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.losses == r.losses => {
                    g.count += c;
                    g.results.end = i + 1;
                }
                _ => groups.push(Group {
                    losses: r.losses,
                    count: *c,
                    results: i..i + 1,
                }),
            }
        }
        groups
    };
    dists
        .iter()
        .map(|d| d.as_deref().map(group).unwrap_or_default())
        .collect()
}

pub(super) struct Solver<'a> {
    rules: GameRules,
    dists: &'a [Option<Arc<Distribution>>],
    /// [`Solver::dists`]' results by their losses (shared with the loop that walks them while
    /// the solver goes deeper).
    groups: Arc<[Vec<Group>]>,
    memo: &'a mut Memo,
    runner: &'a Runner,
    deadline: Option<Instant>,
    /// States begun (the clock is read every 64), results gone through since the clock was last
    /// read (it is read after [`CLOCK_EVERY`]), and why the work stopped, if it did.
    begun: u64,
    since_clock: u64,
    pub(super) stopped: Option<Stop>,
}

impl<'a> Solver<'a> {
    /// A solver of `rules`' table from the round results `dists` (by seat count), adding to
    /// `memo` until `deadline` (None: no limit).
    pub(super) fn new(
        rules: GameRules,
        dists: &'a [Option<Arc<Distribution>>],
        memo: &'a mut Memo,
        runner: &'a Runner,
        deadline: Option<Instant>,
    ) -> Solver<'a> {
        Solver {
            rules,
            dists,
            groups: grouped(dists).into(),
            memo,
            runner,
            deadline,
            begun: 0,
            since_clock: 0,
            stopped: None,
        }
    }

    /// Read the clock (and the cancel flag): whether the work is to stop.
    fn out_of_time(&mut self) -> bool {
        self.since_clock = 0;
        self.stopped = self.runner.stop_by(self.deadline);
        self.stopped.is_some()
    }

    /// `next` solved if it is not yet (a state a round leads to; None: the game is over):
    /// whether the work goes on (false: the time ran out).
    fn solve_next(&mut self, next: Option<Key>) -> bool {
        if let Some(next) = next.filter(|n| !self.memo.0.contains_key(n)) {
            self.solve(&unpack(next));
        }
        self.stopped.is_none()
    }

    /// Solve `seq` (and the states it passes the deal round to), every smaller state first;
    /// nothing more once the time has run out.
    pub(super) fn solve(&mut self, seq: &[u8]) {
        if self.stopped.is_some() || seq.len() < 2 || self.memo.0.contains_key(&pack(seq)) {
            return;
        }
        self.begun += 1;
        if self.begun % 64 == 0 && self.out_of_time() {
            return;
        }
        let m = seq.len();
        let dist = self.dists[m]
            .clone()
            .expect("a distribution per seat count");
        let total = dist.rounds as f64;
        // The states a deal passed on without a loss leads through: seq turned by 1, 2, …
        let mut class = vec![seq.to_vec()];
        loop {
            let last = class.last().expect("one state at least");
            let turned: Vec<u8> = last[1..].iter().chain(&last[..1]).copied().collect();
            if turned == seq {
                break;
            }
            class.push(turned);
        }
        let (mut direct, mut washes, mut passes) =
            (vec![vec![0.0; m]; class.len()], vec![0.0; class.len()], 0.0);
        for (k, state) in class.iter().enumerate() {
            passes = 0.0;
            // The results of one round's losses are one where the order of the hands cannot
            // change what they do to this state (each apart where it can).
            let groups = Arc::clone(&self.groups);
            for g in &groups[m] {
                let all = &dist.results[g.results.clone()];
                let alike = all.len() == 1 || !order_counts(&self.rules, state, &g.losses);
                let one = [(all[0].0, g.count)];
                for (result, count) in if alike { &one[..] } else { all } {
                    self.since_clock += 1;
                    if self.since_clock >= CLOCK_EVERY && self.out_of_time() {
                        return;
                    }
                    let p = *count as f64 / total;
                    match step(&self.rules, state, result) {
                        Step::Wash => washes[k] += p,
                        Step::Turn => passes += p,
                        Step::Next {
                            state: next,
                            to,
                            scored,
                        } => {
                            if !self.solve_next(next) {
                                return;
                            }
                            let values = next.map(|n| &self.memo.0[&n]);
                            for (pos, d) in direct[k].iter_mut().enumerate() {
                                let later = match (to[pos], values) {
                                    (Some(q), Some(v)) => v[usize::from(q)],
                                    _ => 0.0,
                                };
                                *d += p * (scored[pos] + later);
                            }
                        }
                    }
                }
            }
        }
        // V_k[p] = (direct_k[p] + passes * V_{k+1}[p - 1]) / (1 - washes_k), by iteration
        // (passes are rare: a few steps).
        let c = class.len();
        let mut v: Vec<Vec<f64>> = (0..c)
            .map(|k| {
                direct[k]
                    .iter()
                    .map(|d| d / (1.0 - washes[k]).max(1e-12))
                    .collect()
            })
            .collect();
        for _ in 0..(if passes > 0.0 { 500 } else { 0 }) {
            let mut change: f64 = 0.0;
            for k in 0..c {
                for p in 0..m {
                    let next = v[(k + 1) % c][(p + m - 1) % m];
                    let new = (direct[k][p] + passes * next) / (1.0 - washes[k]).max(1e-12);
                    change = change.max((new - v[k][p]).abs());
                    v[k][p] = new;
                }
            }
            if change < 1e-15 {
                break;
            }
        }
        for (state, values) in class.iter().zip(v) {
            self.memo.0.insert(pack(state), values);
        }
    }
}

/// Whether the order of the hands can change what a round of these `losses` does to `seq`:
/// only where two players or more go out in it (the lower hand taking the lower place), at
/// places worth different points (under ranked placing, the first three; never when the winner
/// takes all, where every place but the winner's is worth nothing).
fn order_counts(rules: &GameRules, seq: &[u8], losses: &[u8; MAX_SEATS]) -> bool {
    let m = seq.len();
    let out = (0..m).filter(|&p| seq[p] <= losses[p]).count();
    let left = m - out;
    // Places m down to left + 1 are given this round (all of them when nobody is left: a wash,
    // dealt again whatever the order); the last one left wins.
    left > 0 && out >= 2 && rules.points(m) != rules.points(left + 1)
}

/// The work a table for these lives may take, at most (states × results × seats).
pub(super) fn work(rules: &GameRules, lives: &[u8]) -> u64 {
    let n = lives.len();
    let digits: Vec<u64> = lives
        .iter()
        .map(|&l| (i16::from(l) - rules.lowest_in() + 1) as u64)
        .collect();
    // States: sequences of the players' digits, at most every sequence of up to n digits no
    // larger than the largest, and at most every subset's digits from every start.
    let top = digits.iter().copied().max().unwrap_or(1);
    let by_length: u64 = (2..=n as u32)
        .map(|m| top.saturating_pow(m))
        .fold(0, u64::saturating_add);
    let mut e = vec![0u64; n + 1]; // elementary symmetric sums of the digits
    e[0] = 1;
    for &d in &digits {
        for m in (1..=n).rev() {
            e[m] = e[m].saturating_add(e[m - 1].saturating_mul(d));
        }
    }
    let by_subset = (2..=n)
        .map(|m| e[m].saturating_mul(m as u64))
        .fold(0, u64::saturating_add);
    let results = 40 * n as u64;
    by_length
        .min(by_subset)
        .saturating_mul(results)
        .saturating_mul(n as u64)
}

/// Each table's states solved so far, shared by the queries (each works on its own copy when
/// it must add states, then puts it back).
pub(super) type TableKey = (String, GameRules);
static TABLES: Mutex<Vec<(TableKey, Arc<Memo>)>> = Mutex::new(Vec::new());
const TABLES_KEPT: usize = 4;

/// The table's states with the present one and every state one round can lead to from it
/// solved: from the states kept, or solved now on a copy (which is then kept, done or not; why
/// it stopped when it did).
pub(super) fn solved(
    p: &Prepared,
    runner: &Runner,
    deadline: Option<Instant>,
) -> std::result::Result<Arc<Memo>, Stop> {
    let (key, rules, dists, seq) = (&p.key, &p.rules, &p.dists[..], &p.seq[..]);
    let kept = {
        let tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
        tables
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, m)| m.clone())
    };
    let mut memo: Memo = match &kept {
        Some(m) if m.0.contains_key(&pack(seq)) && successors_solved(m, rules, seq) => {
            return Ok(m.clone())
        }
        Some(m) => (**m).clone(),
        None => Memo::default(),
    };
    let mut solver = Solver::new(*rules, dists, &mut memo, runner, deadline);
    solver.solve(seq);
    // Every loss a round can bring (0, 1 or 2 a position), so that any playout's end is known.
    for_each_loss(seq.len(), |losses| {
        if let Step::Next { state: Some(s), .. } = step(rules, seq, &as_result(losses)) {
            solver.solve(&unpack(s));
        }
    });
    let stopped = solver.stopped;
    let memo = Arc::new(memo);
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    tables.retain(|(k, _)| k != key);
    if tables.len() >= TABLES_KEPT {
        tables.remove(0);
    }
    tables.push((key.clone(), memo.clone()));
    match stopped {
        None => Ok(memo),
        Some(stop) => Err(stop),
    }
}

fn as_result(losses: &[u8]) -> RoundResult {
    let mut r = RoundResult {
        losses: [0; MAX_SEATS],
        order: [0, 1, 2, 3, 4, 5, 6, 7, 8],
    };
    r.losses[..losses.len()].copy_from_slice(losses);
    r
}

/// Call `f` with every vector of `m` losses of 0, 1 or 2.
fn for_each_loss(m: usize, mut f: impl FnMut(&[u8])) {
    let mut losses = vec![0u8; m];
    loop {
        f(&losses);
        let mut i = 0;
        while i < m && losses[i] == 2 {
            losses[i] = 0;
            i += 1;
        }
        if i == m {
            return;
        }
        losses[i] += 1;
    }
}

fn successors_solved(memo: &Memo, rules: &GameRules, seq: &[u8]) -> bool {
    let mut all = true;
    for_each_loss(seq.len(), |losses| {
        if let Step::Next { state: Some(s), .. } = step(rules, seq, &as_result(losses)) {
            all &= memo.0.contains_key(&s);
        }
    });
    all
}
