//! The strategy atlas of the knock: for a table of `seats` players who all play the table's
//! rule, at each turn of each lap of a round, what knocking now does to the player to move,
//! against not knocking now, by the score they hold.
//!
//! Each simulated round is dealt from a fresh deck (position 0 plays first) and played by the
//! table's rule (knocking at 27). At every turn of the first [`LAPS`] laps where the player to
//! move may knock, the round is copied twice: in one copy the player knocks now; in the other
//! they play the turn without knocking; both are played to the end by the table's rule. The
//! two results of that player (lost nothing? their chance of winning the game after the round,
//! from the game-value table, when it is given) are counted under (position, lap, score). The
//! round itself goes on by the table's rule, so a later lap's figures are those of the rounds
//! where nobody had knocked before (as at a table of table players).
//!
//! Both copies share the deal and the stock: the difference between knocking and waiting is
//! measured on the same cards.

use montecarlo::{Rng, Runner};

use super::game_value::GameValue;
use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::{Card, Score};
use crate::round::{Action, Round};
use crate::rules::{RoundRules, MAX_SEATS};

/// The laps of a round the atlas looks at (lap 0: every player's first turn).
pub const LAPS: usize = 6;
/// Scores in half points, 0 to 31 (Blitz: 30.5 is 61).
pub const SCORES: usize = 63;
const PURPOSE: u64 = 0x4b4e_4f43_4b21; // "KNOCK!"
const CHUNK: usize = 2_048;

/// What was seen at one (position, lap, score): how often, and what knocking and waiting did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// Decisions seen.
    pub n: u64,
    /// Of those, rounds where the player lost nothing, had they knocked, had they waited.
    pub knock_safe: u64,
    pub wait_safe: u64,
    /// Lives lost, summed.
    pub knock_lost: u64,
    pub wait_lost: u64,
    /// The chance of winning the game after the round, summed, and its squares summed.
    pub knock_win: f64,
    pub wait_win: f64,
    pub knock_win2: f64,
    pub wait_win2: f64,
}

impl Cell {
    fn merge(&mut self, o: &Cell) {
        self.n += o.n;
        self.knock_safe += o.knock_safe;
        self.wait_safe += o.wait_safe;
        self.knock_lost += o.knock_lost;
        self.wait_lost += o.wait_lost;
        self.knock_win += o.knock_win;
        self.wait_win += o.wait_win;
        self.knock_win2 += o.knock_win2;
        self.wait_win2 += o.wait_win2;
    }
}

/// The cell of (position, lap, score) in the atlas's cells.
#[inline]
pub fn index(position: usize, lap: usize, score: usize) -> usize {
    (position * LAPS + lap) * SCORES + score
}

/// One result of a copy played out: the losses of that player and their game value after.
fn played_out(mut round: Round, me: usize, values: Option<&[GameValue]>) -> (u8, f64) {
    while !round.is_over() {
        round.play_rule_turn(TABLE_KNOCK_AT);
    }
    let losses = round.losses();
    let value = values.map_or(0.0, |v| {
        let g = &v[me];
        let n = round.seats() as usize;
        g.after_losses(&losses, 0, n).unwrap_or_else(|| {
            g.after_round(&super::round_outcomes::RoundResult::of(&round, g.points()))
        })
    });
    (losses[me], value)
}

/// The decisions of one round, counted into `cells`.
fn one_round(
    rules: &RoundRules,
    seats: u8,
    deck: &[Card],
    values: Option<&[GameValue]>,
    cells: &mut [Cell],
) {
    let Ok(mut round) = Round::deal(*rules, seats, 0, deck) else {
        return;
    };
    let n = usize::from(seats);
    while !round.is_over() {
        let turn = usize::from(round.turns_played());
        let lap = turn / n;
        if lap >= LAPS || round.knocker().is_some() {
            return;
        }
        let me = usize::from(round.to_move());
        if round.may_knock() {
            let score = usize::from(round.score(me as u8).0).min(SCORES - 1);
            let mut knock = round.clone();
            if knock.apply(Action::Knock).is_ok() {
                let (k_lost, k_win) = played_out(knock, me, values);
                let mut wait = round.clone();
                wait.play_rule_turn(Score::NEVER);
                let (w_lost, w_win) = played_out(wait, me, values);
                let c = &mut cells[index(me, lap, score)];
                c.n += 1;
                c.knock_safe += u64::from(k_lost == 0);
                c.wait_safe += u64::from(w_lost == 0);
                c.knock_lost += u64::from(k_lost);
                c.wait_lost += u64::from(w_lost);
                c.knock_win += k_win;
                c.wait_win += w_win;
                c.knock_win2 += k_win * k_win;
                c.wait_win2 += w_win * w_win;
            }
        }
        round.play_rule_turn(TABLE_KNOCK_AT);
    }
}

/// The atlas of rounds `rounds` (each round's deal is drawn from the seed and its number, so
/// that a long run can be cut in batches) at a table of `seats` (2 to 9): the cells of every
/// (position, lap, score), see [`index`]. `values`: each position's game-value table at the lives the
/// game starts with (None: the chances of winning the game are left at 0). The same seed gives
/// the same cells whatever the number of threads. None: the runner was stopped.
pub fn knock_atlas(
    rules: &RoundRules,
    seats: u8,
    rounds: std::ops::Range<usize>,
    seed: u64,
    values: Option<&[GameValue]>,
    runner: &Runner,
) -> Option<Vec<Cell>> {
    let size = MAX_SEATS * LAPS * SCORES;
    let mut total = vec![Cell::default(); size];
    let mut stopped = false;
    let start = rounds.start;
    runner.each_chunk(
        rounds.len(),
        CHUNK,
        |_| runner.deadline(),
        |range| {
            let mut cells = vec![Cell::default(); size];
            let fresh: Vec<Card> = Card::all().collect();
            let mut deck = fresh.clone();
            for r in range {
                // (Each round shuffles a fresh pack: its deal depends on its number alone.)
                deck.copy_from_slice(&fresh);
                let mut rng = Rng::stream(seed, PURPOSE, (start + r) as u64);
                rng.shuffle(&mut deck);
                one_round(rules, seats, &deck, values, &mut cells);
            }
            cells
        },
        |part| match part {
            Some(cells) => total.iter_mut().zip(&cells).for_each(|(t, c)| t.merge(c)),
            None => stopped = true,
        },
    );
    (!stopped).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decision_is_counted_once_and_the_same_whatever_the_threads() {
        let rules = RoundRules::default();
        let one = knock_atlas(&rules, 3, 0..3_000, 7, None, &Runner::simple(Some(1))).unwrap();
        let two = knock_atlas(&rules, 3, 0..3_000, 7, None, &Runner::simple(Some(2))).unwrap();
        assert_eq!(one, two);
        // Cut in two batches, the same counts.
        let mut cut = knock_atlas(&rules, 3, 0..1_000, 7, None, &Runner::simple(Some(2))).unwrap();
        let rest = knock_atlas(&rules, 3, 1_000..3_000, 7, None, &Runner::simple(Some(1))).unwrap();
        cut.iter_mut().zip(&rest).for_each(|(c, r)| c.merge(r));
        assert_eq!(cut, one);
        // The first player may knock on the first turn of every round (the standard table),
        // but for the few that a 31 shown at the deal ends at once (about 0.3% at 3 seats).
        let first: u64 = (0..SCORES).map(|s| one[index(0, 0, s)].n).sum();
        assert!((2_950..3_000).contains(&first), "{first}");
        for c in &one {
            assert!(c.knock_safe <= c.n && c.wait_safe <= c.n);
        }
        // Knocking first with a hand below 18 points is caught more often than waiting.
        let low: Vec<&Cell> = (0..36).map(|s| &one[index(0, 0, s)]).collect();
        let (k, w): (u64, u64) = low
            .iter()
            .fold((0, 0), |(k, w), c| (k + c.knock_safe, w + c.wait_safe));
        assert!(k < w);
    }
}
