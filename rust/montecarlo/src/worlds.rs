//! Collecting worlds consistent with what one player has seen.
//!
//! A world is made of parts (in a card game: one part per opponent) whose consistency tests are
//! independent, except that the parts must be compatible with each other (no card in two
//! places). Each part is sampled by rejection on its own, and the parts are combined; an
//! incompatible combination is rejected whole. That is exact rejection sampling from the product
//! of the parts' consistent sets restricted to compatible combinations, so every consistent world
//! is equally likely, and it does not starve when the parts together are rare: the cost is the
//! sum of the parts' costs, not their product.
//!
//! When compatible combinations are rare (many parts sharing few things) and the game can draw a
//! part given those drawn before it, worlds are drawn one part after another with importance
//! weights instead, and resampled ([`crate::sequential`]): the estimates then rest on an
//! effective number of worlds ([`Collected::effective`]).
//!
//! A part that no attempt explains (a history the model cannot produce) is dealt by the game's
//! fallback, without the test, and reported.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::rng::Rng;
use crate::runner::{Runner, Stop};
use crate::sequential;

/// A world that is sampled part by part.
pub trait Factored: Sync {
    type Part: Send + Clone;
    type World: Send + Clone;

    /// How many parts a world has.
    fn parts(&self) -> usize;
    /// One attempt at part `i`: a sample from its prior, kept only if consistent.
    fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<Self::Part>;
    /// Part `i` dealt without the consistency test (used when no attempt explains it).
    fn fallback_part(&self, i: usize, rng: &mut Rng) -> Self::Part;
    /// The world made of these parts, or None when they are incompatible.
    fn combine(&self, parts: &[Self::Part]) -> Option<Self::World>;

    /// Whether part `i` has consistent samples at all, when the game knows it without trying
    /// (None: find out by probing).
    fn explainable(&self, _i: usize) -> Option<bool> {
        None
    }

    /// Whether parts can be drawn one after another, each given the parts drawn before it
    /// ([`Factored::sample_after`]); the default: no (worlds then come by rejection only).
    fn sequential(&self) -> bool {
        false
    }

    /// The order in which parts are drawn one after another (every part once).
    fn sequence(&self) -> Vec<usize> {
        (0..self.parts()).collect()
    }

    /// Part `i` drawn from its own distribution (that of [`Factored::sample_part`]'s consistent
    /// samples) restricted to the parts compatible with `earlier` (the parts drawn before it),
    /// with the share of that distribution the restriction keeps, in `(0, 1]`. None when it keeps
    /// nothing (or when the game does not support it).
    fn sample_after(
        &self,
        _i: usize,
        _earlier: &[Self::Part],
        _rng: &mut Rng,
    ) -> Option<(Self::Part, f64)> {
        None
    }
}

/// When worlds are drawn one part after another with importance weights
/// ([`crate::sequential`]) instead of by rejection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Weighted {
    /// When a pilot finds compatible combinations rare (the default).
    #[default]
    WhenRare,
    /// Never: every world by rejection, independent and exactly distributed.
    Never,
    /// Whenever the game supports it (for checks).
    Always,
}

#[derive(Clone, Copy, Debug)]
pub struct CollectSettings {
    /// How many worlds to collect.
    pub target: usize,
    pub seed: u64,
    /// Attempts spent on each part before it is declared unexplainable.
    pub probe_attempts: u64,
    /// Attempts (over all parts and combinations) one world may take before it is given up.
    pub max_attempts_per_world: u64,
    /// Until `minimum` worlds are found, the collection (and the probes it needs) stops at
    /// `minimum_deadline` instead of the runner's time limit: the least work an answer rests on,
    /// allowed to run on past that limit (None: no limit; cancellation stops it all the same).
    /// It is meant to be at or after the runner's own time limit.
    pub minimum: usize,
    pub minimum_deadline: Option<Instant>,
    /// When worlds are importance-weighted and resampled instead of drawn by rejection.
    pub weighted: Weighted,
}

impl Default for CollectSettings {
    fn default() -> Self {
        CollectSettings {
            target: 10_000,
            seed: 0,
            probe_attempts: 200_000,
            max_attempts_per_world: 1_000_000,
            minimum: 0,
            minimum_deadline: None,
            weighted: Weighted::WhenRare,
        }
    }
}

/// The worlds collected, and how the collection went.
#[derive(Debug)]
pub struct Collected<W> {
    pub worlds: Vec<W>,
    /// Parts dealt by the fallback because no attempt was consistent.
    pub fallback_parts: Vec<usize>,
    /// Attempts made in all (parts and combinations).
    pub attempts: u64,
    /// Worlds given up after `max_attempts_per_world`.
    pub given_up: usize,
    /// Why collection stopped early, if it did.
    pub stopped: Option<Stop>,
    /// None: the worlds are independent and exactly distributed. Some(ess): they were resampled
    /// from importance-weighted worlds whose effective sample size is `ess`
    /// ([`crate::sequential`]); see [`Collected::effective`].
    pub ess: Option<f64>,
}

impl<W> Collected<W> {
    /// The effective number of independent worlds behind a mean over `used` of these worlds
    /// (taken in order, cycling when `used` is larger): the `n` of its margin.
    ///
    /// Independent exact worlds: `min(used, worlds)`. Resampled worlds: `1 / (1 / ess + 1 /
    /// min(used, worlds))` — the importance weights' effective sample size, and the resampling's
    /// own noise counted as if the worlds used were drawn independently from the weighted ones
    /// (the stratified resampling's noise is at most that).
    pub fn effective(&self, used: u64) -> f64 {
        let k = used.min(self.worlds.len() as u64) as f64;
        match self.ess {
            None => k,
            Some(_) if k == 0.0 => 0.0,
            Some(e) if e <= 0.0 => 0.0,
            Some(e) => 1.0 / (1.0 / e + 1.0 / k),
        }
    }
}

const PURPOSE_PROBE: u64 = 0x5052_4f42; // "PROB"
const PURPOSE_WORLD: u64 = 0x574f_524c; // "WORL"

/// Collect up to `settings.target` consistent worlds. World `k` comes from its own random stream,
/// so the result is the same whatever the number of threads (unless a time limit cut it short).
///
/// When consistent combinations are rare and the game can draw a part given the others
/// ([`Factored::sample_after`]), worlds are importance-weighted and resampled instead
/// ([`crate::sequential`]): more worlds, whose effective number is about `target`.
pub fn collect<F: Factored>(
    game: &F,
    settings: &CollectSettings,
    runner: &Runner,
) -> Collected<F::World> {
    // The time limit of the next world: the minimum's until that many are found.
    let found = AtomicUsize::new(0);
    let world_deadline = || {
        if found.load(Ordering::Relaxed) < settings.minimum {
            settings.minimum_deadline
        } else {
            runner.deadline()
        }
    };
    let mut attempts = 0u64;
    let early = |attempts, stopped| Collected {
        worlds: Vec::new(),
        fallback_parts: Vec::new(),
        attempts,
        given_up: 0,
        stopped,
        ess: None,
    };
    let fallback = match probe(game, settings, runner, world_deadline(), &mut attempts) {
        Ok(f) => f,
        Err(stop) => return early(attempts, Some(stop)),
    };
    let able = game.sequential() && game.parts() >= 2 && !fallback.iter().any(|&f| f);
    let weighted = match settings.weighted {
        _ if !able => false,
        Weighted::Never => false,
        Weighted::Always => true,
        Weighted::WhenRare => {
            match sequential::rare(game, settings, runner, world_deadline(), &mut attempts) {
                Ok(rare) => rare,
                Err(stop) => return early(attempts, Some(stop)),
            }
        }
    };
    let mut out = Collected {
        worlds: Vec::with_capacity(settings.target.min(CAPACITY_AHEAD)),
        fallback_parts: (0..fallback.len()).filter(|&i| fallback[i]).collect(),
        attempts,
        given_up: 0,
        stopped: None,
        ess: None,
    };
    let each = Each {
        game,
        fallback: &fallback,
        settings,
        runner,
        found: &found,
        deadline: &world_deadline,
    };
    if weighted {
        sequential::collect_weighted(&each, &mut out);
    } else {
        independent(&each, &mut out);
    }
    out
}

/// A world found: its parts and the world they make.
pub(crate) type Found<F> = (Vec<<F as Factored>::Part>, <F as Factored>::World);

/// What the collection of every world shares.
pub(crate) struct Each<'a, F, D> {
    pub game: &'a F,
    pub fallback: &'a [bool],
    pub settings: &'a CollectSettings,
    pub runner: &'a Runner,
    /// Worlds found so far (for the minimum's deadline).
    pub found: &'a AtomicUsize,
    pub deadline: &'a D,
}

impl<F: Factored, D: Fn() -> Option<Instant> + Sync> Each<'_, F, D> {
    /// One world's parts from `rng`, with this collection's limits.
    pub fn one(&self, rng: &mut Rng) -> (Result<Option<Found<F>>, Stop>, u64) {
        let limit = Limit {
            max_attempts: self.settings.max_attempts_per_world,
            deadline: (self.deadline)(),
        };
        one_world(self.game, self.fallback, limit, rng, self.runner)
    }
}

/// The parts that no attempt explains (dealt by the fallback), found by probing each part.
fn probe<F: Factored>(
    game: &F,
    settings: &CollectSettings,
    runner: &Runner,
    deadline: Option<Instant>,
    attempts: &mut u64,
) -> Result<Vec<bool>, Stop> {
    let probe_chunk = 4096usize;
    let mut fallback = vec![false; game.parts()];
    for (i, fb) in fallback.iter_mut().enumerate() {
        if let Some(known) = game.explainable(i) {
            *fb = !known;
            continue;
        }
        let probes = settings.probe_attempts as usize;
        let mut found = false;
        // Grow the probe geometrically so that an easy part costs little.
        let mut done = 0usize;
        let mut size = probe_chunk.min(probes.max(1));
        while done < probes && !found {
            let n = size.min(probes - done);
            let (mut cut, mut any) = (false, false);
            runner.each_chunk(
                n,
                probe_chunk / 4,
                |_| deadline,
                |range| {
                    range.into_iter().any(|a| {
                        let mut rng = Rng::stream(
                            settings.seed,
                            PURPOSE_PROBE ^ ((i as u64) << 40),
                            (done + a) as u64,
                        );
                        game.sample_part(i, &mut rng).is_some()
                    })
                },
                |r| match r {
                    Some(x) => any |= x,
                    None => cut = true,
                },
            );
            if cut {
                return Err(runner.stop_by(deadline).unwrap_or(Stop::Time));
            }
            found = any;
            *attempts += n as u64;
            done += n;
            size *= 4;
        }
        *fb = !found;
    }
    Ok(fallback)
}

/// Every world independent: world k from stream k.
fn independent<F: Factored, D: Fn() -> Option<Instant> + Sync>(
    each: &Each<'_, F, D>,
    out: &mut Collected<F::World>,
) {
    let seed = each.settings.seed;
    each.runner.each_chunk(
        each.settings.target,
        WORLD_CHUNK,
        |_| (each.deadline)(),
        |range| {
            let mut worlds = Vec::with_capacity(range.len());
            let (mut tried, mut given_up, mut stopped) = (0u64, 0usize, None);
            for k in range {
                let mut rng = Rng::stream(seed, PURPOSE_WORLD, k as u64);
                let (parts, a) = each.one(&mut rng);
                tried += a;
                match parts {
                    Ok(Some((_, w))) => {
                        each.found.fetch_add(1, Ordering::Relaxed);
                        worlds.push(w);
                    }
                    Ok(None) => given_up += 1,
                    Err(stop) => {
                        stopped = Some(stop);
                        break;
                    }
                }
            }
            (worlds, tried, given_up, stopped)
        },
        |r| out.absorb(r, each.runner),
    );
}

impl<W> Collected<W> {
    /// Take in one chunk's worlds, attempts, worlds given up and stop (None: the chunk was not
    /// begun, because the run was cancelled or its time was up).
    pub(crate) fn absorb(
        &mut self,
        r: Option<(Vec<W>, u64, usize, Option<Stop>)>,
        runner: &Runner,
    ) {
        match r {
            Some((w, a, g, s)) => {
                self.worlds.extend(w);
                self.attempts += a;
                self.given_up += g;
                self.stopped = self.stopped.or(s);
            }
            None => self.stopped = self.stopped.or(runner.stop_by(None).or(Some(Stop::Time))),
        }
    }
}

/// Worlds per chunk of the collection.
const WORLD_CHUNK: usize = 64;
/// The room reserved for worlds before any is found (the rest grows as they come).
const CAPACITY_AHEAD: usize = 1 << 14;

/// When one world is given up.
#[derive(Clone, Copy)]
struct Limit {
    max_attempts: u64,
    deadline: Option<Instant>,
}

/// Attempts between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// One world: every part by rejection (or fallback), then the combination; an incompatible
/// combination starts the whole world again. Returns the world and its parts (None if
/// given up after its attempts; the reason if the run stopped meanwhile) and the attempts made.
fn one_world<F: Factored>(
    game: &F,
    fallback: &[bool],
    limit: Limit,
    rng: &mut Rng,
    runner: &Runner,
) -> (Result<Option<Found<F>>, Stop>, u64) {
    let mut attempts = 0u64;
    let mut clock = CLOCK_EVERY;
    // Whether to give up after another attempt: too many attempts, or the run stopped.
    let mut over = |attempts: u64| -> Option<Result<Option<Found<F>>, Stop>> {
        if attempts >= clock {
            clock = attempts + CLOCK_EVERY;
            if let Some(stop) = runner.stop_by(limit.deadline) {
                return Some(Err(stop));
            }
        }
        (attempts >= limit.max_attempts).then_some(Ok(None))
    };
    let mut parts: Vec<F::Part> = Vec::with_capacity(fallback.len());
    loop {
        parts.clear();
        for (i, &fb) in fallback.iter().enumerate() {
            if fb {
                parts.push(game.fallback_part(i, rng));
                continue;
            }
            loop {
                attempts += 1;
                if let Some(p) = game.sample_part(i, rng) {
                    parts.push(p);
                    break;
                }
                if let Some(end) = over(attempts) {
                    return (end, attempts);
                }
            }
        }
        attempts += 1;
        if let Some(w) = game.combine(&parts) {
            return (Ok(Some((parts, w))), attempts);
        }
        if let Some(end) = over(attempts) {
            return (end, attempts);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two parts, each a number 0..6 ("dice"); part 0 is consistent when even, part 1 when it is
    /// at least 3; compatible when different. The consistent worlds are the pairs (a, b) with a
    /// in {0, 2, 4}, b in {3, 4, 5}, a != b: 8 pairs, each to come up 1/8 of the time.
    struct Dice;
    impl Factored for Dice {
        type Part = u32;
        type World = (u32, u32);
        fn parts(&self) -> usize {
            2
        }
        fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<u32> {
            let x = rng.below(6);
            let ok = if i == 0 { x % 2 == 0 } else { x >= 3 };
            ok.then_some(x)
        }
        fn fallback_part(&self, _: usize, rng: &mut Rng) -> u32 {
            rng.below(6)
        }
        fn combine(&self, p: &[u32]) -> Option<(u32, u32)> {
            (p[0] != p[1]).then_some((p[0], p[1]))
        }
    }

    #[test]
    fn every_consistent_world_equally_likely() {
        let r = Runner::simple(Some(2));
        let s = CollectSettings {
            target: 40_000,
            seed: 11,
            ..CollectSettings::default()
        };
        let c = collect(&Dice, &s, &r);
        assert_eq!(c.worlds.len(), 40_000);
        assert!(c.fallback_parts.is_empty());
        let mut counts = std::collections::HashMap::new();
        for w in &c.worlds {
            assert!(w.0 % 2 == 0 && w.1 >= 3 && w.0 != w.1);
            *counts.entry(*w).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 8);
        let e = 40_000.0 / 8.0;
        let chi: f64 = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
        // 7 degrees of freedom: 24.3 is the 0.999 quantile.
        assert!(chi < 24.3, "chi-square {chi}");
    }

    #[test]
    fn same_seed_same_worlds_whatever_the_threads() {
        let s = CollectSettings {
            target: 500,
            seed: 5,
            ..CollectSettings::default()
        };
        let a = collect(&Dice, &s, &Runner::simple(Some(1))).worlds;
        let b = collect(&Dice, &s, &Runner::simple(Some(2))).worlds;
        assert_eq!(a, b);
    }

    /// Parts that are always consistent and never compatible: every world is given up.
    struct Clash;
    impl Factored for Clash {
        type Part = u32;
        type World = ();
        fn parts(&self) -> usize {
            3
        }
        fn sample_part(&self, _: usize, rng: &mut Rng) -> Option<u32> {
            Some(rng.below(6))
        }
        fn fallback_part(&self, _: usize, rng: &mut Rng) -> u32 {
            rng.below(6)
        }
        fn combine(&self, _: &[u32]) -> Option<()> {
            None
        }
        fn explainable(&self, _: usize) -> Option<bool> {
            Some(true)
        }
    }

    #[test]
    fn the_time_limit_holds_while_parts_are_combined() {
        let deadline = Instant::now() + std::time::Duration::from_millis(50);
        let r = Runner::new(Some(2), Some(deadline), std::sync::Arc::default());
        let s = CollectSettings {
            target: 1_000,
            max_attempts_per_world: u64::MAX,
            ..CollectSettings::default()
        };
        let c = collect(&Clash, &s, &r);
        // Without a look at the clock while combining, one world alone would never end.
        assert!(Instant::now() < deadline + std::time::Duration::from_secs(1));
        assert_eq!(c.stopped, Some(Stop::Time));
        assert!(c.worlds.is_empty());
    }

    #[test]
    fn the_minimum_runs_on_to_its_own_deadline() {
        let past = Instant::now();
        let r = Runner::new(Some(2), Some(past), std::sync::Arc::default());
        let s = CollectSettings {
            target: 10_000,
            seed: 3,
            minimum: 100,
            minimum_deadline: None,
            ..CollectSettings::default()
        };
        let c = collect(&Dice, &s, &r);
        // The runner's time was up before the start: only the minimum was collected.
        assert!(
            (100..10_000).contains(&c.worlds.len()),
            "{}",
            c.worlds.len()
        );
        assert_eq!(c.stopped, Some(Stop::Time));
        let none = collect(&Dice, &CollectSettings { minimum: 0, ..s }, &r);
        assert!(none.worlds.is_empty());
    }

    struct Impossible;
    impl Factored for Impossible {
        type Part = u32;
        type World = u32;
        fn parts(&self) -> usize {
            1
        }
        fn sample_part(&self, _: usize, _: &mut Rng) -> Option<u32> {
            None
        }
        fn fallback_part(&self, _: usize, rng: &mut Rng) -> u32 {
            rng.below(6)
        }
        fn combine(&self, p: &[u32]) -> Option<u32> {
            Some(p[0])
        }
    }

    #[test]
    fn an_unexplainable_part_is_dealt_by_the_fallback() {
        let s = CollectSettings {
            target: 100,
            seed: 1,
            probe_attempts: 10_000,
            ..CollectSettings::default()
        };
        let c = collect(&Impossible, &s, &Runner::simple(Some(2)));
        assert_eq!(c.fallback_parts, vec![0]);
        assert_eq!(c.worlds.len(), 100);
    }
}
