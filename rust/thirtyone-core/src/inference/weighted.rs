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
//! A walk that grows past its budget is replaced by a sample of histories drawn from those the
//! card facts allow (on fixed random streams, weighed the same way): an importance-sampled
//! posterior, no longer exact but never empty. Both sizes follow the deals asked for
//! ([`Effort`]): a small query is not made to pay for a posterior finer than its deals can use.

use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use montecarlo::Rng;
use rayon::prelude::*;

use super::count::{unplayed, unseen_set, Counter, Entry, Evidence};
use super::posterior::{sample_history, Posterior};
use crate::hand::decision::{put_down_with, start_with, Start};
use crate::hand::{same_cards, Card, CardSet, Score, ScoreTable};
use crate::model::{
    final_put_down_chance, final_start_chance, knock_score, put_down_chance, FinalTurn, Params,
    StartChances, Weights, KNOCK_SCORES,
};
use crate::round::knock_limits_allow_with;
use crate::view::{OppAct, OppTurn, Opponent, View};

/// The most histories sampled when a walk is over its budget (a query of 8,192 deals or more).
pub const POOL: usize = 1 << 15;
/// Histories sampled per deal asked for.
const POOL_PER_DEAL: usize = 4;
/// Steps the weighed walk may take per history of the pool: no branch ends at an unlikely move,
/// so the walk grows faster than the table's count, and a walk given up is work lost; past this,
/// the pool is quicker for the same accuracy.
const WALK_PER_HISTORY: u64 = 2;
/// The pool is sampled in chunks of this many histories, each on a random stream of its own
/// and summed in chunk order: the same pool on any number of threads.
const CHUNK: usize = 1 << 10;
/// Chunks of the pool sampled at once (their buffers kept from batch to batch): two, about
/// 300 KB of histories, stay within a core's L2 of 512 KB, where eight (1.2 MB) did not.
const IN_FLIGHT: usize = 2;

/// How much work a modelled opponent's posterior may take: the walk's steps and the pool's
/// histories, by the deals the query collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    pub walk: u64,
    pub pool: usize,
}

impl Effort {
    /// The effort for a query of `deals` deals: [`POOL_PER_DEAL`] histories a deal, in whole
    /// chunks, at most [`POOL`].
    pub fn for_deals(deals: usize) -> Effort {
        let pool = deals
            .saturating_mul(POOL_PER_DEAL)
            .div_ceil(CHUNK)
            .clamp(1, POOL / CHUNK)
            * CHUNK;
        Effort {
            walk: pool as u64 * WALK_PER_HISTORY,
            pool,
        }
    }
}
/// A hand's weights are scaled so that the heaviest is this many: lighter ones keep at least 1.
const SCALE: f64 = (1u64 << 32) as f64;
/// The resolution of a hand's posterior over the knock scores.
const KNOCK_SCALE: f64 = (1u32 << 20) as f64;
const PURPOSE_POOL: u64 = 0x504f_4f4c; // "POOL"

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

    /// [`Evidence::start`] in place, the hand's score at hand: `w` times the chance of `made`,
    /// or None when the table does not allow it (`w` then is of no use).
    #[inline(always)]
    fn weigh_start(
        &self,
        w: &mut Weights,
        table: ScoreTable,
        (hand, score): ([Card; 3], Score),
        turn: &OppTurn,
        made: Start,
    ) -> Option<()> {
        let may_knock = start_facts(self.view, hand, score, turn, made)?;
        let top = turn.may_take.then_some(turn.top);
        let (never, taken) = start_with(
            table,
            hand,
            score,
            top,
            false,
            turn.stock_empty,
            Score::NEVER,
        );
        if let Some(f) = self.final_turn(turn) {
            let after = taken.map_or(score, |t| t.score);
            let c = final_start_chance(f, made, never, turn.may_take, (score, after));
            w.iter_mut().for_each(|x| *x *= c);
        } else if let (Start::Knock, Some(k)) = (made, &self.params.knocks) {
            let c = k.chance(self.view.public.seats, turn.lap, score, self.yours);
            w.iter_mut().for_each(|x| *x *= c);
        } else {
            let p = self.params;
            StartChances::new(p, made, never, may_knock, score, turn.may_take).weigh(w);
        }
        Some(())
    }

    /// [`Evidence::put_down`] in place, the hand's score (`now`) at hand: `w` times the chance of
    /// putting `discard` down (`from_pile`: the new card was taken from the pile), and the hand
    /// kept with its score, or None when the card facts rule it out.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn weigh_put_down(
        &self,
        w: &mut Weights,
        table: ScoreTable,
        turn: &OppTurn,
        (hand, now): ([Card; 3], Score),
        new: Card,
        (from_pile, discard): (bool, Card),
        shows: Option<[Card; 3]>,
    ) -> Option<([Card; 3], Score)> {
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
        w.iter_mut().for_each(|x| *x *= c);
        Some((kept, kept_score))
    }
}

impl Evidence for Likelihood<'_> {
    type Weight = Weights;
    type Total = Weights;

    fn dealt(&self) -> Weights {
        self.params.prior
    }

    fn start(&self, w: Weights, hand: [Card; 3], turn: &OppTurn, made: Start) -> Option<Weights> {
        let table = self.view.public.rules.scoring.table();
        let mut w = w;
        self.weigh_start(&mut w, table, (hand, table.score(hand)), turn, made)?;
        Some(w)
    }

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
        let mut w = w;
        let now = (hand, table.score(hand));
        let (kept, _) =
            self.weigh_put_down(&mut w, table, turn, now, new, (from_pile, discard), shows)?;
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

/// Each hand's posterior over the knock scores, cumulative in whole numbers, by the hand's
/// unseen cards; hands not listed (an opponent who has not played) follow the prior.
#[derive(Clone, Debug)]
pub(crate) struct Knocks {
    by_hand: HashMap<u64, [u32; KNOCK_SCORES]>,
    prior: [u32; KNOCK_SCORES],
}

impl Knocks {
    fn new(prior: &Weights) -> Knocks {
        Knocks {
            by_hand: HashMap::default(),
            prior: cumulative(prior),
        }
    }

    /// The score a deal's opponent holding `unseen_used` knocks at, drawn from its posterior.
    pub(crate) fn draw(&self, unseen_used: CardSet, rng: &mut Rng) -> Score {
        let c = self.by_hand.get(&unseen_used.bits()).unwrap_or(&self.prior);
        let r = rng.below(c[KNOCK_SCORES - 1]);
        knock_score(c.iter().position(|&x| x > r).unwrap_or(KNOCK_SCORES - 1))
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

/// `x.round() as u64` for `x` from 0 to 2^52 (a half away from zero), without the library's
/// call: the whole part, and one more when what is left is a half or more (exact: at these
/// sizes `x` less its whole part is a float).
#[inline]
fn rounded(x: f64) -> u64 {
    let whole = x as u64;
    whole + u64::from(x - whole as f64 >= 0.5)
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
        None => sampled(view, o, unseen, cancel, params, effort.pool),
    };
    weighted(entries, knocks)
}

/// The entries' weights as a counted posterior, with each hand's knock scores.
fn weighted(entries: Vec<Entry<Weights>>, mut knocks: Knocks) -> (Posterior, Knocks) {
    let sums: Vec<f64> = entries.iter().map(|e| e.2.iter().sum()).collect();
    let heaviest = sums.iter().copied().fold(0.0, f64::max);
    let mut hands = Vec::with_capacity(entries.len());
    let mut cumulative = Vec::with_capacity(entries.len());
    let mut total = 0u64;
    for ((bits, hand, w), sum) in entries.into_iter().zip(sums) {
        if sum <= 0.0 {
            continue;
        }
        total += rounded(sum / heaviest * SCALE).max(1);
        hands.push((hand, unseen_set(bits)));
        cumulative.push(total);
        knocks.by_hand.insert(bits, self::cumulative(&w));
    }
    (Posterior::Counted { hands, cumulative }, knocks)
}

/// `pool` histories (whole chunks) drawn from those the card facts allow, each weighed by the
/// likelihood of what the opponent did: the entries of an importance-sampled posterior.
fn sampled(
    view: &View,
    o: &Opponent,
    unseen: &[Card],
    cancel: &AtomicBool,
    params: &'static Params,
    pool: usize,
) -> Vec<Entry<Weights>> {
    let ev = Likelihood::new(view, params, 0);
    // A batch of chunks at a time, in buffers used again for every batch: the histories of a
    // whole pool (5 MB an opponent) were written to fresh memory, whose faults and misses cost
    // more than weighing them.
    let mut buffers: Vec<Vec<(u64, [Card; 3], Weights)>> =
        (0..IN_FLIGHT).map(|_| Vec::with_capacity(CHUNK)).collect();
    // Summed in the order drawn, whatever thread drew them: each hand's place in the map, its
    // cards (as first drawn) and its weights side by side in lists (the map of places stays
    // small, the weights dense).
    let mut place: HashMap<u64, u32> = HashMap::default();
    let mut hands: Vec<(u64, [Card; 3])> = Vec::new();
    let mut totals: Vec<Weights> = Vec::new();
    let chunks = pool.div_ceil(CHUNK);
    for first in (0..chunks).step_by(IN_FLIGHT) {
        let batch = &mut buffers[..IN_FLIGHT.min(chunks - first)];
        batch.par_iter_mut().enumerate().for_each(|(j, drawn)| {
            drawn.clear();
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let chunk = first + j;
            let task = ((o.turns.len() as u64) << 32) | chunk as u64;
            let mut rng = Rng::stream(u64::from(o.seat), PURPOSE_POOL, task);
            let mut slots = [Card::from_index(0); 64];
            for _ in 0..CHUNK {
                let used = sample_history(unseen, o, &mut rng, &mut slots);
                if let Some((hand, w)) = replay(&ev, o, &slots) {
                    drawn.push((used.bits(), hand, w));
                }
            }
        });
        for (bits, hand, w) in batch.iter().flatten() {
            let at = *place.entry(*bits).or_insert_with(|| {
                hands.push((*bits, *hand));
                totals.push([0.0; KNOCK_SCORES]);
                totals.len() as u32 - 1
            });
            Likelihood::add(&mut totals[at as usize], *w);
        }
    }
    // In the order of the unseen cards' bits (each hand's once: the same order as a sort of
    // the entries themselves), without moving the weights to sort them.
    let mut order: Vec<u32> = (0..hands.len() as u32).collect();
    order.sort_unstable_by_key(|&i| hands[i as usize].0);
    order
        .into_iter()
        .map(|i| {
            let (bits, hand) = hands[i as usize];
            (bits, hand, totals[i as usize])
        })
        .collect()
}

/// One history (3 dealt cards, then the stock draws in order) weighed turn by turn: the hand it
/// ends in and its weights, or None when the card facts rule it out. The weights are worked out
/// in place and each hand's score carried from turn to turn (the same products as the
/// [`Evidence`] methods', in the same order).
fn replay(ev: &Likelihood<'_>, o: &Opponent, slots: &[Card; 64]) -> Option<([Card; 3], Weights)> {
    let table = ev.view.public.rules.scoring.table();
    let mut hand = [slots[0], slots[1], slots[2]];
    let mut score = table.score(hand);
    if score.is_blitz() {
        return None; // a dealt 31 would have ended the round before play
    }
    let mut w = ev.dealt();
    for turn in &o.turns {
        let (made, new, from_pile, discard, shows) = match turn.act {
            OppAct::Knock => (Start::Knock, None, false, None, None),
            OppAct::Take { discard, shows } => {
                (Start::Take, Some(turn.top), true, Some(discard), shows)
            }
            OppAct::Draw {
                draw,
                discard,
                shows,
            } => (
                Start::Draw,
                Some(slots[3 + draw as usize]),
                false,
                Some(discard),
                shows,
            ),
        };
        ev.weigh_start(&mut w, table, (hand, score), turn, made)?;
        if let (Some(new), Some(discard)) = (new, discard) {
            let now = (hand, score);
            (hand, score) =
                ev.weigh_put_down(&mut w, table, turn, now, new, (from_pile, discard), shows)?;
        }
    }
    Some((hand, w))
}

#[cfg(test)]
#[path = "weighted_tests.rs"]
mod tests;
