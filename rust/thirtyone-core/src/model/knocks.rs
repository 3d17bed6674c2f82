//! When a modelled player knocks, read as it happens: a knock's chance by the hand's score, the
//! round's lap and the score of the hand that reads it ([`KnockCurve`]), for the read of the
//! knocker's hand.
//!
//! A model's knock score (one for the whole round, `Params::prior`) says how they play on in the
//! playouts and what a turn without a knock tells; a knock itself, once made, tells what the
//! knocker holds, and the experts knock low early in the round and higher later (the table in
//! `docs/evidence/expert-knock.md`, "When the experts knock"), which one knock score for the
//! round cannot say.
//! After a knock the knocker plays no more, so the curve changes the read of their hand.
//!
//! In the playouts it also moves when a modelled player knocks, where their parameters say so
//! (`Params::lap_pull`): their knock score, one for the round, is pulled part of the way towards
//! the curve's knock at each lap ([`LapKnocks`]), so that they knock lower early in the round and
//! higher late, as the experts do.
//!
//! The experts knock when they read the others low, and what they read of you follows what you
//! hold (you play a strong hand differently): against a reader holding much they knock with
//! more. The curve's middle moves with the reader's own score ([`KnockCurve::per_point_yours`]),
//! which the reader knows; what the knocker read of the others cannot be known
//! (`docs/evidence/expert-knock-read.md`, "The knock read by what the knocker saw").

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
        let (mid, width) = self.cell(seats, usize::from(lap), yours);
        1.0 / (1.0 + (-(score.points() - mid) / width).exp())
    }

    /// The curve's `(mid, width)` on `lap` at `seats` for a reader holding `yours`.
    #[inline(always)]
    fn cell(&self, seats: u8, lap: usize, yours: Score) -> (f64, f64) {
        let table = usize::from(seats.clamp(2, 6) - 2);
        let (mid, width) = self.cells[table][lap.min(KNOCK_LAPS - 1)];
        (
            mid + self.per_point_yours[table] * (yours.points() - YOURS_AT),
            width,
        )
    }
}

/// The score a modelled player knocks at in the playouts, by their knock score and the round's
/// lap: `(1 - pull) * k + pull * t`, where `k` is their knock score and `t` the curve's knock of
/// the same rank, `mid + width * ln(u / (1 - u))`, with `u` the knock score's place in the
/// prior's scores (their middle's place in `first..=last`) and the curve's middle that of a
/// reader holding your score when you ask. Worked out once a query; a turn reads it.
pub struct LapKnocks {
    /// By knock score in half points (0 to 63) and lap (0 to 7, the fifth lap on alike).
    at: [Score; 64 * 8],
    /// By the turns played in the round (255 or more alike), the lap.
    lap_of: [u8; 256],
}

impl LapKnocks {
    /// The playouts' knocks at a table of `seats` for a player whose knock scores run from
    /// `first` to `last` (the prior's), pulled by `pull` (in 0..=1) towards `curve` as read by
    /// a player holding `yours`.
    pub fn new(
        curve: &KnockCurve,
        seats: u8,
        (first, last): (u8, u8),
        pull: f64,
        yours: Score,
    ) -> LapKnocks {
        let span = f64::from(last - first) + 1.0;
        let at = std::array::from_fn(|i| {
            let k = Score((i >> 3) as u8).points();
            let u = ((k - f64::from(first) + 0.5) / span).clamp(0.01, 0.99);
            let (mid, width) = curve.cell(seats, i & 7, yours);
            let t = mid + width * (u / (1.0 - u)).ln();
            let pulled = (1.0 - pull) * k + pull * t;
            // The lowest score in half points at or above the pulled knock (at least 1).
            Score((2.0 * pulled).ceil().clamp(1.0, 62.0) as u8)
        });
        let lap_of = std::array::from_fn(|turns| {
            (turns / usize::from(seats.max(1))).min(KNOCK_LAPS - 1) as u8
        });
        LapKnocks { at, lap_of }
    }

    /// The score a player of knock score `knock_at` (below 32) knocks at after `turns` turns of
    /// the round.
    #[inline(always)]
    pub fn knock_at(&self, knock_at: Score, turns: u16) -> Score {
        let lap = self.lap_of[usize::from(turns.min(255))] & 7;
        self.at[usize::from(knock_at.halves() & 63) << 3 | usize::from(lap)]
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

    /// The playouts' knocks of a player pulled by the lap, worked out by hand from the curve's
    /// cells at four seats (lap 0: middle 16.69, width 0.85; lap 4: 21.90, 1.39; 0.074 a point
    /// you hold, read at 16), pulled by 0.6: a knock score of 26, the middle of 22 to 30, knocks
    /// at 0.4 * 26 + 0.6 * 16.69 = 20.41 on the first lap (20.5 in half points) and
    /// 0.4 * 26 + 0.6 * 21.90 = 23.54 on the fifth (24); no pull leaves every knock score as it
    /// is, and the expert's own pull lies between.
    #[test]
    fn a_knock_pulled_by_the_lap_is_lower_early_and_moves_with_your_hand() {
        let p = Model::Expert.params_at(4).unwrap();
        assert_eq!(p.knock_range(), (22, 30));
        let (s, at) = (Score::from_points, |h: u8| Score(h));
        let curve = p.knocks.as_ref().unwrap();
        let k = LapKnocks::new(curve, 4, (22, 30), 0.6, s(16));
        // The first lap is the first four turns, the fifth and later from the sixteenth turn on.
        assert_eq!(k.knock_at(s(26), 0), at(41));
        assert_eq!(k.knock_at(s(26), 3), at(41));
        assert_eq!(k.knock_at(s(26), 16), s(24));
        assert_eq!(k.knock_at(s(26), 1000), s(24), "the fifth lap on alike");
        // Holding 28 moves the curve's middle 0.89 up: 0.4 * 26 + 0.6 * 17.58 = 20.95 (21).
        let holding_28 = LapKnocks::new(curve, 4, (22, 30), 0.6, s(28));
        assert_eq!(holding_28.knock_at(s(26), 0), s(21));
        for turns in 0..20u16 {
            for i in 22..30 {
                assert!(k.knock_at(s(i), turns) <= k.knock_at(s(i + 1), turns));
            }
            assert!(k.knock_at(s(26), turns) <= k.knock_at(s(26), turns + 4));
        }
        let own = p
            .lap_knocks(4, s(16))
            .expect("the expert at four seats knocks by the lap");
        assert!(p.lap_pull > 0.0 && p.lap_pull < 0.6);
        assert!(k.knock_at(s(26), 0) < own.knock_at(s(26), 0));
        assert!(own.knock_at(s(26), 0) < s(26));
        let none = LapKnocks::new(p.knocks.as_ref().unwrap(), 4, (22, 30), 0.0, s(20));
        for i in 16..=31 {
            assert_eq!(none.knock_at(s(i), 0), s(i));
        }
        // Only the expert away from three seats knocks by the lap.
        let s16 = Score::from_points(16);
        assert!(Model::Expert
            .params_at(3)
            .unwrap()
            .lap_knocks(3, s16)
            .is_none());
        assert!(Model::Person
            .params_at(4)
            .unwrap()
            .lap_knocks(4, s16)
            .is_none());
    }
}
