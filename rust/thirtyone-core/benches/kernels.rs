//! Criterion benchmarks of the Oracle's inner kernels:
//! `cargo bench --profile profiling -p thirtyone-core` (one group: add `-- playout`).
//!
//! - `scoring`: hand scores, standard and with every scoring option on;
//! - `decision`: the table's decision rule, `choose_start` then `choose_put_down`;
//! - `playout`: a whole round dealt from a shuffled pack and played by the table's rule
//!   (`play_rule_turn(27)` until it is over), for 2, 4 and 6 seats. The throughput is in
//!   table-rule turns, so Criterion prints turns per second on one core;
//! - `inference`: a late-round view (every opponent has played five turns): the exact
//!   per-opponent counting of `Inference::new`, one consistent deal drawn through the
//!   `montecarlo::Factored` methods, and 10,000 deals on one thread (the deal target
//!   is for two threads).
//!
//! Inputs are made once, from fixed seeds, outside the timed loops.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use montecarlo::{Factored, Rng};
use thirtyone_core::hand::decision::{choose_put_down, choose_start, TABLE_KNOCK_AT};
use thirtyone_core::inference::{Deal, Inference};
use thirtyone_core::view::{StateInput, TurnInput, View};
use thirtyone_core::{Card, Round, RoundRules, Scoring, Source, ThreeOfAKind};

/// Inputs per timed iteration of the small kernels (so the loop overhead is shared).
const BATCH: usize = 4096;
/// Rounds per timed iteration of the playout benchmark.
const ROUNDS: usize = 256;
const SEED: u64 = 0x5EED;

fn pack() -> Vec<Card> {
    Card::all().collect()
}

fn shuffled(rng: &mut Rng) -> Vec<Card> {
    let mut deck = pack();
    rng.shuffle(&mut deck);
    deck
}

/// `BATCH` random hands of three distinct cards, and a fourth card for each.
fn hands(purpose: u64) -> Vec<([Card; 3], Card)> {
    (0..BATCH as u64)
        .map(|i| {
            let d = shuffled(&mut Rng::stream(SEED, purpose, i));
            ([d[0], d[1], d[2]], d[3])
        })
        .collect()
}

fn scoring(c: &mut Criterion) {
    let hs = hands(1);
    let every_option = Scoring {
        three_of_a_kind: ThreeOfAKind::ThirtyHalf,
        three_aces_33: true,
        runs: true,
    };
    let mut g = c.benchmark_group("scoring");
    g.throughput(Throughput::Elements(BATCH as u64));
    for (name, s) in [
        ("standard", Scoring::default()),
        ("every option", every_option),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0u32;
                for (h, _) in &hs {
                    total += u32::from(s.score(black_box(*h)).halves());
                }
                total
            })
        });
    }
    g.finish();
}

fn decision(c: &mut Criterion) {
    let hs = hands(2);
    let s = Scoring::default();
    let mut g = c.benchmark_group("decision");
    g.throughput(Throughput::Elements(BATCH as u64));
    // A whole turn's choice: start (knock, take or draw), then the put-down of the new card.
    g.bench_function("choose_start + choose_put_down", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for (i, (h, new)) in hs.iter().enumerate() {
                let top = (i % 3 != 0).then_some(*new);
                let start = choose_start(&s, black_box(*h), top, true, false, TABLE_KNOCK_AT);
                let from_pile = matches!(start, thirtyone_core::hand::decision::Start::Take);
                let p = choose_put_down(&s, *h, black_box(*new), from_pile);
                acc += u32::from(p.card.index()) + u32::from(p.score.halves());
            }
            acc
        })
    });
    g.bench_function("choose_put_down", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for (h, new) in &hs {
                acc += u32::from(
                    choose_put_down(&s, black_box(*h), *new, false)
                        .score
                        .halves(),
                );
            }
            acc
        })
    });
    g.finish();
}

/// Play a dealt round to its end by the table's rule; returns the turns played.
fn play_out(mut round: Round) -> u32 {
    let mut turns = 0;
    while !round.is_over() {
        round.play_rule_turn(TABLE_KNOCK_AT);
        turns += 1;
    }
    turns
}

fn playout(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    for seats in [2u8, 4, 6] {
        let decks: Vec<Vec<Card>> = (0..ROUNDS as u64)
            .map(|i| shuffled(&mut Rng::stream(SEED, 3 + u64::from(seats), i)))
            .collect();
        let deal = |d: &[Card]| Round::deal(RoundRules::default(), seats, 0, d).expect("a deal");
        let turns: u64 = decks.iter().map(|d| u64::from(play_out(deal(d)))).sum();
        // One iteration plays the ROUNDS rounds (deal included): the throughput is in turns.
        g.throughput(Throughput::Elements(turns));
        g.bench_with_input(
            BenchmarkId::new(format!("{ROUNDS} rounds, turns"), format!("{seats} seats")),
            &decks,
            |b, decks| {
                b.iter(|| {
                    let mut n = 0u32;
                    for d in decks {
                        n += play_out(deal(black_box(d)));
                    }
                    n
                })
            },
        );
    }
    g.finish();
}

/// The view of the player to move at the start of the sixth lap of the first seeded round that
/// lasts that long unknocked (every opponent has played five turns).
fn late_view(seats: u8) -> StateInput {
    let rules = RoundRules::default();
    let want = 5 * u16::from(seats);
    for task in 0..10_000u64 {
        let deck = shuffled(&mut Rng::stream(SEED, 99, task));
        let mut round = Round::deal(rules, seats, 0, &deck).expect("a deal");
        let upcard = round.top();
        let mut records = Vec::new();
        while !round.is_over() && round.knocker().is_none() && round.turns_played() < want {
            records.push(round.play_rule_turn(TABLE_KNOCK_AT));
        }
        if round.is_over() || round.knocker().is_some() {
            continue;
        }
        let me = round.to_move();
        let turns = records
            .iter()
            .map(|r| {
                let (from, card) = r.draw.expect("no knock, no decline");
                TurnInput::Play {
                    seat: r.seat,
                    from,
                    drew: (r.seat == me && from == Source::Stock).then_some(card),
                    discard: r.put_down.expect("a put-down"),
                    shows: None,
                }
            })
            .collect();
        return StateInput {
            rules,
            seats,
            me,
            first: 0,
            upcard,
            hand: round.hand(me),
            turns,
            pending: None,
        };
    }
    panic!("no round of {seats} seats lasted {want} turns");
}

/// One consistent deal as the engine draws it: each opponent by its posterior (or rejection),
/// then the combination, again from the start when two opponents share a card.
fn one_deal(
    inf: &Inference<'_>,
    rng: &mut Rng,
    parts: &mut Vec<<Inference<'_> as Factored>::Part>,
) -> Deal {
    loop {
        parts.clear();
        for i in 0..inf.parts() {
            if inf.explainable(i) == Some(false) {
                let p = inf.fallback_part(i, parts, rng);
                parts.push(p);
                continue;
            }
            loop {
                if let Some(p) = inf.sample_part(i, rng) {
                    parts.push(p);
                    break;
                }
            }
        }
        if let Some(d) = inf.combine(parts) {
            return d;
        }
    }
}

fn inference(c: &mut Criterion) {
    let mut g = c.benchmark_group("inference");
    for seats in [4u8, 6] {
        let input = late_view(seats);
        let view = View::from_input(&input).expect("a position from a real round");
        let label = format!("{seats} seats late");
        g.throughput(Throughput::Elements(1));
        g.bench_with_input(BenchmarkId::new("Inference::new", &label), &view, |b, v| {
            b.iter(|| Inference::new(black_box(v)))
        });
        let inf = Inference::new(&view);
        let mut parts = Vec::new();
        let mut k = 0u64;
        g.bench_with_input(BenchmarkId::new("one deal", &label), &inf, |b, inf| {
            b.iter(|| {
                k += 1;
                let mut rng = Rng::stream(SEED, 7, k);
                one_deal(inf, &mut rng, &mut parts)
            })
        });
        g.throughput(Throughput::Elements(10_000));
        g.bench_with_input(
            BenchmarkId::new("new + 10,000 deals, one thread", &label),
            &view,
            |b, v| {
                b.iter(|| {
                    let inf = Inference::new(black_box(v));
                    let mut parts = Vec::new();
                    let mut cards = 0u64;
                    for k in 0..10_000u64 {
                        let mut rng = Rng::stream(SEED, 8, k);
                        cards += one_deal(&inf, &mut rng, &mut parts).stock.len() as u64;
                    }
                    cards
                })
            },
        );
    }
    g.finish();
}

criterion_group! {
    name = kernels;
    // Short runs: the machine is small and shared; compare figures from one run.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    targets = scoring, decision, playout, inference
}
criterion_main!(kernels);
