//! [`Playouts`] as the engine runs them ([`montecarlo::Simulator`]): what is kept of a deal,
//! the deal set out for a playout, and each option played out from it, under every policy (the
//! sweep) or one (the confirmation).

use montecarlo::{Outcome, Outcomes, Rng, Simulator};

use super::{Choice, Dealt, Kept, Playouts};
use crate::hand::Score;
use crate::inference::Deal;
use crate::round::{set_sorted_hands, Profiled};

impl Simulator for Playouts<'_> {
    type World = Deal;
    type Choice = Choice;
    type Kept = Kept;
    /// The round as it stands with the deal's hidden cards, its stock not yet in any order.
    type Start = Dealt;

    fn policies(&self, choice: &Choice) -> usize {
        self.variants(choice) * self.per_variant(choice)
    }

    fn keep(&self, deal: &Deal) -> Kept {
        let mut hands = deal.hands;
        if self.table.turn_rule().is_standard() {
            // In the order the profiled turns keep them in (`start` reads them so).
            for hand in &mut hands {
                hand.sort_unstable_by_key(|c| c.index());
            }
        }
        let kept = Kept {
            hands,
            knock_at: deal.knock_at,
        };
        debug_assert_eq!(self.start(&kept, &mut None).stock, deal.stock);
        kept
    }

    fn start<'s>(&self, kept: &Kept, last: &'s mut Option<Dealt>) -> &'s Dealt {
        // Only the hidden hands, the stock and the knock scores differ from deal to deal.
        let (me, unseen) = (self.view.me, self.view.unseen);
        let dealt = last.get_or_insert_with(|| self.first_dealt(kept));
        if dealt.round.turn_rule().is_standard() {
            let (round, hands) = (&mut dealt.round, &mut dealt.hands);
            dealt.stock = set_sorted_hands(round, hands, (&kept.hands, me), unseen, self.profiles);
        } else {
            dealt.stock = dealt.round.set_hands(&kept.hands, me, unseen);
        }
        dealt.knock_at = kept.knock_at;
        dealt.draws.get_mut().stale();
        dealt
    }

    /// Every variant draws the same stock order (`rng` as it is: the caller's stream is not
    /// advanced), made by the first trajectory of the playout to reach each draw (the choices
    /// of a playout come with the same stream: see `Draws`).
    fn playout(&self, start: &Dealt, choice: &Choice, rng: &mut Rng, out: &mut Outcomes<'_>) {
        let draws = &mut *start.draws.borrow_mut();
        draws.begin_with(start.stock, rng);
        for v in 0..self.variants(choice) {
            let round = &mut start.round.clone();
            self.play_variant(round, start, draws, (choice, v), out);
        }
    }

    fn playout_policy(
        &self,
        start: &Dealt,
        choice: &Choice,
        policy: usize,
        rng: &mut Rng,
    ) -> Outcome {
        let mut round = start.round.clone();
        let draws = &mut *start.draws.borrow_mut();
        draws.begin_with(start.stock, rng);
        let swept = self.sweeps(choice);
        let per = self.per_swept(swept);
        let (v, t) = (policy / per, policy % per);
        let knock_at = if swept {
            self.threshold_of(t).unwrap_or(Score::NEVER)
        } else {
            Score::NEVER
        };
        let (hands, all) = (&start.hands, self.profiles);
        if round.turn_rule().is_standard() {
            let turns = &mut Profiled::<true>::new(&mut round, hands, all);
            self.play_choice(turns, draws, choice, v);
            if self.looks {
                self.finish::<true, true>(turns, draws, knock_at, &start.knock_at);
            } else {
                self.finish::<true, false>(turns, draws, knock_at, &start.knock_at);
            }
            self.outcome_of(turns)
        } else {
            let turns = &mut Profiled::<false>::new(&mut round, hands, all);
            self.play_choice(turns, draws, choice, v);
            if self.opponents.knock_by_lap() {
                self.finish::<false, true>(turns, draws, knock_at, &start.knock_at);
            } else {
                self.finish::<false, false>(turns, draws, knock_at, &start.knock_at);
            }
            self.outcome_of(turns)
        }
    }
}
