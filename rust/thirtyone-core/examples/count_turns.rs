//! The table-rule turns the Oracle's playouts play, counted by the engine (a counting build):
//!
//! ```text
//! cargo run --profile profiling -p thirtyone-core --features count-turns --example count_turns \
//!     < positions.json
//! ```
//!
//! The input is `{"deals": D, "playouts": P, "seed": S, "threads": T, "positions": {name: state}}`
//! (states as in `oracle.md`; one with `lives` is asked at the game level); the output, one line
//! of JSON, gives each position's turns and the playouts run. The counts depend only on the seed
//! (not on the threads nor the machine), so they pair with times measured on the shipped build
//! with the same settings.

use std::collections::BTreeMap;
use std::io::Read;

use montecarlo::Runner;
use serde_json::{json, Value};
use thirtyone_core::game::GameRules;
use thirtyone_core::oracle::input::{from_json, Overrides};
use thirtyone_core::oracle::{advise_modelled, GameInput, Settings};
use thirtyone_core::round::turn_count;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let doc: Value = serde_json::from_str(&text)?;
    let number = |k: &str| doc[k].as_u64().ok_or(format!("{k}: a whole number"));
    let settings = Settings {
        deals: number("deals")? as usize,
        playouts: number("playouts")? as usize,
        seed: number("seed")?,
        threads: Some(number("threads")? as usize),
        max_time: None,
        ..Settings::default()
    };
    let runner = Runner::simple(settings.threads);
    let mut out = BTreeMap::new();
    let positions = doc["positions"].as_object().ok_or("positions: an object")?;
    for (name, state) in positions {
        let state = from_json(state.to_string().as_bytes(), &Overrides::default())?;
        let taken = || -> u64 {
            turn_count::take()
                + runner.install(|| rayon::broadcast(|_| turn_count::take()).iter().sum::<u64>())
        };
        taken();
        // A state with `lives` is asked at the game level, as `thirtyone.advise` asks it.
        let game = state.lives.clone().map(|lives| GameInput {
            rules: GameRules::of(&state.rules),
            lives,
        });
        let advice = advise_modelled(
            &state.round,
            state.models.as_deref().unwrap_or_default(),
            game.as_ref(),
            &settings,
        )?;
        let playouts: u64 = advice
            .options
            .iter()
            .map(|o| o.playouts * if o.sweep.is_some() { 2 } else { 1 })
            .sum();
        out.insert(
            name.clone(),
            json!({"turns": taken(), "playouts": playouts}),
        );
    }
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
