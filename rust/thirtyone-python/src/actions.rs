//! Typed actions and turn records across the boundary: `thirtyone._core.Action` and
//! `thirtyone._core.PlayedTurn`, small frozen values (no action travels as a string).

use pyo3::prelude::*;
use pyo3::types::PyString;
use thirtyone_core::{Action, Card, Error, Played, PlayedTurn, Source};

use crate::convert::card;
use crate::errors::to_py;

/// The kinds of action, as Python names them.
const KINDS: [&str; 8] = [
    "knock", "draw", "take", "decline", "put", "hide", "blind", "look",
];

/// One action of the player to move: `kind` is "knock", "draw" (from the stock), "take" (the
/// top discard), "decline" (the discard, when the stock is empty), "put" (a card down, `card`),
/// "hide" (a card down, keeping the 31 it leaves hidden), "blind" (call the blind showdown) or
/// "look". `str(action)` is "knock" or "put:AH".
#[pyclass(frozen, eq, hash, module = "thirtyone._core", name = "Action")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyAction {
    pub inner: Action,
}

#[pymethods]
impl PyAction {
    /// `kind` and `card` are taken as any object and checked here, so that a value of the
    /// wrong type is an `IllegalMoveError` (or a `CardError`) naming it, as every other mistake
    /// in an action is, not Python's `TypeError`.
    #[new]
    #[pyo3(signature = (kind, card=None))]
    fn new(kind: &Bound<'_, PyAny>, card: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let kind = text_of(kind).map_err(|what| {
            to_py(Error::IllegalAction(format!(
                "an action's kind is text, one of {}; not {what}",
                KINDS.join(", ")
            )))
        })?;
        let card = match card.filter(|c| !c.is_none()) {
            None => None,
            Some(c) => Some(text_of(c).map_err(|what| {
                to_py(Error::CardAt(format!(
                    "an action's card is text such as \"AH\", not {what}"
                )))
            })?),
        };
        Ok(PyAction {
            inner: action_of(&kind, card.as_deref())?,
        })
    }

    #[getter]
    fn kind(&self) -> &'static str {
        kind_of(self.inner)
    }

    /// The card put down ("put", "hide"), else None.
    #[getter]
    fn card(&self) -> Option<String> {
        card_of(self.inner).map(|c| c.to_string())
    }

    fn __str__(&self) -> String {
        match card_of(self.inner) {
            Some(c) => format!("{}:{c}", kind_of(self.inner)),
            None => kind_of(self.inner).to_string(),
        }
    }

    fn __repr__(&self) -> String {
        match card_of(self.inner) {
            Some(c) => format!("Action({:?}, {:?})", kind_of(self.inner), c.to_string()),
            None => format!("Action({:?})", kind_of(self.inner)),
        }
    }
}

pub fn kind_of(a: Action) -> &'static str {
    match a {
        Action::Knock => "knock",
        Action::Draw(Source::Stock) => "draw",
        Action::Draw(Source::Pile) => "take",
        Action::Decline => "decline",
        Action::PutDown(_) => "put",
        Action::PutDownHidden(_) => "hide",
        Action::CallBlind => "blind",
        Action::Look => "look",
    }
}

fn card_of(a: Action) -> Option<Card> {
    match a {
        Action::PutDown(c) | Action::PutDownHidden(c) => Some(c),
        _ => None,
    }
}

/// `value`'s text, or what it is instead (its type's name, or `None`) for a message.
fn text_of(value: &Bound<'_, PyAny>) -> Result<String, String> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(text);
    }
    if value.is_none() {
        return Err("None".into());
    }
    if value.is_instance_of::<PyString>() {
        return Err("text that is not valid (a lone surrogate?)".into());
    }
    Err(value
        .get_type()
        .name()
        .map_or_else(|_| "an object".into(), |n| n.to_string()))
}

fn action_of(kind: &str, c: Option<&str>) -> PyResult<Action> {
    let needs_card = matches!(kind, "put" | "hide");
    let a = match (kind, c) {
        ("knock", None) => Action::Knock,
        ("draw", None) => Action::Draw(Source::Stock),
        ("take", None) => Action::Draw(Source::Pile),
        ("decline", None) => Action::Decline,
        ("put", Some(t)) => Action::PutDown(card(t)?),
        ("hide", Some(t)) => Action::PutDownHidden(card(t)?),
        ("blind", None) => Action::CallBlind,
        ("look", None) => Action::Look,
        _ if !KINDS.contains(&kind) => {
            return Err(to_py(Error::IllegalAction(format!(
                "unknown action {}: one of {}",
                thirtyone_core::error::quote(kind),
                KINDS.join(", ")
            ))))
        }
        _ => {
            return Err(to_py(Error::IllegalAction(if needs_card {
                format!("{kind} needs the card to put down")
            } else {
                format!("{kind} takes no card")
            })))
        }
    };
    Ok(a)
}

/// A whole turn as it was played (the round's record, kept by the core).
#[pyclass(frozen, module = "thirtyone._core", name = "PlayedTurn")]
pub struct PyPlayedTurn {
    pub inner: PlayedTurn,
}

impl PyPlayedTurn {
    fn play(&self) -> Option<(Source, Card, Card)> {
        match self.inner.played {
            Played::Play {
                from,
                card,
                discard,
                ..
            } => Some((from, card, discard)),
            _ => None,
        }
    }
}

#[pymethods]
impl PyPlayedTurn {
    /// The seat (of the round) that played.
    #[getter]
    fn seat(&self) -> u8 {
        self.inner.seat
    }
    /// "knock", "decline", "blind" (the blind showdown called), "draw" (from the stock) or
    /// "take" (the top discard).
    #[getter]
    fn action(&self) -> &'static str {
        match self.inner.played {
            Played::Knock => "knock",
            Played::Decline => "decline",
            Played::Blind => "blind",
            Played::Play {
                from: Source::Stock,
                ..
            } => "draw",
            Played::Play { .. } => "take",
        }
    }
    #[getter]
    fn knock(&self) -> bool {
        self.inner.played == Played::Knock
    }
    /// "stock" or "pile" (None for a knock, a decline or the blind showdown).
    #[getter]
    fn draw(&self) -> Option<&'static str> {
        self.play().map(|(s, _, _)| match s {
            Source::Stock => "stock",
            Source::Pile => "pile",
        })
    }
    /// The card drawn from the stock or taken from the pile.
    #[getter]
    fn card(&self) -> Option<String> {
        self.play().map(|(_, c, _)| c.to_string())
    }
    /// The card put down.
    #[getter]
    fn discard(&self) -> Option<String> {
        self.play().map(|(_, _, c)| c.to_string())
    }
    /// The hand shown when the put-down left a 31 that was shown (None otherwise).
    #[getter]
    fn shows(&self) -> Option<Vec<String>> {
        match self.inner.played {
            Played::Play {
                shows: Some(hand), ..
            } => Some(hand.iter().map(Card::to_string).collect()),
            _ => None,
        }
    }
    #[getter]
    fn showed_31(&self) -> bool {
        matches!(self.inner.played, Played::Play { shows: Some(_), .. })
    }
    /// The put-down left a 31 that the player kept hidden.
    #[getter]
    fn hid_31(&self) -> bool {
        matches!(self.inner.played, Played::Play { hid_31: true, .. })
    }

    fn __repr__(&self) -> String {
        format!(
            "PlayedTurn(seat={}, action={:?}, card={:?}, discard={:?}, shows={:?}, hid_31={})",
            self.inner.seat,
            self.action(),
            self.card(),
            self.discard(),
            self.shows(),
            self.hid_31()
        )
    }
}
