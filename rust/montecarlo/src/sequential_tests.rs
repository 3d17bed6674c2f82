//! Importance-weighted worlds against the exact distribution of a toy game.

use super::*;
use crate::runner::Runner;
use crate::worlds::{collect, CollectSettings, Weighted};
use std::collections::HashMap;

/// `n` parts, each a value in `0..n` with weights (0: inconsistent); compatible when all differ:
/// the worlds are the permutations, each weighted by the product of its parts' weights. Rare
/// among the `n^n` combinations, so a pilot weights them.
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
    fn fallback_part(&self, _: usize, _: &[u32], rng: &mut Rng) -> u32 {
        rng.below(5)
    }
    fn combine(&self, p: &[u32]) -> Option<Vec<u32>> {
        let distinct = (0..p.len()).all(|a| (a + 1..p.len()).all(|b| p[a] != p[b]));
        distinct.then(|| p.to_vec())
    }
    fn explainable(&self, _: usize) -> Option<bool> {
        Some(true)
    }
    fn sequential(&self) -> bool {
        true
    }
    fn sample_after(&self, i: usize, earlier: &[u32], rng: &mut Rng) -> Option<(u32, f64)> {
        let w = &self.weights[i];
        let free = |v: usize| !earlier.contains(&(v as u32));
        let all: u32 = w.iter().sum();
        let kept: u32 = (0..5).filter(|&v| free(v)).map(|v| w[v]).sum();
        if kept == 0 {
            return None;
        }
        let mut r = rng.below(kept);
        for v in (0..5).filter(|&v| free(v)) {
            if r < w[v] {
                return Some((v as u32, kept as f64 / all as f64));
            }
            r -= w[v];
        }
        unreachable!()
    }
}

fn settings(seed: u64, target: usize, weighted: Weighted) -> CollectSettings {
    CollectSettings {
        target,
        seed,
        weighted,
        ..CollectSettings::default()
    }
}

/// The 0.999 quantile of chi-square (Wilson–Hilferty).
fn chi_square_999(dof: usize) -> f64 {
    let d = dof as f64;
    d * (1.0 - 2.0 / (9.0 * d) + 3.09 * (2.0 / (9.0 * d)).sqrt()).powi(3)
}

/// Many independent weighted collections: pooled, their worlds follow the exact distribution
/// (chi-square with the pooled effective number), and each collection's estimate of a share is
/// within its 95% margin (with `n` the effective number) in about 95% of the collections.
#[test]
fn weighted_worlds_follow_the_exact_distribution_and_their_margins_hold() {
    let game = Perm::new();
    let exact = game.exact();
    let runner = Runner::simple(Some(2));
    let (runs, target) = (300, 400);
    let mut pooled: HashMap<Vec<u32>, f64> = HashMap::new();
    let mut effective = 0.0;
    let mut covered = 0;
    // A share to estimate: part 0 holds 0 or 1.
    let share = |w: &Vec<u32>| w[0] <= 1;
    let truth: f64 = exact.iter().filter(|(w, _)| share(w)).map(|(_, p)| p).sum();
    for seed in 0..runs {
        let c = collect(&game, &settings(seed, target, Weighted::WhenRare), &runner);
        assert_eq!(c.worlds.len(), slots(target));
        let n = c.effective(u64::MAX);
        assert!(c.ess.is_some() && n >= 0.95 * target as f64, "{n}");
        effective += n;
        let mut hits = 0.0;
        for w in &c.worlds {
            assert!(exact.contains_key(w), "not consistent: {w:?}");
            *pooled.entry(w.clone()).or_default() += 1.0 / c.worlds.len() as f64;
            hits += f64::from(u8::from(share(w)));
        }
        let p = hits / c.worlds.len() as f64;
        covered += usize::from((p - truth).abs() <= crate::stats::margin(truth, n as u64));
    }
    let chi: f64 = exact
        .iter()
        .map(|(w, p)| {
            let f = pooled.get(w).copied().unwrap_or(0.0) / runs as f64;
            (f - p).powi(2) / p * effective
        })
        .sum();
    let q = chi_square_999(exact.len() - 1);
    assert!(chi < q, "chi-square {chi} over {q}");
    // 95% expected; fewer than 90% of 300 has probability below 0.001 if the margins are right.
    assert!(
        covered >= 270,
        "the margin covered the truth in {covered} of {runs} collections"
    );
}

/// The proposals themselves: drawn part by part, their frequencies times their weights are the
/// exact distribution (the identity the weighting rests on), checked by a chi-square of the
/// proposals against the proposal distribution worked out from the weights.
#[test]
fn proposals_weighted_give_the_exact_distribution() {
    let game = Perm::new();
    let exact = game.exact();
    let n = 60_000;
    let all = proposals(&game, 5, 0, n);
    let mut counts: HashMap<Vec<u32>, f64> = HashMap::new();
    let mut weight_of: HashMap<Vec<u32>, f64> = HashMap::new();
    let mut zero = 0.0;
    for p in &all {
        match p {
            Some((w, weight)) => {
                *counts.entry(w.clone()).or_default() += 1.0;
                let seen = *weight_of.entry(w.clone()).or_insert(*weight);
                assert!((seen - weight).abs() < 1e-12, "one world, one weight");
            }
            None => zero += 1.0,
        }
    }
    // q(w) = c * exact(w) / weight(w): c from the proposals that reached the end.
    let c = (n as f64 - zero)
        / n as f64
        / exact
            .iter()
            .filter_map(|(w, p)| weight_of.get(w).map(|x| p / x))
            .sum::<f64>();
    assert_eq!(weight_of.len(), exact.len(), "every world proposed");
    let chi: f64 = exact
        .iter()
        .map(|(w, p)| {
            let e = n as f64 * c * p / weight_of[w];
            (counts.get(w).copied().unwrap_or(0.0) - e).powi(2) / e
        })
        .sum();
    let q = chi_square_999(exact.len() - 1);
    assert!(chi < q, "chi-square {chi} over {q}");
}

#[test]
fn a_few_worlds_asked_are_weighted_too() {
    let game = Perm::new();
    for target in [1, 3, 10, 37] {
        let c = collect(
            &game,
            &settings(2, target, Weighted::Always),
            &Runner::simple(Some(2)),
        );
        assert_eq!(c.worlds.len(), slots(target));
        assert!(c.effective(u64::MAX) >= 0.95 * target as f64);
    }
}

#[test]
fn weighted_worlds_are_the_same_whatever_the_threads() {
    let game = Perm::new();
    let s = settings(3, 1_500, Weighted::Always);
    let a = collect(&game, &s, &Runner::simple(Some(1)));
    let b = collect(&game, &s, &Runner::simple(Some(2)));
    assert!(a.ess.is_some());
    assert_eq!(a.worlds, b.worlds);
    assert_eq!(a.ess, b.ess);
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
    fn fallback_part(&self, _: usize, _: &[u32], rng: &mut Rng) -> u32 {
        rng.below(100)
    }
    fn combine(&self, p: &[u32]) -> Option<(u32, u32)> {
        (p[0] != p[1]).then_some((p[0], p[1]))
    }
    fn explainable(&self, _: usize) -> Option<bool> {
        Some(true)
    }
    fn sequential(&self) -> bool {
        true
    }
    fn sample_after(&self, _: usize, earlier: &[u32], rng: &mut Rng) -> Option<(u32, f64)> {
        loop {
            let v = rng.below(100);
            if !earlier.contains(&v) {
                return Some((v, (100 - earlier.len()) as f64 / 100.0));
            }
        }
    }
}

#[test]
fn frequent_worlds_come_by_rejection_and_rare_ones_are_weighted() {
    let r = Runner::simple(Some(2));
    let when_rare = settings(1, 1_000, Weighted::WhenRare);
    let c = collect(&Spread, &when_rare, &r);
    assert_eq!(c.ess, None);
    // And then the worlds are those of plain rejection, bit for bit.
    let plain = collect(&Spread, &settings(1, 1_000, Weighted::Never), &r);
    assert_eq!(c.worlds, plain.worlds);
    assert_eq!(c.effective(50_000), 1_000.0);
    // Permutations are rare among five free values.
    assert!(collect(&Perm::new(), &when_rare, &r).ess.is_some());
    assert_eq!(
        collect(&Perm::new(), &settings(1, 1_000, Weighted::Never), &r).ess,
        None
    );
}

#[test]
fn the_effective_number_counts_the_weights_and_the_resampling() {
    let c = Collected {
        worlds: vec![0u8; 2_000],
        fallback_parts: Vec::new(),
        fallback_why: Vec::new(),
        attempts: 0,
        given_up: 0,
        stopped: None,
        ess: Some(2_000.0),
    };
    assert_eq!(c.effective(50_000), 1_000.0);
    assert_eq!(c.effective(0), 0.0);
    // Five times the worlds asked, and the effective sample size they need to be worth them.
    assert_eq!(slots(10_000), 50_000);
    assert_eq!(wanted(10_000, 50_000), 12_500.0);
    assert_eq!(slots(1_000_000), 2_000_000);
    // 500 of the worlds used: 1 / (1/2000 + 1/500) = 400.
    assert!((c.effective(500) - 400.0).abs() < 1e-9);
    let exact = Collected { ess: None, ..c };
    assert_eq!(exact.effective(500), 500.0);
    assert_eq!(exact.effective(5_000), 2_000.0);
}

#[test]
fn stratified_resampling_follows_the_weights() {
    let weights = [1.0, 0.5, 3.0, 0.0, 2.5, 3.0];
    let total: f64 = weights.iter().sum();
    let mut rng = Rng::stream(1, 2, 3);
    let slots = 1_000;
    let picks = stratified(&weights, total, slots, &mut rng);
    assert_eq!(picks.len(), slots);
    let mut counts = [0usize; 6];
    picks.iter().for_each(|&k| counts[k] += 1);
    for (k, &w) in weights.iter().enumerate() {
        let expected = slots as f64 * w / total;
        // One draw per stratum: each count is within one of its expectation, or two at most.
        assert!(
            (counts[k] as f64 - expected).abs() <= 2.0,
            "{k}: {} against {expected}",
            counts[k]
        );
    }
    assert_eq!(counts[3], 0);
}
