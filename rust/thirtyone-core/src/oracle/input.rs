//! The Oracle's input (a round as one player sees it, with the table's rules) read from JSON text
//! or any serde source, checked once: shape first (unknown keys by name, types, sizes bounded),
//! then meaning (cards, rules, lives, the rules agreeing with the state). What comes out is a
//! [`State`]; [`crate::view::View::from_input`] then replays the round.
//!
//! Every message names the place of the problem (`turns[3].discard`) and quotes at most a short
//! prefix of the offending value.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::error::{quote, shorten_quotes, Error, Result};
use crate::hand::Card;
use crate::model::Model;
use crate::round::Source;
use crate::rules::{RuleSet, RuleValue, MAX_SEATS};
use crate::view::{PendingInput, StateInput, TurnInput};

use super::models_input::ModelsDoc;

/// The most turns a round can have had (every card of the pack through the pile, and more for
/// knocks and declines): a longer list cannot be a round.
pub const MAX_TURNS: usize = 1_000;

/// A checked state: the table's rules, the round as the player saw it, and the lives if given.
#[derive(Clone, Debug)]
pub struct State {
    pub rules: RuleSet,
    pub round: StateInput,
    /// The lives each seat holds now (letters left under Gin lives), when given.
    pub lives: Option<Vec<u8>>,
    /// How each seat plays, when given (yours is the table's: it is never read); without it,
    /// every opponent is read by the table's rule.
    pub models: Option<Vec<Model>>,
}

/// Rule changes given beside the state (`thirtyone oracle --rules PRESET --rule KEY=VALUE`): the
/// preset replaces the state's rules, the changes apply on top of either.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub preset: Option<String>,
    pub changes: Vec<(String, RuleValue)>,
}

/// Read a state from JSON text.
pub fn from_json(text: &[u8], overrides: &Overrides) -> Result<State> {
    // A byte-order mark some editors write at the start of a UTF-8 file is not part of the
    // JSON: read past it, as JSON readers may (RFC 8259).
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut de = serde_json::Deserializer::from_slice(text);
    let doc = read(&mut de, |e: &serde_json::Error| {
        e.is_syntax() || e.is_eof() || e.is_io()
    })?;
    de.end()
        .map_err(|e| Error::BadState(format!("the state is not valid JSON: {e}")))?;
    doc.check(overrides)
}

/// Read a state from any serde source (a Python object through pythonize, say).
pub fn from_deserializer<'de, D: Deserializer<'de>>(de: D, overrides: &Overrides) -> Result<State>
where
    D::Error: std::fmt::Display,
{
    read(de, |_| false)?.check(overrides)
}

/// A table's rules from any serde source: a preset name, or an object `{"preset": …, option:
/// value, …}` (None, or JSON null: standard).
pub fn rules_from_deserializer<'de, D: Deserializer<'de>>(
    de: D,
    overrides: &Overrides,
) -> Result<RuleSet>
where
    D::Error: std::fmt::Display,
{
    let doc: Option<RulesDoc> = serde_path_to_error::deserialize(de).map_err(|e| {
        let msg = words::read(&shorten_quotes(&e.inner().to_string()));
        match e.path().to_string() {
            p if p == "?" || p == "." => Error::BadRule("rules", format!("rules: {msg}")),
            p => Error::BadRule("rules", format!("rules.{p}: {msg}")),
        }
    })?;
    Ok(doc
        .unwrap_or(RulesDoc::Preset("standard".into()))
        .rule_set(overrides)?
        .0)
}

/// One rule option's value from any serde source (a scalar or a list of names).
pub fn rule_value<'de, D: Deserializer<'de>>(field: &str, de: D) -> Result<RuleValue>
where
    D::Error: std::fmt::Display,
{
    Value::deserialize(de).map(|v| v.0).map_err(|e| {
        Error::BadRule(
            "rules",
            format!(
                "rule {}: {}",
                quote(field),
                words::read(&shorten_quotes(&e.to_string()))
            ),
        )
    })
}

fn read<'de, D: Deserializer<'de>>(de: D, is_syntax: impl Fn(&D::Error) -> bool) -> Result<StateDoc>
where
    D::Error: std::fmt::Display,
{
    serde_path_to_error::deserialize(de)
        .map(|Object(doc)| doc)
        .map_err(|e| {
            // (A path serde could not follow, as at a text cut short, is the whole state.)
            let path = match e.path().to_string() {
                p if p == "?" => ".".to_string(),
                p => p,
            };
            let inner = e.into_inner();
            let said = shorten_quotes(&inner.to_string());
            if let Some(at) = said.strip_prefix("number out of range") {
                // (Valid JSON: a number beyond what any reader of numbers holds. The state
                // itself is told what it must be, as any other number in its place.)
                return Error::BadState(if path == "." {
                    format!("{NOT_A_STATE}, not a number too large to read{at}")
                } else {
                    format!("{path}: {TOO_LARGE}{at}")
                });
            }
            if path == "." && !is_syntax(&inner) {
                // (The state itself of the wrong kind: a list, a number, text.)
                let found = words::wrong_kind(&said).map(|w| format!(", not {}{}", w.found, w.at));
                return Error::BadState(format!(
                    "{NOT_A_STATE}{}",
                    found.unwrap_or_else(|| format!(": {}", words::read(&said)))
                ));
            }
            let msg = words::read(&said);
            if path.starts_with("rules") && !is_syntax(&inner) {
                return Error::BadRule("rules", format!("{path}: {msg}"));
            }
            Error::BadState(if is_syntax(&inner) && path == "." {
                format!("the state is not valid JSON: {msg}")
            } else if is_syntax(&inner) {
                format!("the state is not valid JSON at {path}: {msg}")
            } else {
                format!("{path}: {msg}")
            })
        })
}

// -- shape ----------------------------------------------------------------------------------------

/// An object (JSON object, Python mapping) and nothing else: serde's derived structs would also
/// take a list of their fields in order.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<Object<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateDoc {
    rules: Option<RulesDoc>,
    seats: Option<Whole>,
    me: Option<Whole>,
    first: Option<Whole>,
    upcard: Option<CardText>,
    hand: Option<Three>,
    turns: Option<Turns>,
    pending: Option<Object<PendingDoc>>,
    lives: Option<Numbers>,
    models: Option<ModelsDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnDoc {
    seat: Option<Whole>,
    knock: Option<Flag>,
    draw: Option<SourceText>,
    drew: Option<CardText>,
    discard: Option<CardText>,
    shows: Option<Three>,
    hides: Option<Flag>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PendingDoc {
    draw: Option<SourceText>,
    drew: Option<CardText>,
}

/// A whole number as given (checked for range where it is used).
#[derive(Clone, Copy)]
struct Whole(i128);

/// true or false (not 1, not "yes").
#[derive(Clone, Copy)]
struct Flag(bool);

/// Text.
struct Text(String);

/// A card's text (checked as a card where it is used).
struct CardText(String);

/// Where a card was drawn from: "stock" or "pile" (checked where it is used).
struct SourceText(String);

/// Three cards (a hand, a 31 shown), read as a list only: a text is not read letter by letter,
/// whatever the source. The count is checked where it is used.
struct Three(Vec<CardText>);

/// One whole number per seat (the lives), read as a list only.
struct Numbers(Vec<Whole>);

/// The most items a list of cards or numbers is read to: more than any table has seats or a
/// pack has cards, so that a list's length is said where it is used and no list grows long.
const MOST_ITEMS: usize = 64;

/// The turns, at most [`MAX_TURNS`].
struct Turns(Vec<TurnDoc>);

macro_rules! any_visitor {
    ($name:ident, $out:ty, $expecting:literal, { $($body:tt)* }) => {
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $out;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    $($body)*
                }
                // `deserialize_any`: the value's own type decides (a Python bool is not taken
                // for a number, nor a number for a bool).
                d.deserialize_any(V)
            }
        }
    };
}

any_visitor!(Whole, Whole, "a whole number", {
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Whole, E> {
        Ok(Whole(i128::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Whole, E> {
        Ok(Whole(i128::from(v)))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<Whole, E> {
        Ok(Whole(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<Whole, E> {
        Ok(Whole(i128::try_from(v).unwrap_or(i128::MAX)))
    }
    // A whole number written with a point or an exponent (`4.0`, `-0`, `1e3`) is one (JSON
    // Schema's `integer` takes it); one too large to be held exactly (beyond 2^53, as JSON
    // text reads every number above 2^64) is said to be so.
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Whole, E> {
        if v.fract() != 0.0 || !v.is_finite() {
            return Err(E::invalid_type(de::Unexpected::Float(v), &self));
        }
        if v.abs() >= 9_007_199_254_740_992.0 {
            return Err(E::custom(TOO_LARGE));
        }
        Ok(Whole(v as i128))
    }
});

/// What a whole number too large to be read is told.
pub(super) const TOO_LARGE: &str = "too large a number";
/// What the state is told when it is not an object at all.
const NOT_A_STATE: &str = "the state must be a JSON object with the keys of a round";

any_visitor!(Flag, Flag, "true or false", {
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Flag, E> {
        Ok(Flag(v))
    }
});

any_visitor!(Text, Text, "text", {
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Text, E> {
        Ok(Text(v.to_string()))
    }
});

any_visitor!(CardText, CardText, "a card such as \"AH\"", {
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<CardText, E> {
        Ok(CardText(v.to_string()))
    }
});

any_visitor!(SourceText, SourceText, "\"stock\" or \"pile\"", {
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<SourceText, E> {
        Ok(SourceText(v.to_string()))
    }
});

/// Up to [`MOST_ITEMS`] items of a list (then the list's length, for the message).
fn items<'de, A: SeqAccess<'de>, T: Deserialize<'de>>(
    mut seq: A,
) -> std::result::Result<Vec<T>, A::Error> {
    let mut out = Vec::new();
    while let Some(item) = seq.next_element::<T>()? {
        if out.len() == MOST_ITEMS {
            return Err(de::Error::custom(format!(
                "must be a list of at most {MOST_ITEMS} items"
            )));
        }
        out.push(item);
    }
    Ok(out)
}

any_visitor!(
    Three,
    Three,
    "a list of 3 cards, such as [\"AH\", \"9H\", \"4H\"]",
    {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Three, A::Error> {
            items(seq).map(Three)
        }
    }
);

any_visitor!(Numbers, Numbers, "a list of one whole number per seat", {
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Numbers, A::Error> {
        items(seq).map(Numbers)
    }
});

any_visitor!(Turns, Turns, "a list of turns", {
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Turns, A::Error> {
        let mut turns = Vec::new();
        while let Some(Object(t)) = seq.next_element::<Object<TurnDoc>>()? {
            if turns.len() == MAX_TURNS {
                return Err(de::Error::custom(format!(
                    "more than {MAX_TURNS} turns: no round is that long"
                )));
            }
            turns.push(t);
        }
        Ok(Turns(turns))
    }
});

// The rules' object and its values (after the macro, which they use).
#[path = "input_rules.rs"]
mod rules_doc;
use rules_doc::{RulesDoc, Value};

// serde's words in a player's.
#[path = "input_words.rs"]
mod words;

// -- meaning --------------------------------------------------------------------------------------

fn need<T>(value: Option<T>, key: &str) -> Result<T> {
    value.ok_or_else(|| Error::BadState(format!("the state has no {key:?}")))
}

fn seat(value: Whole, what: &str, seats: u8) -> Result<u8> {
    u8::try_from(value.0)
        .ok()
        .filter(|&s| s < seats)
        .ok_or_else(|| {
            Error::BadState(format!(
                "{what} must be a seat from 0 to {}, not {}",
                seats - 1,
                value.0
            ))
        })
}

fn card(text: &CardText, what: &str) -> Result<Card> {
    Card::parse(&text.0).map_err(|e| Error::CardAt(format!("{what}: {e}")))
}

fn cards<const N: usize>(texts: &[CardText], what: &str) -> Result<[Card; N]> {
    if texts.len() != N {
        return Err(Error::BadState(format!(
            "{what} must be a list of {N} cards, not {}",
            texts.len()
        )));
    }
    let mut out = [Card::from_index(0); N];
    for (i, t) in texts.iter().enumerate() {
        let c = card(t, &format!("{what}[{i}]"))?;
        if out[..i].contains(&c) {
            return Err(Error::CardAt(format!("{what}: {c} appears twice")));
        }
        out[i] = c;
    }
    Ok(out)
}

fn source(text: &Option<SourceText>, what: &str) -> Result<Source> {
    match text.as_ref().map(|t| t.0.as_str()) {
        Some("stock") => Ok(Source::Stock),
        Some("pile") => Ok(Source::Pile),
        Some(other) => Err(Error::BadState(format!(
            "{what} must be \"stock\" or \"pile\", not {}",
            quote(other)
        ))),
        None => Err(Error::BadState(format!(
            "{what} is missing (\"stock\" or \"pile\")"
        ))),
    }
}

impl StateDoc {
    fn check(self, overrides: &Overrides) -> Result<State> {
        let rules_doc = self.rules.unwrap_or(RulesDoc::Preset("standard".into()));
        let (mut rules, seats_given) = rules_doc.rule_set(overrides).map_err(|e| match e {
            Error::BadRule(f, m) if f == "rules" || f == "preset" => Error::BadRule("rules", m),
            e => e,
        })?;
        let seats = need(self.seats, "seats")?.0;
        let seats = u8::try_from(seats)
            .ok()
            .filter(|&s| (2..=MAX_SEATS).contains(&usize::from(s)))
            .ok_or_else(|| {
                Error::BadState(format!("seats must be 2 to {MAX_SEATS}, not {seats}"))
            })?;
        if seats_given && rules.seats < seats {
            return Err(Error::BadState(format!(
                "the rules say the table has {} seats, but the state has {seats} players still in",
                rules.seats
            )));
        }
        if !seats_given {
            rules.seats = seats;
        }
        let lives = match self.lives {
            Some(l) => Some(check_lives(&l.0, seats, &rules)?),
            None => None,
        };
        let me = seat(need(self.me, "me")?, "me", seats)?;
        let models = self.models.map(|m| m.check(seats, me)).transpose()?;
        let first = seat(need(self.first, "first")?, "first", seats)?;
        let upcard = card(&need(self.upcard, "upcard")?, "upcard")?;
        let hand = cards::<3>(&need(self.hand, "hand")?.0, "hand")?;
        let turns = need(self.turns, "turns")?.0;
        let round = StateInput {
            rules: rules.round,
            seats,
            me,
            first,
            upcard,
            hand,
            turns: turns
                .iter()
                .enumerate()
                .map(|(i, t)| t.check(i, seats))
                .collect::<Result<_>>()?,
            pending: self.pending.map(|p| p.0.check()).transpose()?,
        };
        Ok(State {
            rules,
            round,
            lives,
            models,
        })
    }
}

fn check_lives(lives: &[Whole], seats: u8, rules: &RuleSet) -> Result<Vec<u8>> {
    let given: Vec<i128> = lives.iter().map(|w| w.0).collect();
    crate::game::check_lives(rules, &given, seats)
}

impl TurnDoc {
    fn check(&self, i: usize, seats: u8) -> Result<TurnInput> {
        let what = format!("turns[{i}]");
        let seat = seat(
            self.seat
                .ok_or_else(|| Error::BadState(format!("{what} has no seat")))?,
            &format!("{what}.seat"),
            seats,
        )?;
        if matches!(self.knock, Some(Flag(true))) {
            let extra = [
                ("draw", self.draw.is_some()),
                ("drew", self.drew.is_some()),
                ("discard", self.discard.is_some()),
                ("shows", self.shows.is_some()),
                ("hides", self.hides.is_some()),
            ];
            if let Some((key, _)) = extra.iter().find(|(_, given)| *given) {
                return Err(Error::BadState(format!("{what}: a knock has no {key}")));
            }
            return Ok(TurnInput::Knock { seat });
        }
        let from = source(&self.draw, &format!("{what}.draw"))?;
        let drew = match &self.drew {
            Some(_) if from == Source::Pile => {
                return Err(Error::BadState(format!(
                    "{what}: a pile draw takes the top discard and has no \"drew\""
                )))
            }
            Some(t) => Some(card(t, &format!("{what}.drew"))?),
            None => None,
        };
        let discard = card(
            self.discard
                .as_ref()
                .ok_or_else(|| Error::BadState(format!("{what} has no discard")))?,
            &format!("{what}.discard"),
        )?;
        let shows = match &self.shows {
            Some(s) => Some(cards::<3>(&s.0, &format!("{what}.shows"))?),
            None => None,
        };
        if matches!(self.hides, Some(Flag(true))) {
            if shows.is_some() {
                return Err(Error::BadState(format!(
                    "{what}: a 31 is either shown or hidden, not both"
                )));
            }
            return Ok(TurnInput::PlayHiding31 {
                seat,
                from,
                drew,
                discard,
            });
        }
        Ok(TurnInput::Play {
            seat,
            from,
            drew,
            discard,
            shows,
        })
    }
}

impl PendingDoc {
    fn check(self) -> Result<PendingInput> {
        let from = source(&self.draw, "pending.draw")?;
        let drew = match (&self.drew, from) {
            (Some(_), Source::Pile) => {
                return Err(Error::BadState(
                    "pending: a pile draw takes the top discard and has no \"drew\"".into(),
                ))
            }
            (Some(t), _) => Some(card(t, "pending.drew")?),
            (None, Source::Stock) => {
                return Err(Error::BadState(
                    "pending: a stock draw must give the card drawn (\"drew\")".into(),
                ))
            }
            (None, _) => None,
        };
        Ok(PendingInput { from, drew })
    }
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
