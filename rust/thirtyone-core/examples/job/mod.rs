//! What the benchmark's examples share: the job they read from standard input
//! (`{"deals", "playouts", "seed", "threads", "positions": {name: state}}`, states as in
//! `oracle.md`) and one position's query, asked as `thirtyone.advise` asks it (a state with
//! `lives` at the game level, its `models` honoured).

use std::error::Error;
use std::io::Read;

use serde_json::Value;
use thirtyone_core::game::GameRules;
use thirtyone_core::oracle::input::{from_json, Overrides};
use thirtyone_core::oracle::{advise_modelled, GameInput, Settings};

/// The settings of a job and its positions, by name.
pub struct Job {
    pub settings: Settings,
    pub positions: Vec<(String, Value)>,
}

/// The job on standard input; `threads` replaces its threads when given.
pub fn read(threads: Option<usize>) -> Result<Job, Box<dyn Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let doc: Value = serde_json::from_str(&text)?;
    let number = |k: &str| doc[k].as_u64().ok_or(format!("{k}: a whole number"));
    let settings = Settings {
        deals: number("deals")? as usize,
        playouts: number("playouts")? as usize,
        seed: number("seed")?,
        threads: Some(threads.unwrap_or(number("threads")? as usize)),
        max_time: None,
        ..Settings::default()
    };
    let positions = doc["positions"].as_object().ok_or("positions: an object")?;
    Ok(Job {
        settings,
        positions: positions
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}

/// Ask the Oracle about one position; the playouts it ran (a sweep's confirmation counted).
pub fn ask(state: &Value, settings: &Settings) -> Result<u64, Box<dyn Error>> {
    let state = from_json(state.to_string().as_bytes(), &Overrides::default())?;
    let game = state.lives.clone().map(|lives| GameInput {
        rules: GameRules::of(&state.rules),
        lives,
    });
    let advice = advise_modelled(
        &state.round,
        state.models.as_deref().unwrap_or_default(),
        game.as_ref(),
        settings,
    )?;
    Ok(advice
        .options
        .iter()
        .map(|o| o.playouts * if o.sweep.is_some() { 2 } else { 1 })
        .sum())
}
