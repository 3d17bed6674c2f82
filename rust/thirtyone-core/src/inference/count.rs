//! The exact count of one opponent's consistent fillings of their slots, by the hand they end
//! in: their turns walked in order, the dealt cards and then each stock draw, what they did
//! weighed at every step by the [`Evidence`] (the table's rule as a filter, so that a branch ends
//! at its first mismatch, or a model's likelihood, `weighted`); bounded in steps
//! ([`COUNT_BUDGET`]), after which the opponent is sampled instead.

use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::posterior::{Posterior, COUNT_BUDGET};
use crate::hand::decision::{choose_put_down, choose_start, Start, TABLE_KNOCK_AT};
use crate::hand::{same_cards, Card, CardSet};
use crate::round::knock_limits_allow;
use crate::view::{OppAct, OppTurn, Opponent, View};

/// Steps of a count between two looks at the cancellation flag.
const LOOK_EVERY: u64 = 4_096;

/// What an opponent's visible play says of one branch of their history.
pub(super) trait Evidence {
    /// What a branch carries: nothing for a filter, a weight per knock score for a model.
    type Weight: Copy;
    /// What the branches ending in one hand add up to.
    type Total: Copy + Default;
    /// A dealt hand's weight, before any turn.
    fn dealt(&self) -> Self::Weight;
    /// The weight after the start they made on `turn` holding `hand` (None: impossible).
    fn start(
        &self,
        w: Self::Weight,
        hand: [Card; 3],
        turn: &OppTurn,
        made: Start,
    ) -> Option<Self::Weight>;
    /// The weight after they put `discard` down from `hand` and the `new` card (taken from the
    /// pile or drawn) on `turn`, showing `shows`, and the hand they kept (None: impossible).
    #[allow(clippy::too_many_arguments)]
    fn put_down(
        &self,
        w: Self::Weight,
        turn: &OppTurn,
        hand: [Card; 3],
        new: Card,
        from_pile: bool,
        discard: Card,
        shows: Option<[Card; 3]>,
    ) -> Option<(Self::Weight, [Card; 3])>;
    /// Add a branch's weight to its hand's total.
    fn add(total: &mut Self::Total, w: Self::Weight);
    /// The steps the walk may take before it gives up.
    fn budget(&self) -> u64;
    /// Whether the walk keeps each hand's total: a walk that only tells whether it ends within
    /// its budget (the card facts') counts its steps and lists no hand.
    const TALLIES: bool = true;
}

/// The table's rule, replayed: a branch lives only while the rule does what they did.
pub(super) struct Filter<'a> {
    pub(super) view: &'a View,
}

impl Evidence for Filter<'_> {
    type Weight = ();
    type Total = u64;

    fn dealt(&self) {}

    fn start(&self, _: (), hand: [Card; 3], turn: &OppTurn, made: Start) -> Option<()> {
        let rules = &self.view.public.rules;
        let may_knock = turn.knock_open && knock_limits_allow(rules, hand);
        let top = turn.may_take.then_some(turn.top);
        let start = choose_start(
            &rules.scoring,
            hand,
            top,
            may_knock,
            turn.stock_empty,
            TABLE_KNOCK_AT,
        );
        (start == made).then_some(())
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
        let p = choose_put_down(&self.view.public.rules.scoring, hand, new, from_pile);
        let fits = p.card == discard
            && match shows {
                None => !p.score.is_blitz(),
                Some(s) => p.score.is_blitz() && same_cards(p.kept, s),
            };
        fits.then_some(((), p.kept))
    }

    fn add(total: &mut u64, _: ()) {
        *total += 1;
    }

    fn budget(&self) -> u64 {
        COUNT_BUDGET
    }
}

/// The walk over one opponent's histories, weighed by the evidence `E`.
pub(super) struct Counter<'a, E: Evidence> {
    view: &'a View,
    o: &'a Opponent,
    unseen: &'a [Card],
    evidence: &'a E,
    /// Each hand's total, by the unseen cards it holds.
    counts: Totals<E::Total>,
    steps: u64,
    cancel: &'a AtomicBool,
}

#[derive(Clone, Copy)]
pub(super) struct Branch<W> {
    pub(super) hand: [Card; 3],
    /// Cards they put down later that are not yet in their hand.
    pub(super) pending: CardSet,
    /// Hidden cards they hold now that have not yet entered their hand, and those that have.
    pub(super) fresh_left: usize,
    pub(super) fresh: CardSet,
    /// What the evidence says of the branch so far.
    pub(super) w: W,
}

impl<W> Branch<W> {
    /// Whether the branch has placed every card of the slots: a history of its own.
    pub(super) fn is_whole(&self) -> bool {
        self.pending.is_empty() && self.fresh_left == 0
    }
}

/// A turn up to its stock draw ([`start_of`]).
pub(super) enum Started<W> {
    /// The start is ruled out.
    Out,
    /// A knock, or a take with its put-down: the branch after the whole turn.
    Done(Branch<W>),
    /// A stock draw, the branch weighed by the start; its put-down of `discard` (showing
    /// `shows`) follows for every card it may have drawn ([`drawn`]).
    Draws(Branch<W>, Card, Option<[Card; 3]>),
}

/// Turn `t` of `o` for branch `b`, up to its stock draw: the branching of the walk and of the
/// particles (`particles`) alike.
#[inline(always)]
pub(super) fn start_of<E: Evidence>(
    ev: &E,
    o: &Opponent,
    t: usize,
    b: Branch<E::Weight>,
) -> Started<E::Weight> {
    let turn = &o.turns[t];
    match turn.act {
        OppAct::Knock => match ev.start(b.w, b.hand, turn, Start::Knock) {
            Some(w) => Started::Done(Branch { w, ..b }),
            None => Started::Out,
        },
        OppAct::Take { discard, shows } => {
            let kept = ev
                .start(b.w, b.hand, turn, Start::Take)
                .and_then(|w| ev.put_down(w, turn, b.hand, turn.top, true, discard, shows));
            match kept {
                Some((w, hand)) => Started::Done(Branch { hand, w, ..b }),
                None => Started::Out,
            }
        }
        OppAct::Draw { discard, shows, .. } => match ev.start(b.w, b.hand, turn, Start::Draw) {
            Some(w) => Started::Draws(Branch { w, ..b }, discard, shows),
            None => Started::Out,
        },
    }
}

/// Turn `t`, a stock draw after which they put down `discard` ([`Started::Draws`]): every card
/// they may have drawn and its branch, each given to `f` until it returns false (then false).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn drawn<E: Evidence>(
    ev: &E,
    o: &Opponent,
    unseen: &[Card],
    t: usize,
    b: Branch<E::Weight>,
    discard: Card,
    shows: Option<[Card; 3]>,
    mut f: impl FnMut(Card, Branch<E::Weight>) -> bool,
) -> bool {
    if b.pending.contains(discard) {
        // Put down now but not yet in hand: it is the card drawn.
        return match drawn_card(ev, o, t, b, discard, (discard, shows)) {
            Some(next) => f(discard, next),
            None => true,
        };
    }
    for c in b.pending.iter() {
        if let Some(next) = drawn_card(ev, o, t, b, c, (discard, shows)) {
            if !f(c, next) {
                return false;
            }
        }
    }
    if b.fresh_left > 0 {
        for &c in unseen {
            if b.fresh.contains(c) {
                continue;
            }
            if let Some(next) = drawn_card(ev, o, t, b, c, (discard, shows)) {
                if !f(c, next) {
                    return false;
                }
            }
        }
    }
    true
}

/// Branch `b` at turn `t` (a stock draw, [`drawn`]) when the card drawn was `c`: one they put
/// down later, or a fresh unseen card; None where the put-down of `discard` rules it out.
#[inline(always)]
pub(super) fn drawn_card<E: Evidence>(
    ev: &E,
    o: &Opponent,
    t: usize,
    b: Branch<E::Weight>,
    c: Card,
    (discard, shows): (Card, Option<[Card; 3]>),
) -> Option<Branch<E::Weight>> {
    let (w, hand) = ev.put_down(b.w, &o.turns[t], b.hand, c, false, discard, shows)?;
    let mut next = Branch { hand, w, ..b };
    if next.pending.contains(c) {
        next.pending.remove(c);
    } else {
        next.fresh.insert(c);
        next.fresh_left -= 1;
    }
    Some(next)
}

/// Every hand `o` may have been dealt: some of the cards they put down later, and fresh unseen
/// cards (a dealt 31 left out: it would have ended the round before play), each given to `f`
/// until it returns false (then false).
pub(super) fn dealt<W: Copy>(
    view: &View,
    o: &Opponent,
    unseen: &[Card],
    w: W,
    mut f: impl FnMut(Branch<W>) -> bool,
) -> bool {
    let later: Vec<Card> = o.hidden_discards.iter().map(|&(c, _)| c).collect();
    let all_later: CardSet = later.iter().copied().collect();
    let hidden_now = o.hidden_now();
    let u = unseen.len();
    for a in 0..=later.len().min(3) {
        let f_count = 3 - a;
        if f_count > hidden_now {
            continue;
        }
        for subset in combinations(later.len(), a) {
            let mut fresh_combos = Combinations::new(u, f_count);
            while let Some(fresh_idx) = fresh_combos.next_combination() {
                let mut hand = [Card::from_index(0); 3];
                let mut k = 0;
                let mut pending = all_later;
                for &i in &subset {
                    hand[k] = later[i];
                    pending.remove(later[i]);
                    k += 1;
                }
                let mut fresh = CardSet::EMPTY;
                for &i in fresh_idx {
                    hand[k] = unseen[i];
                    fresh.insert(unseen[i]);
                    k += 1;
                }
                if view.public.rules.scoring.score(hand).is_blitz() {
                    continue;
                }
                let b = Branch {
                    hand,
                    pending,
                    fresh_left: hidden_now - f_count,
                    fresh,
                    w,
                };
                if !f(b) {
                    return false;
                }
            }
        }
    }
    true
}

/// One hand's entry of a count: the unseen cards it holds (bits), the hand, its total.
pub(super) type Entry<T> = (u64, [Card; 3], T);

/// The hands' totals by their unseen cards' bits: each total kept in a list, where it stays,
/// the map giving only its place. A model's total is 16 numbers: kept in the map itself, they
/// were moved at each growth of the map, and moving them took a tenth of a modelled read.
pub(super) struct Totals<T> {
    place: HashMap<u64, u32>,
    list: Vec<Entry<T>>,
}

impl<T: Copy + Default> Totals<T> {
    pub(super) fn new() -> Self {
        Totals {
            place: HashMap::default(),
            list: Vec::new(),
        }
    }

    /// The total of the hand `hand` holding the unseen cards `bits` (listed at nought the
    /// first time).
    #[inline]
    pub(super) fn of(&mut self, bits: u64, hand: [Card; 3]) -> &mut T {
        let next = self.list.len() as u32;
        let at = *self.place.entry(bits).or_insert(next);
        if at == next {
            self.list.push((bits, hand, T::default()));
        }
        &mut self.list[at as usize].2
    }

    /// The entries in the order of the bits (a fixed order: results must not depend on
    /// hashing); the places are sorted, and each entry moved once.
    pub(super) fn entries(self) -> Vec<Entry<T>> {
        let mut order: Vec<(u64, u32)> = self.place.into_iter().collect();
        order.sort_unstable();
        order
            .into_iter()
            .map(|(_, at)| self.list[at as usize])
            .collect()
    }
}

/// The table's count of one opponent: their counted posterior, or rejection over the budget.
pub(super) fn count_by_rule(
    view: &View,
    o: &Opponent,
    unseen: &[Card],
    cancel: &AtomicBool,
) -> Posterior {
    if let Some(h) = o.shown_hand {
        return Posterior::Counted {
            hands: vec![(h, CardSet::EMPTY)],
            cumulative: vec![1],
        };
    }
    if o.turns.is_empty() {
        return unplayed(view, unseen);
    }
    let Some(entries) = Counter::walk(view, o, unseen, cancel, Filter { view }) else {
        return Posterior::Rejection;
    };
    let mut total = 0u64;
    let mut hands = Vec::with_capacity(entries.len());
    let mut cumulative = Vec::with_capacity(entries.len());
    for (bits, hand, n) in entries {
        total += n;
        hands.push((hand, unseen_set(bits)));
        cumulative.push(total);
    }
    Posterior::Counted { hands, cumulative }
}

/// An opponent who has not played: every three unseen cards but a dealt 31, once each, in the
/// order of the counted posteriors (by the unseen cards' bits: `c`, then `b`, then `a`).
pub(super) fn unplayed(view: &View, unseen: &[Card]) -> Posterior {
    let scoring = &view.public.rules.scoring;
    let mut hands = Vec::new();
    for c in 0..unseen.len() {
        for b in 0..c {
            for a in 0..b {
                let hand = [unseen[a], unseen[b], unseen[c]];
                if !scoring.score(hand).is_blitz() {
                    hands.push((hand, hand.into_iter().collect::<CardSet>()));
                }
            }
        }
    }
    let cumulative = (1..=hands.len() as u64).collect();
    Posterior::Counted { hands, cumulative }
}

impl<'a, E: Evidence> Counter<'a, E> {
    /// Every history of `o` weighed by `evidence`: each hand's total, in the order of the
    /// unseen cards' bits (a fixed order: results must not depend on hashing); None over the
    /// budget or when cancelled.
    pub(super) fn walk(
        view: &'a View,
        o: &'a Opponent,
        unseen: &'a [Card],
        cancel: &'a AtomicBool,
        evidence: E,
    ) -> Option<Vec<Entry<E::Total>>> {
        let mut c = Counter {
            view,
            o,
            unseen,
            evidence: &evidence,
            counts: Totals::new(),
            steps: 0,
            cancel,
        };
        if !c.deal() {
            return None;
        }
        Some(c.counts.entries())
    }

    /// Every dealt hand ([`dealt`]), walked. Returns false when the count went over its
    /// budget or was cancelled.
    fn deal(&mut self) -> bool {
        let (view, o, unseen) = (self.view, self.o, self.unseen);
        dealt(view, o, unseen, self.evidence.dealt(), |b| self.turn(0, b))
    }

    /// Replay turn `t` and everything after it. Returns false over budget or when cancelled.
    fn turn(&mut self, t: usize, b: Branch<E::Weight>) -> bool {
        self.steps += 1;
        if self.steps > self.evidence.budget() {
            return false;
        }
        if self.steps % LOOK_EVERY == 0 && self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        if t == self.o.turns.len() {
            if E::TALLIES && b.is_whole() {
                E::add(self.counts.of(b.fresh.bits(), b.hand), b.w);
            }
            return true;
        }
        let (ev, o, unseen) = (self.evidence, self.o, self.unseen);
        match start_of(ev, o, t, b) {
            Started::Out => true,
            Started::Done(next) => self.turn(t + 1, next),
            Started::Draws(b, discard, shows) => {
                drawn(ev, o, unseen, t, b, discard, shows, |_, next| {
                    self.turn(t + 1, next)
                })
            }
        }
    }
}

pub(super) fn unseen_set(bits: u64) -> CardSet {
    CardSet::from_bits(bits)
}

/// The `k`-subsets of `0..n` (k <= 3), as increasing indices, without allocating.
struct Combinations {
    n: usize,
    k: usize,
    idx: [usize; 3],
    started: bool,
}

impl Combinations {
    fn new(n: usize, k: usize) -> Self {
        Combinations {
            n,
            k,
            idx: [0, 1, 2],
            started: false,
        }
    }

    fn next_combination(&mut self) -> Option<&[usize]> {
        let k = self.k;
        if !self.started {
            self.started = true;
            return (k <= self.n).then_some(&self.idx[..k]);
        }
        // Advance the rightmost index that can move, and reset those after it.
        let mut i = k;
        while i > 0 {
            i -= 1;
            if self.idx[i] < self.n - k + i {
                self.idx[i] += 1;
                for j in i + 1..k {
                    self.idx[j] = self.idx[j - 1] + 1;
                }
                return Some(&self.idx[..k]);
            }
        }
        None
    }
}

/// Every `k`-subset of `0..n`, as increasing indices.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            if n - i < k - cur.len() {
                break;
            }
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    go(0, n, k, &mut cur, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inference::test_positions::position;

    /// An opponent who has not played is listed directly: the same hands, counts and order as
    /// the walk over their (empty) history gives.
    #[test]
    fn an_unplayed_opponent_is_listed_as_the_walk_counts_it() {
        let view = View::from_input(&position(3, 5, 0).unwrap()).unwrap();
        let unseen: Vec<Card> = view.unseen.iter().collect();
        let mut checked = 0;
        for o in view.opponents.iter().filter(|o| o.turns.is_empty()) {
            let cancel = AtomicBool::new(false);
            let walked = Counter::walk(&view, o, &unseen, &cancel, Filter { view: &view }).unwrap();
            let Posterior::Counted { hands, cumulative } = unplayed(&view, &unseen) else {
                panic!("counted");
            };
            assert_eq!(hands.len(), walked.len());
            for (k, (w, h)) in walked.iter().zip(&hands).enumerate() {
                assert_eq!((w.1, w.2, cumulative[k]), (h.0, 1, k as u64 + 1));
            }
            checked += 1;
        }
        assert!(checked >= 2);
    }
}
