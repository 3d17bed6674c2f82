//! When a modelled player knocks, read as it happens: a knock's chance by the hand's score, the
//! round's lap and the score of the hand that reads it ([`KnockCurve`]), for the read of the
//! knocker's hand.
//!
//! A model's knock score (one for the whole round, `Params::prior`) says how they play on in the
//! playouts and what a turn without a knock tells; a knock itself, once made, tells what the
//! knocker holds, and the experts knock low early in the round and higher later (the table in
//! `docs/evidence.md`, "When the experts knock"), which one knock score for the round cannot say.
//! After a knock the knocker plays no more, so the curve changes the read of their hand and
//! nothing the playouts do.
//!
//! The experts knock when they read the others low, and what they read of you follows what you
//! hold (you play a strong hand differently): against a reader holding much they knock with
//! more. The curve's middle moves with the reader's own score ([`KnockCurve::per_point_yours`]),
//! which the reader knows; what the knocker read of the others cannot be known (`docs/evidence.md`,
//! "The knock read by what the knocker saw").

use crate::hand::Score;

/// The laps a curve tells apart: 0 to 3, then 4 or later.
pub const KNOCK_LAPS: usize = 5;
/// The table sizes a curve tells apart: 2, 3, 4, 5, then 6 or more seats.
pub const KNOCK_TABLES: usize = 5;

/// The reader's score at which a curve's middles are given ([`KnockCurve::cells`]).
pub const YOURS_AT: f64 = 16.0;

/// A knock's chance, in proportion, by table size, lap and score: on the round's `lap` (the
/// turns played before, over the seats) at a table of `seats`, a hand of `s` points knocks
/// with a chance in proportion to `1 / (1 + exp(-(s - m) / width))`, where the middle `m` is
/// `mid + per_point_yours * (yours - YOURS_AT)` for a reader holding `yours`. Only the
/// proportion matters: a knock weighs the deals against each other, and the chance of the most
/// likely knock, the same for every deal, cancels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnockCurve {
    /// `(mid, width)` in points, by table size and lap, for a reader holding [`YOURS_AT`].
    pub cells: [[(f64, f64); KNOCK_LAPS]; KNOCK_TABLES],
    /// How far the middle moves for each point more that the reader holds, by table size.
    pub per_point_yours: [f64; KNOCK_TABLES],
}

impl KnockCurve {
    /// The chance, in proportion, of a knock with a hand scoring `score` on `lap` at `seats`,
    /// read by a player who held `yours` when it was made.
    pub fn chance(&self, seats: u8, lap: u8, score: Score, yours: Score) -> f64 {
        let table = usize::from(seats.clamp(2, 6) - 2);
        let (mid, width) = self.cells[table][usize::from(lap).min(KNOCK_LAPS - 1)];
        let mid = mid + self.per_point_yours[table] * (yours.points() - YOURS_AT);
        1.0 / (1.0 + (-(score.points() - mid) / width).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;

    /// The expert's curve rises with the score at every table and lap, from next to nothing at
    /// 10 to nearly its most at 30, a knock with 18 is far likelier on the first lap than on
    /// the fifth, and a knock with 21 rarer against a reader who holds much.
    #[test]
    fn the_experts_knock_curve_rises_with_the_score_and_with_the_lap() {
        let c = Model::Expert.params().unwrap().knocks.unwrap();
        for seats in 2..=9u8 {
            for lap in 0..8u8 {
                let at = |p| c.chance(seats, lap, Score::from_points(p), Score::from_points(16));
                for p in 10..31 {
                    assert!(at(p) < at(p + 1), "{seats} seats, lap {lap}, {p}");
                }
                assert!(at(10) < 0.01 && at(30) > 0.95, "{seats} seats, lap {lap}");
            }
            let at_18 = |lap| c.chance(seats, lap, Score::from_points(18), Score::from_points(16));
            assert!(at_18(0) > 4.0 * at_18(4), "{seats} seats");
            let at_21 =
                |yours| c.chance(seats, 2, Score::from_points(21), Score::from_points(yours));
            let by = if seats < 6 { 0.8 } else { 0.95 }; // the six seats' knocks move less
            assert!(at_21(28) < by * at_21(8), "{seats} seats");
        }
    }
}
