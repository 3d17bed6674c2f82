//! The opponents' hands combined into consistent deals, for the engine.
//!
//! Each opponent is drawn from their own posterior ([`Inference`]); a deal is the opponents'
//! hands when no unseen card is in two of them. The consistent deals are equally likely, so a
//! deal's probability is the product of its opponents' counts (the number of consistent
//! fillings of their slots that end in those hidden cards), over deals whose hidden cards differ.
//!
//! When such deals are rare (many seats, few unseen cards) the engine chains them, redrawing two
//! opponents at a time given the cards the others hold: [`Factored::resample_pair`] draws the
//! pair exactly from that conditional distribution, which is proportional to the product of the
//! two counts over the pairs of hands that use none of the others' cards nor each other's.

use montecarlo::{Factored, Rng};

use crate::cards::{Card, CardSet};
use crate::inference::{Deal, Inference, OppDeal, Posterior};
use crate::round::MAX_SEATS;

impl Factored for Inference<'_> {
    type Part = OppDeal;
    type World = Deal;

    fn parts(&self) -> usize {
        self.view.opponents.len()
    }

    fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<OppDeal> {
        let o = &self.view.opponents[i];
        match &self.posteriors[i] {
            Posterior::Rejection => self.attempt(o, rng),
            Posterior::Counted { hands, cumulative } => {
                let total = *cumulative.last()?;
                let r = rng.below_u64(total);
                let k = cumulative.partition_point(|&c| c <= r);
                let (hand, unseen_used) = hands[k];
                Some(OppDeal { hand, unseen_used })
            }
        }
    }

    fn explainable(&self, i: usize) -> Option<bool> {
        match &self.posteriors[i] {
            Posterior::Counted { cumulative, .. } => Some(!cumulative.is_empty()),
            Posterior::Rejection => None,
        }
    }

    fn fallback_part(&self, i: usize, rng: &mut Rng) -> OppDeal {
        self.untested(&self.view.opponents[i], rng)
    }

    fn combine(&self, parts: &[OppDeal]) -> Option<Deal> {
        let mut used = CardSet::EMPTY;
        let mut hands = [[Card::from_index(0); 3]; MAX_SEATS];
        for (o, p) in self.view.opponents.iter().zip(parts) {
            if used.intersects(p.unseen_used) {
                return None;
            }
            used = used.union(p.unseen_used);
            hands[o.seat as usize] = p.hand;
        }
        Some(Deal {
            hands,
            stock: self.view.unseen.minus(used),
        })
    }

    /// Every opponent counted exactly (none left to rejection).
    fn resamples(&self) -> bool {
        self.posteriors
            .iter()
            .all(|p| matches!(p, Posterior::Counted { .. }))
    }

    fn resample_pair(&self, i: usize, j: usize, parts: &mut [OppDeal], rng: &mut Rng) -> bool {
        let (Some(a), Some(b)) = (counted(&self.posteriors[i]), counted(&self.posteriors[j]))
        else {
            return false;
        };
        let others = parts
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i && k != j)
            .fold(CardSet::EMPTY, |u, (_, p)| u.union(p.unseen_used));
        let (k, l) = pair_by_rejection(&a, &b, others, rng)
            .unwrap_or_else(|| pair_by_counting(&a, &b, others, rng));
        parts[i] = a.deal(k);
        parts[j] = b.deal(l);
        true
    }
}

/// Tries of [`pair_by_rejection`] before the pair is counted instead.
const PAIR_TRIES: usize = 32;

/// Two hands drawn from their posteriors until they use none of `others` nor each other's
/// cards: exactly the conditional distribution when it succeeds. Whether it succeeds does not
/// depend on the hands it returns, so falling back to [`pair_by_counting`] keeps it exact.
fn pair_by_rejection(
    a: &Counts,
    b: &Counts,
    others: CardSet,
    rng: &mut Rng,
) -> Option<(usize, usize)> {
    for _ in 0..PAIR_TRIES {
        let k = a.draw(rng);
        let used = a.hands[k].1;
        if used.intersects(others) {
            continue;
        }
        let l = b.draw(rng);
        if !b.hands[l].1.intersects(others.union(used)) {
            return Some((k, l));
        }
    }
    None
}

/// The pair drawn from its exact conditional distribution: the first hand weighted by its count
/// times the total count of the second's hands that use none of its cards (by inclusion and
/// exclusion over its at most three cards), then the second among those.
fn pair_by_counting(a: &Counts, b: &Counts, others: CardSet, rng: &mut Rng) -> (usize, usize) {
    let first = a.free(others);
    let second = b.free(others);
    let overlap = Overlap::new(b, &second);
    let mut cumulative = Vec::with_capacity(first.len());
    let mut total = 0u128;
    for &(k, n) in &first {
        let with = overlap.total - overlap.meeting(a.hands[k].1);
        total += n as u128 * with as u128;
        cumulative.push(total);
    }
    if total == 0 {
        // Cannot happen from a consistent deal (its own pair is one): draw nothing new.
        return (first[0].0, second[0].0);
    }
    let r = rng.below_u128(total);
    let k = first[cumulative.partition_point(|&c| c <= r)].0;
    let used = a.hands[k].1;
    let fits = second
        .iter()
        .filter(|&&(l, _)| !b.hands[l].1.intersects(used));
    let mut r = rng.below_u64(fits.clone().map(|&(_, m)| m).sum());
    for &(l, m) in fits {
        if r < m {
            return (k, l);
        }
        r -= m;
    }
    unreachable!("r is below the sum of the counts")
}

/// The counts of some hands summed by the cards they hold: one card, two, three.
struct Overlap {
    total: u64,
    one: [u64; 52],
    two: Vec<u64>,
    three: Vec<(u64, u64)>,
}

impl Overlap {
    fn new(b: &Counts, hands: &[(usize, u64)]) -> Self {
        let mut o = Overlap {
            total: 0,
            one: [0; 52],
            two: vec![0; 52 * 52],
            three: Vec::with_capacity(hands.len()),
        };
        for &(l, m) in hands {
            o.total += m;
            let cards: Vec<usize> = b.hands[l].1.iter().map(|c| c.index() as usize).collect();
            for (x, &c) in cards.iter().enumerate() {
                o.one[c] += m;
                for &d in &cards[x + 1..] {
                    o.two[c * 52 + d] += m;
                }
            }
            if cards.len() == 3 {
                o.three.push((b.hands[l].1.bits(), m));
            }
        }
        o.three.sort_unstable();
        o
    }

    /// The total count of the hands that hold any of `cards` (at most three).
    fn meeting(&self, cards: CardSet) -> u64 {
        let mut held = [0usize; 3];
        let mut n = 0;
        for c in cards.iter().take(3) {
            held[n] = c.index() as usize;
            n += 1;
        }
        let cs = &held[..n];
        let mut sum = 0i128;
        for (x, &c) in cs.iter().enumerate() {
            sum += self.one[c] as i128;
            for &d in &cs[x + 1..] {
                sum -= self.two[c * 52 + d] as i128;
            }
        }
        if cs.len() == 3 {
            let key = cards.bits();
            if let Ok(p) = self.three.binary_search_by_key(&key, |e| e.0) {
                sum += self.three[p].1 as i128;
            }
        }
        sum as u64
    }
}

/// One opponent's counted posterior: hands with their unseen cards, cumulative counts.
struct Counts<'p> {
    hands: &'p [([Card; 3], CardSet)],
    cumulative: &'p [u64],
}

fn counted(p: &Posterior) -> Option<Counts<'_>> {
    match p {
        Posterior::Counted { hands, cumulative } => Some(Counts { hands, cumulative }),
        Posterior::Rejection => None,
    }
}

impl Counts<'_> {
    /// A hand drawn from the whole posterior.
    fn draw(&self, rng: &mut Rng) -> usize {
        let total = self.cumulative[self.cumulative.len() - 1];
        let r = rng.below_u64(total);
        self.cumulative.partition_point(|&c| c <= r)
    }

    /// The hands that use none of `taken`, with their counts.
    fn free(&self, taken: CardSet) -> Vec<(usize, u64)> {
        let mut before = 0;
        let mut out = Vec::new();
        for (k, (&(_, used), &c)) in self.hands.iter().zip(self.cumulative).enumerate() {
            if !used.intersects(taken) {
                out.push((k, c - before));
            }
            before = c;
        }
        out
    }

    fn deal(&self, k: usize) -> OppDeal {
        let (hand, unseen_used) = self.hands[k];
        OppDeal { hand, unseen_used }
    }
}

#[cfg(test)]
#[path = "deals_tests.rs"]
mod tests;

#[cfg(test)]
mod explore {
    use super::*;
    use crate::test_positions::position;
    use crate::view::View;
    use montecarlo::{collect, CollectSettings, Runner};
    use std::time::Instant;

    /// Autocorrelation of `x` at `lag` within chains of `length`.
    fn acf(x: &[f64], length: usize, lag: usize) -> f64 {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let (mut s, mut k) = (0.0, 0.0);
        for c in x.chunks(length) {
            for w in c.windows(lag + 1) {
                s += (w[0] - mean) * (w[lag] - mean);
                k += 1.0;
            }
        }
        s / k / var
    }

    #[test]
    #[ignore]
    fn explore() {
        let runner = Runner::simple(Some(2));
        for seats in [8u8, 9] {
            for seed in 1..6u64 {
                for turns in [12usize, 18, 24] {
                    let Some(input) = position(seed, seats, turns) else {
                        continue;
                    };
                    let view = View::from_input(&input).unwrap();
                    let inf = Inference::new(&view);
                    let t = Instant::now();
                    let c = collect(
                        &inf,
                        &CollectSettings {
                            target: 10_000,
                            seed,
                            chain_when_rare: true,
                            ..Default::default()
                        },
                        &runner,
                    );
                    let tc = t.elapsed();
                    print!("seats {seats} seed {seed} turns {turns} unseen {} stock {}: chain {} -> {} in {:.1} ms; acf",
                        view.unseen.len(), view.table.stock_len, c.chain, c.worlds.len(), tc.as_secs_f64()*1e3);
                    if c.chain > 1 {
                        for o in view.opponents.iter().take(3) {
                            let x: Vec<f64> = c
                                .worlds
                                .iter()
                                .map(|d| {
                                    view.table
                                        .rules
                                        .scoring
                                        .score(d.hands[o.seat as usize])
                                        .halves() as f64
                                })
                                .collect();
                            print!(
                                " [{:.2} {:.2} {:.2}]",
                                acf(&x, c.chain, 1),
                                acf(&x, c.chain, 2),
                                acf(&x, c.chain, 4)
                            );
                        }
                    }
                    println!();
                }
            }
        }
    }
}
