//! Chains of worlds, for positions where consistent combinations are rare.
//!
//! When the parts of a world are each easy to sample but rarely compatible (many opponents
//! sharing few unseen cards), rejecting whole combinations starves. If the game can redraw two
//! parts together from their distribution given all the others ([`Factored::resample_pair`], a
//! block Gibbs step), worlds come in chains instead: each chain starts from a world found by
//! rejection (so drawn exactly from the distribution of consistent worlds), and every further
//! world of the chain is the previous one after a few random pair steps.
//!
//! Exactness: a Gibbs step leaves the target distribution unchanged, and the pair to redraw is
//! chosen without looking at the world, so a world drawn exactly stays exactly distributed after
//! any number of steps: every world of every chain is distributed exactly as an independent
//! world would be, with no burn-in at all. What a chain costs is correlation between its
//! neighbours, which the steps between two worlds keep small (measured: see `docs/sampling.md`).
//! Whether to chain, and how long the chains are, is decided by a pilot of fixed size on its own
//! random stream, so that the worlds are the same whatever the number of threads.

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::rng::Rng;
use crate::runner::{Runner, Stop};
use crate::worlds::{CollectSettings, Collected, Each, Factored};

const PURPOSE_PILOT: u64 = 0x5049_4c4f; // "PILO"
const PURPOSE_CHAIN: u64 = 0x4348_4149; // "CHAI"

/// The pilot's first round of attempts (each round four times the last), and its most in all.
const PILOT_FIRST: usize = 1024;
const PILOT_MAX: usize = 1 << 16;
/// Compatible combinations after which the pilot has seen enough.
const PILOT_FOUND: usize = 32;
/// The most worlds drawn from one start.
pub const MAX_CHAIN: usize = 2_500;
/// Independent starts a collection has at least (when it has that many worlds).
const MIN_STARTS: usize = 4;
/// Random pair steps between two worlds of a chain, per part.
pub const STEPS_PER_PART: usize = 1;
/// Worlds of a chain between two looks at the clock.
const CLOCK_EVERY: usize = 16;

/// Attempts a world by rejection may take on average before worlds are chained.
const CHAIN_AFTER: f64 = 256.0;
/// Attempts per world that the starts of chains may cost on average.
const START_SHARE: f64 = 4.0;

/// How many worlds each independent start gives: `settings.chain_length` if set, else (with
/// `chain_when_rare`) 1 unless a world by rejection takes more than [`CHAIN_AFTER`] attempts on
/// average, as measured by the pilot.
pub(crate) fn plan<F: Factored>(
    game: &F,
    settings: &CollectSettings,
    runner: &Runner,
    deadline: Option<Instant>,
    attempts: &mut u64,
) -> Result<usize, Stop> {
    if let Some(length) = settings.chain_length {
        return Ok(length.max(1));
    }
    let (mut done, mut found) = (0usize, 0usize);
    let mut size = PILOT_FIRST;
    while done < PILOT_MAX && found < PILOT_FOUND {
        let n = size.min(PILOT_MAX - done);
        let mut cut = false;
        runner.each_chunk(
            n,
            PILOT_FIRST / 4,
            |_| deadline,
            |range| {
                range
                    .filter(|&a| {
                        let mut rng = Rng::stream(settings.seed, PURPOSE_PILOT, (done + a) as u64);
                        let parts: Option<Vec<F::Part>> = (0..game.parts())
                            .map(|i| game.sample_part(i, &mut rng))
                            .collect();
                        parts.is_some_and(|p| game.combine(&p).is_some())
                    })
                    .count()
            },
            |r| match r {
                Some(k) => found += k,
                None => cut = true,
            },
        );
        if cut {
            return Err(runner.stop_by(deadline).unwrap_or(Stop::Time));
        }
        *attempts += n as u64;
        done += n;
        size *= 4;
    }
    // Attempts per world; with none found, at least four times the pilot (a guess on the safe
    // side: the chains are exact whatever their length).
    let per_world = if found == 0 {
        4.0 * done as f64
    } else {
        done as f64 / found as f64
    };
    if per_world <= CHAIN_AFTER {
        return Ok(1);
    }
    // Chained: long enough that the starts cost at most a few attempts per world.
    let length = (per_world / START_SHARE).ceil() as usize;
    let most = settings.target.div_ceil(MIN_STARTS).clamp(1, MAX_CHAIN);
    Ok(length.clamp(1, most))
}

/// Collect `settings.target` worlds in chains of `length`: chain `c` from its own stream.
pub(crate) fn collect_chains<F, D>(
    each: &Each<'_, F, D>,
    length: usize,
    out: &mut Collected<F::World>,
) where
    F: Factored,
    D: Fn() -> Option<Instant> + Sync,
{
    let target = each.settings.target;
    each.runner.each_chunk(
        target.div_ceil(length),
        1,
        |_| (each.deadline)(),
        |range| {
            let mut worlds = Vec::new();
            let (mut tried, mut given_up, mut stopped) = (0u64, 0usize, None);
            for c in range {
                let mut rng = Rng::stream(each.settings.seed, PURPOSE_CHAIN, c as u64);
                let n = length.min(target - c * length);
                let (start, a) = each.one(&mut rng, n);
                tried += a;
                match start {
                    Ok(Some((parts, world))) => {
                        stopped = chain(each, parts, world, n, &mut rng, &mut worlds);
                    }
                    Ok(None) => given_up += 1,
                    Err(stop) => stopped = Some(stop),
                }
                if stopped.is_some() {
                    break;
                }
            }
            (worlds, tried, given_up, stopped)
        },
        |r| out.absorb(r, each.runner),
    );
}

/// The `n` worlds of one chain from its start; the reason if the run stopped meanwhile.
fn chain<F, D>(
    each: &Each<'_, F, D>,
    mut parts: Vec<F::Part>,
    start: F::World,
    n: usize,
    rng: &mut Rng,
    worlds: &mut Vec<F::World>,
) -> Option<Stop>
where
    F: Factored,
    D: Fn() -> Option<Instant> + Sync,
{
    let game = each.game;
    let m = parts.len();
    worlds.push(start);
    each.found.fetch_add(1, Ordering::Relaxed);
    for k in 1..n {
        if k % CLOCK_EVERY == 0 {
            if let Some(stop) = each.runner.stop_by((each.deadline)()) {
                return Some(stop);
            }
        }
        for _ in 0..STEPS_PER_PART * m {
            let i = rng.below(m as u32) as usize;
            let mut j = rng.below(m as u32 - 1) as usize;
            j += usize::from(j >= i);
            if !game.resample_pair(i, j, &mut parts, rng) {
                return None; // not supported after all: the chain ends here
            }
        }
        // A Gibbs step keeps the parts compatible; should the game disagree, the chain ends.
        worlds.push(game.combine(&parts)?);
        each.found.fetch_add(1, Ordering::Relaxed);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds::collect;
    use std::collections::HashMap;

    /// `n` parts, each a value in `0..n` with weights (0: inconsistent); compatible when all
    /// differ: the worlds are the permutations, each weighted by the product of its parts'
    /// weights. With every value taken, redrawing one part alone could never move: only pairs.
    struct Perm {
        weights: Vec<Vec<u32>>,
    }

    impl Perm {
        fn new() -> Self {
            // 5 parts; a few values forbidden, the rest weighted 1..=3.
            let weights = (0..5)
                .map(|i| {
                    (0..5)
                        .map(|v| {
                            if (i + 2 * v) % 7 == 3 {
                                0
                            } else {
                                1 + ((i * v) % 3) as u32
                            }
                        })
                        .collect()
                })
                .collect();
            Perm { weights }
        }

        /// The exact probability of every world, by enumeration.
        fn exact(&self) -> HashMap<Vec<u32>, f64> {
            let mut out = HashMap::new();
            let mut p: Vec<u32> = (0..5).collect();
            permutations(&mut p, 0, &mut |w| {
                let weight: u32 = w
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| self.weights[i][v as usize])
                    .product();
                if weight > 0 {
                    out.insert(w.to_vec(), weight as f64);
                }
            });
            let total: f64 = out.values().sum();
            out.values_mut().for_each(|x| *x /= total);
            out
        }
    }

    fn permutations(p: &mut Vec<u32>, k: usize, f: &mut impl FnMut(&[u32])) {
        if k == p.len() {
            return f(p);
        }
        for i in k..p.len() {
            p.swap(k, i);
            permutations(p, k + 1, f);
            p.swap(k, i);
        }
    }

    impl Factored for Perm {
        type Part = u32;
        type World = Vec<u32>;
        fn parts(&self) -> usize {
            5
        }
        fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<u32> {
            // A value uniformly, kept with probability weight / 3: weighted rejection.
            let v = rng.below(5);
            (rng.below(3) < self.weights[i][v as usize]).then_some(v)
        }
        fn fallback_part(&self, _: usize, rng: &mut Rng) -> u32 {
            rng.below(5)
        }
        fn combine(&self, p: &[u32]) -> Option<Vec<u32>> {
            let distinct = (0..p.len()).all(|a| (a + 1..p.len()).all(|b| p[a] != p[b]));
            distinct.then(|| p.to_vec())
        }
        fn explainable(&self, _: usize) -> Option<bool> {
            Some(true)
        }
        fn resamples(&self) -> bool {
            true
        }
        fn resample_pair(&self, i: usize, j: usize, p: &mut [u32], rng: &mut Rng) -> bool {
            let (a, b) = (p[i], p[j]);
            let keep = self.weights[i][a as usize] * self.weights[j][b as usize];
            let swap = self.weights[i][b as usize] * self.weights[j][a as usize];
            if rng.below(keep + swap) >= keep {
                p.swap(i, j);
            }
            true
        }
    }

    fn settings(seed: u64, target: usize, length: usize) -> CollectSettings {
        CollectSettings {
            target,
            seed,
            chain_length: Some(length),
            ..CollectSettings::default()
        }
    }

    /// Chains of 3: the second worlds of all chains are independent of each other, and so are
    /// the third; each set must follow the exact distribution (chi-square against enumeration).
    #[test]
    fn chained_worlds_are_exactly_distributed() {
        let game = Perm::new();
        let exact = game.exact();
        let chains = 30_000;
        let c = collect(&game, &settings(7, 3 * chains, 3), &Runner::simple(Some(2)));
        assert_eq!(c.chain, 3);
        assert_eq!(c.worlds.len(), 3 * chains);
        for position in [1, 2] {
            let mut counts: HashMap<Vec<u32>, f64> = HashMap::new();
            for w in c.worlds.iter().skip(position).step_by(3) {
                *counts.entry(w.clone()).or_default() += 1.0;
            }
            assert!(counts.keys().all(|w| exact.contains_key(w)));
            let chi: f64 = exact
                .iter()
                .map(|(w, p)| {
                    let e = p * chains as f64;
                    (counts.get(w).copied().unwrap_or(0.0) - e).powi(2) / e
                })
                .sum();
            let q = chi_square_999(exact.len() - 1);
            assert!(chi < q, "position {position}: chi-square {chi} over {q}");
        }
    }

    /// The 0.999 quantile of chi-square (Wilson–Hilferty).
    fn chi_square_999(dof: usize) -> f64 {
        let d = dof as f64;
        d * (1.0 - 2.0 / (9.0 * d) + 3.09 * (2.0 / (9.0 * d)).sqrt()).powi(3)
    }

    #[test]
    fn long_chains_keep_the_distribution() {
        let game = Perm::new();
        let exact = game.exact();
        let c = collect(&game, &settings(9, 40_000, 2_000), &Runner::simple(Some(2)));
        assert_eq!(c.worlds.len(), 40_000);
        // Neighbours are correlated, so only a loose check: every frequency within 15% of
        // its probability (each is at least 1%).
        let mut counts: HashMap<Vec<u32>, f64> = HashMap::new();
        for w in &c.worlds {
            *counts.entry(w.clone()).or_default() += 1.0 / 40_000.0;
        }
        for (w, p) in &exact {
            let f = counts.get(w).copied().unwrap_or(0.0);
            assert!((f - p).abs() < 0.15 * p, "{w:?}: {f} against {p}");
        }
    }

    #[test]
    fn chains_are_the_same_whatever_the_threads() {
        let game = Perm::new();
        let a = collect(&game, &settings(3, 3_000, 50), &Runner::simple(Some(1)));
        let b = collect(&game, &settings(3, 3_000, 50), &Runner::simple(Some(2)));
        assert!(a.chain > 1);
        assert_eq!(a.worlds, b.worlds);
    }

    /// Two parts in `0..100`, compatible when different: frequent worlds.
    struct Spread;
    impl Factored for Spread {
        type Part = u32;
        type World = (u32, u32);
        fn parts(&self) -> usize {
            2
        }
        fn sample_part(&self, _: usize, rng: &mut Rng) -> Option<u32> {
            Some(rng.below(100))
        }
        fn fallback_part(&self, _: usize, rng: &mut Rng) -> u32 {
            rng.below(100)
        }
        fn combine(&self, p: &[u32]) -> Option<(u32, u32)> {
            (p[0] != p[1]).then_some((p[0], p[1]))
        }
        fn explainable(&self, _: usize) -> Option<bool> {
            Some(true)
        }
        fn resamples(&self) -> bool {
            true
        }
        fn resample_pair(&self, _: usize, _: usize, p: &mut [u32], rng: &mut Rng) -> bool {
            loop {
                let (a, b) = (rng.below(100), rng.below(100));
                if a != b {
                    (p[0], p[1]) = (a, b);
                    return true;
                }
            }
        }
    }

    /// A game without the pair step.
    struct Plain<G>(G);
    impl<G: Factored> Factored for Plain<G> {
        type Part = G::Part;
        type World = G::World;
        fn parts(&self) -> usize {
            self.0.parts()
        }
        fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<G::Part> {
            self.0.sample_part(i, rng)
        }
        fn fallback_part(&self, i: usize, rng: &mut Rng) -> G::Part {
            self.0.fallback_part(i, rng)
        }
        fn combine(&self, p: &[G::Part]) -> Option<G::World> {
            self.0.combine(p)
        }
        fn explainable(&self, i: usize) -> Option<bool> {
            self.0.explainable(i)
        }
    }

    #[test]
    fn frequent_worlds_are_not_chained_and_rare_ones_are() {
        // By default nothing is chained, however rare the worlds.
        let plain_settings = CollectSettings {
            target: 1_000,
            seed: 1,
            ..CollectSettings::default()
        };
        let r = Runner::simple(Some(2));
        assert_eq!(collect(&Perm::new(), &plain_settings, &r).chain, 1);
        let s = CollectSettings {
            chain_when_rare: true,
            ..plain_settings
        };
        let c = collect(&Spread, &s, &Runner::simple(Some(2)));
        assert_eq!(c.chain, 1);
        // And then the worlds are those of plain rejection.
        let plain = collect(&Plain(Spread), &s, &Runner::simple(Some(2)));
        assert_eq!(c.worlds, plain.worlds);
        assert_eq!(plain.chain, 1);
        // Permutations are rare among five free values: chained.
        assert!(collect(&Perm::new(), &s, &Runner::simple(Some(2))).chain > 1);
        assert_eq!(
            collect(&Plain(Perm::new()), &s, &Runner::simple(Some(2))).chain,
            1
        );
    }
}
