//! The rules that decide how a round is played and what it costs: the round-level part of a
//! table's rule set. (The game-level options — lives, the county, placing — live with the game.)

use crate::error::{Error, Result};
use crate::scoring::{Score, Scoring};

/// Who pays when the knocker ties for lowest at the showdown.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum KnockerTie {
    /// Seed 000 / standard: the knocker pays the knock penalty, the other tied players 1 each.
    #[default]
    KnockerPays,
    /// Seed 003's main table: the knocker is safe, the other tied players pay 1 each.
    OthersPay,
    /// Only the knocker pays (the knock penalty); the players tied with them pay nothing.
    OnlyKnocker,
    /// Cadillac: the knocker pays 2, the players tied with them nothing.
    Cadillac,
}

/// Whether the first player of a round may knock on the round's first turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum FirstTurnKnock {
    #[default]
    Allowed,
    Forbidden,
}

/// What a 31 shown during the final turns after a knock does.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ThirtyOneAfterKnock {
    /// The round ends at once; everybody else loses a life.
    #[default]
    EndsRound,
    /// Seed 001: everybody else loses a life and the round goes on to the showdown.
    Continues,
}

/// The round-level rules of a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RoundRules {
    pub scoring: Scoring,
    /// Lives a knocker pays when lowest (1 or 2).
    pub knock_penalty: u8,
    pub knocker_tie: KnockerTie,
    /// The lowest score that may knock (`Score(0)`: no minimum).
    pub min_knock: Score,
    /// A knock only with three cards of one suit.
    pub knock_needs_one_suit: bool,
    pub first_turn_knock: FirstTurnKnock,
    pub thirty_one_after_knock: ThirtyOneAfterKnock,
    /// With two players left, on the final turn after the opponent knocks, you may take your own
    /// last put-down from the pile.
    pub two_player_mercy: bool,
}

impl Default for RoundRules {
    /// The standard table (seed 000, `rules.md`).
    fn default() -> Self {
        RoundRules {
            scoring: Scoring::default(),
            knock_penalty: 2,
            knocker_tie: KnockerTie::default(),
            min_knock: Score(0),
            knock_needs_one_suit: false,
            first_turn_knock: FirstTurnKnock::default(),
            thirty_one_after_knock: ThirtyOneAfterKnock::default(),
            two_player_mercy: false,
        }
    }
}

impl RoundRules {
    /// Refuse values the rules cannot honour, naming the field.
    pub fn validate(&self) -> Result<()> {
        if !(1..=2).contains(&self.knock_penalty) {
            return Err(Error::BadRule(
                "knock_penalty",
                format!("must be 1 or 2, not {}", self.knock_penalty),
            ));
        }
        if self.min_knock > Score::THIRTY_ONE {
            return Err(Error::BadRule(
                "min_knock",
                format!("must be at most 31, not {}", self.min_knock),
            ));
        }
        Ok(())
    }
}

/// A rule value given as text (from Python, the CLI or a state file), parsed with the field named.
fn choice<T: Copy>(field: &'static str, text: &str, options: &[(&str, T)]) -> Result<T> {
    options
        .iter()
        .find(|(name, _)| *name == text)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            Error::BadRule(
                field,
                format!("{text:?} is not one of {}", names.join(", ")),
            )
        })
}

impl KnockerTie {
    pub const NAMES: [(&'static str, KnockerTie); 4] = [
        ("knocker_pays", KnockerTie::KnockerPays),
        ("others_pay", KnockerTie::OthersPay),
        ("only_knocker", KnockerTie::OnlyKnocker),
        ("cadillac", KnockerTie::Cadillac),
    ];
    pub fn parse(text: &str) -> Result<Self> {
        choice("knocker_tie", text, &Self::NAMES)
    }
}

impl FirstTurnKnock {
    pub const NAMES: [(&'static str, FirstTurnKnock); 2] = [
        ("allowed", FirstTurnKnock::Allowed),
        ("forbidden", FirstTurnKnock::Forbidden),
    ];
    pub fn parse(text: &str) -> Result<Self> {
        choice("first_turn_knock", text, &Self::NAMES)
    }
}

impl ThirtyOneAfterKnock {
    pub const NAMES: [(&'static str, ThirtyOneAfterKnock); 2] = [
        ("ends_round", ThirtyOneAfterKnock::EndsRound),
        ("continues", ThirtyOneAfterKnock::Continues),
    ];
    pub fn parse(text: &str) -> Result<Self> {
        choice("thirty_one_after_knock", text, &Self::NAMES)
    }
}

impl crate::scoring::ThreeOfAKind {
    pub const NAMES: [(&'static str, crate::scoring::ThreeOfAKind); 3] = [
        ("none", crate::scoring::ThreeOfAKind::None),
        ("30", crate::scoring::ThreeOfAKind::Thirty),
        ("30.5", crate::scoring::ThreeOfAKind::ThirtyHalf),
    ];
    pub fn parse(text: &str) -> Result<Self> {
        choice("three_of_a_kind", text, &Self::NAMES)
    }
}

/// A score given in points (30.5 allowed), as a threshold.
pub fn score_from_points(field: &'static str, points: f64) -> Result<Score> {
    let halves = points * 2.0;
    if !halves.is_finite() || halves < 0.0 || halves.fract() != 0.0 || halves > 200.0 {
        return Err(Error::BadRule(
            field,
            format!("{points} is not a score (whole or half points from 0)"),
        ));
    }
    Ok(Score(halves as u8))
}
