use super::solver::{unpack, Solver};
use super::*;
use crate::game::play_games;
use crate::game::round_outcomes::distribution;
use crate::rules::MAX_SEATS;

const STANDARD: GameRules = GameRules {
    county: false,
    placing: Placing::WinnerTakesAll,
};

fn runner() -> Runner {
    Runner::simple(Some(2))
}

fn result(losses: &[u8]) -> RoundResult {
    let mut r = RoundResult {
        losses: [0; MAX_SEATS],
        order: [0, 1, 2, 3, 4, 5, 6, 7, 8],
    };
    r.losses[..losses.len()].copy_from_slice(losses);
    r
}

#[test]
fn two_seats_one_life_each_is_the_chance_the_other_alone_loses_with_washes_dealt_again() {
    let rules = RoundRules::default();
    // Seat 0 deals: seat 1 plays first.
    let g = GameValue::new(&rules, STANDARD, &[1, 1], (0, 1), &runner(), None).unwrap();
    let d = distribution(&rules, 2, false, &runner()).unwrap();
    // Seat 0 deals: position 0 (first to play) is seat 1, position 1 is seat 0.
    let (mut other_alone, mut washes) = (0u64, 0u64);
    for (r, c) in &d.results {
        match (r.losses[0] > 0, r.losses[1] > 0) {
            (true, false) => other_alone += c,
            (true, true) => washes += c,
            _ => {}
        }
    }
    let total = d.rounds as f64;
    let expected = other_alone as f64 / (total - washes as f64);
    assert!(
        (g.now() - expected).abs() < 1e-12,
        "{} {}",
        g.now(),
        expected
    );
    // The same as the chance the other alone loses plus a share of the washes.
    let share = (other_alone as f64 + washes as f64 * expected) / total;
    assert!((g.now() - share).abs() < 1e-12);
    // After a round: the other lost (I win), I lost (out), both lost (dealt again).
    assert_eq!(g.after_round(&result(&[1, 0])), 1.0);
    assert_eq!(g.after_round(&result(&[0, 1])), 0.0);
    assert_eq!(g.after_round(&result(&[1, 1])), g.now());
}

#[test]
fn values_are_chances_that_add_up_to_one_over_the_seats() {
    let rules = RoundRules::default();
    let lives = [3, 1, 2, 2];
    let total: f64 = (0..4)
        .map(|me| {
            GameValue::new(&rules, STANDARD, &lives, (me, 3), &runner(), None)
                .unwrap()
                .now()
        })
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let mine = GameValue::new(&rules, STANDARD, &lives, (0, 3), &runner(), None).unwrap();
    let theirs = GameValue::new(&rules, STANDARD, &lives, (1, 3), &runner(), None).unwrap();
    assert!(mine.now() > 0.25 && theirs.now() < 0.25);
}

#[test]
fn ranked_points_add_up_to_six() {
    let rules = RoundRules::default();
    let ranked = GameRules {
        placing: Placing::Ranked,
        ..STANDARD
    };
    let lives = [2, 1, 2, 1];
    let total: f64 = (0..4)
        .map(|me| {
            GameValue::new(&rules, ranked, &lives, (me, 1), &runner(), None)
                .unwrap()
                .now()
        })
        .sum();
    assert!((total - 6.0).abs() < 1e-9, "{total}");
}

#[test]
fn the_table_agrees_with_whole_games_played_out() {
    let rules = RoundRules::default();
    let r = runner();
    for (lives, dealer) in [(vec![2u8, 1, 1], 0usize), (vec![1, 2, 1, 2], 3)] {
        let games = 3_000;
        let wins = play_games(&rules, STANDARD, &lives, dealer, games, 7, &r);
        for (me, &w) in wins.iter().enumerate() {
            let p = w as f64 / games as f64;
            let first = (dealer + 1) % lives.len();
            let v = GameValue::new(&rules, STANDARD, &lives, (me, first), &r, None)
                .unwrap()
                .now();
            let margin = 4.0 * (v * (1.0 - v) / games as f64).sqrt();
            assert!((p - v).abs() < margin, "{lives:?} seat {me}: {p} vs {v}");
        }
    }
}

#[test]
fn too_many_lives_is_refused_not_computed() {
    let rules = RoundRules::default();
    let lives = [20u8; 9];
    assert!(GameValue::new(&rules, STANDARD, &lives, (0, 0), &runner(), None).is_err());
    // Three lives each at nine seats is within reach.
    assert!(GameValue::new(&rules, STANDARD, &[3u8; 9], (0, 0), &runner(), None).is_ok());
}

#[test]
fn a_table_cut_short_by_the_time_goes_on_at_the_next_question_to_the_same_values() {
    // Rules no other test uses, so that the shared table starts empty.
    let rules = RoundRules {
        knock_penalty: 1,
        ..RoundRules::default()
    };
    let lives = [3u8, 2, 3, 2, 3, 2];
    let now = Some(std::time::Instant::now());
    assert!(matches!(
        GameValue::new(&rules, STANDARD, &lives, (0, 1), &runner(), now),
        Err(Unavailable::Time)
    ));
    // Questions with no time at all (each solves the few states it begins before it reads the
    // clock): the table grows until it is done.
    let mut asked = 1;
    let value = loop {
        let soon = Some(std::time::Instant::now());
        if let Ok(g) = GameValue::new(&rules, STANDARD, &lives, (0, 1), &runner(), soon) {
            break g.now();
        }
        asked += 1;
        assert!(asked < 10_000, "the table never finished");
    };
    // The same as a table solved in one go, on its own memo.
    let dists: Vec<Option<Arc<Distribution>>> = (0..=6)
        .map(|m| (m >= 2).then(|| distribution(&rules, m as u8, false, &runner()).unwrap()))
        .collect();
    let mut memo = Memo::default();
    let r = runner();
    let mut solver = Solver::new(STANDARD, &dists, &mut memo, &r, None);
    let seq: Vec<u8> = (0..6).map(|p| lives[(1 + p) % 6]).collect();
    solver.solve(&seq);
    assert_eq!(value, memo.0[&pack(&seq)][5]);
    assert!(asked > 1);
}

#[test]
fn the_listed_values_after_a_round_are_the_worked_out_ones() {
    let rules = RoundRules::default();
    let g = GameValue::new(&rules, STANDARD, &[3, 1, 2, 2], (2, 3), &runner(), None).unwrap();
    assert_eq!(g.by_losses.len(), 81);
    let mut seen = 0;
    for a in 0..=3u8 {
        for b in 0..=2u8 {
            for c in 0..=2u8 {
                for d in 0..=3u8 {
                    let r = result(&[a, b, c, d]);
                    assert_eq!(g.after_round(&r), g.stepped(&r), "losses {a} {b} {c} {d}");
                    seen += 1;
                }
            }
        }
    }
    assert_eq!(seen, 144);
    // Position 1 (one life) going out alone, the others untouched, differs from position 0
    // doing it: the index keeps the positions apart.
    assert_ne!(
        g.after_round(&result(&[0, 1, 0, 0])),
        g.after_round(&result(&[1, 0, 0, 0]))
    );
    // Under ranked placing nothing is listed: the order of the hands counts.
    let ranked = GameRules {
        placing: Placing::Ranked,
        ..STANDARD
    };
    let g = GameValue::new(&rules, ranked, &[3, 1, 2, 2], (2, 3), &runner(), None).unwrap();
    assert!(g.by_losses.is_empty());
}

#[test]
fn the_value_read_by_seat_is_the_one_worked_out_by_position() {
    let rules = RoundRules::default();
    // Every first player of a 4- and a 3-seat table: position p is seat (first + p) % n.
    for lives in [&[3u8, 1, 2, 2][..], &[2, 1, 3]] {
        let n = lives.len();
        for first in 0..n {
            let g = GameValue::new(&rules, STANDARD, lives, (1, first), &runner(), None).unwrap();
            let mut listed = 0;
            for code in 0..4u32.pow(n as u32) {
                let mut lost = [0u8; MAX_SEATS];
                for (s, l) in lost.iter_mut().enumerate().take(n) {
                    *l = (code / 4u32.pow(s as u32) % 4) as u8;
                }
                let by_position: Vec<u8> = (0..n).map(|p| lost[(first + p) % n]).collect();
                match g.after_losses(&lost, first, n) {
                    Some(v) => {
                        assert_eq!(
                            v,
                            g.stepped(&result(&by_position)),
                            "{lost:?}, first {first}"
                        );
                        listed += 1;
                    }
                    None => assert!(lost.iter().any(|&l| l > 2), "{lost:?}, first {first}"),
                }
            }
            assert_eq!(listed, 3usize.pow(n as u32));
        }
    }
    let g = GameValue::new(&rules, STANDARD, &[3, 1, 2, 2], (2, 3), &runner(), None).unwrap();
    // Another seat count than the table's is not read from it.
    assert_eq!(g.after_losses(&[0; MAX_SEATS], 0, 5), None);
    // Under ranked placing the order of the hands counts: never read by losses alone.
    let ranked = GameRules {
        placing: Placing::Ranked,
        ..STANDARD
    };
    let g = GameValue::new(&rules, ranked, &[3, 1, 2, 2], (2, 3), &runner(), None).unwrap();
    assert_eq!(g.after_losses(&[0; MAX_SEATS], 3, 4), None);
}

/// The place of a round's losses read by [`LossWeights::index`] (two bytes of 2-bit fields and
/// their tables) is the place worked out by position ([`losses_index`]): at 9 seats, every first
/// player, random losses of 0 to 2 and, at a random seat, more (3, and the bytes whose top bit the
/// reading tests: 0x7F to 0x84 and 0xFF), which none is.
#[test]
fn the_place_of_a_rounds_losses_is_read_as_it_is_worked_out() {
    let mut rng = montecarlo::Rng::stream(29, 0, 0);
    for first in 0..9 {
        let mut weights = [0u32; MAX_SEATS];
        for p in 0..9 {
            weights[(first + p) % 9] = 3u32.pow(p as u32);
        }
        let w = LossWeights::new(weights);
        for case in 0..2_000 {
            let mut lost = [0u8; MAX_SEATS];
            for l in &mut lost {
                *l = rng.below(3) as u8;
            }
            if case % 2 == 1 {
                let more = [3, 0x7F, 0x80, 0x82, 0x83, 0x84, 0xFF];
                lost[rng.below(9) as usize] = more[rng.below(more.len() as u32) as usize];
            }
            let by_position = losses_index((0..9).map(|p| lost[(first + p) % 9]));
            assert_eq!(w.index(&lost), by_position, "{lost:?}, first {first}");
        }
    }
}

#[test]
fn the_clock_is_read_by_the_results_gone_through_not_only_by_the_states() {
    // A distribution far larger than any table's (a file could hold one): 600,000 results.
    let many = Arc::new(Distribution {
        seats: 2,
        rounds: 600_000,
        results: (0..600_000)
            .map(|i| (result(if i % 2 == 0 { &[1, 0] } else { &[0, 1] }), 1))
            .collect(),
    });
    let dists = vec![None, None, Some(many)];
    let mut memo = Memo::default();
    let r = runner();
    // Already past.
    let mut solver = Solver::new(STANDARD, &dists, &mut memo, &r, Some(Instant::now()));
    solver.solve(&[8, 8]);
    assert_eq!(solver.stopped, Some(Stop::Time));
    // The clock is read within the second state (after 1,048,576 results): one state is
    // solved. Read by the states alone, it would be read at the 64th, the last of the table.
    assert!(memo.0.len() <= 1, "{} states solved", memo.0.len());
}

/// Each state's values worked out result by result (the game-value table's equations written
/// plainly: every result of the distribution on its own, the wash's share taken out), for
/// tables where no round passes the deal on without a loss.
fn by_each_result(
    rules: &GameRules,
    dists: &[Option<Arc<Distribution>>],
    seq: &[u8],
    memo: &mut std::collections::HashMap<Vec<u8>, Vec<f64>>,
) -> Vec<f64> {
    if let Some(v) = memo.get(seq) {
        return v.clone();
    }
    let m = seq.len();
    let dist = dists[m].as_ref().unwrap();
    let (mut sum, mut wash) = (vec![0.0; m], 0.0);
    for (result, count) in &dist.results {
        let p = *count as f64 / dist.rounds as f64;
        match step(rules, seq, result) {
            Step::Wash => wash += p,
            Step::Turn => panic!("a round without a loss at {m} seats"),
            Step::Next { state, to, scored } => {
                let later = state.map(|s| by_each_result(rules, dists, &unpack(s), memo));
                for (pos, x) in sum.iter_mut().enumerate() {
                    let after = match (to[pos], &later) {
                        (Some(q), Some(v)) => v[usize::from(q)],
                        _ => 0.0,
                    };
                    *x += p * (scored[pos] + after);
                }
            }
        }
    }
    let v: Vec<f64> = sum.iter().map(|x| x / (1.0 - wash)).collect();
    memo.insert(seq.to_vec(), v.clone());
    v
}

/// Under ranked placing the table takes a round's results of the same losses as one wherever
/// the order of the hands cannot change the places' points (at nine seats it went through
/// 400,000 results a state, six minutes a table): every state's values are those worked out
/// result by result, at five seats (where two players going out together at the last places
/// are worth points apart) and six.
#[test]
fn ranked_values_are_those_of_every_result_on_its_own() {
    let rules = RoundRules::default();
    let ranked = GameRules {
        county: false,
        placing: Placing::Ranked,
    };
    for lives in [vec![2, 1, 2, 1, 1], vec![1, 2, 1, 1, 2, 1]] {
        let n = lives.len();
        let dists: Vec<Option<Arc<Distribution>>> = (0..=n)
            .map(|m| (m >= 2).then(|| distribution(&rules, m as u8, true, &runner()).unwrap()))
            .collect();
        let (mut memo, r) = (Memo::default(), runner());
        Solver::new(ranked, &dists, &mut memo, &r, None).solve(&lives);
        // Results that differ by the order alone, there to be taken as one.
        let results = &dists[n].as_ref().unwrap().results;
        let losses: std::collections::HashSet<_> = results.iter().map(|r| r.0.losses).collect();
        assert!(losses.len() < results.len());
        let mut plain = std::collections::HashMap::new();
        by_each_result(&ranked, &dists, &lives, &mut plain);
        assert!(plain.len() > 20, "{} states", plain.len());
        for (seq, want) in &plain {
            let got = &memo.0[&pack(seq)];
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-12, "{seq:?}: {got:?} against {want:?}");
            }
        }
    }
}
