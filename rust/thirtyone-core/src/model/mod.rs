//! How the Oracle believes an opponent plays (`docs/models.md`):
//!
//! - [`Model::Table`]: the rule documents' computer player, the table's decision rule knocking at
//!   27. What they did is a filter: a deal where the rule would have done otherwise is not a deal
//!   of this round.
//! - [`Model::Person`] and [`Model::Expert`]: a player whose rule is not known. They are read as
//!   the table's rule with a knock score of their own that is itself unknown (a prior over 16 to
//!   31, [`Params::prior`]), who now and then makes another legal move ([`Params::slip`]). What
//!   they did is evidence weighed by its likelihood (`likelihood`): no move empties the
//!   posterior, and their knock score is inferred from their play along with their cards.
//!
//! The expert's parameters are fitted from recorded play of the product's expert player
//! (`benches/fit_expert.py`), its final turn, after somebody else knocked, weighed by chances
//! of its own ([`FinalTurn`]), and a knock it makes read by when experts knock
//! ([`KnockCurve`], `benches/expert_knocks.py --fit`), which at four seats or more also moves
//! when it knocks in the playouts ([`LapKnocks`]); the person's are a broad prior, for people.
//!
//! This room may use [`crate::hand`] and [`crate::round`].

mod knocks;
mod likelihood;

pub use knocks::{KnockCurve, LapKnocks, KNOCK_LAPS, KNOCK_TABLES};
pub use likelihood::{
    final_put_down_chance, final_start_chance, put_down_chance, start_chances, StartChances,
    Weights,
};

use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::Score;

/// The knock scores a modelled player may have: [`LOWEST_KNOCK`] to 31, one weight each.
pub const KNOCK_SCORES: usize = 16;
/// The lowest of them, in points.
pub const LOWEST_KNOCK: u8 = 16;

/// How one opponent plays, as the Oracle models them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Model {
    /// The table's rule, knocking at 27: the rule documents' computer player.
    #[default]
    Table,
    /// A player whose rule is unknown: a broad prior over their knock score, and slips.
    Person,
    /// The product's expert player, modelled like a person with parameters fitted to its play.
    Expert,
}

/// A modelled player's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// The prior chance of each knock score ([`LOWEST_KNOCK`] + i points), summing to 1.
    pub prior: [f64; KNOCK_SCORES],
    /// The chance that a decision is not the rule's: one of the other legal moves (a knock
    /// aside), each alike.
    pub slip: f64,
    /// The chance of a knock the rule would not make at their knock score.
    pub knock_slip: f64,
    /// How they play their final turn, after somebody else knocked (None: as any other turn).
    pub final_turn: Option<FinalTurn>,
    /// How a knock, once made, is read (None: by the knock score, as any other decision).
    pub knocks: Option<KnockCurve>,
    /// How far, in the playouts, the score they knock at is pulled from their knock score
    /// towards the knock curve's at each lap (0: not at all; [`LapKnocks`]). The read takes
    /// their knock score as it is.
    pub lap_pull: f64,
    /// Before anybody knocks, the least score a take of the top discard must leave for them to
    /// take it, where the rule would, with cards left in the stock (else they draw; None:
    /// wherever the rule takes): in the playouts and in the read, which weighs such a draw as
    /// their move and such a take as a slip.
    pub take_from: Option<Score>,
}

impl Params {
    /// The knock scores of the prior, lowest and highest, in points.
    pub fn knock_range(&self) -> (u8, u8) {
        let held = |p: &f64| *p > 0.0;
        let first = self.prior.iter().position(held).unwrap_or(0);
        let last = self
            .prior
            .iter()
            .rposition(held)
            .unwrap_or(KNOCK_SCORES - 1);
        (LOWEST_KNOCK + first as u8, LOWEST_KNOCK + last as u8)
    }

    /// Their knocks in the playouts at a table of `seats`, when they are pulled by the lap,
    /// against a player who holds `yours` when they ask.
    pub fn lap_knocks(&self, seats: u8, yours: Score) -> Option<LapKnocks> {
        let curve = self.knocks.as_ref().filter(|_| self.lap_pull > 0.0)?;
        Some(LapKnocks::new(
            curve,
            seats,
            self.knock_range(),
            self.lap_pull,
            yours,
        ))
    }
}

/// A modelled player's final turn, after somebody else knocked: they no longer play for later
/// turns, only to beat the others' hands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinalTurn {
    /// Where the rule takes the top discard, the chance that they take it (else they draw).
    pub take: TakeCurve,
    /// The chance of taking the top discard where the rule draws.
    pub takes: f64,
    /// The chance of a put-down that keeps less than the rule's; else each card that keeps as
    /// much as the rule's is alike.
    pub below: f64,
}

/// The chance of taking the top discard on a final turn where the rule takes it: it rises with
/// the hand the take leaves (`after` points, the rule's put-down made) and with what the take
/// gains (`after - now`), as `top / (1 + exp(-(bias + per_point * after + per_gain * gain)))`.
/// A take that leaves a low hand is left for a draw and a chance of more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TakeCurve {
    pub bias: f64,
    pub per_point: f64,
    pub per_gain: f64,
    pub top: f64,
}

impl TakeCurve {
    /// The chance of the take, from a hand scoring `now` to one scoring `after`.
    pub fn chance(&self, now: Score, after: Score) -> f64 {
        let (now, after) = (now.points(), after.points());
        let z = self.bias + self.per_point * after + self.per_gain * (after - now);
        self.top / (1.0 + (-z).exp())
    }
}

/// A person: a knock score spread evenly over 20 to 30; one decision in ten not the rule's, one
/// knock in a hundred below their knock score. (A tenth of the prior on 16 to 19 read a table of
/// players knocking at 22 to 29 a little low: `docs/evidence/models-calibration.md`.)
const PERSON: Params = Params {
    prior: [
        0.0,
        0.0,
        0.0,
        0.0, // 16-19
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0, // 20-25
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0,
        1.0 / 11.0, // 26-30
        0.0,        // 31
    ],
    slip: 0.1,
    knock_slip: 0.01,
    final_turn: None,
    knocks: None,
    lap_pull: 0.0,
    take_from: None,
};

/// The expert, chosen by calibration at tables of experts (`docs/evidence/models-calibration.md`):
/// a knock score spread evenly over 22 to 30, a quarter of the other decisions not the rule's,
/// three knocks in a thousand below the knock score. The slips are those fitted by
/// `benches/fit_expert.py` to 7,958 decisions of 60 games of four experts; its prior (mostly 16 to
/// 22: the experts' early knocks) explained their decisions best but, played in the playouts, had
/// them knock early with low hands, and predicted worst of every read tried. In the playouts its
/// knock is pulled 35% of the way towards the experts' knock curve at each lap ([`LapKnocks`]):
/// with the knock score alone, the options that play on before a knock at four seats or more were
/// rated about four points too low against the knock. The experts read each other by this model, so
/// the pull changes how they play: 0.6 read the experts of before right and 0.2 those who played by
/// 0.6; 0.35 is where the two meet (`docs/evidence/expert-knock-read.md`). Before a knock the
/// experts take a discard the rule would take about half as often as the rule
/// (`benches/expert_takes.py`: at four seats, 16% where the take leaves 13, 47% at 16, 84% at 20,
/// nearly all from 27); the model takes it only where it leaves 16 or more, the threshold that
/// agrees with most of their choices, in the playouts (which put every bin of the calibration at
/// tables of experts inside its interval on two seeds where the rule's takes left one outside) and
/// in the read (every bin inside on the same two seeds again: `docs/evidence/expert-takes.md`).
const EXPERT: Params = Params {
    prior: [
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0, // 16-21
        1.0 / 9.0,
        1.0 / 9.0,
        1.0 / 9.0,
        1.0 / 9.0,
        1.0 / 9.0, // 22-26
        1.0 / 9.0,
        1.0 / 9.0,
        1.0 / 9.0,
        1.0 / 9.0, // 27-30
        0.0,       // 31
    ],
    slip: 0.25,
    knock_slip: 0.003,
    final_turn: Some(EXPERT_FINAL),
    knocks: Some(EXPERT_KNOCKS),
    lap_pull: 0.35,
    take_from: Some(Score::from_points(16)),
};

/// The expert one against one (`Model::params_at`): as [`EXPERT`], but read taking wherever the
/// rule takes (the playouts read the table there instead: `Model::reads`; the experts' takes
/// were measured at four seats and more).
const EXPERT_TWO: Params = Params {
    take_from: None,
    ..EXPERT
};

/// The expert at a table of three (`Model::params_at`): as [`EXPERT`], with a knock score spread
/// evenly over 27 to 31, for the read and for the playouts. The experts' own knocks at three
/// seats are lower ([`EXPERT_KNOCKS`]: a mid of 17.9 points on the first lap, 20.3 on the third),
/// but they knock when they read the others low and play the other turns better than the rule;
/// played as the rule at 22 to 30, the playouts' experts did worse than the real ones and the
/// figures at three seats ran about two points too confident over four seeds (61.6% said, 59.9%
/// happened, 3,147 decisions; 60.6% with this). A fit to the figures, not a picture of the
/// experts: earlier knocks (scores of 20 to 28, knocks by the curve) made the figures more
/// confident still. Reading the table as one against one as well came out exact (59.4%) at
/// 1.85 times the cost of a three-seat query, and is not used (`docs/evidence/expert-knock.md`,
/// "Three seats, screened"). Its knock is not pulled by the lap (the curve's knocks, above).
const EXPERT_THREE: Params = Params {
    prior: [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // 16-21
        0.0, 0.0, 0.0, 0.0, 0.0, // 22-26
        0.2, 0.2, 0.2, 0.2, // 27-30
        0.2, // 31
    ],
    lap_pull: 0.0,
    take_from: None,
    ..EXPERT
};

/// The expert's final turn, fitted to 2,525 final turns of tables of four and five experts
/// (`benches/fit_expert.py`, `docs/evidence/expert-knock.md`): where the rule would take, it takes
/// nearly always when the take leaves 16 or more and hardly ever below 12; it takes where the rule
/// would draw in less than one final turn in a hundred, and keeps less than the rule's put-down in
/// one in a hundred, though it puts down another card that keeps as much in three in ten.
const EXPERT_FINAL: FinalTurn = FinalTurn {
    take: TakeCurve {
        bias: -14.25,
        per_point: 0.848,
        per_gain: 0.877,
        top: 0.948,
    },
    takes: 0.007,
    below: 0.01,
};

/// When the expert knocks (`benches/expert_knocks.py --fit`: games of experts only, at each
/// table size, every turn on which they could knock, by lap, score and the other seats'
/// scores): `(mid, width)` by table size (2, 3, 4, 5, 6 or more seats) and lap (0 to 3, 4 or
/// later) for a reader holding 16, and how far the middle moves a point the reader holds more.
const EXPERT_KNOCKS: KnockCurve = KnockCurve {
    cells: [
        [
            (19.30, 1.07),
            (19.15, 0.90),
            (20.29, 0.93),
            (20.70, 1.02),
            (21.71, 1.23),
        ],
        [
            (17.78, 1.04),
            (19.11, 1.02),
            (20.26, 1.06),
            (20.75, 0.84),
            (21.16, 0.99),
        ],
        [
            (16.69, 0.85),
            (18.57, 0.92),
            (20.01, 0.94),
            (20.58, 0.92),
            (21.90, 1.39),
        ],
        [
            (15.93, 0.86),
            (18.16, 0.87),
            (19.57, 0.96),
            (20.30, 0.85),
            (22.12, 1.57),
        ],
        [
            (14.94, 0.66),
            (17.88, 0.88),
            (19.60, 0.92),
            (20.23, 0.59),
            (20.96, 0.55),
        ],
    ],
    per_point_yours: [0.079, 0.071, 0.074, 0.069, 0.030],
};

impl Model {
    /// Every model, in the order of their names in messages.
    pub const ALL: [Model; 3] = [Model::Table, Model::Person, Model::Expert];

    /// The model of a name (`table`, `person`, `expert`).
    pub fn from_name(name: &str) -> Option<Model> {
        Model::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Model::Table => "table",
            Model::Person => "person",
            Model::Expert => "expert",
        }
    }

    /// The parameters of a modelled player (None for the table's rule, which is a filter).
    pub fn params(self) -> Option<&'static Params> {
        match self {
            Model::Table => None,
            Model::Person => Some(&PERSON),
            Model::Expert => Some(&EXPERT),
        }
    }

    /// The parameters of a modelled player at a table of `seats`: the expert's knock score is
    /// higher at three ([`EXPERT_THREE`]), and one against one its takes are read as the rule's
    /// ([`EXPERT_TWO`]); otherwise [`Model::params`].
    pub fn params_at(self, seats: u8) -> Option<&'static Params> {
        match self {
            Model::Expert if seats == 2 => Some(&EXPERT_TWO),
            Model::Expert if seats == 3 => Some(&EXPERT_THREE),
            _ => self.params(),
        }
    }

    /// Whether they play on in the playouts reading the table (`round::reading`) at a table of
    /// `seats`: the expert one against one. Everyone else plays on by the table's rule at their
    /// knock score. (Reading every hand at larger tables made the figures after a knock too
    /// confident, and at three seats it cost nearly twice the query for a point:
    /// `docs/evidence/models-calibration.md` and `docs/evidence/expert-knock.md`.)
    pub fn reads(self, seats: u8) -> bool {
        self == Model::Expert && seats == 2
    }
}

/// The knock score of index `i` of the weights.
pub fn knock_score(i: usize) -> Score {
    Score::from_points(LOWEST_KNOCK + i as u8)
}

/// The table's knock score, for a table player's deals.
pub const TABLE_KNOCK: Score = TABLE_KNOCK_AT;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_prior_sums_to_one_and_every_model_has_its_name() {
        for m in Model::ALL {
            assert_eq!(Model::from_name(m.name()), Some(m));
            if let Some(p) = m.params() {
                assert!((p.prior.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{m:?}");
                assert!(p.slip > 0.0 && p.slip < 0.5 && p.knock_slip > 0.0);
            }
        }
        for seats in 2..=9 {
            for m in Model::ALL {
                let p = m.params_at(seats);
                assert!(p.is_none_or(|p| (p.prior.iter().sum::<f64>() - 1.0).abs() < 1e-9));
                // Only the expert at two and three seats has parameters of its own.
                if seats > 3 || m != Model::Expert {
                    assert_eq!(p, m.params(), "{m:?} at {seats}");
                }
            }
        }
        assert_eq!(Model::Expert.params_at(3).unwrap().prior[27 - 16], 0.2);
        // One against one the expert's takes are read as the rule's, and only they differ.
        let two = Model::Expert.params_at(2).unwrap();
        assert_eq!(two.take_from, None);
        assert_eq!(
            Some(&Params {
                take_from: EXPERT.take_from,
                ..*two
            }),
            Model::Expert.params()
        );
        assert!(Model::Expert.reads(2) && !Model::Expert.reads(3) && !Model::Expert.reads(4));
        assert!(!Model::Person.reads(2) && !Model::Table.reads(3));
        assert_eq!(Model::from_name("Table"), None);
        assert_eq!(knock_score(0), Score::from_points(16));
        assert_eq!(knock_score(KNOCK_SCORES - 1), Score::from_points(31));
    }
}
