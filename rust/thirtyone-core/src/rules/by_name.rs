//! The one reader of a rule option given by name: a value as given (typed, from JSON or Python,
//! or the text of `--rule KEY=VALUE`) checked for its type and range and applied to a table's
//! rule set; a table built from a preset and changes in order, checked whole.

use super::round_rules::{
    score_from_points, FirstTurnKnock, KnockerTie, LivesMode, ThirtyOneAfterKnock,
};
use super::rule_set::{Placing, RuleSet, MAX_LIVES, MAX_NAME_CHARS, MAX_SEATS};
use crate::error::{quote, Error, Result};
use crate::hand::ThreeOfAKind;

/// A rule value as given: from JSON or Python (typed), or as the text of `--rule KEY=VALUE`.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleValue {
    Null,
    Bool(bool),
    /// A whole number (any size a JSON or Python integer can have within i128).
    Int(i128),
    Float(f64),
    Text(String),
    List(Vec<String>),
    /// A list holding something other than names (no option takes one: refused by the option
    /// it is given to, an unknown option's name said first).
    MixedList,
    /// `--rule KEY=VALUE`: parsed by the option's own type.
    Assigned(String),
}

impl RuleValue {
    fn shown(&self) -> String {
        match self {
            RuleValue::Null => "null".into(),
            RuleValue::Bool(b) => b.to_string(),
            RuleValue::Int(i) => quote_number(&i.to_string()),
            RuleValue::Float(f) => quote_number(&f.to_string()),
            RuleValue::Text(t) | RuleValue::Assigned(t) => quote(t),
            RuleValue::List(_) => "a list".into(),
            RuleValue::MixedList => "a list".into(),
        }
    }
}

fn quote_number(text: &str) -> String {
    if text.len() > 24 {
        format!("{}…", &text[..20])
    } else {
        text.to_string()
    }
}

impl RuleSet {
    /// Set one option by name. The value is checked for its type and range here; combinations
    /// are checked by [`RuleSet::validate`].
    pub fn apply(&mut self, key: &str, value: &RuleValue) -> Result<()> {
        let r = &mut self.round;
        match key {
            "seats" => self.seats = whole("seats", value, 2, MAX_SEATS as i128)?,
            "lives" => self.lives = whole("lives", value, 1, i128::from(MAX_LIVES))?,
            "knock_penalty" => r.knock_penalty = whole("knock_penalty", value, 1, 2)?,
            "county" => self.county = flag("county", value)?,
            "runs" => r.scoring.runs = flag("runs", value)?,
            "knock_needs_one_suit" => r.knock_needs_one_suit = flag("knock_needs_one_suit", value)?,
            "two_player_mercy" => r.two_player_mercy = flag("two_player_mercy", value)?,
            "may_hide_31" => r.may_hide_31 = flag("may_hide_31", value)?,
            "placing" => self.placing = choice("placing", value, &Placing::NAMES)?,
            "lives_mode" => r.lives_mode = choice("lives_mode", value, &LivesMode::NAMES)?,
            "knocker_tie" => r.knocker_tie = choice("knocker_tie", value, &KnockerTie::NAMES)?,
            "first_turn_knock" => {
                r.first_turn_knock = choice("first_turn_knock", value, &FirstTurnKnock::NAMES)?
            }
            "thirty_one_after_knock" => {
                r.thirty_one_after_knock =
                    choice("thirty_one_after_knock", value, &ThirtyOneAfterKnock::NAMES)?
            }
            "three_of_a_kind" => {
                r.scoring.three_of_a_kind = choice("three_of_a_kind", value, &ThreeOfAKind::NAMES)?
            }
            "three_aces" => {
                r.scoring.three_aces_33 =
                    choice("three_aces", value, &[("none", false), ("33", true)])?
            }
            "min_knock" => {
                let points = number("min_knock", value)?;
                if !(0.0..=31.0).contains(&points) || (points * 2.0).fract() != 0.0 {
                    return Err(Error::BadRule(
                        "min_knock",
                        format!(
                            "must be a score from 0 to 31 (whole or half points), not {}",
                            value.shown()
                        ),
                    ));
                }
                r.min_knock = score_from_points("min_knock", points)?;
            }
            "life_names" => self.life_names = life_names(value)?,
            other => {
                return Err(Error::BadRule(
                    "rules",
                    format!("rules: unknown rule option {}", quote(other)),
                ))
            }
        }
        Ok(())
    }
}

/// Build a table from a preset and changes in order (`preset` None: standard), checked whole.
/// A preset's names of the lives (four-corners', ride-the-bus') name its own standings: when the
/// changes give the table other lives or another county without names of their own, the
/// preset's names no longer fit and are left out (the lives are then told as numbers), where
/// they refused the table or named the wrong standings.
pub fn build(preset: Option<&str>, changes: &[(String, RuleValue)]) -> Result<RuleSet> {
    let mut t = RuleSet::preset(preset.unwrap_or("standard"))?;
    let preset_lives = (t.lives, t.county);
    for (key, value) in changes {
        t.apply(key, value)?;
    }
    // (Whenever the lives or the county differ, not only when the names' count no longer
    // fits: four-corners at 5 lives without the county needs six names too, and its fifth,
    // "all 4 corners folded", would have named the last life.)
    let named = changes.iter().any(|(key, _)| key == "life_names");
    if !named && (t.lives, t.county) != preset_lives {
        t.life_names.clear();
    }
    t.validate()?;
    Ok(t)
}

/// A `--rule KEY=VALUE` assignment: the option's name (dashes read as underscores) and its value.
pub fn assignment(text: &str) -> Result<(String, RuleValue)> {
    let Some((key, value)) = text.split_once('=') else {
        return Err(Error::BadRule(
            "rules",
            format!(
                "--rule {}: write it as KEY=VALUE, e.g. knock_penalty=1",
                quote(text)
            ),
        ));
    };
    let key = key.trim().replace('-', "_");
    let value = RuleValue::Assigned(value.trim().to_string());
    // Check the name and the value's type now, on a scratch table.
    RuleSet::default().apply(&key, &value)?;
    Ok((key, value))
}

fn wrong(field: &'static str, want: &str, value: &RuleValue) -> Error {
    Error::BadRule(field, format!("must be {want}, not {}", value.shown()))
}

fn flag(field: &'static str, value: &RuleValue) -> Result<bool> {
    match value {
        RuleValue::Bool(b) => Ok(*b),
        RuleValue::Assigned(t) => match t.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(true),
            "false" | "no" | "off" | "0" => Ok(false),
            _ => Err(wrong(field, "true or false (yes/no, on/off, 1/0)", value)),
        },
        _ => Err(wrong(field, "true or false", value)),
    }
}

/// A number given as a number, or as text that reads as one (`30.5`, `"30.5"`).
fn number(field: &'static str, value: &RuleValue) -> Result<f64> {
    let parsed = match value {
        RuleValue::Int(i) => Some(*i as f64),
        RuleValue::Float(f) => Some(*f),
        RuleValue::Text(t) | RuleValue::Assigned(t) => t.trim().parse::<f64>().ok(),
        _ => None,
    };
    parsed
        .filter(|x| x.is_finite())
        .ok_or_else(|| wrong(field, "a number", value))
}

fn whole<T: TryFrom<i128>>(
    field: &'static str,
    value: &RuleValue,
    lo: i128,
    hi: i128,
) -> Result<T> {
    let x = number(field, value).map_err(|_| wrong(field, "a whole number", value))?;
    let want = if hi == lo + 1 {
        format!("{lo} or {hi}")
    } else {
        format!("a whole number from {lo} to {hi}")
    };
    let range = || wrong(field, &want, value);
    if x.fract() != 0.0 || x < lo as f64 || x > hi as f64 {
        return Err(range());
    }
    T::try_from(x as i128).map_err(|_| range())
}

/// One of named values; a number is read as its text (`30.5` for `"30.5"`).
fn choice<T: Copy>(field: &'static str, value: &RuleValue, options: &[(&str, T)]) -> Result<T> {
    let text = match value {
        RuleValue::Text(t) | RuleValue::Assigned(t) => t.trim().to_string(),
        RuleValue::Int(i) => i.to_string(),
        RuleValue::Float(f) => f.to_string(),
        _ => String::new(),
    };
    options
        .iter()
        .find(|(name, _)| *name == text)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let all: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            wrong(field, &format!("one of {}", all.join(", ")), value)
        })
}

fn life_names(value: &RuleValue) -> Result<Vec<String>> {
    let list: Vec<String> = match value {
        RuleValue::Null => Vec::new(),
        RuleValue::List(items) => items.iter().map(|s| s.trim().to_string()).collect(),
        RuleValue::Text(t) | RuleValue::Assigned(t) => {
            if matches!(t.trim().to_ascii_lowercase().as_str(), "" | "none") {
                Vec::new()
            } else {
                t.split(',').map(|s| s.trim().to_string()).collect()
            }
        }
        RuleValue::MixedList => {
            return Err(Error::BadRule(
                "life_names",
                "must be a list of names, each one text".into(),
            ))
        }
        _ => return Err(wrong("life_names", "a list of names", value)),
    };
    for name in &list {
        if name.is_empty() {
            return Err(Error::BadRule(
                "life_names",
                "a name may not be empty".into(),
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(Error::BadRule(
                "life_names",
                format!("{} holds control characters", quote(name)),
            ));
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(Error::BadRule(
                "life_names",
                format!("{} is longer than {MAX_NAME_CHARS} characters", quote(name)),
            ));
        }
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> RuleValue {
        RuleValue::Text(t.into())
    }

    #[test]
    fn numbers_are_read_from_numbers_and_text_alike() {
        for v in [RuleValue::Float(30.5), text("30.5"), text(" 30.5 ")] {
            let t = build(None, &[("three_of_a_kind".into(), v)]).unwrap();
            assert_eq!(t.round.scoring.three_of_a_kind, ThreeOfAKind::ThirtyHalf);
        }
        let t = build(None, &[("three_of_a_kind".into(), RuleValue::Int(30))]).unwrap();
        assert_eq!(t.round.scoring.three_of_a_kind, ThreeOfAKind::Thirty);
        let t = build(None, &[("min_knock".into(), text("17"))]).unwrap();
        assert_eq!(t.round.min_knock.points(), 17.0);
    }

    #[test]
    fn out_of_range_and_wrong_types_name_the_field() {
        let cases = [
            ("lives", RuleValue::Int(-5)),
            ("lives", RuleValue::Float(1e100)),
            ("lives", RuleValue::Int(i128::from(MAX_LIVES) + 1)),
            ("seats", RuleValue::Int(10)),
            ("county", text("yes")),
            ("may_hide_31", RuleValue::Int(1)),
            ("min_knock", RuleValue::Float(31.5)),
            ("knock_penalty", RuleValue::Float(1.5)),
            ("life_names", RuleValue::List(vec!["a\u{1b}[2J".into()])),
        ];
        for (key, value) in cases {
            let err = build(None, &[(key.into(), value.clone())]).unwrap_err();
            assert!(err.to_string().contains(key), "{key} {value:?}: {err}");
        }
    }

    #[test]
    fn a_long_value_is_quoted_short() {
        let err = build(None, &[("placing".into(), text(&"x".repeat(1 << 20)))]).unwrap_err();
        assert!(err.to_string().len() < 200, "{}", err.to_string().len());
    }

    #[test]
    fn assignments_parse_by_the_options_type() {
        let (k, v) = assignment("first-turn-knock = blind").unwrap();
        assert_eq!(
            (k.as_str(), &v),
            ("first_turn_knock", &RuleValue::Assigned("blind".into()))
        );
        assert!(assignment("county=maybe")
            .unwrap_err()
            .to_string()
            .contains("county"));
        assert!(assignment("colour=red")
            .unwrap_err()
            .to_string()
            .contains("colour"));
        assert!(assignment("county").is_err());
        let t = build(None, &[assignment("county=yes").unwrap()]).unwrap();
        assert!(t.county);
    }

    #[test]
    fn gin_lives_refuses_what_it_cannot_play() {
        let gin = || ("lives_mode".to_string(), text("gin"));
        assert!(build(None, &[gin()]).is_ok());
        assert!(build(Some("scat"), &[gin()])
            .unwrap_err()
            .to_string()
            .contains("county"));
        let four = ("lives".to_string(), RuleValue::Int(4));
        assert!(build(None, &[gin(), four])
            .unwrap_err()
            .to_string()
            .contains("lives"));
    }

    /// Four-corners' six names are for its four lives and the county: another count of lives
    /// (or no county) leaves them out and plays; names given with it are the player's and must
    /// fit; the preset as it is keeps them.
    #[test]
    fn a_presets_names_are_left_out_when_the_lives_change() {
        let lives = |n| ("lives".to_string(), RuleValue::Int(n));
        let t = build(Some("four-corners"), &[lives(2)]).unwrap();
        assert_eq!((t.lives, t.county, t.life_names.len()), (2, true, 0));
        let t = build(
            Some("ride-the-bus"),
            &[("county".into(), RuleValue::Bool(false))],
        )
        .unwrap();
        assert!(t.life_names.is_empty());
        assert_eq!(
            build(Some("four-corners"), &[lives(4)])
                .unwrap()
                .life_names
                .len(),
            6
        );
        assert_eq!(
            build(Some("ride-the-bus"), &[]).unwrap().life_names.len(),
            5
        );
        let named = (
            "life_names".to_string(),
            RuleValue::List(vec!["a".into(), "b".into(), "c".into()]),
        );
        let err = build(Some("four-corners"), &[lives(2), named.clone()]).unwrap_err();
        assert!(err.to_string().contains("4 names are needed"), "{err}");
        let t = build(Some("four-corners"), &[lives(1), named]).unwrap();
        assert_eq!(t.life_names, ["a", "b", "c"]);
    }
}
