//! The Python reference's playouts played by the engine, for the benchmark's reference ratio:
//! the same position, the same consistent deals (the Oracle's own collection, as
//! `thirtyone._core.sample_deals` returns them to the reference), the same option, you never
//! knocking, a fresh stock order each playout, on one thread:
//!
//! ```text
//! cargo build --profile profiling -p thirtyone-core --example same_playouts
//! target/profiling/examples/same_playouts < job.json
//! ```
//!
//! The input is `{"state": {...}, "option": "draw" | "discard:CARD", "deals": D, "deal_seed": S,
//! "playouts": P, "seed": S2}` (the state as in `oracle.md`, at the round level: no `lives`, no
//! `models`); the output, one line of JSON, is the seconds the playouts took (the deals and the
//! setting out of the program not included), the playouts, and the lives you lost in all, to
//! check against the reference's own playouts of the same deals.
//!
//! A query's playouts are not the reference's: each plays every knock score of the sweep from one
//! trajectory (a branch for each), and a take each of its put-downs. This plays exactly the
//! reference's work, with the code a query runs for its confirmation.

use std::error::Error;
use std::io::Read;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use montecarlo::rng::Streams;
use montecarlo::{Runner, Simulator};
use serde_json::{json, Value};
use thirtyone_core::inference::Inference;
use thirtyone_core::oracle::input::{from_json, Overrides};
use thirtyone_core::oracle::{deal_settings, knock_thresholds, Choice, Playouts};
use thirtyone_core::view::View;
use thirtyone_core::Card;

/// The purpose of the playouts' random streams (any constant: the stock orders are the
/// engine's own, not the reference's).
const PURPOSE: u64 = 0x5245_4650; // "REFP"

fn main() -> Result<(), Box<dyn Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let job: Value = serde_json::from_str(&text)?;
    let number = |k: &str| job[k].as_u64().ok_or(format!("{k}: a whole number"));
    let (n_deals, playouts) = (number("deals")? as usize, number("playouts")?);
    let state = from_json(job["state"].to_string().as_bytes(), &Overrides::default())?;
    let view = View::from_input(&state.round)?;
    let choice = match job["option"].as_str().ok_or("option: a string")? {
        "draw" => Choice::Draw,
        other => {
            let card = other
                .strip_prefix("discard:")
                .ok_or("option: draw or discard:CARD")?;
            Choice::Discard(card.parse::<Card>()?)
        }
    };
    // The deals as `sample_deals` collects them (the same deals on any number of threads).
    let cancel = Arc::new(AtomicBool::new(false));
    let runner = Runner::new(Some(1), None, cancel.clone());
    let inference = runner.install(|| Inference::cancellable(&view, &cancel, n_deals));
    let settings = deal_settings(n_deals, number("deal_seed")?);
    let mut collected = montecarlo::collect(&inference, &settings, &runner);
    collected.worlds.truncate(n_deals);
    let sim = Playouts::new(&view, knock_thresholds(&view));
    let kept: Vec<_> = collected.worlds.iter().map(|w| sim.keep(w)).collect();
    if kept.is_empty() {
        return Err("no consistent deal".into());
    }
    // The last policy of a variant is "never knock".
    let never = sim.per_variant(&choice) - 1;
    let streams = Streams::new(number("seed")?, PURPOSE);
    let mut last = None;
    let mut lost = 0u64;
    let start = Instant::now();
    for i in 0..playouts {
        let dealt = sim.start(&kept[i as usize % kept.len()], &mut last);
        let mut rng = streams.stream(i);
        lost += u64::from(sim.playout_policy(dealt, &choice, never, &mut rng).cost);
    }
    let seconds = start.elapsed().as_secs_f64();
    let out = json!({"seconds": seconds, "playouts": playouts, "lives_lost": lost});
    println!("{out}");
    Ok(())
}
