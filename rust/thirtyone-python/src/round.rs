//! `thirtyone._core.Round`: one round of play, for the Python game loop.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::view::TurnInput;
use thirtyone_core::{Card, End, Error, Phase, Round, RoundRecord, Score, Source};

use crate::actions::{PyAction, PyPlayedTurn};
use crate::convert::{card, points, round_rules, threshold};
use crate::errors::{to_py, IntoPy};

#[pyclass(module = "thirtyone._core", name = "Round")]
#[derive(Clone)]
pub struct PyRound {
    inner: RoundRecord,
}

fn texts(cs: &[Card]) -> Vec<String> {
    cs.iter().map(Card::to_string).collect()
}

impl PyRound {
    fn round(&self) -> &Round {
        self.inner.round()
    }

    fn seat(&self, seat: u8) -> PyResult<u8> {
        if seat < self.round().seats() {
            Ok(seat)
        } else {
            Err(to_py(Error::BadState(format!(
                "seat {seat} is not one of the {} seats",
                self.round().seats()
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
            inner: RoundRecord::deal(rules, seats, first, &deck).py_err()?,
        })
    }

    #[getter]
    fn seats(&self) -> u8 {
        self.round().seats()
    }
    #[getter]
    fn first(&self) -> u8 {
        self.round().first()
    }
    #[getter]
    fn to_move(&self) -> u8 {
        self.round().to_move()
    }
    /// The top card of the discard pile.
    #[getter]
    fn top(&self) -> String {
        self.round().top().to_string()
    }
    /// The seat that put the top discard down (None for the upcard).
    #[getter]
    fn top_by(&self) -> Option<u8> {
        self.round().top_by()
    }
    #[getter]
    fn stock_len(&self) -> u8 {
        self.round().stock_len()
    }
    #[getter]
    fn knocker(&self) -> Option<u8> {
        self.round().knocker()
    }
    #[getter]
    fn turns_played(&self) -> u16 {
        self.round().turns_played()
    }
    /// "blind" (blind table, nobody has looked yet), "start", "put_down" or "over".
    #[getter]
    fn phase(&self) -> &'static str {
        match self.round().phase() {
            Phase::Blind => "blind",
            Phase::Start => "start",
            Phase::PutDown { .. } => "put_down",
            Phase::Over(_) => "over",
        }
    }
    /// During a put-down: (the new card, "stock" or "pile").
    #[getter]
    fn pending(&self) -> Option<(String, &'static str)> {
        match self.round().phase() {
            Phase::PutDown { new, from_pile } => {
                Some((new.to_string(), if from_pile { "pile" } else { "stock" }))
            }
            _ => None,
        }
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.round().is_over()
    }
    /// How the round ended: None while it is on, else (kind, seat) with kind one of
    /// "dealt_31", "thirty_one", "showdown", "stock_out", "blind" (seat: who showed 31, declined
    /// or called the blind showdown).
    #[getter]
    fn end(&self) -> Option<(&'static str, Option<u8>)> {
        self.round().end().map(|e| match e {
            End::Dealt31 => ("dealt_31", None),
            End::ThirtyOne { seat } => ("thirty_one", Some(seat)),
            End::Showdown => ("showdown", None),
            End::StockOut { seat } => ("stock_out", Some(seat)),
            End::Blind { caller } => ("blind", Some(caller)),
        })
    }

    fn hand(&self, seat: u8) -> PyResult<Vec<String>> {
        Ok(texts(&self.round().hand(self.seat(seat)?)))
    }
    fn score(&self, seat: u8) -> PyResult<f64> {
        Ok(points(self.round().score(self.seat(seat)?)))
    }
    fn showed_31(&self, seat: u8) -> PyResult<bool> {
        Ok(self.round().showed_31(self.seat(seat)?))
    }
    /// Whether the seat holds a 31 it kept hidden (`may_hide_31`).
    fn hid_31(&self, seat: u8) -> PyResult<bool> {
        Ok(self.round().hid_31(self.seat(seat)?))
    }
    /// What the seat's hand counts at a showdown: its score, or 30 for a hidden 31.
    fn counted_score(&self, seat: u8) -> PyResult<f64> {
        Ok(points(self.round().counted_score(self.seat(seat)?)))
    }
    fn may_knock(&self) -> bool {
        self.round().may_knock()
    }
    fn may_take(&self) -> bool {
        self.round().may_take()
    }
    /// The legal actions now.
    fn legal_actions(&self) -> Vec<PyAction> {
        self.round()
            .legal_actions()
            .into_iter()
            .map(|inner| PyAction { inner })
            .collect()
    }

    /// Why the player to move may not take `action` now, in the rules' words; None when they
    /// may.
    fn why_not(&self, action: &PyAction) -> Option<String> {
        self.round().refuse(action.inner)
    }

    /// Apply one action of the player to move (refused with the reason when the rules do not
    /// allow it).
    fn apply(&mut self, action: &PyAction) -> PyResult<()> {
        self.inner.apply(action.inner).py_err()
    }

    /// Play the whole turn of the player to move by the table's decision rule, knocking from
    /// `knock_at` points (None: never; the table's own is `TABLE_KNOCK_AT`). At a blind table
    /// the rule first looks: it never calls the blind showdown (None: looking found a dealt 31,
    /// which ended the round before any turn).
    fn play_rule_turn(&mut self, knock_at: Option<f64>) -> PyResult<Option<PyPlayedTurn>> {
        if !matches!(self.round().phase(), Phase::Start | Phase::Blind) {
            return Err(to_py(Error::IllegalAction(
                "a rule turn starts at the start of a turn".into(),
            )));
        }
        let knock_at = match knock_at {
            Some(k) => threshold("knock_at", k)?,
            None => Score::NEVER,
        };
        Ok(self
            .inner
            .play_rule_turn(knock_at)
            .map(|inner| PyPlayedTurn { inner }))
    }

    /// Lives each seat loses this round (zeros while the round is on), as a list of ints
    /// (a `Vec<u8>` would reach Python as `bytes`).
    fn losses(&self) -> Vec<u32> {
        self.round().losses()[..self.round().seats() as usize]
            .iter()
            .map(|&l| u32::from(l))
            .collect()
    }

    /// The whole turns played so far, in order (a turn under way is not among them).
    #[getter]
    fn turns(&self) -> Vec<PyPlayedTurn> {
        self.inner
            .turns()
            .iter()
            .map(|&inner| PyPlayedTurn { inner })
            .collect()
    }

    /// The card turned up at the deal.
    #[getter]
    fn upcard(&self) -> String {
        self.inner.upcard().to_string()
    }

    /// The discard pile, bottom to top (a card taken this turn is in the taker's hand until they
    /// put one down).
    fn pile(&self) -> Vec<String> {
        texts(&self.inner.pile())
    }

    /// The round as `seat` sees it, in the Oracle's input format (`oracle.md`): `rules` and
    /// `lives`, when given, are put in as they are (the round knows neither the table's whole
    /// rules nor the game's lives).
    #[pyo3(signature = (seat, rules=None, lives=None))]
    fn view<'py>(
        &self,
        py: Python<'py>,
        seat: u8,
        rules: Option<Bound<'py, PyAny>>,
        lives: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let v = self.inner.view(self.seat(seat)?);
        let d = PyDict::new(py);
        if let Some(rules) = rules {
            d.set_item("rules", rules)?;
        }
        d.set_item("seats", v.seats)?;
        d.set_item("me", v.me)?;
        d.set_item("first", v.first)?;
        d.set_item("upcard", v.upcard.to_string())?;
        d.set_item("hand", texts(&v.hand))?;
        let turns = v
            .turns
            .iter()
            .map(|t| turn_dict(py, t))
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("turns", turns)?;
        if let Some(lives) = lives {
            d.set_item("lives", lives)?;
        }
        if let Some(p) = v.pending {
            let pending = PyDict::new(py);
            pending.set_item("draw", source_name(p.from))?;
            if let Some(c) = p.drew {
                pending.set_item("drew", c.to_string())?;
            }
            d.set_item("pending", pending)?;
        }
        Ok(d)
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Round(seats={}, to_move={}, phase={}, top={})",
            self.round().seats(),
            self.round().to_move(),
            self.phase(),
            self.round().top()
        )
    }
}

/// A turn of a seat's view as the `oracle.md` input writes it.
fn turn_dict<'py>(py: Python<'py>, t: &TurnInput) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match *t {
        TurnInput::Knock { seat } => {
            d.set_item("seat", seat)?;
            d.set_item("knock", true)?;
        }
        TurnInput::Play {
            seat,
            from,
            drew,
            discard,
            shows,
        } => {
            play_items(&d, seat, from, drew, discard)?;
            if let Some(hand) = shows {
                d.set_item("shows", texts(&hand))?;
            }
        }
        TurnInput::PlayHiding31 {
            seat,
            from,
            drew,
            discard,
        } => {
            play_items(&d, seat, from, drew, discard)?;
            d.set_item("hides", true)?;
        }
    }
    Ok(d)
}

fn play_items(
    d: &Bound<'_, PyDict>,
    seat: u8,
    from: Source,
    drew: Option<Card>,
    discard: Card,
) -> PyResult<()> {
    d.set_item("seat", seat)?;
    d.set_item("draw", source_name(from))?;
    d.set_item("discard", discard.to_string())?;
    if let Some(c) = drew {
        d.set_item("drew", c.to_string())?;
    }
    Ok(())
}

fn source_name(from: Source) -> &'static str {
    match from {
        Source::Stock => "stock",
        Source::Pile => "pile",
    }
}
