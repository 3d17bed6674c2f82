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

use montecarlo::Runner;
use serde_json::json;
use thirtyone_core::round::turn_count;

mod job;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let job = job::read(None)?;
    let runner = Runner::simple(job.settings.threads);
    let mut out = BTreeMap::new();
    for (name, state) in &job.positions {
        let taken = || -> u64 {
            turn_count::take()
                + runner.install(|| rayon::broadcast(|_| turn_count::take()).iter().sum::<u64>())
        };
        taken();
        let playouts = job::ask(state, &job.settings)?;
        out.insert(
            name.clone(),
            json!({"turns": taken(), "playouts": playouts}),
        );
    }
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
