//! The state's `"models"`: how each seat plays, one entry per seat (`"table"`, `"person"`,
//! `"expert"`), yours anything at all (`null`, say), read with the rest of the input and checked
//! once.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::error::{quote, Error, Result};
use crate::model::Model;

/// The entries as given, at most one per seat of the largest table (a longer list is refused
/// while it is read).
pub(super) struct ModelsDoc(Vec<Entry>);

/// One entry: a name, or anything else (fine for your own seat only).
enum Entry {
    Name(String),
    Other(&'static str),
}

/// Entries read before a list is refused as too long.
const MOST: usize = crate::rules::MAX_SEATS;

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entry;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a model's name or null")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Entry, E> {
                Ok(Entry::Name(v.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> std::result::Result<Entry, E> {
                Ok(Entry::Other("null"))
            }
            fn visit_none<E: de::Error>(self) -> std::result::Result<Entry, E> {
                Ok(Entry::Other("null"))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> std::result::Result<Entry, E> {
                Ok(Entry::Other("a true or false"))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> std::result::Result<Entry, E> {
                Ok(Entry::Other("a number"))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> std::result::Result<Entry, E> {
                Ok(Entry::Other("a number"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> std::result::Result<Entry, E> {
                Ok(Entry::Other("a number"))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut s: A,
            ) -> std::result::Result<Entry, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Entry::Other("a list"))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<Entry, A::Error> {
                while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Entry::Other("an object"))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for ModelsDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ModelsDoc;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of one model per seat")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<ModelsDoc, A::Error> {
                let mut out = Vec::new();
                while let Some(e) = seq.next_element::<Entry>()? {
                    if out.len() == MOST {
                        return Err(de::Error::custom(format!(
                            "more than {MOST} entries: one per seat, and a table has at most {MOST}"
                        )));
                    }
                    out.push(e);
                }
                Ok(ModelsDoc(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl ModelsDoc {
    /// Each seat's model, yours the table's (it is never read): one entry per seat, a known
    /// name for every opponent.
    pub(super) fn check(self, seats: u8, me: u8) -> Result<Vec<Model>> {
        let n = self.0.len();
        if n != usize::from(seats) {
            let entries = if n == 1 { "entry" } else { "entries" };
            return Err(Error::BadState(format!(
                "models has {n} {entries}, but the table has {seats} seats: give one per seat, \
                 your own included (null there; - in --models)"
            )));
        }
        let names = Model::ALL.map(Model::name).join(", ");
        self.0
            .into_iter()
            .enumerate()
            .map(|(seat, e)| match e {
                _ if seat == usize::from(me) => Ok(Model::Table),
                Entry::Name(n) => Model::from_name(&n).ok_or_else(|| {
                    Error::BadState(format!(
                        "models[{seat}] must be one of {names}, not {}",
                        quote(&n)
                    ))
                }),
                Entry::Other(what) => Err(Error::BadState(format!(
                    "models[{seat}] must be one of {names}, not {what} (only your own seat's \
                     entry may be anything)"
                ))),
            })
            .collect()
    }
}
