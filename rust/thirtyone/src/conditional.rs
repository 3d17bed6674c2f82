//! One opponent's counted posterior, drawn given the unseen cards the other opponents hold: the
//! step of the engine's importance-weighted deals ([`montecarlo::sequential`]).
//!
//! Given the cards `taken` by the opponents drawn before, this opponent's hands that use none of
//! them keep their counts and the others drop out; the draw is from what is left, and the share
//! of the count it keeps is the draw's weight. Two forms:
//!
//! - **flat**: an opponent who has not played yet holds any three unseen cards but a dealt 31,
//!   each once. What is left given `taken` is counted from the number of cards left (every three
//!   of them, less the 31s among them) and drawn as three of those cards.
//! - **listed**: otherwise what is left is counted by walking the hands (one pass over a few
//!   hundred to a few thousand), or for a large posterior and few cards taken, by inclusion and
//!   exclusion over the cards taken: the whole count, less the hands holding each taken card,
//!   plus those holding each two, less those holding each three (a hand holds at most three
//!   unseen cards). A hand is drawn by rejection from the whole posterior when enough of it is
//!   left, else from the walk.

use montecarlo::Rng;

use crate::cards::{Card, CardSet};
use crate::inference::OppDeal;
use crate::scoring::Scoring;
use crate::view::Opponent;

/// One opponent's posterior, ready to be drawn given the cards others hold.
#[derive(Clone, Debug)]
pub(crate) enum Conditional {
    Flat(Flat),
    Listed(Listed),
}

/// Every three unseen cards but the `except`ed ones, each with the same count.
#[derive(Clone, Debug)]
pub(crate) struct Flat {
    unseen: Vec<Card>,
    except: Vec<u64>,
    /// The number of allowed hands.
    hands: u64,
}

/// The posterior's hands: their unseen cards and counts, and the running total of the counts.
#[derive(Clone, Debug)]
pub(crate) struct Listed {
    hands: Vec<[Card; 3]>,
    sets: Vec<CardSet>,
    counts: Vec<u64>,
    cumulative: Vec<u64>,
    total: u64,
    /// For a large posterior: the counts of the hands holding each card, two cards, three.
    holding: Option<Box<Holding>>,
    /// For draws from the whole posterior in one step.
    alias: Alias,
}

/// Walker's alias table over the hands, in whole numbers (exact): hand `k` is drawn with
/// probability `counts[k] / total` by one uniform bucket and one uniform threshold.
#[derive(Clone, Debug)]
struct Alias {
    /// Per bucket: keep the bucket's own hand when the threshold draw is below `keep` (out of
    /// `total`), else take `other`.
    keep: Vec<u64>,
    other: Vec<u32>,
    total: u64,
    /// Lemire's threshold for uniform draws below `total`: `2^64 mod total`.
    below: u64,
}

impl Alias {
    /// Vose's construction: bucket `k` starts with `counts[k] * n` (out of `total` per bucket).
    fn new(counts: &[u64], total: u64) -> Alias {
        let n = counts.len();
        let mut mass: Vec<u128> = counts.iter().map(|&c| c as u128 * n as u128).collect();
        let cap = total as u128;
        let mut keep = vec![total; n];
        let mut other: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&k| mass[k] < cap);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            keep[s] = mass[s] as u64;
            other[s] = l as u32;
            mass[l] -= cap - mass[s];
            if mass[l] < cap {
                large.pop();
                small.push(l);
            }
        }
        // Whatever is left holds exactly `cap` (whole numbers: no rounding is left over).
        Alias {
            keep,
            other,
            total,
            below: total.wrapping_neg().checked_rem(total).unwrap_or(0),
        }
    }

    /// A uniform number below `total` (Lemire's multiply and shift, with its rejection: exact).
    fn uniform(&self, rng: &mut Rng) -> u64 {
        loop {
            let m = u128::from(rng.next_u64()) * u128::from(self.total);
            if (m as u64) >= self.below {
                return (m >> 64) as u64;
            }
        }
    }

    fn draw(&self, rng: &mut Rng) -> usize {
        let k = rng.below(self.keep.len() as u32) as usize;
        if self.uniform(rng) < self.keep[k] {
            k
        } else {
            self.other[k] as usize
        }
    }
}

/// Hands (and fewer) at which a listed posterior also keeps its [`Holding`] counts.
const LARGE: usize = 512;
/// A draw from the whole posterior (rejecting hands that meet the cards taken) while at least
/// this share of it is left; below it, a walk.
const REJECT_DOWN_TO: u64 = 16;

/// The counts of the hands that hold each card, each two cards and each three, for inclusion and
/// exclusion.
#[derive(Clone, Debug)]
struct Holding {
    one: [u64; 52],
    /// By `52 * lower + higher`.
    two: Vec<u64>,
    /// By the combinatorial number of the three cards (`triple_index`).
    three: Vec<u64>,
}

/// The index of three distinct cards `a < b < c` among the `C(52, 3)` triples.
fn triple_index(a: usize, b: usize, c: usize) -> usize {
    c * (c - 1) * (c - 2) / 6 + b * (b - 1) / 2 + a
}

impl Holding {
    fn new(sets: &[CardSet], counts: &[u64]) -> Holding {
        let mut h = Holding {
            one: [0; 52],
            two: vec![0; 52 * 52],
            three: vec![0; 52 * 51 * 50 / 6],
        };
        for (set, &n) in sets.iter().zip(counts) {
            let mut cards = [0usize; 3];
            let mut k = 0;
            for c in set.iter().take(3) {
                cards[k] = c.index() as usize;
                k += 1;
            }
            for x in 0..k {
                h.one[cards[x]] += n;
                for y in x + 1..k {
                    h.two[52 * cards[x] + cards[y]] += n;
                }
            }
            if k == 3 {
                h.three[triple_index(cards[0], cards[1], cards[2])] += n;
            }
        }
        h
    }

    /// The lookups of [`Holding::meeting`] for `k` cards taken.
    fn cost(k: usize) -> usize {
        k + k * k.saturating_sub(1) / 2 + k * k.saturating_sub(1) * k.saturating_sub(2) / 6
    }

    /// The total count of the hands that hold any of the `k` cards of `taken`.
    fn meeting(&self, taken: CardSet, k: usize) -> u64 {
        let mut cards = [0usize; 52];
        for (slot, c) in cards.iter_mut().zip(taken.iter()) {
            *slot = c.index() as usize;
        }
        let cards = &cards[..k];
        let (mut plus, mut minus) = (0u64, 0u64);
        for (x, &a) in cards.iter().enumerate() {
            plus += self.one[a];
            for (y, &b) in cards.iter().enumerate().skip(x + 1) {
                minus += self.two[52 * a + b];
                for &c in &cards[y + 1..] {
                    plus += self.three[triple_index(a, b, c)];
                }
            }
        }
        plus - minus
    }
}

impl Conditional {
    /// The posterior of `o` given by its hands (with their unseen cards) and cumulative counts.
    pub fn new(
        o: &Opponent,
        unseen: &[Card],
        scoring: &Scoring,
        hands: &[([Card; 3], CardSet)],
        cumulative: &[u64],
    ) -> Conditional {
        if o.turns.is_empty() && o.shown_hand.is_none() {
            if let Some(f) = Flat::new(unseen, scoring, hands.len(), cumulative) {
                return Conditional::Flat(f);
            }
        }
        Conditional::Listed(Listed::new(hands, cumulative))
    }

    /// How many hands the posterior has (the order of the draws: fewest first).
    pub fn len(&self) -> u64 {
        match self {
            Conditional::Flat(f) => f.hands,
            Conditional::Listed(l) => l.hands.len() as u64,
        }
    }

    /// Whether this is a large listed posterior (see [`Holding`]).
    pub fn large(&self) -> bool {
        matches!(self, Conditional::Listed(l) if l.holding.is_some())
    }

    /// A hand drawn from the whole posterior in proportion to its count (a part of the rejection
    /// sampler).
    pub fn draw_any(&self, rng: &mut Rng) -> OppDeal {
        match self {
            Conditional::Flat(f) => {
                f.draw(CardSet::EMPTY, rng)
                    .expect("a flat posterior has hands")
                    .0
            }
            Conditional::Listed(l) => {
                let k = l.draw_any(rng);
                OppDeal {
                    hand: l.hands[k],
                    unseen_used: l.sets[k],
                }
            }
        }
    }

    /// A hand that uses none of `taken`, drawn in proportion to its count, and the share of the
    /// whole count such hands hold (None: none is left).
    pub fn draw(&self, taken: CardSet, rng: &mut Rng) -> Option<(OppDeal, f64)> {
        match self {
            Conditional::Flat(f) => f.draw(taken, rng),
            Conditional::Listed(l) => l.draw(taken, rng),
        }
    }
}

/// `n` choose 3.
fn triples(n: u64) -> u64 {
    if n < 3 {
        0
    } else {
        n * (n - 1) * (n - 2) / 6
    }
}

impl Flat {
    /// The flat form, if the posterior is every three unseen cards but a dealt 31, each once.
    fn new(unseen: &[Card], scoring: &Scoring, hands: usize, cumulative: &[u64]) -> Option<Flat> {
        let n = unseen.len();
        let mut except = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    let hand = [unseen[a], unseen[b], unseen[c]];
                    if scoring.score(hand).is_blitz() {
                        except.push(hand.iter().fold(0u64, |s, x| s | 1 << x.index()));
                    }
                }
            }
        }
        let all = triples(n as u64);
        let flat =
            hands as u64 + except.len() as u64 == all && cumulative.last() == Some(&(hands as u64));
        flat.then(|| Flat {
            unseen: unseen.to_vec(),
            except,
            hands: hands as u64,
        })
    }

    fn draw(&self, taken: CardSet, rng: &mut Rng) -> Option<(OppDeal, f64)> {
        let t = taken.bits();
        let left = self.unseen.len() as u64 - u64::from(t.count_ones());
        let barred = self.except.iter().filter(|&&e| e & t == 0).count() as u64;
        let kept = triples(left) - barred;
        if kept == 0 {
            return None;
        }
        let n = self.unseen.len() as u32;
        loop {
            let mut cards = [Card::from_index(0); 3];
            let mut bits = 0u64;
            let mut k = 0;
            while k < 3 {
                let c = self.unseen[rng.below(n) as usize];
                let b = 1u64 << c.index();
                if (t | bits) & b == 0 {
                    bits |= b;
                    cards[k] = c;
                    k += 1;
                }
            }
            if self.except.contains(&bits) {
                continue; // a dealt 31: not a hand this opponent can hold
            }
            cards.sort_unstable();
            let deal = OppDeal {
                hand: cards,
                unseen_used: cards.into_iter().collect(),
            };
            return Some((deal, kept as f64 / self.hands as f64));
        }
    }
}

impl Listed {
    fn new(hands: &[([Card; 3], CardSet)], cumulative: &[u64]) -> Listed {
        let mut before = 0;
        let counts: Vec<u64> = cumulative
            .iter()
            .map(|&c| {
                let n = c - before;
                before = c;
                n
            })
            .collect();
        let sets: Vec<CardSet> = hands.iter().map(|h| h.1).collect();
        let holding = (hands.len() >= LARGE).then(|| Box::new(Holding::new(&sets, &counts)));
        let alias = Alias::new(&counts, before);
        Listed {
            alias,
            hands: hands.iter().map(|h| h.0).collect(),
            sets,
            counts,
            cumulative: cumulative.to_vec(),
            total: before,
            holding,
        }
    }

    /// The total count of the hands that use none of `taken`.
    fn kept(&self, taken: CardSet) -> u64 {
        let k = taken.len();
        if let Some(h) = &self.holding {
            // A lookup (scattered over a table of 177 kB) costs about what walking sixteen
            // hands does (measured).
            if 16 * Holding::cost(k) < self.hands.len() {
                return self.total - h.meeting(taken, k);
            }
        }
        let t = taken.bits();
        // Without branches or 64-bit comparisons (which baseline x86-64 vectors lack): a hand
        // meets `taken` when `x = set & taken` is not 0, that is when the top bit of `x | -x` is 1.
        self.sets
            .iter()
            .zip(&self.counts)
            .map(|(&s, &c)| {
                let x = s.bits() & t;
                let meets = (x | x.wrapping_neg()) >> 63;
                c & meets.wrapping_sub(1)
            })
            .sum()
    }

    /// A hand drawn from the whole posterior, as by the rejection sampler.
    fn draw_any(&self, rng: &mut Rng) -> usize {
        let r = rng.below_u64(self.total);
        self.cumulative.partition_point(|&c| c <= r)
    }

    fn draw(&self, taken: CardSet, rng: &mut Rng) -> Option<(OppDeal, f64)> {
        let t = taken.bits();
        let kept = self.kept(taken);
        if kept == 0 {
            return None;
        }
        let k = if kept >= self.total / REJECT_DOWN_TO {
            // Enough of the posterior is left: draw from all of it until a hand fits.
            loop {
                let k = self.alias.draw(rng);
                if self.sets[k].bits() & t == 0 {
                    break k;
                }
            }
        } else {
            let mut r = rng.below_u64(kept);
            let mut k = 0;
            loop {
                if self.sets[k].bits() & t == 0 {
                    if r < self.counts[k] {
                        break k;
                    }
                    r -= self.counts[k];
                }
                k += 1;
            }
        };
        let deal = OppDeal {
            hand: self.hands[k],
            unseen_used: self.sets[k],
        };
        Some((deal, kept as f64 / self.total as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inference::{Inference, Posterior};
    use crate::test_positions::position;
    use crate::view::View;

    /// An opponent who has not played: the flat form and the listed form of the same posterior
    /// keep the same share given the same cards taken, and draw the same hands (each card's
    /// frequency against the exact one, worked out from the allowed hands).
    #[test]
    fn the_flat_form_is_the_listed_form() {
        let view = View::from_input(&position(3, 6, 0).unwrap()).unwrap();
        let inference = Inference::new(&view);
        let i = view
            .opponents
            .iter()
            .position(|o| o.turns.is_empty())
            .unwrap();
        let Posterior::Counted { hands, cumulative } = &inference.posteriors[i] else {
            panic!("counted");
        };
        let unseen: Vec<Card> = view.unseen.iter().collect();
        let scoring = &view.table.rules.scoring;
        let o = &view.opponents[i];
        let flat = Conditional::new(o, &unseen, scoring, hands, cumulative);
        assert!(matches!(flat, Conditional::Flat(_)));
        let listed = Conditional::Listed(Listed::new(hands, cumulative));
        let mut rng = Rng::stream(1, 2, 3);
        for round in 0..6 {
            // Cards taken by others: `3 * round` unseen cards, those of a 31 among them.
            let taken: CardSet = unseen
                .iter()
                .copied()
                .skip(round)
                .step_by(4)
                .take(3 * round)
                .collect();
            let (a, b) = (flat.draw(taken, &mut rng), listed.draw(taken, &mut rng));
            assert_eq!(a.map(|x| x.1), b.map(|x| x.1), "the same share");
            // The exact chance of each card: the allowed hands that use none of `taken`.
            let free: Vec<&([Card; 3], CardSet)> =
                hands.iter().filter(|h| !h.1.intersects(taken)).collect();
            let mut exact = [0f64; 52];
            for h in &free {
                h.0.iter()
                    .for_each(|c| exact[c.index() as usize] += 1.0 / free.len() as f64);
            }
            let n = 20_000;
            for form in [&flat, &listed] {
                let mut seen = [0f64; 52];
                for _ in 0..n {
                    let (d, _) = form.draw(taken, &mut rng).unwrap();
                    assert!(!d.unseen_used.intersects(taken));
                    assert!(!scoring.score(d.hand).is_blitz());
                    d.hand.iter().for_each(|c| seen[c.index() as usize] += 1.0);
                }
                // Card counts, each a sum of n Bernoulli draws: a chi-square over the cards
                // (over-dispersed by at most 3 because a hand holds three; bound with slack).
                let chi: f64 = (0..52)
                    .filter(|&c| exact[c] > 0.0)
                    .map(|c| (seen[c] - n as f64 * exact[c]).powi(2) / (n as f64 * exact[c]))
                    .sum();
                let cells = exact.iter().filter(|&&e| e > 0.0).count() as f64;
                assert!(
                    chi < 3.0 * cells,
                    "round {round}: chi-square {chi} over {cells} cards"
                );
            }
        }
    }

    /// Large posteriors count what is left by inclusion and exclusion: the same as the walk.
    #[test]
    fn inclusion_and_exclusion_count_what_the_walk_counts() {
        let view = View::from_input(&position(2, 9, 9).unwrap()).unwrap();
        let inference = Inference::new(&view);
        let unseen: Vec<Card> = view.unseen.iter().collect();
        let mut rng = Rng::stream(4, 5, 6);
        let mut checked = 0;
        for c in inference.conditionals.iter().flatten() {
            let Conditional::Listed(l) = c else { continue };
            let Some(h) = &l.holding else { continue };
            for k in 0..=12 {
                let mut taken = CardSet::EMPTY;
                while taken.len() < k {
                    taken.insert(unseen[rng.below(unseen.len() as u32) as usize]);
                }
                let walked: u64 = l
                    .sets
                    .iter()
                    .zip(&l.counts)
                    .filter(|(s, _)| !s.intersects(taken))
                    .map(|(_, &n)| n)
                    .sum();
                assert_eq!(l.total - h.meeting(taken, k), walked, "{k} cards taken");
                assert_eq!(l.kept(taken), walked);
                checked += 1;
            }
        }
        assert!(
            checked >= 26,
            "only {checked} checks: too few large posteriors"
        );
    }

    /// The alias table gives every hand exactly its share: over the buckets, what each keeps
    /// and hands over adds up to `n * count` (out of `n * total`).
    #[test]
    fn the_alias_table_is_exact() {
        for counts in [
            vec![1u64, 2, 3, 4],
            vec![7, 1, 1, 1, 1, 9, 13],
            vec![5],
            vec![3, 3, 3],
        ] {
            let total: u64 = counts.iter().sum();
            let a = Alias::new(&counts, total);
            let n = counts.len() as u128;
            let mut got = vec![0u128; counts.len()];
            for b in 0..counts.len() {
                got[b] += a.keep[b] as u128;
                got[a.other[b] as usize] += (total - a.keep[b]) as u128;
            }
            let want: Vec<u128> = counts.iter().map(|&c| c as u128 * n).collect();
            assert_eq!(got, want, "{counts:?}");
        }
    }
}
