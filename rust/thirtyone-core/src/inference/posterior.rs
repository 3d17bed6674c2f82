//! Consistent deals: each opponent's hidden cards re-dealt until the table's decision rule,
//! replayed over the round, does exactly what that opponent visibly did (`oracle.md`).
//!
//! An opponent's hidden cards are their three dealt cards and the cards they drew from the
//! stock, in order ("slots"). The cards they put down from those slots are known; the others are
//! the hidden cards they hold now. Under a uniform deal every filling of the slots is equally
//! likely, and the rule is deterministic, so the consistent deals are equally likely too, and
//! what the future needs — the opponent's hand now — has the posterior "number of consistent
//! fillings that end in this hand".
//!
//! That posterior is counted exactly by walking the opponent's turns in order: the dealt cards,
//! then at each stock draw the card drawn (forced when the card put down was not yet in hand),
//! the rule replayed at every step so that a branch ends at its first mismatch. The hands are
//! then drawn from the counts. Should the walk grow too large, the opponent is sampled by plain
//! rejection instead: the known put-downs placed in slots they could have come from, uniformly,
//! the rest dealt from the unseen cards, kept when the replay matches. Opponents are combined by
//! the engine (their hidden cards must differ): see `deals`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use montecarlo::Rng;
use rayon::prelude::*;

use crate::hand::decision::{choose_put_down, choose_start, Start, TABLE_KNOCK_AT};
use crate::hand::{same_cards, Card, CardSet};
use crate::inference::conditional::{Conditional, Places};
use crate::round::knock_limits_allow;
use crate::rules::MAX_SEATS;
use crate::view::{OppAct, Opponent, View};

/// One opponent's sampled hand now and the unseen cards it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OppDeal {
    pub hand: [Card; 3],
    pub unseen_used: CardSet,
}

/// A consistent deal: every opponent's hand now, and the unseen cards left (the stock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    pub hands: [[Card; 3]; MAX_SEATS],
    pub stock: CardSet,
}

/// How one opponent's hand now is drawn.
#[derive(Clone, Debug)]
pub(crate) enum Posterior {
    /// From exact counts: the hands, their unseen cards, and cumulative counts.
    Counted {
        hands: Vec<([Card; 3], CardSet)>,
        cumulative: Vec<u64>,
    },
    /// By rejection (the count grew too large).
    Rejection,
}

/// Steps one opponent's count may take before rejection sampling takes over (bounded in work,
/// not time: a count is part of the least work of an answer).
pub const COUNT_BUDGET: u64 = 4_000_000;
/// Steps of a count between two looks at the cancellation flag.
const LOOK_EVERY: u64 = 4_096;

/// Samples consistent deals for one view.
pub struct Inference<'a> {
    pub(crate) view: &'a View,
    unseen: Vec<Card>,
    pub(crate) posteriors: Vec<Posterior>,
    /// Each counted posterior, ready to be drawn given the cards other opponents hold.
    pub(crate) conditionals: Vec<Option<Conditional>>,
}

impl<'a> Inference<'a> {
    pub fn new(view: &'a View) -> Self {
        Inference::cancellable(view, &AtomicBool::new(false))
    }

    /// The same, the counting stopped when `cancel` is set (an opponent whose count is not done
    /// by then is left to rejection: the caller is to see the flag and stop).
    pub fn cancellable(view: &'a View, cancel: &AtomicBool) -> Self {
        let unseen: Vec<Card> = view.unseen.iter().collect();
        // Opponents are counted in parallel (in the caller's rayon pool).
        let posteriors: Vec<Posterior> = view
            .opponents
            .par_iter()
            .map(|o| Counter::count(view, o, &unseen, cancel))
            .collect();
        let places = Places::new(&unseen);
        let conditionals = view
            .opponents
            .par_iter()
            .zip(&posteriors)
            .map(|(o, p)| match p {
                Posterior::Counted { hands, cumulative } => Some(Conditional::new(
                    o,
                    &unseen,
                    &view.table.rules.scoring,
                    hands,
                    cumulative,
                    places.as_ref(),
                )),
                Posterior::Rejection => None,
            })
            .collect();
        Inference {
            view,
            unseen,
            posteriors,
            conditionals,
        }
    }

    /// Sample every opponent by rejection only (no counting): slower, but a second, independent
    /// way to the same posterior, for checks.
    pub fn by_rejection(view: &'a View) -> Self {
        Inference {
            view,
            unseen: view.unseen.iter().collect(),
            posteriors: view
                .opponents
                .iter()
                .map(|_| Posterior::Rejection)
                .collect(),
            conditionals: view.opponents.iter().map(|_| None).collect(),
        }
    }

    /// The number of consistent fillings of each opponent's slots (None: not counted).
    pub fn counts(&self) -> Vec<Option<u64>> {
        self.posteriors
            .iter()
            .map(|p| match p {
                Posterior::Counted { cumulative, .. } => {
                    Some(cumulative.last().copied().unwrap_or(0))
                }
                Posterior::Rejection => None,
            })
            .collect()
    }

    /// `k` distinct unseen cards chosen uniformly, none of `taken` (which must leave `k`).
    fn unseen_cards(
        &self,
        k: usize,
        taken: CardSet,
        rng: &mut Rng,
        out: &mut [Card; 3],
    ) -> CardSet {
        let mut used = CardSet::EMPTY;
        let n = self.unseen.len() as u32;
        let mut got = 0;
        while got < k {
            let c = self.unseen[rng.below(n) as usize];
            if !used.contains(c) && !taken.contains(c) {
                used.insert(c);
                out[got] = c;
                got += 1;
            }
        }
        used
    }

    /// One attempt for opponent `o`: a sampled history, replayed by the rule.
    pub(crate) fn attempt(&self, o: &Opponent, rng: &mut Rng) -> Option<OppDeal> {
        if let Some(h) = o.shown_hand {
            return Some(OppDeal {
                hand: h,
                unseen_used: CardSet::EMPTY,
            });
        }
        let slots_len = 3 + o.stock_draws as usize;
        let mut slots = [Card::from_index(0); 64];
        let mut filled = 0u64; // bit i: slot i holds a card put down later
        for &(card, avail) in &o.hidden_discards {
            let free = avail as u32 - filled.count_ones();
            let mut r = rng.below(free);
            let mut s = 0usize;
            loop {
                if filled & (1 << s) == 0 {
                    if r == 0 {
                        break;
                    }
                    r -= 1;
                }
                s += 1;
            }
            filled |= 1 << s;
            slots[s] = card;
        }
        let mut fresh = [Card::from_index(0); 3];
        let k = slots_len - o.hidden_discards.len();
        let used = self.unseen_cards(k, CardSet::EMPTY, rng, &mut fresh);
        let mut j = 0;
        for (s, slot) in slots.iter_mut().enumerate().take(slots_len) {
            if filled & (1 << s) == 0 {
                *slot = fresh[j];
                j += 1;
            }
        }
        let hand = replay(self.view, o, &slots[..slots_len])?;
        Some(OppDeal {
            hand,
            unseen_used: used,
        })
    }

    /// Opponent `o` dealt without the test: the cards they took and still hold, and unseen cards
    /// that none of the hands dealt before (`taken`) uses.
    pub(crate) fn untested(&self, o: &Opponent, taken: CardSet, rng: &mut Rng) -> OppDeal {
        if let Some(h) = o.shown_hand {
            return OppDeal {
                hand: h,
                unseen_used: CardSet::EMPTY,
            };
        }
        let mut hand = [Card::from_index(0); 3];
        let held: Vec<Card> = o.known_held.iter().collect();
        let mut fresh = [Card::from_index(0); 3];
        let used = self.unseen_cards(3 - held.len(), taken, rng, &mut fresh);
        for (i, slot) in hand.iter_mut().enumerate() {
            *slot = if i < held.len() {
                held[i]
            } else {
                fresh[i - held.len()]
            };
        }
        OppDeal {
            hand,
            unseen_used: used,
        }
    }
}

/// Replay the table's rule for one opponent over their slots (3 dealt, then their stock draws in
/// order). Returns their hand now if the rule does exactly what they visibly did.
fn replay(view: &View, o: &Opponent, slots: &[Card]) -> Option<[Card; 3]> {
    let scoring = &view.table.rules.scoring;
    let mut hand = [slots[0], slots[1], slots[2]];
    if scoring.score(hand).is_blitz() {
        return None; // a dealt 31 would have ended the round before play
    }
    for t in &o.turns {
        let may_knock = t.knock_open && knock_limits_allow(&view.table.rules, hand);
        let top = t.may_take.then_some(t.top);
        let start = choose_start(scoring, hand, top, may_knock, t.stock_empty, TABLE_KNOCK_AT);
        let (new, from_pile, discard, shows) = match t.act {
            OppAct::Knock => {
                if start != Start::Knock {
                    return None;
                }
                continue;
            }
            OppAct::Take { discard, shows } => {
                if start != Start::Take {
                    return None;
                }
                (t.top, true, discard, shows)
            }
            OppAct::Draw {
                draw,
                discard,
                shows,
            } => {
                if start != Start::Draw {
                    return None;
                }
                (slots[3 + draw as usize], false, discard, shows)
            }
        };
        let p = choose_put_down(scoring, hand, new, from_pile);
        if p.card != discard {
            return None;
        }
        hand = p.kept;
        let blitz = p.score.is_blitz();
        match shows {
            // A 31 after a put-down is always shown: an unshown one is not this history.
            None if blitz => return None,
            Some(_) if !blitz => return None,
            _ => {}
        }
    }
    Some(hand)
}

/// The exact count of one opponent's consistent slot fillings, by the hand they end in.
struct Counter<'a> {
    view: &'a View,
    o: &'a Opponent,
    unseen: &'a [Card],
    /// Hidden cards still to enter their hand (dealt or drawn) in a branch.
    counts: HashMap<u64, ([Card; 3], u64)>,
    steps: u64,
    cancel: &'a AtomicBool,
}

#[derive(Clone, Copy)]
struct Branch {
    hand: [Card; 3],
    /// Cards they put down later that are not yet in their hand.
    pending: CardSet,
    /// Hidden cards they hold now that have not yet entered their hand, and those that have.
    fresh_left: usize,
    fresh: CardSet,
}

impl<'a> Counter<'a> {
    fn count(
        view: &'a View,
        o: &'a Opponent,
        unseen: &'a [Card],
        cancel: &'a AtomicBool,
    ) -> Posterior {
        if let Some(h) = o.shown_hand {
            return Posterior::Counted {
                hands: vec![(h, CardSet::EMPTY)],
                cumulative: vec![1],
            };
        }
        if o.turns.is_empty() {
            return Counter::unplayed(view, unseen);
        }
        let mut c = Counter {
            view,
            o,
            unseen,
            counts: HashMap::new(),
            steps: 0,
            cancel,
        };
        if !c.deal() {
            return Posterior::Rejection;
        }
        let mut entries: Vec<(u64, [Card; 3], u64)> =
            c.counts.into_iter().map(|(k, (h, n))| (k, h, n)).collect();
        entries.sort_unstable_by_key(|e| e.0); // a fixed order: results must not depend on hashing
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

    /// An opponent who has not played: every three unseen cards but a dealt 31, once each, in
    /// the order of the counted posteriors (by the unseen cards' bits: `c`, then `b`, then `a`).
    fn unplayed(view: &View, unseen: &[Card]) -> Posterior {
        let scoring = &view.table.rules.scoring;
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

    /// Every dealt hand: some of the cards they put down later, and fresh unseen cards.
    /// Returns false when the count went over its budget or was cancelled.
    fn deal(&mut self) -> bool {
        let later: Vec<Card> = self.o.hidden_discards.iter().map(|&(c, _)| c).collect();
        let all_later: CardSet = later.iter().copied().collect();
        let hidden_now = self.o.hidden_now();
        let u = self.unseen.len();
        for a in 0..=later.len().min(3) {
            let f = 3 - a;
            if f > hidden_now {
                continue;
            }
            for subset in combinations(later.len(), a) {
                let mut fresh_combos = Combinations::new(u, f);
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
                        hand[k] = self.unseen[i];
                        fresh.insert(self.unseen[i]);
                        k += 1;
                    }
                    if self.view.table.rules.scoring.score(hand).is_blitz() {
                        continue;
                    }
                    let b = Branch {
                        hand,
                        pending,
                        fresh_left: hidden_now - f,
                        fresh,
                    };
                    if !self.turn(0, b) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Replay turn `t` and everything after it. Returns false over budget or when cancelled.
    fn turn(&mut self, t: usize, b: Branch) -> bool {
        self.steps += 1;
        if self.steps > COUNT_BUDGET {
            return false;
        }
        if self.steps % LOOK_EVERY == 0 && self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        let Some(turn) = self.o.turns.get(t) else {
            if b.pending.is_empty() && b.fresh_left == 0 {
                let e = self.counts.entry(b.fresh.bits()).or_insert((b.hand, 0));
                e.1 += 1;
            }
            return true;
        };
        let rules = &self.view.table.rules;
        let scoring = &rules.scoring;
        let may_knock = turn.knock_open && knock_limits_allow(rules, b.hand);
        let top = turn.may_take.then_some(turn.top);
        let start = choose_start(
            scoring,
            b.hand,
            top,
            may_knock,
            turn.stock_empty,
            TABLE_KNOCK_AT,
        );
        let fits = |p: &crate::hand::decision::PutDown, discard: Card, shows: Option<[Card; 3]>| {
            p.card == discard
                && match shows {
                    None => !p.score.is_blitz(),
                    Some(s) => p.score.is_blitz() && same_cards(p.kept, s),
                }
        };
        match turn.act {
            OppAct::Knock => {
                if start == Start::Knock {
                    return self.turn(t + 1, b);
                }
            }
            OppAct::Take { discard, shows } => {
                if start == Start::Take {
                    let p = choose_put_down(scoring, b.hand, turn.top, true);
                    if fits(&p, discard, shows) {
                        return self.turn(t + 1, Branch { hand: p.kept, ..b });
                    }
                }
            }
            OppAct::Draw { discard, shows, .. } => {
                if start != Start::Draw {
                    return true;
                }
                if b.pending.contains(discard) {
                    // Put down now but not yet in hand: it is the card drawn.
                    let p = choose_put_down(scoring, b.hand, discard, false);
                    if fits(&p, discard, shows) {
                        let mut pending = b.pending;
                        pending.remove(discard);
                        return self.turn(
                            t + 1,
                            Branch {
                                hand: p.kept,
                                pending,
                                ..b
                            },
                        );
                    }
                    return true;
                }
                for c in b.pending.iter() {
                    let p = choose_put_down(scoring, b.hand, c, false);
                    if fits(&p, discard, shows) {
                        let mut pending = b.pending;
                        pending.remove(c);
                        if !self.turn(
                            t + 1,
                            Branch {
                                hand: p.kept,
                                pending,
                                ..b
                            },
                        ) {
                            return false;
                        }
                    }
                }
                if b.fresh_left > 0 {
                    for &c in self.unseen {
                        if b.fresh.contains(c) {
                            continue;
                        }
                        let p = choose_put_down(scoring, b.hand, c, false);
                        if fits(&p, discard, shows) {
                            let mut fresh = b.fresh;
                            fresh.insert(c);
                            let next = Branch {
                                hand: p.kept,
                                fresh,
                                fresh_left: b.fresh_left - 1,
                                ..b
                            };
                            if !self.turn(t + 1, next) {
                                return false;
                            }
                        }
                    }
                }
            }
        }
        true
    }
}

fn unseen_set(bits: u64) -> CardSet {
    Card::all()
        .filter(|c| bits & (1u64 << c.index()) != 0)
        .collect()
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
#[path = "posterior_tests.rs"]
mod tests;
