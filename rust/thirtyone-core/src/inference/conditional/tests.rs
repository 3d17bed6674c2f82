use super::*;
use crate::inference::test_positions::position;
use crate::inference::{Inference, Posterior};
use crate::view::View;

/// An opponent who has not played: the flat form and the listed form of the same posterior
/// keep the same share given the same cards taken, and draw the same hands (each card's
/// frequency against the exact one, worked out from the allowed hands).
#[test]
fn the_flat_form_is_the_listed_form() {
    let view = View::from_input(&position(3, 6, 0).unwrap()).unwrap();
    let inference = Inference::new(&view);
    let i = view
        .opponents
        .iter()
        .position(|o| o.turns.is_empty())
        .unwrap();
    let Posterior::Counted { hands, cumulative } = &inference.posteriors[i] else {
        panic!("counted");
    };
    let unseen: Vec<Card> = view.unseen.iter().collect();
    let scoring = &view.public.rules.scoring;
    let o = &view.opponents[i];
    let flat = Conditional::new(o, &unseen, scoring, hands, cumulative, None);
    assert!(matches!(flat, Conditional::Flat(_)));
    let listed = Conditional::Listed(Listed::new(hands, cumulative, None));
    let mut rng = Rng::stream(1, 2, 3);
    for round in 0..6 {
        // Cards taken by others: `3 * round` unseen cards, those of a 31 among them.
        let taken: CardSet = unseen
            .iter()
            .copied()
            .skip(round)
            .step_by(4)
            .take(3 * round)
            .collect();
        let (a, b) = (flat.draw(taken, &mut rng), listed.draw(taken, &mut rng));
        assert_eq!(a.map(|x| x.1), b.map(|x| x.1), "the same share");
        // The exact chance of each card: the allowed hands that use none of `taken`.
        let free: Vec<&([Card; 3], CardSet)> =
            hands.iter().filter(|h| !h.1.intersects(taken)).collect();
        let mut exact = [0f64; 52];
        for h in &free {
            h.0.iter()
                .for_each(|c| exact[c.index() as usize] += 1.0 / free.len() as f64);
        }
        let n = 20_000;
        for form in [&flat, &listed] {
            let mut seen = [0f64; 52];
            for _ in 0..n {
                let (d, _) = form.draw(taken, &mut rng).unwrap();
                assert!(!d.unseen_used.intersects(taken));
                assert!(!scoring.score(d.hand).is_blitz());
                d.hand.iter().for_each(|c| seen[c.index() as usize] += 1.0);
            }
            // Card counts, each a sum of n Bernoulli draws: a chi-square over the cards
            // (over-dispersed by at most 3 because a hand holds three; bound with slack).
            let chi: f64 = (0..52)
                .filter(|&c| exact[c] > 0.0)
                .map(|c| (seen[c] - n as f64 * exact[c]).powi(2) / (n as f64 * exact[c]))
                .sum();
            let cells = exact.iter().filter(|&&e| e > 0.0).count() as f64;
            assert!(
                chi < 3.0 * cells,
                "round {round}: chi-square {chi} over {cells} cards"
            );
        }
    }
}

/// Large posteriors count what is left by inclusion and exclusion: the same as the walk.
#[test]
fn inclusion_and_exclusion_count_what_the_walk_counts() {
    let view = View::from_input(&position(2, 9, 9).unwrap()).unwrap();
    let inference = Inference::new(&view);
    let unseen: Vec<Card> = view.unseen.iter().collect();
    let mut rng = Rng::stream(4, 5, 6);
    let mut checked = 0;
    for c in inference.conditionals.iter().flatten() {
        let Conditional::Listed(l) = c else { continue };
        let Some(h) = &l.holding else { continue };
        for k in 0..=12 {
            let mut taken = CardSet::EMPTY;
            while taken.len() < k {
                taken.insert(unseen[rng.below(unseen.len() as u32) as usize]);
            }
            let walked = walked(l, taken);
            assert_eq!(l.total - h.meeting(taken, k), walked, "{k} cards taken");
            assert_eq!(l.kept(taken, None), walked);
            checked += 1;
        }
    }
    assert!(
        checked >= 26,
        "only {checked} checks: too few large posteriors"
    );
}

/// The alias table gives every hand exactly its share: over the buckets, what each keeps
/// and hands over adds up to `n * count` (out of `n * total`).
#[test]
fn the_alias_table_is_exact() {
    for counts in [
        vec![1u64, 2, 3, 4],
        vec![7, 1, 1, 1, 1, 9, 13],
        vec![5],
        vec![3, 3, 3],
    ] {
        let total: u64 = counts.iter().sum();
        let a = Alias::new(&counts, total, &vec![CardSet::EMPTY; counts.len()]);
        let n = counts.len() as u128;
        let mut got = vec![0u128; counts.len()];
        for (b, bucket) in a.buckets.iter().enumerate() {
            got[b] += bucket.keep as u128;
            got[bucket.other as usize] += (total - bucket.keep) as u128;
        }
        let want: Vec<u128> = counts.iter().map(|&c| c as u128 * n).collect();
        assert_eq!(got, want, "{counts:?}");
    }
}

/// Over more than 32 unseen cards the walk over the sets in halves counts what the walk over the
/// whole sets counts.
#[test]
fn the_walk_over_halves_counts_what_the_whole_walk_counts() {
    let mut rng = Rng::stream(13, 14, 15);
    let mut checked = 0;
    for (seed, seats, turns) in [(2, 9, 9), (4, 6, 6), (1, 4, 8), (3, 9, 18)] {
        let view = View::from_input(&position(seed, seats, turns).unwrap()).unwrap();
        let inference = Inference::new(&view);
        let unseen: Vec<Card> = view.unseen.iter().collect();
        for c in inference.conditionals.iter().flatten() {
            let Conditional::Listed(l) = c else { continue };
            let Some(h) = &l.halves else { continue };
            for _ in 0..50 {
                let k = rng.below(unseen.len() as u32 + 1) as usize;
                let taken = some_taken(&unseen, k, &mut rng);
                let walked = walked(l, taken);
                assert_eq!(h.kept(taken), walked, "{k} cards taken");
                checked += 1;
            }
        }
    }
    assert!(checked >= 500, "only {checked} checks");
}

/// The hands of `l` that meet none of `taken`, counted one by one: what every faster count is
/// checked against.
fn walked(l: &Listed, taken: CardSet) -> u64 {
    l.sets
        .iter()
        .zip(&l.counts)
        .filter(|(s, _)| !s.intersects(taken))
        .map(|(_, &n)| n)
        .sum()
}

/// Cards taken at random among the unseen: `k` of them.
fn some_taken(unseen: &[Card], k: usize, rng: &mut Rng) -> CardSet {
    let mut taken = CardSet::EMPTY;
    while taken.len() < k.min(unseen.len()) {
        taken.insert(unseen[rng.below(unseen.len() as u32) as usize]);
    }
    taken
}

/// The listed posteriors of late positions of 7 to 9 seats (at most 32 unseen cards), with the
/// unseen cards.
fn late_listed() -> Vec<(Vec<Card>, Listed)> {
    let mut out = Vec::new();
    // Rounds that last to the fourth, fifth or sixth lap.
    for (seed, seats, laps) in [
        (1, 7, 4),
        (7, 7, 5),
        (10, 7, 5),
        (6, 8, 4),
        (12, 8, 4),
        (4, 9, 3),
        (7, 9, 3),
        (10, 9, 4),
    ] {
        let input = position(seed, seats, laps * seats as usize).unwrap();
        let view = View::from_input(&input).unwrap();
        let inference = Inference::new(&view);
        let unseen: Vec<Card> = view.unseen.iter().collect();
        for c in inference.conditionals.into_iter().flatten() {
            if let Conditional::Listed(l) = c {
                out.push((unseen.clone(), l));
            }
        }
    }
    out
}

/// In 32-bit masks, what is left is counted by a walk or, when few of the hands' cards are left,
/// by visiting the sets of those cards: either way the count of the wide walk, and the hand at
/// every place of what is left the one the wide walk finds (the listed order).
#[test]
fn the_narrow_form_counts_and_finds_what_the_wide_walk_does() {
    let mut rng = Rng::stream(7, 8, 9);
    let (mut visited, mut walked) = (0, 0);
    for (unseen, l) in late_listed() {
        let n = l
            .narrow
            .as_ref()
            .expect("at most 32 unseen cards: the narrow form");
        assert!(
            n.subsets.is_some(),
            "hands listed in the order of their cards"
        );
        for _ in 0..300 {
            let k = rng.below(unseen.len() as u32 + 1) as usize;
            let taken = some_taken(&unseen, k, &mut rng);
            let t = n.places.mask(taken);
            assert_eq!(t.count_ones() as usize, taken.len());
            let left: Vec<usize> = (0..l.sets.len())
                .filter(|&i| !l.sets[i].intersects(taken))
                .collect();
            let kept: u64 = left.iter().map(|&i| l.counts[i]).sum();
            assert_eq!(n.kept(t), kept, "{k} cards taken");
            // Again: remembered, for a posterior of many hands that walked.
            assert_eq!(n.kept(t), kept, "{k} cards taken, again");
            match n.subsets(t) {
                Some(_) => visited += 1,
                None => walked += 1,
            }
            // The hand at each place of what is left, by the wide walk.
            let mut r = 0;
            for &i in &left {
                for at in [r, r + l.counts[i] - 1] {
                    assert_eq!(n.nth(t, at), i, "{k} cards taken, place {at} of {kept}");
                }
                r += l.counts[i];
            }
        }
    }
    assert!(
        visited >= 2000 && walked >= 2000,
        "visited {visited}, walked {walked}"
    );
}

/// The same draws with and without the narrow form: the same hand and share from the same random
/// numbers, whichever way a hand is drawn (from the whole posterior, from the walk or from the
/// visit).
#[test]
fn the_narrow_form_draws_what_the_wide_form_draws() {
    let mut rng = Rng::stream(10, 11, 12);
    let mut drawn = 0;
    for (unseen, narrow) in late_listed() {
        let wide = Listed {
            narrow: None,
            ..narrow.clone()
        };
        for stream in 0..200 {
            let k = rng.below(unseen.len() as u32 + 1) as usize;
            let taken = some_taken(&unseen, k, &mut rng);
            let (mut a, mut b) = (Rng::stream(1, 2, stream), Rng::stream(1, 2, stream));
            let (x, y) = (narrow.draw(taken, &mut a), wide.draw(taken, &mut b));
            assert_eq!(x, y, "{k} cards taken");
            assert_eq!(a.next_u64(), b.next_u64(), "as many random numbers used");
            drawn += usize::from(x.is_some());
        }
    }
    assert!(drawn >= 5000, "only {drawn} draws");
}
