//! Python values to core values and back.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use thirtyone_core::rules::{
    score_from_points, FirstTurnKnock, KnockerTie, LivesMode, ThirtyOneAfterKnock,
};
use thirtyone_core::{Card, Error, RoundRules, Score, ThreeOfAKind};

use crate::errors::{to_py, IntoPy};

pub fn card(text: &str) -> PyResult<Card> {
    Card::parse(text).py_err()
}

pub fn cards<const N: usize>(texts: &[String], what: &str) -> PyResult<[Card; N]> {
    if texts.len() != N {
        return Err(to_py(Error::BadState(format!(
            "{what} must be {N} cards, not {}",
            texts.len()
        ))));
    }
    let mut out = [Card::from_index(0); N];
    for (slot, t) in out.iter_mut().zip(texts) {
        *slot = card(t)?;
    }
    Ok(out)
}

pub fn points(s: Score) -> f64 {
    s.points()
}

pub fn threshold(field: &'static str, points: f64) -> PyResult<Score> {
    score_from_points(field, points).py_err()
}

fn bad_type(field: &'static str, want: &str) -> PyErr {
    to_py(Error::BadRule(field, format!("must be {want}")))
}

/// The round-level rules from the dict `Rules.round_rules()` gives (absent keys: standard).
pub fn round_rules(d: Option<&Bound<'_, PyDict>>) -> PyResult<RoundRules> {
    let mut r = RoundRules::default();
    let Some(d) = d else { return Ok(r) };
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| to_py(Error::BadRule("rules", "keys must be text".into())))?;
        let text = |field: &'static str| -> PyResult<String> {
            v.extract::<String>().map_err(|_| bad_type(field, "text"))
        };
        let flag = |field: &'static str| -> PyResult<bool> {
            v.extract::<bool>()
                .map_err(|_| bad_type(field, "true or false"))
        };
        match key.as_str() {
            "knock_penalty" => {
                r.knock_penalty = v
                    .extract::<u8>()
                    .map_err(|_| bad_type("knock_penalty", "1 or 2"))?
            }
            "knocker_tie" => r.knocker_tie = KnockerTie::parse(&text("knocker_tie")?).py_err()?,
            "three_of_a_kind" => {
                r.scoring.three_of_a_kind =
                    ThreeOfAKind::parse(&text("three_of_a_kind")?).py_err()?
            }
            "three_aces" => {
                r.scoring.three_aces_33 = match text("three_aces")?.as_str() {
                    "none" => false,
                    "33" => true,
                    other => {
                        return Err(to_py(Error::BadRule(
                            "three_aces",
                            format!("{other:?} is not one of none, 33"),
                        )))
                    }
                }
            }
            "runs" => r.scoring.runs = flag("runs")?,
            "min_knock" => {
                let p: f64 = v.extract().map_err(|_| bad_type("min_knock", "a score"))?;
                r.min_knock = threshold("min_knock", p)?;
            }
            "knock_needs_one_suit" => r.knock_needs_one_suit = flag("knock_needs_one_suit")?,
            "first_turn_knock" => {
                r.first_turn_knock = FirstTurnKnock::parse(&text("first_turn_knock")?).py_err()?
            }
            "thirty_one_after_knock" => {
                r.thirty_one_after_knock =
                    ThirtyOneAfterKnock::parse(&text("thirty_one_after_knock")?).py_err()?
            }
            "two_player_mercy" => r.two_player_mercy = flag("two_player_mercy")?,
            "lives_mode" => r.lives_mode = LivesMode::parse(&text("lives_mode")?).py_err()?,
            "may_hide_31" => r.may_hide_31 = flag("may_hide_31")?,
            _ => {
                return Err(to_py(Error::BadRule(
                    "rules",
                    format!("{key:?} is not a round rule"),
                )))
            }
        }
    }
    r.validate().py_err()?;
    Ok(r)
}

/// The Oracle's input from the normalised dict `thirtyone.state` builds (keys: rules, seats, me,
/// first, upcard, hand, turns, pending). Shape errors were reported in Python; here every value
/// is still checked, so nothing malformed reaches the core.
pub fn state_input(d: &Bound<'_, PyDict>) -> PyResult<thirtyone_core::view::StateInput> {
    use thirtyone_core::view::{PendingInput, StateInput, TurnInput};
    use thirtyone_core::Source;

    fn bad(msg: String) -> PyErr {
        to_py(Error::BadState(msg))
    }
    fn get<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        d.get_item(key)?
            .ok_or_else(|| bad(format!("the state has no {key:?}")))
    }
    fn seat(v: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
        v.extract::<u8>()
            .map_err(|_| bad(format!("{what} must be a seat number")))
    }
    fn source(v: &Bound<'_, PyAny>, what: &str) -> PyResult<Source> {
        match v.extract::<String>().as_deref() {
            Ok("stock") => Ok(Source::Stock),
            Ok("pile") => Ok(Source::Pile),
            _ => Err(bad(format!("{what} must be \"stock\" or \"pile\""))),
        }
    }
    fn opt_card(d: &Bound<'_, PyDict>, key: &str) -> PyResult<Option<Card>> {
        match d.get_item(key)? {
            None => Ok(None),
            Some(v) if v.is_none() => Ok(None),
            Some(v) => Ok(Some(card(
                &v.extract::<String>()
                    .map_err(|_| bad(format!("{key} must be a card")))?,
            )?)),
        }
    }
    fn three(v: &Bound<'_, PyAny>, what: &str) -> PyResult<[Card; 3]> {
        let texts: Vec<String> = v
            .extract()
            .map_err(|_| bad(format!("{what} must be a list of three cards")))?;
        cards::<3>(&texts, what)
    }

    let rules_obj = get(d, "rules")?;
    let rules = round_rules(Some(
        rules_obj
            .cast::<PyDict>()
            .map_err(|_| bad("rules must be an object".into()))?,
    ))?;
    let upcard_text: String = get(d, "upcard")?
        .extract()
        .map_err(|_| bad("upcard must be a card".into()))?;
    let mut turns = Vec::new();
    let turn_list = get(d, "turns")?;
    for (i, t) in turn_list.try_iter()?.enumerate() {
        let t = t?;
        let what = format!("turns[{i}]");
        let t = t
            .cast::<PyDict>()
            .map_err(|_| bad(format!("{what} must be an object")))?;
        let s = seat(&get(t, "seat")?, &format!("{what}.seat"))?;
        let knock = match t.get_item("knock")? {
            Some(v) => v
                .extract::<bool>()
                .map_err(|_| bad(format!("{what}.knock must be true or false")))?,
            None => false,
        };
        if knock {
            turns.push(TurnInput::Knock { seat: s });
            continue;
        }
        let shows = match t.get_item("shows")? {
            Some(v) if !v.is_none() => Some(three(&v, &format!("{what}.shows"))?),
            _ => None,
        };
        let hides = match t.get_item("hides")? {
            Some(v) if !v.is_none() => v
                .extract::<bool>()
                .map_err(|_| bad(format!("{what}.hides must be true or false")))?,
            _ => false,
        };
        let from = source(&get(t, "draw")?, &format!("{what}.draw"))?;
        let drew = opt_card(t, "drew")?;
        let discard =
            opt_card(t, "discard")?.ok_or_else(|| bad(format!("{what} has no discard")))?;
        if hides {
            if shows.is_some() {
                return Err(bad(format!(
                    "{what}: a 31 is either shown or hidden, not both"
                )));
            }
            turns.push(TurnInput::PlayHiding31 {
                seat: s,
                from,
                drew,
                discard,
            });
        } else {
            turns.push(TurnInput::Play {
                seat: s,
                from,
                drew,
                discard,
                shows,
            });
        }
    }
    let pending = match d.get_item("pending")? {
        Some(p) if !p.is_none() => {
            let p = p
                .cast::<PyDict>()
                .map_err(|_| bad("pending must be an object".into()))?;
            Some(PendingInput {
                from: source(&get(p, "draw")?, "pending.draw")?,
                drew: opt_card(p, "drew")?,
            })
        }
        _ => None,
    };
    Ok(StateInput {
        rules,
        seats: seat(&get(d, "seats")?, "seats")?,
        me: seat(&get(d, "me")?, "me")?,
        first: seat(&get(d, "first")?, "first")?,
        upcard: card(&upcard_text)?,
        hand: three(&get(d, "hand")?, "hand")?,
        turns,
        pending,
    })
}
