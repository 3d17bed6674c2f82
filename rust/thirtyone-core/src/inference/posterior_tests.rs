//! Tests of the per-opponent posteriors and consistent deals.

use super::*;
use crate::inference::test_positions::position;
use montecarlo::{collect, CollectSettings, Runner};

fn score_histogram(deals: &[Deal], seat: u8, view: &View) -> [f64; 64] {
    let mut h = [0f64; 64];
    for d in deals {
        h[view
            .table
            .rules
            .scoring
            .score(d.hands[seat as usize])
            .halves() as usize] += 1.0;
    }
    h
}

/// An opponent who has not played is listed directly: the same hands, counts and order as
/// the walk over their (empty) history gives.
#[test]
fn an_unplayed_opponent_is_listed_as_the_walk_counts_it() {
    let view = View::from_input(&position(3, 5, 0).unwrap()).unwrap();
    let unseen: Vec<Card> = view.unseen.iter().collect();
    let mut checked = 0;
    for o in view.opponents.iter().filter(|o| o.turns.is_empty()) {
        let mut c = Counter {
            view: &view,
            o,
            unseen: &unseen,
            counts: HashMap::new(),
            steps: 0,
            cancel: &AtomicBool::new(false),
        };
        assert!(c.deal());
        let mut walked: Vec<(u64, [Card; 3], u64)> =
            c.counts.into_iter().map(|(k, (h, n))| (k, h, n)).collect();
        walked.sort_unstable_by_key(|e| e.0);
        let Posterior::Counted { hands, cumulative } = Counter::unplayed(&view, &unseen) else {
            panic!("counted");
        };
        assert_eq!(hands.len(), walked.len());
        for (k, (w, h)) in walked.iter().zip(&hands).enumerate() {
            assert_eq!((w.1, w.2, cumulative[k]), (h.0, 1, k as u64 + 1));
        }
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn counting_stops_when_cancelled_and_not_at_any_time() {
    let input = (1..50)
        .find_map(|seed| position(seed, 4, 6))
        .expect("a round lasts six turns");
    let view = View::from_input(&input).unwrap();
    let counted = Inference::new(&view).counts();
    assert!(counted.iter().all(Option::is_some));
    // Cancelled before the start: an opponent whose count takes more than a few thousand steps
    // (the first look at the flag) is left to rejection; a quicker count is finished.
    let cut = Inference::cancellable(&view, &AtomicBool::new(true)).counts();
    assert!(cut.iter().any(Option::is_none), "{cut:?}");
    for (c, full) in cut.iter().zip(&counted) {
        assert!(c.is_none() || c == full);
    }
}

/// Counting and rejection are two independent ways to the same posterior: the distribution
/// of each opponent's hand score must agree (two-sample chi-square).
#[test]
fn counting_and_rejection_agree() {
    let runner = Runner::simple(Some(2));
    let mut checked = 0;
    for (seed, seats, turns) in [(1, 3, 5), (2, 4, 7), (3, 2, 6), (4, 4, 10), (5, 3, 8)] {
        let Some(input) = position(seed, seats, turns) else {
            continue;
        };
        let view = View::from_input(&input).unwrap();
        let settings = CollectSettings {
            target: 6_000,
            seed,
            ..CollectSettings::default()
        };
        let counted = collect(&Inference::new(&view), &settings, &runner);
        let rejected = collect(&Inference::by_rejection(&view), &settings, &runner);
        assert!(counted.fallback_parts.is_empty() && rejected.fallback_parts.is_empty());
        assert_eq!(counted.worlds.len(), 6_000);
        assert_eq!(rejected.worlds.len(), 6_000);
        for o in &view.opponents {
            let a = score_histogram(&counted.worlds, o.seat, &view);
            let b = score_histogram(&rejected.worlds, o.seat, &view);
            let (mut chi, mut bins) = (0.0, 0);
            for k in 0..64 {
                if a[k] + b[k] >= 10.0 {
                    chi += (a[k] - b[k]).powi(2) / (a[k] + b[k]);
                    bins += 1;
                }
            }
            // 0.999 quantile of chi-square with (bins - 1) degrees of freedom, roughly.
            let dof = (bins - 1).max(1) as f64;
            let critical = dof + 3.09 * (2.0 * dof).sqrt() + 6.0;
            assert!(
                chi < critical,
                "seed {seed} seat {}: chi {chi} > {critical}",
                o.seat
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} opponents checked");
}
