//! Whole games played by the table's rule from a given lives configuration, round after round,
//! settled by [`crate::game`]: the direct simulation the game-value table is checked against
//! (it shares no code with the table's recursion).

use montecarlo::{Rng, Runner};

use super::{next_dealer, settle, turn_order, GameRules};
use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::Card;
use crate::round::Round;
use crate::rules::RoundRules;

/// A game that has not ended after this many rounds is stopped (no game comes near it).
const MAX_ROUNDS: usize = 100_000;
const PURPOSE: u64 = 0x4741_4d45_5321; // "GAMES!"

/// Play `games` games from `lives` (one per seat, every seat in) with `dealer` dealing first.
/// Returns each seat's total points (wins, when the winner takes all).
pub fn play_games(
    round_rules: &RoundRules,
    rules: GameRules,
    lives: &[u8],
    dealer: usize,
    games: usize,
    seed: u64,
    runner: &Runner,
) -> Vec<u64> {
    let n = lives.len();
    let parts = runner.chunks(games, 64, |range| {
        let mut points = vec![0u64; n];
        for g in range {
            let mut rng = Rng::stream(seed, PURPOSE, g as u64);
            for (seat, p) in play_one(round_rules, &rules, lives, dealer, &mut rng) {
                points[seat] += u64::from(p);
            }
        }
        points
    });
    let mut total = vec![0u64; n];
    for part in parts.into_iter().flatten() {
        total.iter_mut().zip(part).for_each(|(t, p)| *t += p);
    }
    total
}

/// One game: the points of every seat that scored.
fn play_one(
    round_rules: &RoundRules,
    rules: &GameRules,
    start: &[u8],
    mut dealer: usize,
    rng: &mut Rng,
) -> Vec<(usize, u8)> {
    let mut lives: Vec<i16> = start.iter().map(|&l| i16::from(l)).collect();
    let mut scored = Vec::new();
    let mut deck: Vec<Card> = Card::all().collect();
    for _ in 0..MAX_ROUNDS {
        let seats = turn_order(rules, &lives, dealer);
        if seats.len() < 2 {
            if let Some(&w) = seats.first() {
                scored.push((w, rules.points(1)));
            }
            return scored;
        }
        rng.shuffle(&mut deck);
        let Ok(mut round) = Round::deal(*round_rules, seats.len() as u8, 0, &deck) else {
            return scored;
        };
        while !round.is_over() {
            round.play_rule_turn(TABLE_KNOCK_AT);
        }
        let before: Vec<i16> = seats.iter().map(|&s| lives[s]).collect();
        let losses = round.losses();
        let scores: Vec<_> = (0..seats.len())
            .map(|i| round.counted_score(i as u8))
            .collect();
        let settled = settle(rules, &before, &losses[..seats.len()], &scores, 0);
        if settled.wash {
            continue;
        }
        for (i, &s) in seats.iter().enumerate() {
            lives[s] = settled.lives[i];
        }
        let mut place = seats.len();
        for &i in &settled.out {
            scored.push((seats[usize::from(i)], rules.points(place)));
            place -= 1;
        }
        dealer = next_dealer(rules, &lives, dealer);
    }
    scored
}
