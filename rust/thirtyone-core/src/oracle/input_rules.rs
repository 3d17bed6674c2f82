//! The state's `"rules"`, read with the rest of the input: a preset name, or an object of
//! rule options whose values are scalars or a list of names (never deeper).

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::{Overrides, Text};
use crate::error::Result;
use crate::rules::{self, RuleSet, RuleValue};

/// `"rules"`: a preset name, or an object `{"preset": …, option: value, …}`.
pub(super) enum RulesDoc {
    Preset(String),
    Object {
        preset: Option<String>,
        changes: Vec<(String, RuleValue)>,
    },
}

/// A rule option's value: a scalar, or a list of names (never deeper).
pub(super) struct Value(pub(super) RuleValue);

/// An item of a rule value's list: a name, or None for a number, true/false or null (a list
/// within the list is refused where it stands: nothing nested is read, however deep).
struct Item(Option<String>);

any_visitor!(Item, Item, "a name", {
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Item, E> {
        Ok(Item(Some(v.to_string())))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
    fn visit_none<E: de::Error>(self) -> std::result::Result<Item, E> {
        Ok(Item(None))
    }
});

any_visitor!(
    Value,
    Value,
    "a rule value (text, a number, true/false or a list of names)",
    {
        fn visit_unit<E: de::Error>(self) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Null))
        }
        fn visit_none<E: de::Error>(self) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Null))
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Bool(v)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Int(i128::from(v))))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Int(i128::from(v))))
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Int(v)))
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Int(
                i128::try_from(v).unwrap_or(i128::MAX),
            )))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Float(v)))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Value, E> {
            Ok(Value(RuleValue::Text(v.to_string())))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
            let (mut names, mut mixed, mut items) = (Vec::new(), false, 0);
            while let Some(Item(v)) = seq.next_element::<Item>()? {
                if items == 2 * usize::from(rules::MAX_LIVES) {
                    return Err(de::Error::custom("too many names"));
                }
                items += 1;
                match v {
                    Some(t) => names.push(t),
                    None => mixed = true,
                }
            }
            Ok(Value(if mixed {
                RuleValue::MixedList
            } else {
                RuleValue::List(names)
            }))
        }
    }
);

any_visitor!(
    RulesDoc,
    RulesDoc,
    "a preset name or an object of rule options",
    {
        fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<RulesDoc, E> {
            Ok(RulesDoc::Preset(v.to_string()))
        }
        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<RulesDoc, A::Error> {
            let (mut preset, mut changes) = (None, Vec::new());
            while let Some(Text(key)) = map.next_key::<Text>()? {
                if key == "preset" {
                    preset = Some(map.next_value::<Text>()?.0);
                } else if changes.len() == 64 {
                    return Err(de::Error::custom("too many rule options"));
                } else {
                    changes.push((key, map.next_value::<Value>()?.0));
                }
            }
            Ok(RulesDoc::Object { preset, changes })
        }
    }
);

impl RulesDoc {
    pub(super) fn rule_set(self, overrides: &Overrides) -> Result<(RuleSet, bool)> {
        let (preset, mut changes) = match self {
            RulesDoc::Preset(p) => (Some(p), Vec::new()),
            RulesDoc::Object { preset, changes } => (preset, changes),
        };
        let preset = match &overrides.preset {
            Some(p) => {
                changes.clear();
                Some(p.clone())
            }
            None => preset,
        };
        changes.extend(overrides.changes.iter().cloned());
        let seats_given = changes.iter().any(|(k, _)| k == "seats");
        Ok((rules::build(preset.as_deref(), &changes)?, seats_given))
    }
}
