//! A listed posterior over at most 32 unseen cards, in 32-bit masks: each hand's unseen cards by
//! their places among the unseen cards, and counts in 32 bits when their total fits. A walk then
//! reads half the memory and compares four hands at once (baseline x86-64 vectors compare 32-bit
//! lanes, not 64-bit ones). When few of the places the hands use are left, the hands within them
//! are looked up by their sets instead ([`Subsets`]).
//!
//! Everything here counts and finds exactly what the walk over the wide sets does: the same
//! count left, and the same hand at each place of it (the listed order), so the draws are the
//! same.

use std::sync::Arc;

use crate::cards::{Card, CardSet};

/// The unseen cards' places (in card order), for at most 32 of them: a set's unseen cards as a
/// 32-bit mask by one lookup per byte of the set.
#[derive(Clone, Debug)]
pub(crate) struct Places {
    by_byte: [[u32; 256]; 7],
}

impl Places {
    pub fn new(unseen: &[Card]) -> Option<Arc<Places>> {
        if unseen.len() > 32 {
            return None;
        }
        let mut by_byte = [[0u32; 256]; 7];
        for (place, c) in unseen.iter().enumerate() {
            let (byte, bit) = (c.index() as usize / 8, c.index() % 8);
            for (b, mask) in by_byte[byte].iter_mut().enumerate() {
                if b >> bit & 1 == 1 {
                    *mask |= 1 << place;
                }
            }
        }
        Some(Arc::new(Places { by_byte }))
    }

    /// The places of the unseen cards of `set` (cards not unseen have none).
    pub fn mask(&self, set: CardSet) -> u32 {
        let b = set.bits().to_le_bytes();
        (0..7).fold(0, |m, k| m | self.by_byte[k][b[k] as usize])
    }
}

/// The hands' masks and counts, in the listed order.
#[derive(Clone, Debug)]
pub(super) struct Narrow {
    pub places: Arc<Places>,
    masks: Vec<u32>,
    counts: Vec<u32>,
    /// Every place any hand uses.
    cards: u32,
    total: u32,
    /// The hands by their sets, when the listed order is the order of the masks.
    pub subsets: Option<Box<Subsets>>,
}

/// `n` choose 2 and `n` choose 3, for `n` up to 32.
static PAIRS: [u32; 33] = choose::<2>();
static TRIPLES: [u32; 33] = choose::<3>();

const fn choose<const K: u32>() -> [u32; 33] {
    let mut out = [0u32; 33];
    let mut n = 0u32;
    while n <= 32 {
        let (mut num, mut den, mut i) = (1u32, 1u32, 0);
        while i < K {
            num *= n.saturating_sub(i);
            den *= i + 1;
            i += 1;
        }
        out[n as usize] = num / den;
        n += 1;
    }
    out
}

/// Every hand's count by its set of places, for each size of set the hands have (a hand holds
/// at most three unseen cards): what is left given few places left is the sum over the sets of
/// those places instead of a walk over every hand.
#[derive(Clone, Debug)]
pub(super) struct Subsets {
    /// Whether some hand has 0, 1, 2, 3 unseen cards.
    sizes: [bool; 4],
    /// The count and the place in the list of the hand with each set (count 0: no such hand):
    /// by `p` for `{p}`, by `PAIRS[q] + p` for `{p < q}`, by `TRIPLES[r] + PAIRS[q] + p` for
    /// `{p < q < r}`.
    empty: (u32, u32),
    one: Vec<(u32, u32)>,
    two: Vec<(u32, u32)>,
    three: Vec<(u32, u32)>,
    /// The most places left for which a visit costs less than a walk over every hand.
    most: u32,
}

impl Subsets {
    /// The table, when every hand has its own set and the hands are listed in the order of
    /// their masks (then the sets are visited in the listed order).
    fn new(masks: &[u32], counts: &[u32], places: usize) -> Option<Subsets> {
        if !masks.windows(2).all(|w| w[0] < w[1]) {
            return None;
        }
        let mut s = Subsets {
            sizes: [false; 4],
            empty: (0, 0),
            one: vec![(0, 0); places],
            two: vec![(0, 0); PAIRS[places] as usize],
            three: vec![(0, 0); TRIPLES[places] as usize],
            most: 0,
        };
        for (k, (&m, &c)) in masks.iter().zip(counts).enumerate() {
            let mut p = [0usize; 3];
            let n = m.count_ones() as usize;
            if n > 3 {
                return None;
            }
            let mut rest = m;
            for slot in p.iter_mut().take(n) {
                *slot = rest.trailing_zeros() as usize;
                rest &= rest - 1;
            }
            s.sizes[n] = true;
            let slot = match n {
                0 => &mut s.empty,
                1 => &mut s.one[p[0]],
                2 => &mut s.two[PAIRS[p[1]] as usize + p[0]],
                _ => &mut s.three[(TRIPLES[p[2]] + PAIRS[p[1]]) as usize + p[0]],
            };
            *slot = (c, k as u32);
        }
        s.most = (0..=places as u32)
            .take_while(|&a| s.cost(a as usize) < masks.len())
            .last()
            .unwrap_or(0);
        Some(s)
    }

    /// About what a visit of the sets of `a` places costs, in hands walked (measured: a walk
    /// takes about two instructions a hand, a visit about seven a set of three, ten a set of
    /// two, twelve a place).
    fn cost(&self, a: usize) -> usize {
        let [_, _, two, three] = self.sizes;
        let mut cost = 6 * a;
        if two || three {
            cost += 5 * PAIRS[a] as usize;
        }
        if three {
            cost += 7 * TRIPLES[a] as usize / 2;
        }
        cost
    }

    /// Every hand whose set is within `avail`, in the order of their masks: `f(count, hand)`
    /// (the count 0 where there is no hand) until it returns true; the hand it stopped at.
    #[inline(always)]
    fn visit(&self, avail: u32, mut f: impl FnMut(u32, u32) -> bool) -> Option<usize> {
        let mut places = [0u8; 32];
        let mut a = 0;
        let mut rest = avail;
        while rest != 0 {
            places[a] = rest.trailing_zeros() as u8;
            a += 1;
            rest &= rest - 1;
        }
        let places = &places[..a];
        let [empty, one, two, three] = self.sizes;
        let mut at = |(count, hand): (u32, u32)| f(count, hand).then_some(hand as usize);
        if empty {
            if let Some(k) = at(self.empty) {
                return Some(k);
            }
        }
        // The masks' order: by the highest place, then the next, then the lowest, a set
        // before the sets that add a lower place to it.
        for (j, &r) in places.iter().enumerate() {
            let r = r as usize;
            if one {
                if let Some(k) = at(self.one[r]) {
                    return Some(k);
                }
            }
            if !(two || three) {
                continue;
            }
            for (i, &q) in places[..j].iter().enumerate() {
                let q = q as usize;
                if two {
                    if let Some(k) = at(self.two[PAIRS[r] as usize + q]) {
                        return Some(k);
                    }
                }
                if three {
                    let base = (TRIPLES[r] + PAIRS[q]) as usize;
                    for &p in &places[..i] {
                        if let Some(k) = at(self.three[base + p as usize]) {
                            return Some(k);
                        }
                    }
                }
            }
        }
        None
    }
}

impl Narrow {
    /// The narrow form, when the total count fits in 32 bits.
    pub fn new(
        places: Arc<Places>,
        sets: &[CardSet],
        counts: &[u64],
        total: u64,
    ) -> Option<Narrow> {
        let total = u32::try_from(total).ok()?;
        let masks: Vec<u32> = sets.iter().map(|&s| places.mask(s)).collect();
        let counts: Vec<u32> = counts.iter().map(|&c| c as u32).collect();
        let cards = masks.iter().fold(0, |u, &m| u | m);
        let subsets =
            Subsets::new(&masks, &counts, 32 - cards.leading_zeros() as usize).map(Box::new);
        Some(Narrow {
            masks,
            counts,
            cards,
            total,
            subsets,
            places,
        })
    }

    /// The subsets of the places left, when visiting them costs less than a walk.
    pub fn subsets(&self, t: u32) -> Option<(&Subsets, u32)> {
        let s = self.subsets.as_ref()?;
        let avail = self.cards & !t;
        (avail.count_ones() <= s.most).then_some((s, avail))
    }

    /// The total count of the hands that use none of the places `t`.
    pub fn kept(&self, t: u32) -> u64 {
        if self.cards & t == 0 {
            return u64::from(self.total);
        }
        if let Some((s, avail)) = self.subsets(t) {
            let mut kept = 0u32;
            s.visit(avail, |c, _| {
                kept += c;
                false
            });
            return u64::from(kept);
        }
        // The total fits in 32 bits: so does any part of it.
        let kept = self
            .masks
            .iter()
            .zip(&self.counts)
            .map(|(&m, &c)| if m & t == 0 { c } else { 0 })
            .fold(0u32, u32::wrapping_add);
        u64::from(kept)
    }

    /// The hand at `r` (below what is kept) among those that use none of `t`, in the listed order.
    pub fn nth(&self, t: u32, mut r: u64) -> usize {
        if let Some((s, avail)) = self.subsets(t) {
            let k = s.visit(avail, |c, _| {
                let c = u64::from(c);
                if r < c {
                    return true;
                }
                r -= c;
                false
            });
            return k.expect("`r` is below what is kept");
        }
        let mut k = 0;
        loop {
            if self.masks[k] & t == 0 {
                let c = u64::from(self.counts[k]);
                if r < c {
                    return k;
                }
                r -= c;
            }
            k += 1;
        }
    }
}
