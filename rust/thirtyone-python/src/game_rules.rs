//! `thirtyone._core.GameRules`: the game-level facts of a table, asked of the core (who is out,
//! the county, ranked points, Gin letters, the life names a table needs, the deal passing left),
//! so that Python holds no copy of them.

use pyo3::prelude::*;
use thirtyone_core::game::{next_dealer, turn_order, GameRules};
use thirtyone_core::oracle::input::Overrides;
use thirtyone_core::rules::{Placing, RuleSet, GIN_LETTERS};
use thirtyone_core::{Error, MAX_SEATS};

use crate::errors::IntoPy;
use crate::rules::rule_set;

/// A table's game-level rules, read once from its rules (a preset name or a dict of options).
#[pyclass(frozen, module = "thirtyone._core", name = "GameRules")]
pub struct PyGameRules {
    rules: RuleSet,
    game: GameRules,
}

fn lives_at(lives: i64) -> i16 {
    // Anything below a county player's -1 is as out as -1, anything above the most lives as in.
    lives.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16
}

fn seats_of(lives: &[i64], dealer: usize) -> PyResult<Vec<i16>> {
    let n = lives.len();
    if !(1..=MAX_SEATS).contains(&n) || dealer >= n {
        return Err(Error::BadState(format!(
            "a table of 1 to {MAX_SEATS} seats with the dealer among them, not {n} seats and \
             dealer {dealer}"
        )))
        .py_err();
    }
    Ok(lives.iter().map(|&l| lives_at(l)).collect())
}

#[pymethods]
impl PyGameRules {
    #[new]
    #[pyo3(signature = (rules=None))]
    fn new(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let rules = rule_set(rules, &Overrides::default())?;
        Ok(PyGameRules {
            game: GameRules::of(&rules),
            rules,
        })
    }

    /// Whether a player with `lives` left is out of the game: at none, or with the county below
    /// none (a player at none is on the county).
    fn is_out(&self, lives: i64) -> bool {
        self.game.is_out(lives_at(lives))
    }

    /// Whether a player with `lives` left plays on on the county.
    fn on_county(&self, lives: i64) -> bool {
        self.game.county && lives == 0
    }

    /// The points of a place under ranked placing (3, 2, 1, then 0); None when the winner
    /// takes all.
    fn points(&self, place: usize) -> Option<u8> {
        match self.game.placing {
            Placing::Ranked => Some(self.game.points(place)),
            Placing::WinnerTakesAll => None,
        }
    }

    /// Gin lives: the letters taken by a player with `lives` left (`G I`), `-` for none.
    fn letters(&self, lives: i64) -> String {
        let lost = (i64::from(self.rules.lives) - lives).clamp(0, GIN_LETTERS.len() as i64);
        let taken: Vec<String> = GIN_LETTERS
            .chars()
            .take(lost as usize)
            .map(String::from)
            .collect();
        if taken.is_empty() {
            "-".into()
        } else {
            taken.join(" ")
        }
    }

    /// How many `life_names` a table with these lives needs.
    fn names_needed(&self) -> usize {
        self.rules.names_needed()
    }

    /// The seats dealt in when `dealer` deals (`lives`: every seat's): those still in, in turn
    /// order from the dealer's left.
    fn turn_order(&self, lives: Vec<i64>, dealer: usize) -> PyResult<Vec<usize>> {
        Ok(turn_order(&self.game, &seats_of(&lives, dealer)?, dealer))
    }

    /// The next dealer after `dealer`: the next seat still in (the dealer when nobody else is).
    fn next_dealer(&self, lives: Vec<i64>, dealer: usize) -> PyResult<usize> {
        Ok(next_dealer(&self.game, &seats_of(&lives, dealer)?, dealer))
    }
}
