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

use serde_json::json;

mod job;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // One thread, whatever the job says.
    let job = job::read(Some(1))?;
    let mut out = BTreeMap::new();
    for (name, state) in &job.positions {
        let playouts = job::ask(state, &job.settings)?;
        out.insert(name.clone(), json!({"playouts": playouts}));
    }
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}
