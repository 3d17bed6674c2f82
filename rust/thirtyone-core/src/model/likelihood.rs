//! The likelihood of what a modelled player did, one decision at a time: the start of a turn
//! (knock, take, draw or decline) for each knock score they may have, and the card they put down.
//!
//! A decision is the rule's with chance `1 - slip`; each other legal move has `slip` shared
//! evenly. A decision with one legal move has chance 1.

use super::{knock_score, Params, KNOCK_SCORES};
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
    // Knock (when allowed), take (when allowed), and draw or, from an empty stock, decline.
    let legal = usize::from(may_knock) + usize::from(may_take) + 1;
    let by_rule = |rule: Start| chance(p, observed == rule, legal);
    let mut w = [0.0; KNOCK_SCORES];
    for (i, slot) in w.iter_mut().enumerate() {
        let rule = if may_knock && score >= knock_score(i) {
            Start::Knock
        } else {
            never
        };
        *slot = by_rule(rule);
    }
    w
}

/// The chance of putting down a card: the rule's (`is_rules`) or another of `legal` cards.
pub fn put_down_chance(p: &Params, is_rules: bool, legal: usize) -> f64 {
    chance(p, is_rules, legal)
}

fn chance(p: &Params, is_rules: bool, legal: usize) -> f64 {
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

    /// A knock at 22: impossible by the rule at knock scores above 22, so only a slip there.
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
            let want = if k <= 22 { 1.0 - p.slip } else { p.slip / 2.0 };
            assert!((x - want).abs() < 1e-15, "knock score {k}: {x}");
        }
        // A draw by the same hand: the rule draws at every knock score above 22.
        let w = start_chances(
            p,
            Start::Draw,
            Start::Draw,
            true,
            Score::from_points(22),
            true,
        );
        assert!((w[0] - p.slip / 2.0).abs() < 1e-15);
        assert!((w[KNOCK_SCORES - 1] - (1.0 - p.slip)).abs() < 1e-15);
        // Without a knock allowed, or the pile: fewer legal moves.
        let w = start_chances(
            p,
            Start::Take,
            Start::Draw,
            false,
            Score::from_points(22),
            true,
        );
        assert!(w.iter().all(|&x| (x - p.slip).abs() < 1e-15));
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
}
