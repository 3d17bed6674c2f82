//! The likelihood of what a modelled player did, one decision at a time: the start of a turn
//! (knock, take, draw or decline) for each knock score they may have, and the card they put down.
//!
//! A knock is deliberate: one the rule would not make at their knock score has chance
//! `knock_slip`; one it would make has `1 - slip`, the other legal moves sharing `slip`. Any
//! other decision is the rule's with chance `1 - slip` (less `knock_slip` where they could have
//! knocked), each other legal move (a knock aside) sharing `slip`. A decision with one legal move
//! has chance 1.
//!
//! A model may weigh the final turn, after somebody else knocked, by chances of its own
//! ([`FinalTurn`]): there the player only tries to beat the others' hands, and any card that
//! keeps as much as the rule's is as likely as the rule's.

use super::{FinalTurn, Params, KNOCK_SCORES, LOWEST_KNOCK};
use crate::hand::decision::Start;
use crate::hand::Score;

/// One weight per knock score ([`super::LOWEST_KNOCK`] + i points).
pub type Weights = [f64; KNOCK_SCORES];

/// The chance of the `observed` start for each knock score, given what the rule does when it
/// does not knock (`never`), whether the player may knock now with this hand, the hand's score,
/// and whether they may take the top discard.
pub fn start_chances(
    p: &Params,
    observed: Start,
    never: Start,
    may_knock: bool,
    score: Score,
    may_take: bool,
) -> Weights {
    let s = StartChances::new(p, observed, never, may_knock, score, may_take);
    std::array::from_fn(|i| s.at(i))
}

/// [`start_chances`] in three numbers: the chance at the knock scores the hand reaches (the
/// first `knocks` of them, where the rule knocks) and at the others.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StartChances {
    pub knocking: f64,
    pub not_knocking: f64,
    /// How many knock scores (from the lowest) the rule knocks at with this hand, now.
    pub knocks: usize,
}

impl StartChances {
    #[inline]
    pub fn new(
        p: &Params,
        observed: Start,
        never: Start,
        may_knock: bool,
        score: Score,
        may_take: bool,
    ) -> StartChances {
        // Besides a knock: take (when allowed), and draw or, from an empty stock, decline.
        let others = usize::from(may_take) + 1;
        // The knock scores at or below the hand's: those of index up to its points less the
        // lowest (a half point rounds down).
        let reached = usize::from(score.halves() / 2).saturating_sub(usize::from(LOWEST_KNOCK) - 1);
        StartChances {
            knocking: start_chance(p, observed, Start::Knock, may_knock, others),
            not_knocking: start_chance(p, observed, never, may_knock, others),
            knocks: if may_knock {
                reached.min(KNOCK_SCORES)
            } else {
                0
            },
        }
    }

    /// The chance at knock score index `i`.
    #[inline]
    pub fn at(&self, i: usize) -> f64 {
        if i < self.knocks {
            self.knocking
        } else {
            self.not_knocking
        }
    }

    /// `w` times the chance, at every knock score.
    #[inline]
    pub fn weigh(&self, w: &mut Weights) {
        // Every score in one pass of fixed length, each times its chance (two loops of the
        // split's lengths cost their bookkeeping at every branch of a modelled read).
        for (i, x) in w.iter_mut().enumerate() {
            *x *= if i < self.knocks {
                self.knocking
            } else {
                self.not_knocking
            };
        }
    }
}

/// The chance of the `observed` start when the rule's is `rule`.
fn start_chance(p: &Params, observed: Start, rule: Start, may_knock: bool, others: usize) -> f64 {
    if rule == Start::Knock {
        return if observed == Start::Knock {
            1.0 - p.slip
        } else {
            p.slip / others as f64
        };
    }
    let knock = if may_knock { p.knock_slip } else { 0.0 };
    let slip = if others > 1 { p.slip } else { 0.0 };
    if observed == Start::Knock {
        knock
    } else if observed == rule {
        1.0 - slip - knock
    } else {
        slip / (others - 1) as f64
    }
}

/// The chance of the `observed` start on a final turn ([`FinalTurn`]), where the rule makes
/// `rule` and they may or may not take the top discard (no knock is open); `take`: the hand's
/// score now and after the rule's take (read only where the rule takes).
pub fn final_start_chance(
    f: &FinalTurn,
    observed: Start,
    rule: Start,
    may_take: bool,
    take: (Score, Score),
) -> f64 {
    let (take, other) = match rule {
        _ if !may_take => return 1.0,
        Start::Take => {
            let t = f.take.chance(take.0, take.1);
            (t, 1.0 - t)
        }
        _ => (f.takes, 1.0 - f.takes),
    };
    if observed == Start::Take {
        take
    } else {
        other
    }
}

/// The chance of a put-down on a final turn ([`FinalTurn`]): one of the `as_much` cards of the
/// `legal` that keep as much as the rule's card (`keeps_as_much`), alike, or one of the others.
pub fn final_put_down_chance(
    f: &FinalTurn,
    keeps_as_much: bool,
    as_much: usize,
    legal: usize,
) -> f64 {
    if as_much >= legal {
        1.0 / legal as f64
    } else if keeps_as_much {
        (1.0 - f.below) / as_much as f64
    } else {
        f.below / (legal - as_much) as f64
    }
}

/// The chance of putting down a card: the rule's (`is_rules`) or another of `legal` cards.
pub fn put_down_chance(p: &Params, is_rules: bool, legal: usize) -> f64 {
    if legal <= 1 {
        1.0
    } else if is_rules {
        1.0 - p.slip
    } else {
        p.slip / (legal - 1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, LOWEST_KNOCK};

    /// A knock at 22: the rule's at knock scores up to 22, a knock slip above.
    #[test]
    fn a_knock_weighs_the_scores_at_or_below_the_hand_by_the_rule_and_the_rest_as_a_slip() {
        let p = Model::Person.params().unwrap();
        let w = start_chances(
            p,
            Start::Knock,
            Start::Draw,
            true,
            Score::from_points(22),
            true,
        );
        for (i, &x) in w.iter().enumerate() {
            let k = LOWEST_KNOCK + i as u8;
            let want = if k <= 22 { 1.0 - p.slip } else { p.knock_slip };
            assert!((x - want).abs() < 1e-15, "knock score {k}: {x}");
        }
        // A draw by the same hand: a slip where the rule knocks, the rule's move above.
        let w = start_chances(
            p,
            Start::Draw,
            Start::Draw,
            true,
            Score::from_points(22),
            true,
        );
        assert!((w[0] - p.slip / 2.0).abs() < 1e-15);
        let want = 1.0 - p.slip - p.knock_slip;
        assert!((w[KNOCK_SCORES - 1] - want).abs() < 1e-15);
        // A take where the rule draws, no knock allowed: the one other move, a slip.
        let w = start_chances(
            p,
            Start::Take,
            Start::Draw,
            false,
            Score::from_points(22),
            true,
        );
        assert!(w.iter().all(|&x| (x - p.slip).abs() < 1e-15));
        // A draw with no other move but a knock the rule does not make.
        let w = start_chances(
            p,
            Start::Draw,
            Start::Draw,
            true,
            Score::from_points(15),
            false,
        );
        assert!(w.iter().all(|&x| (x - (1.0 - p.knock_slip)).abs() < 1e-15));
        let w = start_chances(
            p,
            Start::Draw,
            Start::Draw,
            false,
            Score::from_points(22),
            false,
        );
        assert!(w.iter().all(|&x| x == 1.0));
        assert_eq!(put_down_chance(p, false, 4), p.slip / 3.0);
        assert_eq!(put_down_chance(p, true, 3), 1.0 - p.slip);
    }

    /// On a final turn the chances of the legal starts, and of the legal put-downs, sum to 1;
    /// a take where the rule draws is the model's `takes`, a lower put-down shares `below`.
    #[test]
    fn a_final_turns_chances_sum_to_one() {
        let f = Model::Expert.params().unwrap().final_turn.unwrap();
        let at = |now, after| (Score::from_points(now), Score::from_points(after));
        for rule in [Start::Take, Start::Draw] {
            for take in [at(10, 12), at(12, 21), at(20, 30)] {
                let both: f64 = [Start::Take, Start::Draw]
                    .iter()
                    .map(|&m| final_start_chance(&f, m, rule, true, take))
                    .sum();
                assert!((both - 1.0).abs() < 1e-15);
                assert_eq!(final_start_chance(&f, Start::Draw, rule, false, take), 1.0);
            }
        }
        let draw_for =
            |now, after| final_start_chance(&f, Start::Draw, Start::Take, true, at(now, after));
        assert_eq!(
            final_start_chance(&f, Start::Take, Start::Draw, true, at(12, 12)),
            f.takes
        );
        // Where the rule takes: a take to 11 is left for a draw, one to 21 made.
        assert!(draw_for(9, 11) > 0.95 && draw_for(15, 21) < 0.1);
        assert!(draw_for(12, 14) > draw_for(12, 16) && draw_for(13, 16) > draw_for(10, 16));
        for legal in [3, 4] {
            for as_much in 1..=legal {
                let total = as_much as f64 * final_put_down_chance(&f, true, as_much, legal)
                    + (legal - as_much) as f64 * final_put_down_chance(&f, false, as_much, legal);
                assert!((total - 1.0).abs() < 1e-15, "{as_much} of {legal}: {total}");
            }
        }
        assert_eq!(final_put_down_chance(&f, false, 1, 4), f.below / 3.0);
        assert_eq!(final_put_down_chance(&f, true, 2, 4), (1.0 - f.below) / 2.0);
    }

    /// The three numbers of [`StartChances`] say the same as the rule read knock score by
    /// knock score: the knocking chance wherever the hand reaches the knock score.
    #[test]
    fn the_split_chances_are_the_rule_at_every_knock_score() {
        let p = Model::Expert.params().unwrap();
        for halves in 0..=62u8 {
            let score = Score(halves);
            for may_knock in [false, true] {
                let s = StartChances::new(p, Start::Draw, Start::Draw, may_knock, score, true);
                let mut w = [1.0; KNOCK_SCORES];
                s.weigh(&mut w);
                for (i, &x) in w.iter().enumerate() {
                    let reached = may_knock && score >= crate::model::knock_score(i);
                    let want = if reached { s.knocking } else { s.not_knocking };
                    assert_eq!((s.at(i), x), (want, want), "{score}, {i}");
                }
            }
        }
    }

    /// Over the legal moves of a start, the chances sum to 1 at every knock score.
    #[test]
    fn the_chances_of_the_legal_moves_sum_to_one() {
        let p = Model::Person.params().unwrap();
        for may_knock in [false, true] {
            for may_take in [false, true] {
                for never in [Start::Take, Start::Draw] {
                    if never == Start::Take && !may_take {
                        continue;
                    }
                    for score in [10, 20, 25, 30] {
                        let mut legal = vec![Start::Draw];
                        legal.extend(may_take.then_some(Start::Take));
                        legal.extend(may_knock.then_some(Start::Knock));
                        let s = Score::from_points(score);
                        let total: Weights = legal.iter().fold([0.0; KNOCK_SCORES], |t, &m| {
                            let c = start_chances(p, m, never, may_knock, s, may_take);
                            std::array::from_fn(|i| t[i] + c[i])
                        });
                        assert!(total.iter().all(|&x| (x - 1.0).abs() < 1e-12), "{total:?}");
                    }
                }
            }
        }
    }
}
