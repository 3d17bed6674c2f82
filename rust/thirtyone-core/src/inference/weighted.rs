//! A modelled opponent's posterior ([`crate::model`]): every history the card facts allow,
//! weighed by the likelihood of what they did, for each knock score they may have.
//!
//! The walk is the table's count (`count`) with the model's [`Likelihood`] as its evidence: no
//! branch ends at a move the table's rule would not make, it only weighs less. Each hand's weight
//! is its histories' weights summed over the knock scores (the prior included), scaled to whole
//! numbers so that the counted posterior's machinery (`conditional`, `joint`, the engine's
//! weighted deals) serves unchanged; with it, each hand keeps its posterior over the knock
//! scores ([`Knocks`]), from which a deal draws the score the opponent knocks at in the playouts.
//!
//! A walk that would grow past its budget is replaced by particles carried through the same
//! branches and resampled at each stock draw (`particles`): no longer exact, but never empty.
//! Both sizes follow the deals asked for ([`Effort`]): a small query is not made to pay for a
//! posterior finer than its deals can use.

use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

use montecarlo::{rounded, Rng};

use super::count::{unplayed, unseen_set, Counter, Entry, Evidence};
use super::particles::particles;
use super::posterior::Posterior;
use crate::hand::decision::{put_down_with, start_with, takes_leaving, Start};
use crate::hand::{same_cards, Card, CardSet, Score, ScoreTable};
use crate::model::{
    final_put_down_chance, final_start_chance, knock_score, put_down_chance, FinalTurn, Params,
    StartChances, Weights, KNOCK_SCORES,
};
use crate::round::knock_limits_allow_with;
use crate::view::{OppTurn, Opponent, View};

/// The most particles a modelled opponent's posterior carries (a query of 8,192 deals or
/// more): fewer, and late in a round the answers moved by several margins with the particles'
/// random stream (`docs/evidence/opponent-models.md`).
pub const PARTICLES: usize = 1 << 13;
/// The particles come in whole units of this many, two a deal asked for, at least one unit:
/// at 1,000 deals 1,024 particles still moved the answers by up to six standard errors with
/// their stream, 2,048 by three; at an expert's 300 deals 1,024 by four
/// (`docs/evidence/opponent-models.md`).
const PARTICLE_UNIT: usize = 1 << 10;
const PARTICLES_PER_DEAL: usize = 2;
const LEAST_PARTICLES: usize = PARTICLE_UNIT;
/// Steps the weighed walk may take per deal asked for (in whole units of [`WALK_UNIT`]): no
/// branch ends at an unlikely move, so the walk grows faster than the table's count, and a walk
/// given up is work lost; past this the particles are quicker for the same accuracy.
const WALK_PER_DEAL: usize = 8;
const WALK_UNIT: usize = 1 << 11;
/// The longest weighed walk (a query of 8,192 deals or more).
const WALK: usize = 1 << 16;

/// How much work a modelled opponent's posterior may take: the walk's steps and the particles
/// carried when the walk is over its budget, by the deals the query collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    pub walk: u64,
    pub particles: usize,
}

impl Effort {
    /// The effort for a query of `deals` deals: two particles a deal and eight walk steps,
    /// each in whole units, the particles from [`LEAST_PARTICLES`] to [`PARTICLES`] and the
    /// walk at most [`WALK`].
    pub fn for_deals(deals: usize) -> Effort {
        let whole = |x: usize, unit: usize| x.div_ceil(unit).max(1).saturating_mul(unit);
        Effort {
            walk: whole(deals.saturating_mul(WALK_PER_DEAL), WALK_UNIT).min(WALK) as u64,
            particles: whole(deals.saturating_mul(PARTICLES_PER_DEAL), PARTICLE_UNIT)
                .clamp(LEAST_PARTICLES, PARTICLES),
        }
    }
}
/// A hand's weights are scaled so that the heaviest is this many: lighter ones keep at least 1.
const SCALE: f64 = (1u64 << 32) as f64;
/// The resolution of a hand's posterior over the knock scores.
const KNOCK_SCALE: f64 = (1u32 << 20) as f64;

/// A modelled player's play, weighed: the likelihood of each decision by [`crate::model`].
pub(super) struct Likelihood<'a> {
    view: &'a View,
    params: &'static Params,
    /// The walk's steps ([`Effort::walk`]).
    budget: u64,
    /// Your hand's score, which moves the middle of a modelled knock's curve
    /// ([`crate::model::KnockCurve`]): worked out once, not at each history's knock.
    yours: Score,
}

impl<'a> Likelihood<'a> {
    /// The likelihood of a `params` player's play in `view`, walked within `budget` steps.
    pub(super) fn new(view: &'a View, params: &'static Params, budget: u64) -> Likelihood<'a> {
        let yours = view.public.rules.scoring.score(view.hand);
        Likelihood {
            view,
            params,
            budget,
            yours,
        }
    }
}

impl Likelihood<'_> {
    /// How they play `turn`, when it is a final turn their model weighs by chances of its own.
    #[inline]
    fn final_turn(&self, turn: &OppTurn) -> Option<&'static FinalTurn> {
        self.params.final_turn.as_ref().filter(|_| turn.final_turn)
    }

    /// The model's start when the rule's is `rule` (not a knock), a take leaving `left`: the
    /// rule's, but where the model takes a discard before a knock only where it leaves
    /// [`Params::take_from`] or more and the stock has cards, a draw (as the playouts play it).
    #[inline(always)]
    fn declining(&self, rule: Start, left: Option<Score>, turn: &OppTurn) -> Start {
        let least = self.params.take_from;
        match left {
            Some(left)
                if rule == Start::Take
                    && !takes_leaving(least, turn.final_turn, turn.stock_empty, || left) =>
            {
                Start::Draw
            }
            _ => rule,
        }
    }
}

impl Evidence for Likelihood<'_> {
    type Weight = Weights;
    type Total = Weights;

    fn dealt(&self) -> Weights {
        self.params.prior
    }

    #[inline(always)]
    fn start(&self, w: Weights, hand: [Card; 3], turn: &OppTurn, made: Start) -> Option<Weights> {
        let table = self.view.public.rules.scoring.table();
        let score = table.score(hand);
        let may_knock = start_facts(self.view, hand, score, turn, made)?;
        let top = turn.may_take.then_some(turn.top);
        let (rule, taken) = start_with(
            table,
            hand,
            score,
            top,
            false,
            turn.stock_empty,
            Score::NEVER,
        );
        let never = self.declining(rule, taken.map(|t| t.score), turn);
        let mut w = w;
        if let Some(f) = self.final_turn(turn) {
            let after = taken.map_or(score, |t| t.score);
            let c = final_start_chance(f, made, never, turn.may_take, (score, after));
            w.iter_mut().for_each(|x| *x *= c);
        } else if let (Start::Knock, Some(k)) = (made, &self.params.knocks) {
            let c = k.chance(self.view.public.seats, turn.lap, score, self.yours);
            w.iter_mut().for_each(|x| *x *= c);
        } else {
            let p = self.params;
            StartChances::new(p, made, never, may_knock, score, turn.may_take).weigh(&mut w);
        }
        Some(w)
    }

    #[inline(always)]
    fn put_down(
        &self,
        w: Weights,
        turn: &OppTurn,
        hand: [Card; 3],
        new: Card,
        from_pile: bool,
        discard: Card,
        shows: Option<[Card; 3]>,
    ) -> Option<(Weights, [Card; 3])> {
        let table = self.view.public.rules.scoring.table();
        let now = table.score(hand);
        let kept = kept_after(hand, new, from_pile, discard)?;
        let rule = put_down_with(table, hand, now, new, from_pile);
        // The rule's put-down has its kept hand scored already.
        let kept_score = if rule.card == discard {
            rule.score
        } else {
            table.score(kept)
        };
        if !shown_right(kept, kept_score, shows) {
            return None;
        }
        let legal = if from_pile { 3 } else { 4 };
        let c = match self.final_turn(turn) {
            Some(f) => {
                let as_much = keeping_as_much(table, (hand, now), new, from_pile, rule.score);
                final_put_down_chance(f, kept_score >= rule.score, as_much, legal)
            }
            None => put_down_chance(self.params, rule.card == discard, legal),
        };
        let mut w = w;
        w.iter_mut().for_each(|x| *x *= c);
        Some((w, kept))
    }

    fn add(total: &mut Weights, w: Weights) {
        for (t, x) in total.iter_mut().zip(w) {
            *t += x;
        }
    }

    fn budget(&self) -> u64 {
        self.budget
    }
}

/// The card facts of a start: whether they may knock now with `hand` (scoring `score`), or
/// None when the table does not allow `made` with this hand (a fact, not a slip).
#[inline]
fn start_facts(
    view: &View,
    hand: [Card; 3],
    score: Score,
    turn: &OppTurn,
    made: Start,
) -> Option<bool> {
    let may_knock = turn.knock_open && knock_limits_allow_with(&view.public.rules, hand, score);
    if (made == Start::Knock && !may_knock) || (made == Start::Take && !turn.may_take) {
        return None;
    }
    Some(may_knock)
}

/// The hand kept when `discard` goes down from `hand` and the `new` card, or None when it
/// cannot (not among the four, or a card taken from the pile put straight back).
#[inline]
fn kept_after(hand: [Card; 3], new: Card, from_pile: bool, discard: Card) -> Option<[Card; 3]> {
    if new == discard {
        // A card taken from the pile may not go straight back.
        return (!from_pile).then_some(hand);
    }
    let at = hand.iter().position(|&c| c == discard)?;
    let mut kept = hand;
    kept[at] = new;
    Some(kept)
}

/// How many of the cards that may go down from `hand` (scoring `now`) and the `new` card keep a
/// hand scoring `best` or more.
fn keeping_as_much(
    table: ScoreTable,
    (hand, now): ([Card; 3], Score),
    new: Card,
    from_pile: bool,
    best: Score,
) -> usize {
    let replaced = (0..3).filter(|&i| {
        let mut kept = hand;
        kept[i] = new;
        table.score(kept) >= best
    });
    replaced.count() + usize::from(!from_pile && now >= best)
}

/// A 31 after a put-down is always shown: an unshown one, or one shown that is not the hand
/// kept, is not this history.
#[inline]
fn shown_right(kept: [Card; 3], score: Score, shows: Option<[Card; 3]>) -> bool {
    match shows {
        None => !score.is_blitz(),
        Some(s) => score.is_blitz() && same_cards(kept, s),
    }
}

/// The card facts alone: a branch ends exactly where the [`Likelihood`]'s does, with no weight
/// worked out and no hand listed. Its walk takes the same steps as the likelihood's, several
/// times cheaper, and tells beforehand whether that walk would end within its budget.
struct Facts<'a> {
    view: &'a View,
    budget: u64,
}

impl Evidence for Facts<'_> {
    type Weight = ();
    type Total = ();

    fn dealt(&self) {}

    fn start(&self, _: (), hand: [Card; 3], turn: &OppTurn, made: Start) -> Option<()> {
        let score = self.view.public.rules.scoring.score(hand);
        start_facts(self.view, hand, score, turn, made).map(|_| ())
    }

    fn put_down(
        &self,
        _: (),
        _: &OppTurn,
        hand: [Card; 3],
        new: Card,
        from_pile: bool,
        discard: Card,
        shows: Option<[Card; 3]>,
    ) -> Option<((), [Card; 3])> {
        let kept = kept_after(hand, new, from_pile, discard)?;
        let score = self.view.public.rules.scoring.table().score(kept);
        shown_right(kept, score, shows).then_some(((), kept))
    }

    fn add(_: &mut (), _: ()) {}

    const TALLIES: bool = false;

    fn budget(&self) -> u64 {
        self.budget
    }
}

/// Each hand's posterior over the knock scores, cumulative in whole numbers, by the hand's row
/// in the listed posterior; hands not listed (an opponent who has not played) follow the prior.
#[derive(Clone, Debug)]
pub(crate) struct Knocks {
    rows: Vec<[u32; KNOCK_SCORES]>,
    prior: [u32; KNOCK_SCORES],
}

impl Knocks {
    fn new(prior: &Weights) -> Knocks {
        Knocks {
            rows: Vec::new(),
            prior: cumulative(prior),
        }
    }

    /// The score a deal's opponent holding the hand of `row` knocks at, drawn from its
    /// posterior.
    pub(crate) fn draw(&self, row: u32, rng: &mut Rng) -> Score {
        let c = self.rows.get(row as usize).unwrap_or(&self.prior);
        let r = rng.below(c[KNOCK_SCORES - 1]);
        // The first score whose cumulative weight is above `r`: as the weights never fall, the
        // number of them at or below it, counted without a branch (where the search stopped at
        // a place as good as random).
        let at_or_below = c.iter().map(|&x| usize::from(x <= r)).sum::<usize>();
        knock_score(at_or_below.min(KNOCK_SCORES - 1))
    }
}

fn cumulative(w: &Weights) -> [u32; KNOCK_SCORES] {
    let total: f64 = w.iter().sum();
    let mut run = 0u32;
    std::array::from_fn(|i| {
        if total > 0.0 {
            run += rounded(w[i] / total * KNOCK_SCALE) as u32;
        }
        run
    })
}

/// A modelled opponent's posterior, and their knock scores by hand.
pub(super) fn count_modelled(
    view: &View,
    o: &Opponent,
    unseen: &[Card],
    cancel: &AtomicBool,
    params: &'static Params,
    effort: Effort,
) -> (Posterior, Knocks) {
    let knocks = Knocks::new(&params.prior);
    if let Some(h) = o.shown_hand {
        let hands = vec![(h, CardSet::EMPTY)];
        return (
            Posterior::Counted {
                hands,
                cumulative: vec![1],
            },
            knocks,
        );
    }
    if o.turns.is_empty() {
        return (unplayed(view, unseen), knocks);
    }
    let evidence = Likelihood::new(view, params, effort.walk);
    // The walk is tried only where it ends within its budget: the facts' walk tells so at a
    // fraction of the cost (a weighed walk given up was a fifth of a late position's read).
    let facts = Facts {
        view,
        budget: effort.walk,
    };
    let fits = Counter::walk(view, o, unseen, cancel, facts).is_some();
    let walked = fits.then(|| Counter::walk(view, o, unseen, cancel, evidence));
    let entries = match walked.flatten() {
        Some(entries) => entries,
        None => {
            let ev = Likelihood::new(view, params, 0);
            particles(view, o, unseen, cancel, &ev, effort.particles)
        }
    };
    weighted(entries, knocks)
}

/// The entries' weights as a counted posterior, with each hand's knock scores (worked out on
/// any thread).
fn weighted(entries: Vec<Entry<Weights>>, mut knocks: Knocks) -> (Posterior, Knocks) {
    let entries: Vec<(Entry<Weights>, f64)> = entries
        .into_iter()
        .map(|e| {
            let sum = e.2.iter().sum();
            (e, sum)
        })
        .filter(|&(_, sum)| sum > 0.0)
        .collect();
    let heaviest = entries.iter().map(|e| e.1).fold(0.0, f64::max);
    let mut hands = Vec::with_capacity(entries.len());
    let mut cumulative = Vec::with_capacity(entries.len());
    let mut total = 0u64;
    for &((bits, hand, _), sum) in &entries {
        total += rounded(sum / heaviest * SCALE).max(1);
        hands.push((hand, unseen_set(bits)));
        cumulative.push(total);
    }
    knocks.rows = entries
        .par_iter()
        .map(|(e, _)| self::cumulative(&e.2))
        .collect();
    (Posterior::Counted { hands, cumulative }, knocks)
}

#[cfg(test)]
#[path = "weighted_tests.rs"]
mod tests;
