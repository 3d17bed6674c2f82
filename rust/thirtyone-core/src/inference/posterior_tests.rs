//! Tests of the per-opponent posteriors and consistent deals.

use super::*;
use crate::inference::test_positions::position;
use montecarlo::{collect, CollectSettings, Runner};

fn score_histogram(deals: &[Deal], seat: u8, view: &View) -> [f64; 64] {
    let mut h = [0f64; 64];
    for d in deals {
        h[view
            .public
            .rules
            .scoring
            .score(d.hands[seat as usize])
            .halves() as usize] += 1.0;
    }
    h
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
    let cut = Inference::cancellable(&view, &AtomicBool::new(true), 10_000).counts();
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
