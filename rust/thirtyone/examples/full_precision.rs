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
    for threads in [1, 2] {
        let t = Instant::now();
        let a = advise(
            &input,
            &Settings {
                threads: Some(threads),
                seed: 1,
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
