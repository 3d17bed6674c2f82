//! Time one full-precision Oracle query on the example of oracle.md:
//! `cargo run --release -p thirtyone-core --example full_precision`.

use std::time::Instant;

use thirtyone_core::oracle::{advise, Settings};
use thirtyone_core::round::Source;
use thirtyone_core::view::{StateInput, TurnInput};
use thirtyone_core::{Card, RoundRules};

fn c(t: &str) -> Card {
    t.parse().expect("a card")
}

fn main() {
    let play = |seat, pile: bool, drew: Option<&str>, discard: &str| TurnInput::Play {
        seat,
        from: if pile { Source::Pile } else { Source::Stock },
        drew: drew.map(c),
        discard: c(discard),
        shows: None,
    };
    let input = StateInput {
        rules: RoundRules::default(),
        seats: 4,
        me: 0,
        first: 1,
        upcard: c("7S"),
        hand: [c("AH"), c("9H"), c("4H")],
        turns: vec![
            play(1, false, None, "5C"),
            play(2, true, None, "KD"),
            play(3, false, None, "2D"),
            play(0, false, Some("8S"), "8S"),
            play(1, false, None, "6D"),
            play(2, true, None, "3C"),
            play(3, false, None, "QC"),
        ],
        pending: None,
    };
    phases(&input);
    // Optional arguments: playouts and threads (for instruction counts under callgrind).
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let playouts = args.first().copied().unwrap_or(50_000);
    let thread_counts = match args.get(1) {
        Some(&t) => vec![t],
        None => vec![1, 2],
    };
    for threads in thread_counts {
        let t = Instant::now();
        let a = advise(
            &input,
            &Settings {
                threads: Some(threads),
                seed: 1,
                playouts,
                ..Settings::default()
            },
        )
        .expect("the example is a valid state");
        println!("threads {threads}: {:?}", t.elapsed());
        for o in &a.options {
            println!(
                "  {:?} p_safe {:.4} ±{:.4} lives_lost {:.4} knock_at {:?}",
                o.kind, o.p_safe, o.margin, o.lives_lost, o.knock_at
            );
        }
        println!("  deals {} warnings {:?}", a.deals, a.warnings);
    }
}

#[allow(dead_code)]
fn phases(input: &StateInput) {
    use thirtyone_core::inference::Inference;
    use thirtyone_core::view::View;
    let view = View::from_input(input).expect("valid");
    let t = Instant::now();
    let inf = Inference::new(&view);
    println!("count: {:?} counts {:?}", t.elapsed(), inf.counts());
}
