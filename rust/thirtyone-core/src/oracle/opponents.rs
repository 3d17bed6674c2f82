//! How the playouts play each opponent after your option (`playout`): by the table's rule at the
//! knock score their deal drew for them; one against one, the expert reading the table
//! (`crate::round::reading`); at four seats or more, the expert knocking at a score that moves
//! with the round's lap (`crate::model::LapKnocks`) and taking a discard before a knock only
//! where it leaves enough (`crate::model::Params::take_from`).

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
    /// By seat: the least score a take before a knock leaves for them to take
    /// (`crate::model::Params::take_from`; None: the rule's takes).
    take_from: [Option<Score>; MAX_SEATS],
}

impl Opponents {
    pub fn new(view: &View) -> Opponents {
        let seats = view.public.seats;
        let yours = view.public.rules.scoring.score(view.hand);
        let mut reading = [false; MAX_SEATS];
        let mut by_lap = [false; MAX_SEATS];
        let mut lap_knocks = None;
        let mut take_from = [None; MAX_SEATS];
        for o in &view.opponents {
            let s = usize::from(o.seat);
            if o.model.reads(seats) {
                reading[s] = true;
                continue;
            }
            let params = o.model.params_at(seats);
            take_from[s] = params.and_then(|p| p.take_from);
            if let Some(k) = params.and_then(|p| p.lap_knocks(seats, yours)) {
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
            take_from,
        }
    }

    /// Whether any opponent knocks by the lap.
    pub fn knock_by_lap(&self) -> bool {
        self.lap_knocks.is_some()
    }

    /// Whether any opponent is looked at each turn (the playouts are then compiled to: `READS`).
    pub fn looked_at(&self) -> bool {
        self.reads || self.knock_by_lap() || self.take_from.iter().any(Option::is_some)
    }

    /// The least score a take before a knock leaves for `seat` to take (None: the rule's takes).
    #[inline(always)]
    pub fn take_from(&self, seat: usize) -> Option<Score> {
        self.take_from[seat]
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

    /// From four seats the expert takes a discard before a knock only where it leaves 16 or
    /// more; at two (it reads the table) and three seats, and table players and persons
    /// everywhere, take as the rule does.
    #[test]
    fn the_expert_takes_only_what_leaves_16_from_four_seats() {
        for seats in [4, 5, 6, 9] {
            let v = view(seats, Model::Expert);
            let o = Opponents::new(&v);
            for other in &v.opponents {
                let seat = usize::from(other.seat);
                assert_eq!(
                    o.take_from(seat),
                    Some(Score::from_points(16)),
                    "{seats} seats"
                );
            }
            assert_eq!(o.take_from(usize::from(v.me)), None, "you, {seats} seats");
        }
        for (seats, model) in [
            (2, Model::Expert),
            (3, Model::Expert),
            (4, Model::Table),
            (4, Model::Person),
        ] {
            let v = view(seats, model);
            let o = Opponents::new(&v);
            for seat in 0..MAX_SEATS {
                assert_eq!(o.take_from(seat), None, "{model:?} at {seats} seats");
            }
        }
    }
}
