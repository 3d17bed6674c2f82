//! The profiled turns against the round's own, turn by turn: the rule's turns, the options, and the
//! modelled turn's take threshold and draw without a branch.

use super::*;
use crate::hand::decision::TABLE_KNOCK_AT;
use crate::rules::{FirstTurnKnock, RoundRules, ThirtyOneAfterKnock};
use montecarlo::Rng;

/// The hands of a round as sets (the profiled turns keep them sorted).
fn settled(round: &Round) -> Vec<[u8; 3]> {
    (0..round.seats())
        .map(|s| {
            let mut h = round.hand(s).map(|c| c.index());
            h.sort_unstable();
            h
        })
        .collect()
}

/// The rules of test round `game`, among those that change a turn: the first-turn knock, a
/// minimum knock, one-suit knocks, the two-player mercy, 31s after a knock.
pub(in crate::round) fn varied_rules(game: u32) -> RoundRules {
    RoundRules {
        first_turn_knock: if game % 3 == 1 {
            FirstTurnKnock::Forbidden
        } else {
            FirstTurnKnock::Allowed
        },
        min_knock: if game % 4 == 1 {
            Score::from_points(21)
        } else {
            RoundRules::default().min_knock
        },
        knock_needs_one_suit: game % 7 == 3,
        two_player_mercy: game % 2 == 0,
        thirty_one_after_knock: if game % 5 == 1 {
            ThirtyOneAfterKnock::Continues
        } else {
            ThirtyOneAfterKnock::default()
        },
        ..RoundRules::default()
    }
}

/// Rounds of every table size under rules that change a turn (the first-turn knock, a
/// minimum knock, one-suit knocks, the two-player mercy, 31s after a knock), from random
/// deals with random knock scores, played by the rule's turns and by the profiled ones with
/// the same random stream: after every turn the two rounds are the same, hand for hand.
#[test]
fn profiled_turns_are_the_rule_turns() {
    let deck: Vec<Card> = Card::all().collect();
    let mut rng = Rng::stream(11, 0, 0);
    let all = profile::profiles();
    let mut turns = 0;
    for game in 0..3_000u32 {
        let rules = varied_rules(game);
        let seats = 2 + (game % 8) as u8;
        let mut cards = deck.clone();
        rng.shuffle(&mut cards);
        let Ok(dealt) = Round::deal(rules, seats, game as u8 % seats, &cards) else {
            panic!("a legal deal")
        };
        let knock_at: Vec<Score> = (0..seats)
            .map(|_| Score::from_points(18 + rng.below(14) as u8))
            .collect();
        let (mut by_rule, mut by_profile) = (dealt.clone(), dealt);
        let hands = Hands::of(&by_profile, all);
        let first = by_profile.to_move();
        let mut profiled = Profiled::<true>::resume(&mut by_profile, &hands, first, all);
        // The same draws, made apart for each.
        let stream = Rng::stream(3, 1, u64::from(game));
        let (mut d1, mut d2) = (Draws::new(&by_rule, &stream), Draws::new(&by_rule, &stream));
        while !by_rule.is_over() {
            let k = knock_at[usize::from(by_rule.to_move())];
            by_rule.rule_turn(k, Some(&mut d1));
            profiled.turn(k, &mut d2);
            let mut copy = profiled.round().clone();
            let mut now = profiled.branch(&mut copy);
            now.settle();
            let now = now.round();
            assert_eq!(now.public, by_rule.public, "game {game}");
            assert_eq!(settled(now), settled(&by_rule), "game {game}");
            assert_eq!(now.scores, by_rule.scores);
            assert_eq!(now.hid_31, by_rule.hid_31);
            assert_eq!(d1.stock_cards(), d2.stock_cards());
            turns += 1;
        }
    }
    assert!(turns > 30_000, "{turns}");
}

/// The Oracle's draw and take options played on the profiled hands
/// ([`Profiled::draw_by_rule`], [`Profiled::take_putting_down`]) leave the round as the
/// round's own do, at every turn of random rounds where the player to move may draw or take.
#[test]
fn profiled_options_are_the_rounds() {
    let deck: Vec<Card> = Card::all().collect();
    let mut rng = Rng::stream(12, 0, 0);
    let all = profile::profiles();
    let (mut draws, mut takes) = (0, 0);
    for game in 0..1_000u32 {
        let seats = 2 + (game % 8) as u8;
        let mut cards = deck.clone();
        rng.shuffle(&mut cards);
        let Ok(mut round) = Round::deal(varied_rules(game), seats, 0, &cards) else {
            panic!("a legal deal")
        };
        while !round.is_over() {
            let hands = Hands::of(&round, all);
            let same = |by_round: &Round, mut by_profile: Profiled<'_, true>| {
                by_profile.settle();
                let now = by_profile.round();
                assert_eq!(now.public, by_round.public, "game {game}");
                assert_eq!(settled(now), settled(by_round), "game {game}");
                assert_eq!(now.scores, by_round.scores);
                assert_eq!(now.hid_31, by_round.hid_31);
                assert_eq!(now.stock, by_round.stock);
            };
            if round.public.stage == Stage::Start && round.stock_len() > 0 {
                let (mut by_round, mut copy) = (round.clone(), round.clone());
                let stream = Rng::stream(4, 0, u64::from(game));
                by_round.draw_by_rule(Some(&mut Draws::new(&round, &stream)));
                let mut by_profile = Profiled::<true>::new(&mut copy, &hands, all);
                by_profile.draw_by_rule(&mut Draws::new(&round, &stream));
                same(&by_round, by_profile);
                draws += 1;
            }
            if round.may_take() {
                for card in round.hand(round.to_move()) {
                    let (mut by_round, mut copy) = (round.clone(), round.clone());
                    by_round.take_putting_down(card);
                    let mut by_profile = Profiled::<true>::new(&mut copy, &hands, all);
                    by_profile.take_putting_down(card);
                    same(&by_round, by_profile);
                    takes += 1;
                }
            }
            // The stock's top card (the deck was shuffled).
            round.rule_turn(Score::from_points(27), None);
        }
    }
    assert!(draws > 5_000 && takes > 15_000, "{draws} {takes}");
}

/// A turn taking only from a threshold is the rule's but for a take before a knock that leaves
/// less than the threshold: with the stock not empty that take becomes a draw (and the rule's put-down of the
/// card drawn), checked turn by turn on copies of whole rounds of 3 to 9 seats under rules that
/// change a turn; the modelled turn, drawing without a branch, is that turn exactly.
#[test]
fn a_turn_taking_from_16_is_the_rules_but_for_a_take_that_leaves_less() {
    let deck: Vec<Card> = Card::all().collect();
    let mut rng = Rng::stream(29, 0, 0);
    let all = profile::profiles();
    let take_from = Score::from_points(16);
    let (mut declined, mut same) = (0u32, 0u32);
    for game in 0..1_500u32 {
        let rules = varied_rules(game);
        let seats = 3 + (game % 7) as u8;
        let mut cards = deck.clone();
        rng.shuffle(&mut cards);
        let mut r = Round::deal(rules, seats, 0, &cards).unwrap();
        let hands: Hands = hands_of(&r, all);
        let first = r.to_move();
        let mut draws = Draws::new(&r, &Rng::stream(7, 0, u64::from(game)));
        let mut turns = Profiled::<true>::resume(&mut r, &hands, first, all);
        while !turns.round.is_over() {
            let seat = turns.round.to_move();
            let (knocked, stock) = (turns.round.knocker(), turns.round.public.stock_len);
            let (mut rule_copy, mut choosy_copy) = (turns.round.clone(), turns.round.clone());
            let (mut rule_draws, mut choosy_draws) = (draws.clone(), draws.clone());
            let mut by_rule = turns.branch(&mut rule_copy);
            by_rule.turn(TABLE_KNOCK_AT, &mut rule_draws);
            by_rule.settle();
            let mut choosy = turns.branch(&mut choosy_copy);
            choosy.modelled_turn(TABLE_KNOCK_AT, Some(take_from), &mut choosy_draws);
            choosy.settle();
            // The modelled turn's draw without a branch is the branching turn's.
            let mut branching_copy = turns.round.clone();
            let mut branching = turns.branch(&mut branching_copy);
            let mut branching_draws = draws.clone();
            branching.turn_taking_from(TABLE_KNOCK_AT, Some(take_from), &mut branching_draws);
            branching.settle();
            assert_eq!(choosy_copy.public, branching_copy.public, "game {game}");
            assert_eq!(
                settled(&choosy_copy),
                settled(&branching_copy),
                "game {game}"
            );
            let rule_took = rule_copy.public.stock_len == stock
                && rule_copy.public.top_by() == Some(seat)
                && !rule_copy.public.put_downs[usize::from(seat)].contains(turns.round.public.top);
            if rule_took && knocked.is_none() && stock > 0 && rule_copy.score(seat) < take_from {
                // The take declined: a draw from the stock instead.
                declined += 1;
                assert_eq!(choosy_copy.public.stock_len, stock - 1, "game {game}");
                assert_eq!(choosy_copy.public.top_by(), Some(seat), "game {game}");
                assert!(choosy_copy.knocker().is_none(), "game {game}");
            } else {
                same += 1;
                assert_eq!(
                    settled(&choosy_copy)[usize::from(seat)],
                    settled(&rule_copy)[usize::from(seat)],
                    "game {game}"
                );
                assert_eq!(choosy_copy.public.top, rule_copy.public.top, "game {game}");
                assert_eq!(
                    choosy_copy.public.stage, rule_copy.public.stage,
                    "game {game}"
                );
                assert_eq!(choosy_copy.knocker(), rule_copy.knocker(), "game {game}");
            }
            turns.turn(TABLE_KNOCK_AT, &mut draws);
        }
    }
    // Both kinds of turn were met many times.
    assert!(
        declined > 1_000 && same > 10_000,
        "{declined} declined, {same} the same"
    );
}
