//! The Oracle's queries on one thread, for valgrind's host-independent figures (instructions
//! per table-rule turn under callgrind, last-level misses per turn under cachegrind):
//!
//! ```text
//! cargo build --profile profiling -p thirtyone-core --example hot_path
//! valgrind --tool=cachegrind --cache-sim=yes --LL=524288,8,64 \
//!     target/profiling/examples/hot_path < job.json
//! ```
//!
//! The input is `count_turns`'s (`{"deals", "playouts", "seed", "threads", "positions"}`; the
//! threads are ignored: one; a position's `lives` and `models` are honoured, as `thirtyone.advise`
//! honours them); the output, one line of JSON, gives each position's playouts. It
//! counts nothing (the shipped build's code): `benches/bench_valgrind.py` runs it at two
//! playout counts and divides the difference by the difference of the turns `count_turns`
//! counted, so that the start, the tables' building and the deals cancel out.

use std::collections::BTreeMap;
use std::io::Read;

use serde_json::{json, Value};
use thirtyone_core::game::GameRules;
use thirtyone_core::oracle::input::{from_json, Overrides};
use thirtyone_core::oracle::{advise_modelled, GameInput, Settings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let doc: Value = serde_json::from_str(&text)?;
    let number = |k: &str| doc[k].as_u64().ok_or(format!("{k}: a whole number"));
    let settings = Settings {
        deals: number("deals")? as usize,
        playouts: number("playouts")? as usize,
        seed: number("seed")?,
        threads: Some(1),
        max_time: None,
        ..Settings::default()
    };
    let mut out = BTreeMap::new();
    let positions = doc["positions"].as_object().ok_or("positions: an object")?;
    for (name, state) in positions {
        let state = from_json(state.to_string().as_bytes(), &Overrides::default())?;
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
        out.insert(name.clone(), json!({"playouts": playouts}));
    }
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
