//! The game around the rounds: lives, the county, going out, placing and ranked points, the
//! wash, and the deal passing left. The game loop (in Python) and the game-value table
//! ([`crate::game::game_value`]) both settle a round here.

use crate::error::{Error, Result};
use crate::rules::{LivesMode, Placing, RuleSet};

/// The game-level rules a round's result is settled by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameRules {
    /// After the last life a player plays on "on the county" (0 lives); the next loss puts
    /// them out.
    pub county: bool,
    pub placing: Placing,
}

impl GameRules {
    pub fn of(rules: &RuleSet) -> GameRules {
        GameRules {
            county: rules.county,
            placing: rules.placing,
        }
    }

    /// Whether a player with `lives` left is out of the game.
    pub fn is_out(&self, lives: i16) -> bool {
        if self.county {
            lives < 0
        } else {
            lives <= 0
        }
    }

    /// The losses a player with `lives` can take before they are out: their lives, and the
    /// county's stage where the table has one (a loss past them puts them out all the same).
    pub fn losses_until_out(&self, lives: u8) -> u8 {
        (i16::from(lives) - self.lowest_in() + 1).clamp(0, 255) as u8
    }

    /// The fewest lives of a player still in (0 with the county: on the county).
    pub fn lowest_in(&self) -> i16 {
        if self.county {
            0
        } else {
            1
        }
    }

    /// What a place is worth: under ranked placing 3, 2 and 1 points for the first three places
    /// and 0 for the rest; when the winner takes all, 1 for the winner and 0 for the rest.
    pub fn points(&self, place: usize) -> u8 {
        match self.placing {
            Placing::Ranked => match place {
                1 => 3,
                2 => 2,
                3 => 1,
                _ => 0,
            },
            Placing::WinnerTakesAll => u8::from(place == 1),
        }
    }
}

/// Check the lives of the `seats` players still in: each from the fewest a player still in
/// may hold to the table's lives.
pub fn check_lives(rules: &RuleSet, lives: &[i128], seats: u8) -> Result<Vec<u8>> {
    if lives.len() != usize::from(seats) {
        return Err(Error::BadState(format!(
            "lives must give one number per seat ({seats}), not {}",
            lives.len()
        )));
    }
    let low = GameRules::of(rules).lowest_in();
    let unit = if rules.round.lives_mode == LivesMode::Gin {
        "letters left"
    } else {
        "lives"
    };
    let county = if rules.county {
        " (0: on the county)"
    } else {
        ""
    };
    lives
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            u8::try_from(w)
                .ok()
                .filter(|&x| i16::from(x) >= low && x <= rules.lives)
                .ok_or_else(|| {
                    Error::BadState(format!(
                        "lives[{i}] must be from {low} to the table's {} {unit}{county} for a \
                         player still in, not {w}",
                        rules.lives
                    ))
                })
        })
        .collect()
}

/// A round's result settled into the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The round would have left nobody in the game: nothing is lost and it is dealt again.
    pub wash: bool,
    /// Lives after the round (as before for a wash), one per seat of the round.
    pub lives: Vec<i16>,
    /// The seats that went out this round, the lowest place first: the lower hand takes the
    /// lower place; equal hands in seat order from the dealer's left (the earlier one lower).
    pub out: Vec<u8>,
}

/// Settle a round: `lives` before it, `losses` and `scores` (what each hand counted, as
/// numbers that order like the scores) per seat of the round, `first` the seat that played
/// first (the dealer's left).
pub fn settle<S: PartialOrd + Copy>(
    rules: &GameRules,
    lives: &[i16],
    losses: &[u8],
    scores: &[S],
    first: u8,
) -> Settled {
    let n = lives.len();
    let after: Vec<i16> = lives
        .iter()
        .zip(losses)
        .map(|(&l, &x)| l - i16::from(x))
        .collect();
    if after.iter().all(|&l| rules.is_out(l)) {
        return Settled {
            wash: true,
            lives: lives.to_vec(),
            out: Vec::new(),
        };
    }
    let from_left = |s: usize| (s + n - usize::from(first) % n) % n;
    let mut out: Vec<usize> = (0..n)
        .filter(|&s| !rules.is_out(lives[s]) && rules.is_out(after[s]))
        .collect();
    out.sort_by(|&a, &b| {
        scores[a]
            .partial_cmp(&scores[b])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(from_left(a).cmp(&from_left(b)))
    });
    Settled {
        wash: false,
        lives: after,
        out: out.into_iter().map(|s| s as u8).collect(),
    }
}

/// The next dealer: the next seat after `dealer` (in turn order) that is still in.
pub fn next_dealer(rules: &GameRules, lives: &[i16], dealer: usize) -> usize {
    turn_order(rules, lives, dealer)
        .first()
        .copied()
        .unwrap_or(dealer)
}

/// The seats dealt in when `dealer` deals: every seat still in, in turn order from the
/// dealer's left (the dealer last, when still in).
pub fn turn_order(rules: &GameRules, lives: &[i16], dealer: usize) -> Vec<usize> {
    let n = lives.len();
    (1..=n)
        .map(|k| (dealer + k) % n)
        .filter(|&s| !rules.is_out(lives[s]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: GameRules = GameRules {
        county: false,
        placing: Placing::WinnerTakesAll,
    };

    #[test]
    fn losses_are_taken_and_the_lower_hand_goes_out_lower() {
        // Seats 0..4, first 1. Seats 0 and 2 go out; seat 2's hand is lower: lower place.
        let s = settle(
            &STANDARD,
            &[1, 3, 1, 2],
            &[1, 0, 1, 1],
            &[20, 25, 18, 21],
            1,
        );
        assert!(!s.wash);
        assert_eq!(s.lives, vec![0, 3, 0, 1]);
        assert_eq!(s.out, vec![2, 0]);
        // Equal hands: the earlier from the dealer's left (first = 1: seat 2 before seat 0).
        let s = settle(
            &STANDARD,
            &[1, 3, 1, 2],
            &[1, 0, 1, 1],
            &[20, 25, 20, 21],
            1,
        );
        assert_eq!(s.out, vec![2, 0]);
        let s = settle(
            &STANDARD,
            &[1, 3, 1, 2],
            &[1, 0, 1, 1],
            &[20, 25, 20, 21],
            3,
        );
        assert_eq!(s.out, vec![0, 2]);
    }

    #[test]
    fn a_round_that_leaves_nobody_is_a_wash() {
        let s = settle(&STANDARD, &[1, 1, 1], &[0, 1, 1], &[31, 5, 6], 0);
        assert!(!s.wash);
        let s = settle(&STANDARD, &[1, 1], &[1, 2], &[20, 20], 0);
        assert!(s.wash);
        assert_eq!(s.lives, vec![1, 1]);
    }

    #[test]
    fn the_county_is_one_more_loss() {
        let county = GameRules {
            county: true,
            ..STANDARD
        };
        let s = settle(&county, &[1, 0, 2], &[1, 1, 0], &[10, 12, 30], 0);
        assert_eq!(s.lives, vec![0, -1, 2]);
        assert_eq!(s.out, vec![1]);
        assert_eq!(next_dealer(&county, &s.lives, 0), 2);
        assert_eq!(next_dealer(&county, &s.lives, 2), 0);
    }

    #[test]
    fn the_deal_passes_left_over_the_players_out() {
        // Seat 1 is out; seat 3 on the county is still in (with the county).
        let county = GameRules {
            county: true,
            ..STANDARD
        };
        assert_eq!(turn_order(&STANDARD, &[2, 0, 1, 0], 0), vec![2, 0]);
        assert_eq!(turn_order(&county, &[2, -1, 1, 0], 0), vec![2, 3, 0]);
        assert_eq!(next_dealer(&county, &[2, -1, 1, 0], 0), 2);
        assert_eq!(next_dealer(&STANDARD, &[2, 0, 1, 0], 2), 0);
        // Nobody else in: the dealer stays.
        assert_eq!(next_dealer(&STANDARD, &[2, 0, 0, 0], 0), 0);
    }

    #[test]
    fn points_by_place() {
        let ranked = GameRules {
            placing: Placing::Ranked,
            ..STANDARD
        };
        assert_eq!(
            (1..=5).map(|p| ranked.points(p)).collect::<Vec<_>>(),
            [3, 2, 1, 0, 0]
        );
        assert_eq!(
            (1..=3).map(|p| STANDARD.points(p)).collect::<Vec<_>>(),
            [1, 0, 0]
        );
    }
}
