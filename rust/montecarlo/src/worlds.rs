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
//! A part that cannot be explained (a history the model cannot produce, alone or together with
//! the other parts) is dealt by the game's fallback, without the test, after the others, and
//! reported ([`crate::explain`]).
//!
//! Every step is bounded in work: the probes and the pilot by their attempts, each world by
//! [`CollectSettings::max_attempts_per_world`], the weighted proposals by as many per world asked.
//! The least work, until [`CollectSettings::minimum`] worlds are found, is bounded by
//! [`CollectSettings::minimum_attempts`] and goes on whatever the time limit (only cancellation
//! stops it); everything after it stops at the runner's time limit.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::explain::{self, Unexplained};
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
    /// Part `i` dealt without the consistency test (used when it cannot be explained), given the
    /// parts dealt before it (`others`: every tested part, then the other fallback parts in index
    /// order). It should use nothing they use, so that the world combines.
    fn fallback_part(&self, i: usize, others: &[Self::Part], rng: &mut Rng) -> Self::Part;
    /// The world made of these parts, or None when they are incompatible.
    fn combine(&self, parts: &[Self::Part]) -> Option<Self::World>;

    /// Whether part `i` has consistent samples at all, when the game knows it without trying
    /// (None: find out by probing).
    fn explainable(&self, _i: usize) -> Option<bool> {
        None
    }

    /// Whether consistent samples of the parts `which` combine into a world at all, when the game
    /// can tell with a bounded amount of work (None: it cannot tell; the default).
    fn combinable(&self, _which: &[usize]) -> Option<bool> {
        None
    }

    /// The order in which the parts are tested together ([`Factored::combinable`]): a part whose
    /// consistent samples combine with none of those of the parts kept before it is dealt by the
    /// fallback, and where worlds are too rare to find at all, the last part tested is the first
    /// so dealt (default: index order).
    fn explain_order(&self) -> Vec<usize> {
        (0..self.parts()).collect()
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
    /// Attempts (over all parts and combinations) one world may take before it is given up; the
    /// weighted proposals are at most as many per world asked.
    pub max_attempts_per_world: u64,
    /// The least work: until `minimum` worlds are found, the collection goes on past the runner's
    /// time limit (cancellation stops it all the same), for at most `minimum_attempts` attempts
    /// (worlds by rejection are begun only while their most attempts fit in what is left). If
    /// that finds no world at all, the collection gives up, and the last part tested (in
    /// [`Factored::explain_order`]) is dealt by the fallback for another try.
    pub minimum: usize,
    pub minimum_attempts: u64,
    /// When worlds are importance-weighted and resampled instead of drawn by rejection.
    pub weighted: Weighted,
}

impl Default for CollectSettings {
    fn default() -> Self {
        CollectSettings {
            target: 10_000,
            seed: 0,
            probe_attempts: 200_000,
            max_attempts_per_world: 10_000,
            minimum: 0,
            minimum_attempts: 1_000_000,
            weighted: Weighted::WhenRare,
        }
    }
}

/// The worlds collected, and how the collection went.
#[derive(Debug)]
pub struct Collected<W> {
    pub worlds: Vec<W>,
    /// Parts dealt by the fallback, in index order ...
    pub fallback_parts: Vec<usize>,
    /// ... and why each was.
    pub fallback_why: Vec<Unexplained>,
    /// Attempts made in all (probes, the pilot, parts, combinations and weighted proposals).
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

impl<W> Collected<W> {
    /// Nothing collected: the attempts made and why it stopped.
    fn stopped_early(attempts: u64, stopped: Option<Stop>) -> Collected<W> {
        Collected {
            worlds: Vec::new(),
            fallback_parts: Vec::new(),
            fallback_why: Vec::new(),
            attempts,
            given_up: 0,
            stopped,
            ess: None,
        }
    }
}

const PURPOSE_WORLD: u64 = 0x574f_524c; // "WORL"

/// Collect up to `settings.target` consistent worlds. World `k` comes from its own random stream,
/// so the result is the same whatever the number of threads (unless a time limit cut it short).
///
/// When consistent combinations are rare and the game can draw a part given the others
/// ([`Factored::sample_after`]), worlds are importance-weighted and resampled instead
/// ([`crate::sequential`]): more worlds, whose effective number is about `target`.
///
/// Parts that cannot be explained are dealt by the game's fallback ([`crate::explain`]): those
/// that no attempt explains alone, those that combine with none of the parts before them, and,
/// where the least work finds no world at all, the last part tested, one at a time, until
/// worlds are found (or every part is so dealt).
pub fn collect<F: Factored>(
    game: &F,
    settings: &CollectSettings,
    runner: &Runner,
) -> Collected<F::World> {
    let mut attempts = 0u64;
    let mut why = match explain::alone(game, settings, runner, &mut attempts) {
        Ok(why) => why,
        Err(stop) => return Collected::stopped_early(attempts, Some(stop)),
    };
    explain::together(game, &mut why);
    loop {
        let mut out = gather(game, settings, runner, &why, attempts);
        if out.worlds.is_empty() && out.stopped.is_none() && settings.minimum > 0 {
            if let Some(i) = explain::last_tested(game, &why) {
                why[i] = Some(Unexplained::Rare);
                attempts = out.attempts;
                continue;
            }
        }
        for (i, w) in why.iter().enumerate() {
            if let Some(w) = *w {
                out.fallback_parts.push(i);
                out.fallback_why.push(w);
            }
        }
        return out;
    }
}

/// The worlds, with the parts of `why` dealt by the fallback, `attempts` made before.
fn gather<F: Factored>(
    game: &F,
    settings: &CollectSettings,
    runner: &Runner,
    why: &[Option<Unexplained>],
    attempts: u64,
) -> Collected<F::World> {
    let fallback: Vec<bool> = why.iter().map(Option::is_some).collect();
    let mut out = Collected::stopped_early(attempts, None);
    let each = Each::new(game, &fallback, settings, runner);
    let tested = fallback.iter().filter(|&&f| !f).count();
    let able = game.sequential() && tested >= 2;
    let weighted = match settings.weighted {
        _ if !able => false,
        Weighted::Never => false,
        Weighted::Always => true,
        Weighted::WhenRare => match sequential::rare(&each, &mut out.attempts) {
            Ok(rare) => rare,
            Err(stop) => {
                out.stopped = Some(stop);
                return out;
            }
        },
    };
    out.worlds.reserve(settings.target.min(CAPACITY_AHEAD));
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
pub(crate) struct Each<'a, F> {
    pub game: &'a F,
    pub fallback: &'a [bool],
    /// The parts in the order they are dealt: the tested ones, then those dealt by the fallback
    /// (given the others); whether that is the parts' own order.
    order: Vec<usize>,
    in_order: bool,
    pub settings: &'a CollectSettings,
    pub runner: &'a Runner,
    /// Worlds found so far (for the least work).
    pub found: AtomicUsize,
}

impl<'a, F: Factored> Each<'a, F> {
    fn new(
        game: &'a F,
        fallback: &'a [bool],
        settings: &'a CollectSettings,
        runner: &'a Runner,
    ) -> Self {
        let order = tested_first(fallback, 0..fallback.len());
        let in_order = order.iter().enumerate().all(|(k, &i)| k == i);
        Each {
            game,
            fallback,
            order,
            in_order,
            settings,
            runner,
            found: AtomicUsize::new(0),
        }
    }

    /// The time limit of work that brings the attempts of the worlds to `spent`: none while it is
    /// the least work (the minimum not found, and `spent` within its attempts), else the runner's.
    pub fn deadline(&self, spent: u64) -> Option<Instant> {
        let s = self.settings;
        if self.found.load(Ordering::Relaxed) < s.minimum && spent <= s.minimum_attempts {
            None
        } else {
            self.runner.deadline()
        }
    }

    /// One world's parts from `rng`, given up after its attempts or at `deadline`.
    pub fn one(
        &self,
        rng: &mut Rng,
        deadline: Option<Instant>,
    ) -> (Result<Option<Found<F>>, Stop>, u64) {
        let limit = Limit {
            max_attempts: self.settings.max_attempts_per_world,
            deadline,
        };
        one_world(self, limit, rng)
    }

    /// One attempt at every part (one sample of each tested part, the others dealt by the
    /// fallback) and their combination (`drawn` and `parts`: room to work in).
    pub fn once(&self, rng: &mut Rng, drawn: &mut Vec<F::Part>, parts: &mut Vec<F::Part>) -> bool {
        drawn.clear();
        for &i in &self.order {
            if self.fallback[i] {
                let p = self.game.fallback_part(i, drawn, rng);
                drawn.push(p);
            } else if let Some(p) = self.game.sample_part(i, rng) {
                drawn.push(p);
            } else {
                return false;
            }
        }
        self.combine(drawn, parts).is_some()
    }

    /// The world of the parts dealt in this collection's order.
    fn combine(&self, drawn: &[F::Part], parts: &mut Vec<F::Part>) -> Option<F::World> {
        if self.in_order {
            return self.game.combine(drawn);
        }
        in_index_order(&self.order, drawn, parts);
        self.game.combine(parts)
    }
}

/// The parts of `sequence` that are tested, then those dealt by the fallback (in index order).
pub(crate) fn tested_first(fallback: &[bool], sequence: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut order: Vec<usize> = sequence.filter(|&i| !fallback[i]).collect();
    order.extend((0..fallback.len()).filter(|&i| fallback[i]));
    order
}

/// The parts dealt in `order` (`drawn`) put back in their own order, into `parts`.
pub(crate) fn in_index_order<P: Clone>(order: &[usize], drawn: &[P], parts: &mut Vec<P>) {
    parts.clear();
    parts.extend_from_slice(drawn);
    for (&i, p) in order.iter().zip(drawn) {
        parts[i] = p.clone();
    }
}

/// Every world independent: world k from stream k. First the least work, whatever the time: the
/// worlds still missing from the minimum, in rounds, each begun only while the most attempts of
/// its worlds fit in what is left of the least work's. Nothing found then: given up (the caller
/// deals a part by the fallback). Then the rest within the runner's time limit.
fn independent<F: Factored>(each: &Each<'_, F>, out: &mut Collected<F::World>) {
    let s = each.settings;
    let cap = s.max_attempts_per_world.max(1);
    let (mut next, start) = (0usize, out.attempts);
    while next < s.target && out.worlds.len() < s.minimum {
        let left = s.minimum_attempts.saturating_sub(out.attempts - start);
        let n = (s.minimum - out.worlds.len())
            .min(s.target - next)
            .min(usize::try_from(left / cap).unwrap_or(usize::MAX));
        if n == 0 {
            break;
        }
        worlds(each, next..next + n, None, out);
        next += n;
        if out.stopped.is_some() {
            return;
        }
    }
    if s.minimum > 0 && out.worlds.is_empty() {
        return;
    }
    worlds(each, next..s.target, each.runner.deadline(), out);
}

/// Worlds `range` (world k from stream k), not begun after `deadline`.
fn worlds<F: Factored>(
    each: &Each<'_, F>,
    range: std::ops::Range<usize>,
    deadline: Option<Instant>,
    out: &mut Collected<F::World>,
) {
    let (seed, first) = (each.settings.seed, range.start);
    each.runner.each_chunk(
        range.len(),
        WORLD_CHUNK,
        |_| deadline,
        |chunk| {
            let mut worlds = Vec::with_capacity(chunk.len());
            let (mut tried, mut given_up, mut stopped) = (0u64, 0usize, None);
            for k in chunk {
                let mut rng = Rng::stream(seed, PURPOSE_WORLD, (first + k) as u64);
                let (parts, a) = each.one(&mut rng, deadline);
                tried += a;
                match parts {
                    Ok(Some((_, w))) => worlds.push(w),
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

/// One world: every tested part by rejection, the others by the fallback after them, then the
/// combination; an incompatible combination starts the whole world again. Returns the world and
/// its parts (None if given up after its attempts; the reason if the run stopped meanwhile) and
/// the attempts made.
fn one_world<F: Factored>(
    each: &Each<'_, F>,
    limit: Limit,
    rng: &mut Rng,
) -> (Result<Option<Found<F>>, Stop>, u64) {
    let (game, runner) = (each.game, each.runner);
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
    let n = each.fallback.len();
    let (mut drawn, mut parts) = (Vec::with_capacity(n), Vec::with_capacity(n));
    loop {
        drawn.clear();
        for &i in &each.order {
            if each.fallback[i] {
                let p = game.fallback_part(i, &drawn, rng);
                drawn.push(p);
                continue;
            }
            loop {
                attempts += 1;
                if let Some(p) = game.sample_part(i, rng) {
                    drawn.push(p);
                    break;
                }
                if let Some(end) = over(attempts) {
                    return (end, attempts);
                }
            }
        }
        attempts += 1;
        if let Some(w) = each.combine(&drawn, &mut parts) {
            if each.in_order {
                return (Ok(Some((drawn, w))), attempts);
            }
            return (Ok(Some((parts, w))), attempts);
        }
        if let Some(end) = over(attempts) {
            return (end, attempts);
        }
    }
}

#[cfg(test)]
#[path = "worlds_tests.rs"]
mod tests;
