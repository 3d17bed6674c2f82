//! Positions of rounds played by the table's rule, for tests.

use montecarlo::Rng;

use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::{Card, Score};
use crate::model::{Model, Params};
use crate::round::{Round, Source};
use crate::rules::RoundRules;
use crate::view::{Opponent, StateInput, TurnInput, View};

/// Play a round by the rule from a shuffled pack and return the view of the player to move
/// after `turns` turns (None if the round ended first).
pub fn position(seed: u64, seats: u8, turns: usize) -> Option<StateInput> {
    position_knocking_at(seed, seats, turns, TABLE_KNOCK_AT)
}

/// As [`position`], every player knocking at `knock_at` or more.
pub fn position_knocking_at(
    seed: u64,
    seats: u8,
    turns: usize,
    knock_at: Score,
) -> Option<StateInput> {
    let mut deck: Vec<Card> = Card::all().collect();
    Rng::stream(seed, 0, 0).shuffle(&mut deck);
    let rules = RoundRules::default();
    let mut r = Round::deal(rules, seats, 0, &deck).ok()?;
    let upcard = r.top();
    let mut log = Vec::new();
    for _ in 0..turns {
        if r.is_over() {
            return None;
        }
        let rec = r.play_rule_turn(knock_at);
        log.push(rec);
    }
    if r.is_over() {
        return None;
    }
    let me = r.to_move();
    let turns = log
        .iter()
        .map(|t| match (t.knock, t.draw) {
            (true, _) => TurnInput::Knock { seat: t.seat },
            (_, Some((from, card))) => TurnInput::Play {
                seat: t.seat,
                from,
                drew: (from == Source::Stock && t.seat == me).then_some(card),
                discard: t.put_down.expect("a put-down"),
                shows: None,
            },
            _ => unreachable!("no decline before the stock runs out"),
        })
        .collect();
    Some(StateInput {
        rules,
        seats,
        me,
        first: 0,
        upcard,
        hand: r.hand(me),
        turns,
        pending: None,
    })
}

/// Every opponent who has played in [`small_views`], with the view's unseen cards, under each
/// modelled player's parameters: `f(view, unseen, opponent, model, params)`.
pub fn each_small_opponent(mut f: impl FnMut(&View, &[Card], &Opponent, Model, &'static Params)) {
    for view in small_views() {
        let unseen: Vec<Card> = view.unseen.iter().collect();
        for o in view.opponents.iter().filter(|o| !o.turns.is_empty()) {
            for model in [Model::Person, Model::Expert] {
                f(&view, &unseen, o, model, model.params().unwrap());
            }
        }
    }
}

/// The views of five small positions (seed, seats, turns: the first of 40 seeds from `seed`
/// whose round lasts that long), small enough for every walk.
pub fn small_views() -> Vec<View> {
    [(1, 2, 3), (2, 3, 4), (3, 3, 6), (4, 4, 5), (5, 2, 7)]
        .into_iter()
        .filter_map(|(seed, seats, turns)| {
            (seed..seed + 40).find_map(|s| position(s, seats, turns))
        })
        .map(|input| View::from_input(&input).unwrap())
        .collect()
}
