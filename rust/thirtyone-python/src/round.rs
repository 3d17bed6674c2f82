//! `thirtyone._core.Round`: one round of play, for the Python game loop.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::{Card, End, Error, Phase, Round, Score};

use crate::actions::{PyAction, PyTurnRecord};
use crate::convert::{card, points, round_rules, threshold};
use crate::errors::{to_py, IntoPy};

#[pyclass(module = "thirtyone._core", name = "Round")]
#[derive(Clone)]
pub struct PyRound {
    inner: Round,
}

fn texts(cs: &[Card]) -> Vec<String> {
    cs.iter().map(Card::to_string).collect()
}

impl PyRound {
    fn seat(&self, seat: u8) -> PyResult<u8> {
        if seat < self.inner.seats() {
            Ok(seat)
        } else {
            Err(to_py(Error::BadState(format!(
                "seat {seat} is not one of the {} seats",
                self.inner.seats()
            ))))
        }
    }
}

#[pymethods]
impl PyRound {
    /// Deal a round from a shuffled pack of 52 card texts; `first` plays first (the dealer's left).
    #[new]
    #[pyo3(signature = (rules, seats, first, deck))]
    fn new(
        rules: Option<&Bound<'_, PyDict>>,
        seats: u8,
        first: u8,
        deck: Vec<String>,
    ) -> PyResult<Self> {
        let rules = round_rules(rules)?;
        let deck: Vec<Card> = deck.iter().map(|t| card(t)).collect::<PyResult<_>>()?;
        Ok(PyRound {
            inner: Round::deal(rules, seats, first, &deck).py_err()?,
        })
    }

    #[getter]
    fn seats(&self) -> u8 {
        self.inner.seats()
    }
    #[getter]
    fn first(&self) -> u8 {
        self.inner.first()
    }
    #[getter]
    fn to_move(&self) -> u8 {
        self.inner.to_move()
    }
    /// The top card of the discard pile.
    #[getter]
    fn top(&self) -> String {
        self.inner.top().to_string()
    }
    /// The seat that put the top discard down (None for the upcard).
    #[getter]
    fn top_by(&self) -> Option<u8> {
        self.inner.top_by()
    }
    #[getter]
    fn stock_len(&self) -> u8 {
        self.inner.stock_len()
    }
    #[getter]
    fn knocker(&self) -> Option<u8> {
        self.inner.knocker()
    }
    #[getter]
    fn turns_played(&self) -> u16 {
        self.inner.turns_played()
    }
    /// "blind" (blind table, nobody has looked yet), "start", "put_down" or "over".
    #[getter]
    fn phase(&self) -> &'static str {
        match self.inner.phase() {
            Phase::Blind => "blind",
            Phase::Start => "start",
            Phase::PutDown { .. } => "put_down",
            Phase::Over(_) => "over",
        }
    }
    /// During a put-down: (the new card, "stock" or "pile").
    #[getter]
    fn pending(&self) -> Option<(String, &'static str)> {
        match self.inner.phase() {
            Phase::PutDown { new, from_pile } => {
                Some((new.to_string(), if from_pile { "pile" } else { "stock" }))
            }
            _ => None,
        }
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// How the round ended: None while it is on, else (kind, seat) with kind one of
    /// "dealt_31", "thirty_one", "showdown", "stock_out", "blind" (seat: who showed 31, declined
    /// or called the blind showdown).
    #[getter]
    fn end(&self) -> Option<(&'static str, Option<u8>)> {
        self.inner.end().map(|e| match e {
            End::Dealt31 => ("dealt_31", None),
            End::ThirtyOne { seat } => ("thirty_one", Some(seat)),
            End::Showdown => ("showdown", None),
            End::StockOut { seat } => ("stock_out", Some(seat)),
            End::Blind { caller } => ("blind", Some(caller)),
        })
    }

    fn hand(&self, seat: u8) -> PyResult<Vec<String>> {
        Ok(texts(&self.inner.hand(self.seat(seat)?)))
    }
    fn score(&self, seat: u8) -> PyResult<f64> {
        Ok(points(self.inner.score(self.seat(seat)?)))
    }
    fn showed_31(&self, seat: u8) -> PyResult<bool> {
        Ok(self.inner.showed_31(self.seat(seat)?))
    }
    /// Whether the seat holds a 31 it kept hidden (`may_hide_31`).
    fn hid_31(&self, seat: u8) -> PyResult<bool> {
        Ok(self.inner.hid_31(self.seat(seat)?))
    }
    /// What the seat's hand counts at a showdown: its score, or 30 for a hidden 31.
    fn counted_score(&self, seat: u8) -> PyResult<f64> {
        Ok(points(self.inner.counted_score(self.seat(seat)?)))
    }
    fn may_knock(&self) -> bool {
        self.inner.may_knock()
    }
    fn may_take(&self) -> bool {
        self.inner.may_take()
    }
    /// The legal actions now.
    fn legal_actions(&self) -> Vec<PyAction> {
        self.inner
            .legal_actions()
            .into_iter()
            .map(|inner| PyAction { inner })
            .collect()
    }

    /// Why the player to move may not take `action` now, in the rules' words; None when they
    /// may.
    fn why_not(&self, action: &PyAction) -> Option<String> {
        self.inner.refuse(action.inner)
    }

    /// Apply one action of the player to move (refused with the reason when the rules do not
    /// allow it).
    fn apply(&mut self, action: &PyAction) -> PyResult<()> {
        self.inner.apply(action.inner).py_err()
    }

    /// Play the whole turn of the player to move by the table's decision rule, knocking from
    /// `knock_at` points (None: never; the table's own is `TABLE_KNOCK_AT`). At a blind table
    /// the rule first looks: it never calls the blind showdown.
    fn play_rule_turn(&mut self, knock_at: Option<f64>) -> PyResult<PyTurnRecord> {
        if !matches!(self.inner.phase(), Phase::Start | Phase::Blind) {
            return Err(to_py(Error::IllegalAction(
                "a rule turn starts at the start of a turn".into(),
            )));
        }
        let knock_at = match knock_at {
            Some(k) => threshold("knock_at", k)?,
            None => Score::NEVER,
        };
        Ok(PyTurnRecord {
            inner: self.inner.play_rule_turn(knock_at),
        })
    }

    /// Lives each seat loses this round (zeros while the round is on), as a list of ints
    /// (a `Vec<u8>` would reach Python as `bytes`).
    fn losses(&self) -> Vec<u32> {
        self.inner.losses()[..self.inner.seats() as usize]
            .iter()
            .map(|&l| u32::from(l))
            .collect()
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Round(seats={}, to_move={}, phase={}, top={})",
            self.inner.seats(),
            self.inner.to_move(),
            self.phase(),
            self.inner.top()
        )
    }
}
