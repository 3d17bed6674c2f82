//! The rules that decide how a round is played and what it costs: the round-level part of a
//! table's rule set. (The game-level options — lives, the county, placing — are the rest of it:
//! `rule_set`.)

use crate::error::{Error, Result};
use crate::hand::{Score, Scoring, ThreeOfAKind};

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
    /// Standard (seed 000, 003's main rules): a knock on the dealt hand is a legal play.
    #[default]
    Allowed,
    /// No knock on the round's first turn (seed 003's house rules).
    Forbidden,
    /// Seed 003's "hammer" or "shotgun": before anybody looks at their cards the first player may
    /// call a blind showdown (everybody shows what they were dealt; the lowest loses one, two if
    /// it was the caller). A first-turn knock made after looking is not allowed.
    Blind,
}

/// What a round costs: lives, or the letters of seed 003's Gin lives.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum LivesMode {
    /// The lowest hand loses a life; a knocker caught lowest pays the knock penalty.
    #[default]
    Lives,
    /// Seed 003's Gin lives: a knock claims the highest hand. If the knocker's hand is higher
    /// than every other, everybody else takes a letter; otherwise (beaten or tied: a tie does not
    /// make it *the* highest) the knocker takes the knock penalty in letters. Everything else
    /// (31 shown, dealt 31, the stock running out without a knock, the blind showdown) costs
    /// letters exactly as it would cost lives.
    Gin,
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
    pub lives_mode: LivesMode,
    /// Seed 003: a player may keep a 31 reached in play hidden (it then counts as 30 at the
    /// showdown). Only through [`crate::round::Action::PutDownHidden`]: the decision rule always
    /// shows.
    pub may_hide_31: bool,
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
            lives_mode: LivesMode::default(),
            may_hide_31: false,
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
        if self.lives_mode == LivesMode::Gin && self.knocker_tie != KnockerTie::KnockerPays {
            return Err(Error::BadRule(
                "knocker_tie",
                "does not apply with lives_mode gin (a knock that ties for the highest hand counts as beaten); set knocker_tie=knocker_pays".into(),
            ));
        }
        Ok(())
    }
}

impl KnockerTie {
    pub const NAMES: [(&'static str, KnockerTie); 4] = [
        ("knocker_pays", KnockerTie::KnockerPays),
        ("others_pay", KnockerTie::OthersPay),
        ("only_knocker", KnockerTie::OnlyKnocker),
        ("cadillac", KnockerTie::Cadillac),
    ];
}

impl FirstTurnKnock {
    pub const NAMES: [(&'static str, FirstTurnKnock); 3] = [
        ("allowed", FirstTurnKnock::Allowed),
        ("forbidden", FirstTurnKnock::Forbidden),
        ("blind", FirstTurnKnock::Blind),
    ];
}

impl LivesMode {
    pub const NAMES: [(&'static str, LivesMode); 2] =
        [("lives", LivesMode::Lives), ("gin", LivesMode::Gin)];
}

impl ThirtyOneAfterKnock {
    pub const NAMES: [(&'static str, ThirtyOneAfterKnock); 2] = [
        ("ends_round", ThirtyOneAfterKnock::EndsRound),
        ("continues", ThirtyOneAfterKnock::Continues),
    ];
}

impl ThreeOfAKind {
    pub const NAMES: [(&'static str, ThreeOfAKind); 3] = [
        ("none", ThreeOfAKind::None),
        ("30", ThreeOfAKind::Thirty),
        ("30.5", ThreeOfAKind::ThirtyHalf),
    ];
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
