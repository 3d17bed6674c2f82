//! The exact count of one opponent's consistent fillings of their slots, by the hand they end
//! in: their turns walked in order, the dealt cards and then each stock draw, the table's rule
//! replayed at every step so that a branch ends at its first mismatch; bounded in steps
//! ([`COUNT_BUDGET`]), after which the opponent is sampled by rejection instead.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::posterior::{Posterior, COUNT_BUDGET};
use crate::hand::decision::{choose_put_down, choose_start, Start, TABLE_KNOCK_AT};
use crate::hand::{same_cards, Card, CardSet};
use crate::round::knock_limits_allow;
use crate::view::{OppAct, Opponent, View};

/// Steps of a count between two looks at the cancellation flag.
const LOOK_EVERY: u64 = 4_096;

/// The exact count of one opponent's consistent slot fillings, by the hand they end in.
pub(super) struct Counter<'a> {
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
    pub(super) fn count(
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
                    if self.view.public.rules.scoring.score(hand).is_blitz() {
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
        let rules = &self.view.public.rules;
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
            let mut c = Counter {
                view: &view,
                o,
                unseen: &unseen,
                counts: HashMap::new(),
                steps: 0,
                cancel: &AtomicBool::new(false),
            };
            assert!(c.deal());
            let mut walked: Vec<(u64, [Card; 3], u64)> =
                c.counts.into_iter().map(|(k, (h, n))| (k, h, n)).collect();
            walked.sort_unstable_by_key(|e| e.0);
            let Posterior::Counted { hands, cumulative } = Counter::unplayed(&view, &unseen) else {
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
