//! A table's whole rule set: the round-level [`RoundRules`] and the game-level options (seats,
//! lives, the county, the names of a player's standing, placing), the named presets of the rule
//! documents, and the checks of combinations. An option given by name is read in `by_name`.

use super::round_rules::{KnockerTie, LivesMode, RoundRules, ThirtyOneAfterKnock};
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
pub struct RuleSet {
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

impl Default for RuleSet {
    /// The standard table (seed 000).
    fn default() -> Self {
        RuleSet {
            seats: 4,
            lives: 3,
            county: false,
            life_names: Vec::new(),
            placing: Placing::default(),
            round: RoundRules::default(),
        }
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

impl RuleSet {
    /// The rules of a named preset.
    pub fn preset(name: &str) -> Result<RuleSet> {
        let mut t = RuleSet::default();
        let scat = |t: &mut RuleSet| {
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
                     give {need} names, or none (life_names= on the command line, [] in a state)",
                    need = self.names_needed(),
                    lives = self.lives,
                ),
            );
        }
        Ok(())
    }
}

/// The preset names, sorted (for messages).
pub fn sorted_presets() -> Vec<&'static str> {
    let mut p = PRESETS.to_vec();
    p.sort_unstable();
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_standard_is_the_default() {
        for p in PRESETS {
            RuleSet::preset(p).unwrap().validate().unwrap();
        }
        assert_eq!(RuleSet::preset("standard").unwrap(), RuleSet::default());
        assert!(RuleSet::preset("poker").is_err());
    }
}
