//! The Oracle's functions: inputs extracted first, the work done with the interpreter released
//! (and Ctrl-C watched), results converted after.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use thirtyone_core::game::GameRules;
use thirtyone_core::inference::Inference;
use thirtyone_core::model::Model;
use thirtyone_core::oracle;
use thirtyone_core::oracle::settings::{DEFAULT_DEALS, DEFAULT_PLAYOUTS};
use thirtyone_core::view::View;
use thirtyone_core::Error;

use crate::answer::PyAnswer;
use crate::errors::{Cancelled, IntoPy};
use crate::settings::{self, Given};
use crate::state::PyOracleState;

/// A way to stop a query from another thread: `advise(state, cancel=c)`, then `c.cancel()`
/// from anywhere makes the query raise `Cancelled` within a tenth of a second (a query given a
/// `Cancel` already cancelled raises it at once). One `Cancel` may serve several queries (a
/// game's review): each is stopped.
#[pyclass(name = "Cancel", module = "thirtyone._core", frozen)]
pub struct PyCancel {
    flag: Arc<AtomicBool>,
}

#[pymethods]
impl PyCancel {
    #[new]
    fn new() -> Self {
        PyCancel {
            flag: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Stop the queries given this `Cancel` (those running and those to come).
    fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        format!(
            "Cancel(cancelled={})",
            if self.cancelled() { "True" } else { "False" }
        )
    }
}

/// The message of a query stopped by its `Cancel`.
const CANCELLED: &str = "the query was cancelled before it was answered";

/// Run `work` on its own thread with the interpreter released, checking for Ctrl-C meanwhile.
/// A panic inside becomes a RuntimeError; Ctrl-C sets `cancel` and re-raises KeyboardInterrupt;
/// `cancel` set from elsewhere (a `Cancel`) stops the work, which raises `Cancelled`.
fn run_detached<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> thirtyone_core::Result<T> + Send,
) -> PyResult<T> {
    if cancel.load(Ordering::Relaxed) {
        return Err(Cancelled::new_err(CANCELLED));
    }
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let handle = scope.spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(());
            out
        });
        let mut rx = rx;
        loop {
            let (back, done) = py.detach(move || {
                let done = rx.recv_timeout(Duration::from_millis(50)).is_ok();
                (rx, done)
            });
            rx = back;
            if done || handle.is_finished() {
                break;
            }
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
        }
        match py.detach(|| handle.join()) {
            Ok(Ok(Err(Error::Cancelled))) if cancel.load(Ordering::Relaxed) => {
                Err(Cancelled::new_err(CANCELLED))
            }
            Ok(Ok(result)) => result.py_err(),
            _ => Err(PyRuntimeError::new_err(
                "internal error in the Oracle (please report it with the state that caused it)",
            )),
        }
    })
}

/// Evaluate every option of the state's player. `state` is a checked `State`. Returns the
/// typed `Answer`: options (best first), tied, deals, deals_asked, playouts, attempts (the work
/// of the consistent deals, for checks), warnings, best_game, points, opponent_scores.
///
/// The settings are checked by the core against their bounds (SettingsError). `cancel`: a
/// `Cancel` whose `cancel()`, from another thread, stops the query (`Cancelled`).
#[pyfunction]
#[pyo3(
    signature = (state, deals=Given::Whole(DEFAULT_DEALS as i128), playouts=Given::Whole(DEFAULT_PLAYOUTS as i128), seed=Given::Whole(0), threads=None, max_time=None, target_margin=None, objective="round", cancel=None),
    text_signature = "(state, deals=10000, playouts=50000, seed=0, threads=None, max_time=None, target_margin=None, objective='round', cancel=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn advise<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyOracleState>,
    deals: Given,
    playouts: Given,
    seed: Given,
    threads: Option<Given>,
    max_time: Option<Given>,
    target_margin: Option<Given>,
    objective: &str,
    cancel: Option<&Bound<'py, PyCancel>>,
) -> PyResult<PyAnswer> {
    let mut settings = settings::settings(
        &deals,
        &playouts,
        &seed,
        threads.as_ref(),
        max_time.as_ref(),
        target_margin.as_ref(),
    )
    .py_err()?;
    settings.sweep_for_game = settings::game_objective(objective).py_err()?;
    if let Some(given) = cancel {
        settings.cancel = given.get().flag.clone();
    }
    let inner = &state.get().inner;
    let input = inner.round.clone();
    let game = inner.lives.clone().map(|lives| oracle::GameInput {
        rules: GameRules::of(&inner.rules),
        lives,
    });
    let models = inner.models.clone().unwrap_or_default();
    let cancel = settings.cancel.clone();
    let advice = run_detached(py, &cancel, || {
        oracle::advise_modelled(&input, &models, game.as_ref(), &settings)
    })?;

    Ok(PyAnswer::new(advice))
}

/// Check a state by replaying its round, without evaluating it; raises StateError naming the
/// problem. Returns the seats whose hidden cards are inferred.
#[pyfunction]
pub fn check_state(state: &Bound<'_, PyOracleState>) -> PyResult<Vec<u32>> {
    let view = View::from_input(&state.get().inner.round).py_err()?;
    Ok(view.opponents.iter().map(|o| u32::from(o.seat)).collect())
}

/// Up to `n` consistent deals for a state, for tests and scripts: each a dict with `hands`
/// (opponent seat -> three cards), `knock_at` (a modelled opponent's seat -> the score they knock
/// at in that deal) and `stock` (the unseen cards left), plus the warnings.
/// `n` is bounded like `deals`, `seed` and `threads` like the Oracle's (SettingsError).
#[pyfunction]
#[pyo3(
    signature = (state, n, seed=Given::Whole(0), threads=None),
    text_signature = "(state, n, seed=0, threads=None)"
)]
pub fn sample_deals<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyOracleState>,
    n: Given,
    seed: Given,
    threads: Option<Given>,
) -> PyResult<(Bound<'py, PyList>, Vec<u32>)> {
    let n = settings::count("n", &n).py_err()?;
    let (seed, threads) = settings::seed_and_threads(&seed, threads.as_ref()).py_err()?;
    let input = state.get().inner.round.clone();
    let models = state.get().inner.models.clone().unwrap_or_default();
    let cancel = Arc::new(AtomicBool::new(false));
    let c2 = cancel.clone();
    let (view, collected) = run_detached(py, &cancel, move || {
        let view = View::from_input(&input)?.with_models(&models);
        let runner = montecarlo::Runner::new(threads, None, c2.clone());
        let inference = runner.install(|| Inference::cancellable(&view, &c2, n));
        // The Oracle's own collection, with its bounds of work.
        let mut collected =
            montecarlo::collect(&inference, &oracle::deal_settings(n, seed), &runner);
        // Rare deals come importance-weighted and resampled, more of them in a random order:
        // the first `n` are as good a sample as any.
        collected.worlds.truncate(n);
        Ok((view, collected))
    })?;
    let out = PyList::empty(py);
    for deal in &collected.worlds {
        let d = PyDict::new(py);
        let hands = PyDict::new(py);
        for o in &view.opponents {
            let h: Vec<String> = deal.hands[o.seat as usize]
                .iter()
                .map(|c| c.to_string())
                .collect();
            hands.set_item(o.seat, h)?;
        }
        d.set_item("hands", hands)?;
        // A modelled opponent's knock score in this deal (the table's rule knocks at 27).
        let knock_at = PyDict::new(py);
        for o in view.opponents.iter().filter(|o| o.model != Model::Table) {
            knock_at.set_item(o.seat, deal.knock_at[o.seat as usize].points())?;
        }
        d.set_item("knock_at", knock_at)?;
        let stock: Vec<String> = deal.stock.iter().map(|c| c.to_string()).collect();
        d.set_item("stock", stock)?;
        out.append(d)?;
    }
    // (u32, not u8: a Vec<u8> would reach Python as bytes.)
    let fallback: Vec<u32> = collected
        .fallback_parts
        .iter()
        .map(|&i| u32::from(view.opponents[i].seat))
        .collect();
    Ok((out, fallback))
}
