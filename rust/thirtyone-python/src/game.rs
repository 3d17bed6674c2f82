//! The game around the rounds: settling a round, the game-value table and whole games played
//! out (the table's independent check).

use std::ffi::CString;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::game::game_value::{GameValue, Unavailable};
use thirtyone_core::game::knock_atlas as atlas;
use thirtyone_core::game::{check_lives, play_games as play, settle as settle_round, GameRules};
use thirtyone_core::oracle::input::Overrides;
use thirtyone_core::{Error, MAX_SEATS};

use crate::errors::IntoPy;
use crate::rules::rule_set;
use crate::settings::{self, Given};

fn lives_of(lives: &[i64], what: &str) -> PyResult<Vec<i16>> {
    lives
        .iter()
        .map(|&l| {
            i16::try_from(l)
                .map_err(|_| Error::BadState(format!("{what}: {l} lives is out of range")))
        })
        .collect::<Result<_, _>>()
        .py_err()
}

/// Settle a round into the game: `lives` before it, `losses` and `scores` (what each hand
/// counted) per seat of the round, `first` the seat that played first. Returns (wash, lives
/// after, the seats going out with the lowest place first).
#[pyfunction]
#[pyo3(signature = (lives, losses, scores, first, county=false))]
pub fn settle(
    lives: Vec<i64>,
    losses: Vec<u8>,
    scores: Vec<f64>,
    first: u8,
    county: bool,
) -> PyResult<(bool, Vec<i64>, Vec<u32>)> {
    let n = lives.len();
    if !(2..=MAX_SEATS).contains(&n) || losses.len() != n || scores.len() != n {
        return Err(Error::BadState(format!(
            "settle needs lives, losses and scores for the same 2 to 9 seats, not {}, {} and {}",
            n,
            losses.len(),
            scores.len()
        )))
        .py_err();
    }
    if usize::from(first) >= n {
        return Err(Error::BadState(format!(
            "first seat {first} is not one of the {n} seats"
        )))
        .py_err();
    }
    let rules = GameRules {
        county,
        placing: Default::default(),
    };
    let s = settle_round(&rules, &lives_of(&lives, "lives")?, &losses, &scores, first);
    Ok((
        s.wash,
        s.lives.into_iter().map(i64::from).collect(),
        s.out.into_iter().map(u32::from).collect(),
    ))
}

fn game_setup(
    rules: Option<&Bound<'_, PyAny>>,
    lives: &[i64],
    dealer: usize,
) -> PyResult<(thirtyone_core::rules::RuleSet, Vec<u8>)> {
    let t = rule_set(rules, &Overrides::default())?;
    let n = u8::try_from(lives.len()).unwrap_or(u8::MAX);
    if !(2..=MAX_SEATS as u8).contains(&n) {
        return Err(Error::BadState(format!(
            "a game needs 2 to 9 seats in, not {n}"
        )))
        .py_err();
    }
    let given: Vec<i128> = lives.iter().map(|&l| i128::from(l)).collect();
    let lives = check_lives(&t, &given, n).py_err()?;
    if dealer >= lives.len() {
        return Err(Error::BadState(format!(
            "dealer {dealer} is not one of the {n} seats"
        )))
        .py_err();
    }
    Ok((t, lives))
}

/// The chance that seat `me` wins the game (under ranked placing: the points it can expect)
/// from `lives` (every seat in) with `dealer` dealing next, every round played by the table's
/// rule: the game-value table. A file of round results that could not be used (ignored and
/// made again) is reported as a `RuntimeWarning`.
#[pyfunction]
#[pyo3(signature = (rules, lives, me, dealer, threads=None))]
pub fn game_value(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    lives: Vec<i64>,
    me: usize,
    dealer: usize,
    threads: Option<Given>,
) -> PyResult<f64> {
    let (t, lives) = game_setup(rules, &lives, dealer)?;
    if me >= lives.len() {
        return Err(Error::BadState(format!("me {me} is not one of the seats"))).py_err();
    }
    let (_, threads) = settings::seed_and_threads(&Given::Whole(0), threads.as_ref()).py_err()?;
    let runner = montecarlo::Runner::simple(threads);
    let value = py.detach(|| {
        let first = (dealer + 1) % lives.len();
        let mut prepared =
            GameValue::prepare(&t.round, GameRules::of(&t), &lives, (me, first), &runner)?;
        let notes = prepared.take_notes();
        prepared.solve(&runner, None).map(|g| (g.now(), notes))
    });
    let (value, notes) = value
        .map_err(|why| match why {
            Unavailable::TooLarge(work) => Error::BadSetting(format!(
                "the game's table would take about {work} steps: too many lives to compute"
            )),
            Unavailable::Stopped | Unavailable::Time => Error::Cancelled,
        })
        .py_err()?;
    let category = py.get_type::<PyRuntimeWarning>();
    for note in notes {
        let text = CString::new(note.replace('\0', " ")).unwrap_or_default();
        PyErr::warn(py, category.as_any(), &text, 1)?;
    }
    Ok(value)
}

/// Play `games` whole games by the table's rule from `lives` with `dealer` dealing first;
/// each seat's total points (wins when the winner takes all). `games` is bounded like `deals`.
#[pyfunction]
#[pyo3(
    signature = (rules, lives, dealer, games, seed=Given::Whole(0), threads=None),
    text_signature = "(rules, lives, dealer, games, seed=0, threads=None)"
)]
pub fn play_games(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    lives: Vec<i64>,
    dealer: usize,
    games: Given,
    seed: Given,
    threads: Option<Given>,
) -> PyResult<Vec<u64>> {
    let (t, lives) = game_setup(rules, &lives, dealer)?;
    let games = settings::count("games", &games).py_err()?;
    let (seed, threads) = settings::seed_and_threads(&seed, threads.as_ref()).py_err()?;
    let runner = montecarlo::Runner::new(threads, None, Arc::new(AtomicBool::new(false)));
    Ok(py.detach(|| {
        play(
            &t.round,
            GameRules::of(&t),
            &lives,
            dealer,
            games,
            seed,
            &runner,
        )
    }))
}

/// Read the simulated distributions of a round's results from `folders`, and write new ones to
/// the first (empty: in memory only). Each file is checked before it is used; one that fails is
/// ignored, reported (the answer's warnings) and made again over it in the first folder.
#[pyfunction]
pub fn set_cache_folders(folders: Vec<std::path::PathBuf>) {
    thirtyone_core::game::round_outcomes::set_folders(folders);
}

/// The knock atlas's counts (`thirtyone_core::game::knock_atlas`) of rounds `start` to
/// `start + rounds - 1` at a table of `seats` players: one list per figure (`n`, `knock_safe`,
/// `wait_safe`, `knock_lost`, `wait_lost`, `knock_win`, `wait_win`, `knock_win2`, `wait_win2`),
/// each of `seats * laps * scores` numbers by (position, lap, score in half points), and
/// `laps`, `scores`, and `values` (whether the chances of winning the game were counted: the
/// game-value table at the table's lives is within bounds). `rounds` is bounded like `deals`.
#[pyfunction]
#[pyo3(
    signature = (rules, seats, start, rounds, seed=Given::Whole(0), threads=None),
    text_signature = "(rules, seats, start, rounds, seed=0, threads=None)"
)]
pub fn knock_atlas(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
    seats: usize,
    start: u64,
    rounds: Given,
    seed: Given,
    threads: Option<Given>,
) -> PyResult<Py<PyDict>> {
    let t = rule_set(rules, &Overrides::default())?;
    if !(2..=MAX_SEATS).contains(&seats) {
        return Err(Error::BadState(format!(
            "the atlas needs 2 to {MAX_SEATS} seats, not {seats}"
        )))
        .py_err();
    }
    let rounds = settings::count("rounds", &rounds).py_err()?;
    let start = usize::try_from(start)
        .ok()
        .filter(|s| s.checked_add(rounds).is_some_and(|e| e <= 1 << 48))
        .ok_or_else(|| Error::BadSetting(format!("start {start} is out of range")))
        .py_err()?;
    let (seed, threads) = settings::seed_and_threads(&seed, threads.as_ref()).py_err()?;
    let runner = montecarlo::Runner::new(threads, None, Arc::new(AtomicBool::new(false)));
    let cells = py.detach(|| {
        let lives = vec![t.lives; seats];
        let values: Option<Vec<GameValue>> = (0..seats)
            .map(|me| GameValue::new(&t.round, GameRules::of(&t), &lives, (me, 0), &runner, None))
            .collect::<Result<_, _>>()
            .ok();
        let cells = atlas::knock_atlas(
            &t.round,
            seats as u8,
            start..start + rounds,
            seed,
            values.as_deref(),
            &runner,
        );
        cells.map(|c| (c, values.is_some()))
    });
    let (cells, valued) = cells.ok_or(Error::Cancelled).py_err()?;
    let used = seats * atlas::LAPS * atlas::SCORES;
    let out = PyDict::new(py);
    out.set_item("laps", atlas::LAPS)?;
    out.set_item("scores", atlas::SCORES)?;
    out.set_item("values", valued)?;
    let cells = &cells[..used];
    let whole = |f: fn(&atlas::Cell) -> u64| cells.iter().map(f).collect::<Vec<u64>>();
    let real = |f: fn(&atlas::Cell) -> f64| cells.iter().map(f).collect::<Vec<f64>>();
    out.set_item("n", whole(|c| c.n))?;
    out.set_item("knock_safe", whole(|c| c.knock_safe))?;
    out.set_item("wait_safe", whole(|c| c.wait_safe))?;
    out.set_item("knock_lost", whole(|c| c.knock_lost))?;
    out.set_item("wait_lost", whole(|c| c.wait_lost))?;
    out.set_item("knock_win", real(|c| c.knock_win))?;
    out.set_item("wait_win", real(|c| c.wait_win))?;
    out.set_item("knock_win2", real(|c| c.knock_win2))?;
    out.set_item("wait_win2", real(|c| c.wait_win2))?;
    Ok(out.unbind())
}
