//! The importance-weighted deals against brute-force enumeration of every consistent deal.

use std::collections::HashMap;

use montecarlo::{collect, sequential, CollectSettings, Factored, Runner, Weighted};

use crate::inference::test_positions::position;
use crate::inference::{Deal, Inference, Posterior};
use crate::view::View;

/// Every consistent deal's probability, by enumeration over the opponents' counted hands: the
/// product of their counts over the combinations whose unseen cards differ. None when the
/// opponents are not all counted or the deals are too many.
fn enumerate(inference: &Inference<'_>, most: usize) -> Option<HashMap<Vec<u64>, f64>> {
    let mut supports = Vec::new();
    for p in &inference.posteriors {
        let Posterior::Counted { hands, cumulative } = p else {
            return None;
        };
        let mut before = 0;
        let s: Vec<(u64, f64)> = hands
            .iter()
            .zip(cumulative)
            .map(|(&(_, used), &c)| {
                let n = c - before;
                before = c;
                (used.bits(), n as f64)
            })
            .collect();
        supports.push(s);
    }
    let mut out = HashMap::new();
    let mut key = Vec::new();
    if !walk(&supports, 0, 0, 1.0, &mut key, &mut out, most) {
        return None;
    }
    let total: f64 = out.values().sum();
    out.values_mut().for_each(|p| *p /= total);
    Some(out)
}

fn walk(
    s: &[Vec<(u64, f64)>],
    i: usize,
    used: u64,
    weight: f64,
    key: &mut Vec<u64>,
    out: &mut HashMap<Vec<u64>, f64>,
    most: usize,
) -> bool {
    if i == s.len() {
        out.insert(key.clone(), weight);
        return out.len() <= most;
    }
    for &(bits, n) in &s[i] {
        if bits & used == 0 {
            key.push(bits);
            let ok = walk(s, i + 1, used | bits, weight * n, key, out, most);
            key.pop();
            if !ok {
                return false;
            }
        }
    }
    true
}

/// A deal's key: every opponent's unseen cards, in the opponents' order.
fn key(view: &View, d: &Deal) -> Vec<u64> {
    view.opponents
        .iter()
        .map(|o| {
            d.hands[o.seat as usize]
                .iter()
                .filter(|&&c| view.unseen.contains(c))
                .fold(0u64, |b, c| b | 1 << c.index())
        })
        .collect()
}

/// The distribution of `f(deal)` under `exact`.
fn project(
    exact: &HashMap<Vec<u64>, f64>,
    f: impl Fn(&[u64]) -> Vec<u64>,
) -> HashMap<Vec<u64>, f64> {
    let mut out = HashMap::new();
    for (k, p) in exact {
        *out.entry(f(k)).or_default() += p;
    }
    out
}

/// Chi-square of `deals` against `exact`, cells with fewer than 5 expected pooled in one; the
/// statistic and its 0.999 quantile (Wilson–Hilferty).
fn chi_square(exact: &HashMap<Vec<u64>, f64>, deals: &[Vec<u64>]) -> (f64, f64) {
    chi_square_with(exact, deals, deals.len() as f64)
}

/// The same with the frequencies of `deals` taken as if from `n` independent deals.
fn chi_square_with(exact: &HashMap<Vec<u64>, f64>, deals: &[Vec<u64>], n: f64) -> (f64, f64) {
    let mut counts: HashMap<&Vec<u64>, f64> = HashMap::new();
    let scale = n / deals.len() as f64;
    for d in deals {
        assert!(
            exact.contains_key(d),
            "a deal that is not consistent: {d:?}"
        );
        *counts.entry(d).or_default() += scale;
    }
    let (mut chi, mut cells, mut rest_e, mut rest_o) = (0.0, 0usize, 0.0, 0.0);
    for (k, p) in exact {
        let (e, o) = (p * n, counts.get(k).copied().unwrap_or(0.0));
        if e < 5.0 {
            rest_e += e;
            rest_o += o;
        } else {
            chi += (o - e).powi(2) / e;
            cells += 1;
        }
    }
    if rest_e > 0.0 {
        chi += (rest_o - rest_e).powi(2) / rest_e;
        cells += 1;
    }
    let d = (cells.max(2) - 1) as f64;
    let q = d * (1.0 - 2.0 / (9.0 * d) + 3.09 * (2.0 / (9.0 * d)).sqrt()).powi(3);
    (chi, q)
}

/// A position (its seed, seats and turns played), its view and its exact distribution.
type Enumerated = (u64, u8, usize, View, HashMap<Vec<u64>, f64>);

/// Late positions of 7 to 9 seats whose consistent deals can be enumerated (at most 200,000),
/// with the view, the inference and the exact distribution; `count` of them.
fn enumerated(count: usize) -> Vec<Enumerated> {
    let mut out = Vec::new();
    let candidates = (1..=12u64).flat_map(|seed| {
        [(9u8, 27usize), (9, 30), (9, 33), (8, 27), (8, 30), (7, 33)].map(|(s, t)| (seed, s, t))
    });
    for (seed, seats, turns) in candidates {
        if out.len() == count {
            break;
        }
        let Some(input) = position(seed, seats, turns) else {
            continue;
        };
        let view = View::from_input(&input).unwrap();
        let Some(exact) = enumerate(&Inference::new(&view), 200_000) else {
            continue;
        };
        out.push((seed, seats, turns, view, exact));
    }
    assert_eq!(out.len(), count, "too few positions enumerated");
    out
}

/// What the checks look at: the whole deal, each opponent's hidden cards, and each two
/// neighbouring opponents' together.
fn projections(m: usize) -> Vec<Vec<usize>> {
    std::iter::once((0..m).collect())
        .chain((0..m).map(|i| vec![i]))
        .chain((0..m - 1).map(|i| vec![i, i + 1]))
        .collect()
}

fn select(k: &[u64], which: &[usize]) -> Vec<u64> {
    which.iter().map(|&i| k[i]).collect()
}

/// Each opponent's counted hands as (unseen cards, count).
fn supports(inference: &Inference<'_>) -> Vec<HashMap<u64, f64>> {
    inference
        .posteriors
        .iter()
        .map(|p| {
            let Posterior::Counted { hands, cumulative } = p else {
                panic!("every opponent counted");
            };
            let mut before = 0;
            hands
                .iter()
                .zip(cumulative)
                .map(|(&(_, used), &c)| {
                    let n = c - before;
                    before = c;
                    (used.bits(), n as f64)
                })
                .collect()
        })
        .collect()
}

/// A deal's chance of being proposed (each opponent in the sampler's sequence drawn from their
/// hands that use none of the cards given before, in proportion to their counts) and its weight
/// (the product of the shares those restrictions kept), worked out from the counts.
fn proposal_and_weight(
    supports: &[HashMap<u64, f64>],
    sequence: &[usize],
    key: &[u64],
) -> (f64, f64) {
    let (mut q, mut w, mut taken) = (1.0, 1.0, 0u64);
    for &i in sequence {
        let total: f64 = supports[i].values().sum();
        let kept: f64 = supports[i]
            .iter()
            .filter(|(&b, _)| b & taken == 0)
            .map(|(_, n)| n)
            .sum();
        q *= supports[i][&key[i]] / kept;
        w *= kept / total;
        taken |= key[i];
    }
    (q, w)
}

/// The proposals, before any resampling: independent, so their frequencies must follow the
/// proposal distribution (chi-square), and each carries the weight that turns that distribution
/// into the exact one: proposal chance times weight is the same multiple of every deal's exact
/// probability.
#[test]
fn proposals_and_their_weights_match_enumeration() {
    for (seed, seats, turns, view, exact) in enumerated(4) {
        let inference = Inference::new(&view);
        let sequence = inference.sequence();
        let supports = supports(&inference);
        let mut q = HashMap::new();
        let mut ratio: Option<f64> = None;
        for (k, p) in &exact {
            let (chance, weight) = proposal_and_weight(&supports, &sequence, k);
            let r = chance * weight / p;
            let first = *ratio.get_or_insert(r);
            assert!(
                (r / first - 1.0).abs() < 1e-9,
                "proposal x weight not proportional"
            );
            q.insert(k.clone(), chance);
        }
        let reach: f64 = q.values().sum();
        q.values_mut().for_each(|x| *x /= reach);
        let n = 100_000;
        let mut keys = Vec::new();
        for p in sequential::proposals(&inference, seed, 0, n)
            .into_iter()
            .flatten()
        {
            let (deal, weight) = p;
            let k = key(&view, &deal);
            let (_, w) = proposal_and_weight(&supports, &sequence, &k);
            assert!(
                (weight / w - 1.0).abs() < 1e-12,
                "weight {weight} against {w}"
            );
            keys.push(k);
        }
        // Proposals that ran out of hands carry no weight; the others reach the end with
        // chance `reach`.
        let expected_reached = reach * n as f64;
        let got = keys.len() as f64;
        assert!((got - expected_reached).abs() < 4.0 * expected_reached.sqrt() + 1.0);
        for which in projections(view.opponents.len()) {
            let f = |k: &[u64]| select(k, &which);
            let sample: Vec<Vec<u64>> = keys.iter().map(|k| f(k)).collect();
            let (chi, crit) = chi_square(&project(&q, f), &sample);
            assert!(
                chi < crit,
                "{seats} seats seed {seed} {which:?}: chi-square {chi} over {crit}"
            );
            println!(
                "{seats} seats seed {seed} turn {turns}, {} deals, opponents {which:?}: proposals \
                 chi-square {chi:.1} (0.999 quantile {crit:.1}), {:.1}% reach the end",
                exact.len(),
                100.0 * reach
            );
        }
    }
}

/// The deals the collection returns (resampled from weighted proposals), pooled over
/// independent collections: the whole deal and each opponent's hidden cards against the exact
/// distribution, with the pooled effective number of deals as `n`.
#[test]
fn weighted_deals_match_enumeration() {
    let runner = Runner::simple(Some(2));
    for (seed, seats, turns, view, exact) in enumerated(3) {
        let inference = Inference::new(&view);
        let m = view.opponents.len();
        let mut keys = Vec::new();
        let mut effective = 0.0;
        for run in 0..20 {
            let c = collect(
                &inference,
                &CollectSettings {
                    target: 1_000,
                    seed: 1_000 * seed + run,
                    weighted: Weighted::Always,
                    ..CollectSettings::default()
                },
                &runner,
            );
            assert!(c.ess.is_some());
            effective += c.effective(u64::MAX);
            // Each collection's deals weigh the same in the pool, as their effective numbers.
            keys.extend(c.worlds.iter().map(|d| key(&view, d)));
        }
        for which in projections(m) {
            let f = |k: &[u64]| select(k, &which);
            let sample: Vec<Vec<u64>> = keys.iter().map(|k| f(k)).collect();
            let (chi, crit) = chi_square_with(&project(&exact, f), &sample, effective);
            assert!(
                chi < crit,
                "{seats} seats seed {seed} {which:?}: chi-square {chi} over {crit}"
            );
            println!(
                "{seats} seats seed {seed} turn {turns}, {} deals, opponents {which:?}: \
                 chi-square {chi:.1} (0.999 quantile {crit:.1}), effective deals {effective:.0}",
                exact.len()
            );
        }
    }
}

/// A late 9-seat position, where whole combinations are rare: plain rejection spends thousands of
/// attempts a deal (and gives some up), the weighted deals give the 10,000 asked (their effective number) from a few
/// proposals each. Work counted, not time.
#[test]
fn late_nine_seat_positions_do_not_starve() {
    let view = View::from_input(&position(7, 9, 33).unwrap()).unwrap();
    let inference = Inference::new(&view);
    let runner = Runner::simple(Some(2));
    let plain = collect(
        &inference,
        &CollectSettings {
            target: 200,
            seed: 1,
            weighted: Weighted::Never,
            ..CollectSettings::default()
        },
        &runner,
    );
    // Many deals are given up after their 10,000 attempts each.
    let per_deal = plain.attempts as f64 / plain.worlds.len() as f64;
    assert!(
        per_deal > 1_000.0,
        "{per_deal} attempts a deal by rejection"
    );
    let weighted = collect(
        &inference,
        &CollectSettings {
            target: 10_000,
            seed: 1,
            ..CollectSettings::default()
        },
        &runner,
    );
    assert!(weighted.ess.is_some() && weighted.stopped.is_none());
    assert!(weighted.effective(u64::MAX) >= 10_000.0);
    let per_deal = weighted.attempts as f64 / 10_000.0;
    assert!(per_deal < 30.0, "{per_deal} proposals a deal");
}
