//! The Oracle's answer as typed, read-only records: the core's `Advice` and each of its
//! `OptionReport`s behind getters, converted to Python values when read.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::oracle::{Advice, OptionKind, OptionReport};
use thirtyone_core::Score;

fn points(s: Option<Score>) -> Option<f64> {
    s.map(|s| s.points())
}

/// One option's figures (best first in `Answer.options`).
#[pyclass(frozen, module = "thirtyone._core", name = "OptionRecord")]
pub struct PyOptionRecord {
    inner: OptionReport,
}

#[pymethods]
impl PyOptionRecord {
    /// `knock`, `draw`, `take`, `discard` (a put-down after a draw or take) or `decline`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner.kind {
            OptionKind::Knock => "knock",
            OptionKind::Draw => "draw",
            OptionKind::Take { .. } => "take",
            OptionKind::Discard { .. } => "discard",
            OptionKind::Decline => "decline",
        }
    }

    /// The card a take takes.
    #[getter]
    fn card(&self) -> Option<String> {
        match self.inner.kind {
            OptionKind::Take { card, .. } => Some(card.to_string()),
            _ => None,
        }
    }

    /// The card a take or a put-down puts down.
    #[getter]
    fn discard(&self) -> Option<String> {
        match self.inner.kind {
            OptionKind::Take { discard, .. } => Some(discard.to_string()),
            OptionKind::Discard { card } => Some(card.to_string()),
            _ => None,
        }
    }

    #[getter]
    fn p_safe(&self) -> f64 {
        self.inner.p_safe
    }

    #[getter]
    fn margin(&self) -> f64 {
        self.inner.margin
    }

    #[getter]
    fn lives_lost(&self) -> f64 {
        self.inner.lives_lost
    }

    #[getter]
    fn lives_lost_margin(&self) -> f64 {
        self.inner.lives_lost_margin
    }

    /// Whether the option was swept over later knock scores.
    #[getter]
    fn swept(&self) -> bool {
        self.inner.knock_at.is_some()
    }

    /// The later knock score that did best (None: never, or not swept).
    #[getter]
    fn knock_at(&self) -> Option<f64> {
        self.inner.knock_at.and_then(points)
    }

    #[getter]
    fn playouts(&self) -> u64 {
        self.inner.playouts
    }

    #[getter]
    fn p_win(&self) -> Option<f64> {
        self.inner.p_win
    }

    #[getter]
    fn p_win_margin(&self) -> Option<f64> {
        self.inner.p_win_margin
    }

    /// The score of the hand the option keeps (None for a draw or a decline).
    #[getter]
    fn keeps(&self) -> Option<f64> {
        points(self.inner.keeps)
    }

    /// A draw while you hold a 31 kept hidden: its put-down keeps the 31 and shows it.
    #[getter]
    fn shows_hidden_31(&self) -> bool {
        self.inner.shows_hidden_31
    }

    /// The sweep: every knock score tried (NaN: never), with its `p_safe` and lives lost.
    #[getter]
    #[allow(clippy::type_complexity)]
    fn sweep<'py>(
        &self,
        py: Python<'py>,
    ) -> Option<(
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<f64>>,
    )> {
        self.inner.sweep.as_ref().map(|s| {
            let knock_at: Vec<f64> = s
                .knock_at
                .iter()
                .map(|k| points(*k).unwrap_or(f64::NAN))
                .collect();
            (
                knock_at.into_pyarray(py),
                s.p_safe.clone().into_pyarray(py),
                s.lives_lost.clone().into_pyarray(py),
            )
        })
    }
}

/// The Oracle's answer: the options best first, the ties, the work behind it, the warnings, the
/// game-level best, and the read of each opponent.
#[pyclass(frozen, module = "thirtyone._core", name = "Answer")]
pub struct PyAnswer {
    inner: Advice,
}

impl PyAnswer {
    pub fn new(inner: Advice) -> Self {
        PyAnswer { inner }
    }
}

#[pymethods]
impl PyAnswer {
    #[getter]
    fn options(&self) -> Vec<PyOptionRecord> {
        let options = self.inner.options.iter().cloned();
        options.map(|inner| PyOptionRecord { inner }).collect()
    }

    /// The options (indices into `options`) statistically tied with the best.
    #[getter]
    fn tied(&self) -> Vec<usize> {
        self.inner.tied.clone()
    }

    #[getter]
    fn deals(&self) -> usize {
        self.inner.deals
    }

    #[getter]
    fn deals_asked(&self) -> usize {
        self.inner.deals_asked
    }

    #[getter]
    fn playouts(&self) -> usize {
        self.inner.playouts
    }

    /// The work of the consistent deals (bounded by the settings).
    #[getter]
    fn attempts(&self) -> u64 {
        self.inner.attempts
    }

    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.clone()
    }

    /// With the lives known: the option (index into `options`) with the highest `p_win`.
    #[getter]
    fn best_game(&self) -> Option<usize> {
        self.inner.best_game
    }

    /// The game-level figure is expected points (ranked placing), not a chance of winning.
    #[getter]
    fn points(&self) -> bool {
        self.inner.points
    }

    /// Each opponent's seat with the score of their hand in every deal the figures rest on.
    #[getter]
    fn opponent_scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let reads = PyDict::new(py);
        for (seat, scores) in &self.inner.opponent_scores {
            let points: Vec<f64> = scores.iter().map(|s| s.points()).collect();
            reads.set_item(seat, points.into_pyarray(py))?;
        }
        Ok(reads)
    }

    /// Each modelled opponent's seat (a person, the expert) with the score they knock at in
    /// every deal the figures rest on.
    #[getter]
    fn opponent_knocks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let knocks = PyDict::new(py);
        for (seat, scores) in &self.inner.opponent_knocks {
            let points: Vec<f64> = scores.iter().map(|s| s.points()).collect();
            knocks.set_item(seat, points.into_pyarray(py))?;
        }
        Ok(knocks)
    }
}
