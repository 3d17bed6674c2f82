//! How the playouts play each opponent after your option (`playout`): by the table's rule at the
//! knock score their deal drew for them; one against one, the expert reading the table
//! (`crate::round::reading`); at four seats or more, the expert knocking at a score that moves
//! with the round's lap (`crate::model::LapKnocks`).

use crate::hand::Score;
use crate::model::LapKnocks;
use crate::rules::MAX_SEATS;
use crate::view::View;

/// Which opponents the playouts look at each turn, and how.
pub(crate) struct Opponents {
    /// By seat: an opponent who plays on reading the table (`crate::model::Model::reads`).
    pub reading: [bool; MAX_SEATS],
    /// Whether any does.
    pub reads: bool,
    /// By seat: an opponent whose knock moves with the round's lap.
    by_lap: [bool; MAX_SEATS],
    /// Their knocks, when any has them (the expert's: `crate::model::Params::lap_pull`).
    lap_knocks: Option<Box<LapKnocks>>,
}

impl Opponents {
    pub fn new(view: &View) -> Opponents {
        let seats = view.public.seats;
        let yours = view.public.rules.scoring.score(view.hand);
        let mut reading = [false; MAX_SEATS];
        let mut by_lap = [false; MAX_SEATS];
        let mut lap_knocks = None;
        for o in &view.opponents {
            let s = usize::from(o.seat);
            if o.model.reads(seats) {
                reading[s] = true;
            } else if let Some(k) = o
                .model
                .params_at(seats)
                .and_then(|p| p.lap_knocks(seats, yours))
            {
                // One model knocks by the lap: every such seat shares its knocks.
                by_lap[s] = true;
                lap_knocks.get_or_insert_with(|| Box::new(k));
            }
        }
        Opponents {
            reading,
            reads: reading.contains(&true),
            by_lap,
            lap_knocks,
        }
    }

    /// Whether any opponent knocks by the lap.
    pub fn knock_by_lap(&self) -> bool {
        self.lap_knocks.is_some()
    }

    /// Whether any opponent is looked at each turn (the playouts are then compiled to: `READS`).
    pub fn looked_at(&self) -> bool {
        self.reads || self.knock_by_lap()
    }

    /// The score `seat`, of knock score `knock_at`, knocks at after `turns` turns of the round,
    /// where it moves with the lap (None: at `knock_at`).
    #[inline(always)]
    pub fn lap_knock(&self, seat: usize, knock_at: Score, turns: u16) -> Option<Score> {
        let knocks = self.lap_knocks.as_ref().filter(|_| self.by_lap[seat])?;
        Some(knocks.knock_at(knock_at, turns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inference::test_positions::position;
    use crate::model::Model;

    /// A view of `seats` seats whose opponents play by `model`.
    fn view(seats: u8, model: Model) -> View {
        let input = (1..200).find_map(|s| position(s, seats, 5)).unwrap();
        let mut view = View::from_input(&input).unwrap();
        for o in &mut view.opponents {
            o.model = model;
        }
        view
    }

    /// The expert knocks by the lap at four seats or more (lower on the first lap than on the
    /// fifth: `crate::model::LapKnocks`, read by your score), reads the table one against
    /// one, and at three seats plays the rule at its knock score, as table players and persons
    /// do everywhere.
    #[test]
    fn the_expert_knocks_by_the_lap_from_four_seats() {
        let s = Score::from_points;
        for seats in [4, 5, 6] {
            let o = Opponents::new(&view(seats, Model::Expert));
            assert!(
                o.looked_at() && o.knock_by_lap() && !o.reads,
                "{seats} seats"
            );
            let seat = usize::from(view(seats, Model::Expert).opponents[0].seat);
            let later = o.lap_knock(seat, s(26), 5 * u16::from(seats)).unwrap();
            assert!(
                o.lap_knock(seat, s(26), 0).unwrap() < later,
                "{seats} seats"
            );
        }
        let four = view(4, Model::Expert);
        let o = Opponents::new(&four);
        let seat = usize::from(four.opponents[1].seat);
        // The knocks of the expert's model read by a player holding your score.
        let yours = four.public.rules.scoring.score(four.hand);
        let knocks = Model::Expert
            .params_at(4)
            .unwrap()
            .lap_knocks(4, yours)
            .unwrap();
        for turns in [0, 5, 16] {
            let k = Some(knocks.knock_at(s(26), turns));
            assert_eq!(o.lap_knock(seat, s(26), turns), k);
        }
        assert_eq!(o.lap_knock(usize::from(four.me), s(26), 0), None, "you");
        let two = Opponents::new(&view(2, Model::Expert));
        assert!(two.reads && !two.knock_by_lap() && two.looked_at());
        for (seats, model) in [(3, Model::Expert), (4, Model::Table), (4, Model::Person)] {
            let o = Opponents::new(&view(seats, model));
            assert!(!o.looked_at(), "{model:?} at {seats} seats");
        }
    }
}
