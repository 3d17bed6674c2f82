//! The chained deals against brute-force enumeration of every consistent deal.

use std::collections::HashMap;

use montecarlo::{collect, CollectSettings, Runner};

use crate::inference::{Deal, Inference, Posterior};
use crate::test_positions::position;
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
    let n = deals.len() as f64;
    let mut counts: HashMap<&Vec<u64>, f64> = HashMap::new();
    for d in deals {
        assert!(
            exact.contains_key(d),
            "a deal that is not consistent: {d:?}"
        );
        *counts.entry(d).or_default() += 1.0;
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

/// Late positions of 6 to 9 seats, chains of 3: the second deals of all chains are independent
/// of each other, and so are the third; each set must follow the enumerated distribution.
#[test]
fn chained_deals_match_enumeration() {
    let runner = Runner::simple(Some(2));
    let mut checked = 0;
    let chains = 4_000;
    let candidates = (1..=12u64).flat_map(|seed| {
        [(9u8, 24usize), (9, 27), (8, 27), (8, 30), (7, 33)].map(|(s, t)| (seed, s, t))
    });
    for (seed, seats, turns) in candidates {
        if checked == 4 {
            break;
        }
        let Some(input) = position(seed, seats, turns) else {
            continue;
        };
        let view = View::from_input(&input).unwrap();
        let inference = Inference::new(&view);
        let Some(exact) = enumerate(&inference, 200_000) else {
            continue;
        };
        let settings = CollectSettings {
            target: 3 * chains,
            seed,
            chain_length: Some(3),
            ..CollectSettings::default()
        };
        let c = collect(&inference, &settings, &runner);
        assert_eq!((c.chain, c.worlds.len()), (3, 3 * chains));
        let keys: Vec<Vec<u64>> = c.worlds.iter().map(|d| key(&view, d)).collect();
        let m = view.opponents.len();
        // The whole deal, and each opponent's hidden cards alone.
        let views: Vec<Option<usize>> = std::iter::once(None).chain((0..m).map(Some)).collect();
        for position in [1, 2] {
            for &v in &views {
                let f = |k: &[u64]| v.map_or(k.to_vec(), |i| vec![k[i]]);
                let sample: Vec<Vec<u64>> = keys
                    .iter()
                    .skip(position)
                    .step_by(3)
                    .map(|k| f(k))
                    .collect();
                let (chi, q) = chi_square(&project(&exact, f), &sample);
                assert!(
                    chi < q,
                    "{seats} seats seed {seed} opponent {v:?}: chi-square {chi} over {q}"
                );
                println!(
                    "{seats} seats seed {seed} turn {turns}, {} deals, position {position}, \
                     opponent {v:?}: chi-square {chi:.1} (0.999 quantile {q:.1})",
                    exact.len()
                );
            }
        }
        checked += 1;
    }
    assert!(checked == 4, "only {checked} positions enumerated");
}
