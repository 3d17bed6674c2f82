//! A table's whole rule set: the round-level [`RoundRules`] and the game-level options (seats,
//! lives, the county, the names of a player's standing, placing), the named presets of the rule
//! documents, and the one place where a rule option given by name is checked and applied.

use super::round_rules::{
    score_from_points, FirstTurnKnock, KnockerTie, LivesMode, RoundRules, ThirtyOneAfterKnock,
};
use crate::error::{quote, Error, Result};
use crate::hand::ThreeOfAKind;

/// The most seats at a table.
pub const MAX_SEATS: usize = 9;
/// The most lives a table may start with: a game's length grows with them.
pub const MAX_LIVES: u8 = 20;
/// The longest name of a standing (`life_names`), in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// Gin lives spells these letters.
pub const GIN_LETTERS: &str = "GIN";

/// How a game's result is counted.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Placing {
    /// The survivor won; the rest are out.
    #[default]
    WinnerTakesAll,
    /// The survivor and the last two to fall take 3, 2 and 1 points.
    Ranked,
}

impl Placing {
    pub const NAMES: [(&'static str, Placing); 2] = [
        ("winner_takes_all", Placing::WinnerTakesAll),
        ("ranked", Placing::Ranked),
    ];
}

/// Every rule of a table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TableRules {
    /// Players at the table when the game starts (2 to 9).
    pub seats: u8,
    /// Lives each player starts with (letters under Gin lives).
    pub lives: u8,
    /// After the last life a player plays on "on the county".
    pub county: bool,
    /// Names of a player's standing, from all lives down to out (empty: numbers).
    pub life_names: Vec<String>,
    pub placing: Placing,
    pub round: RoundRules,
}

impl Default for TableRules {
    /// The standard table (seed 000).
    fn default() -> Self {
        TableRules {
            seats: 4,
            lives: 3,
            county: false,
            life_names: Vec::new(),
            placing: Placing::default(),
            round: RoundRules::default(),
        }
    }
}

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

/// The presets: the standard table and one per rule document (their descriptions are the
/// Python package's to show).
pub const PRESETS: [&str; 7] = [
    "standard",
    "five-lives",
    "four-corners",
    "scat",
    "cadillac",
    "ride-the-bus",
    "gin-lives",
];

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

impl TableRules {
    /// The rules of a named preset.
    pub fn preset(name: &str) -> Result<TableRules> {
        let mut t = TableRules::default();
        let scat = |t: &mut TableRules| {
            t.county = true;
            t.round.knocker_tie = KnockerTie::OthersPay;
            t.round.two_player_mercy = true;
            t.round.may_hide_31 = true;
        };
        match name {
            "standard" => {}
            "five-lives" => {
                t.lives = 5;
                t.round.scoring.three_of_a_kind = ThreeOfAKind::ThirtyHalf;
                t.round.thirty_one_after_knock = ThirtyOneAfterKnock::Continues;
            }
            "four-corners" => {
                t.lives = 4;
                t.county = true;
                t.life_names = names(&[
                    "bill unfolded",
                    "1 corner folded",
                    "2 corners folded",
                    "3 corners folded",
                    "all 4 corners folded",
                    "out, stake in the centre",
                ]);
            }
            "scat" => scat(&mut t),
            "cadillac" => {
                scat(&mut t);
                t.lives = 4;
                t.round.scoring.three_of_a_kind = ThreeOfAKind::Thirty;
                t.round.scoring.three_aces_33 = true;
                t.round.knocker_tie = KnockerTie::Cadillac;
            }
            "ride-the-bus" => {
                scat(&mut t);
                t.life_names = names(&[
                    "back of the bus",
                    "middle of the bus",
                    "front of the bus",
                    "on the stairs",
                    "off the bus",
                ]);
            }
            "gin-lives" => {
                scat(&mut t);
                t.round.lives_mode = LivesMode::Gin;
                t.county = false;
                t.round.knock_penalty = 1;
                t.round.knocker_tie = KnockerTie::KnockerPays;
            }
            other => {
                return Err(Error::BadRule(
                    "preset",
                    format!(
                        "unknown preset {}: choose one of {}",
                        quote(other),
                        sorted_presets().join(", ")
                    ),
                ))
            }
        }
        Ok(t)
    }

    /// How many `life_names` a table with these lives needs.
    pub fn names_needed(&self) -> usize {
        usize::from(self.lives) + if self.county { 2 } else { 1 }
    }

    /// Set one option by name. The value is checked for its type and range here; combinations
    /// are checked by [`TableRules::validate`].
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

    /// Refuse combinations the rules cannot honour, naming the field.
    pub fn validate(&self) -> Result<()> {
        let bad = |field, msg: String| Err(Error::BadRule(field, msg));
        if self.round.lives_mode == LivesMode::Gin {
            if usize::from(self.lives) != GIN_LETTERS.len() {
                return bad(
                    "lives",
                    format!(
                        "Gin lives spells G, I, N: 3 letters, so lives must be 3, not {}",
                        self.lives
                    ),
                );
            }
            if self.county {
                return bad(
                    "county",
                    "Gin lives has no county (three letters and you are out): set county=false"
                        .into(),
                );
            }
        }
        self.round.validate()?;
        let n = self.life_names.len();
        if n != 0 && n != self.names_needed() {
            let county = if self.county { " with the county" } else { "" };
            let standing = if self.county { "on the county, " } else { "" };
            let unit = if self.lives == 1 { "life" } else { "lives" };
            return bad(
                "life_names",
                format!(
                    "{need} names are needed for {lives} {unit}{county} (one for each number of \
                     lives left from {lives} down to 1, {standing}and one for out), not {n}; \
                     give {need} names, or none with life_names=",
                    need = self.names_needed(),
                    lives = self.lives,
                ),
            );
        }
        Ok(())
    }

    /// Whether a player with `lives_left` is still in the game (with the county, 0 is on it).
    pub fn is_in(&self, lives_left: i64) -> bool {
        if self.county {
            lives_left >= 0
        } else {
            lives_left > 0
        }
    }
}

/// The preset names, sorted (for messages).
pub fn sorted_presets() -> Vec<&'static str> {
    let mut p = PRESETS.to_vec();
    p.sort_unstable();
    p
}

/// Build a table from a preset and changes in order (`preset` None: standard), checked whole.
pub fn build(preset: Option<&str>, changes: &[(String, RuleValue)]) -> Result<TableRules> {
    let mut t = TableRules::preset(preset.unwrap_or("standard"))?;
    for (key, value) in changes {
        t.apply(key, value)?;
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
    TableRules::default().apply(&key, &value)?;
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
    fn every_preset_is_valid_and_standard_is_the_default() {
        for p in PRESETS {
            TableRules::preset(p).unwrap().validate().unwrap();
        }
        assert_eq!(
            TableRules::preset("standard").unwrap(),
            TableRules::default()
        );
        assert!(TableRules::preset("poker").is_err());
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
}
