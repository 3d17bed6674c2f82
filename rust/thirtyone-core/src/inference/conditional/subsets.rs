//! A posterior's hands by their sets of places (the unseen cards they use, by their places among
//! the unseen cards): when few of the places the hands use are left, what is left is the sum
//! over the sets of those places, looked up, instead of a walk over every hand.
//!
//! The sets of `k` places are ranked in the order of their masks (colex: by the highest place,
//! then the next, then the lowest): `{p_1 < … < p_k}` has rank `Σ C(p_i, i)`. The `k`-subsets of
//! the places left are visited in that order by one flat loop over a fixed list of `k`-subsets
//! of indices (the subsets of `a` indices are its first `C(a, k)`): no branch on how many places
//! are left but the loop's end.

/// The most places left at which the sets are visited (beyond, a walk).
pub(super) const MOST: usize = 16;

/// `CHOOSE[k][n]`: `n` choose `k`, for `k` up to 3 and `n` up to 32.
static CHOOSE: [[u32; 33]; 4] = [choose(0), choose(1), choose(2), choose(3)];

const fn choose(k: u32) -> [u32; 33] {
    let mut out = [0u32; 33];
    let mut n = 0u32;
    while n <= 32 {
        let (mut num, mut den, mut i) = (1u32, 1u32, 0);
        while i < k {
            num *= n.saturating_sub(i);
            den *= i + 1;
            i += 1;
        }
        out[n as usize] = num / den;
        n += 1;
    }
    out
}

/// The `K`-subsets of `0..MOST` in colex order (`N` of them).
const fn colex<const K: usize, const N: usize>() -> [[u8; K]; N] {
    let mut out = [[0u8; K]; N];
    let mut c = [0u8; K];
    let mut i = 0;
    while i < K {
        c[i] = i as u8;
        i += 1;
    }
    let mut n = 0;
    while n < N {
        out[n] = c;
        // The next: raise the lowest index that can rise, the indices below it back to the
        // lowest.
        let mut i = 0;
        while i + 1 < K && c[i] + 1 == c[i + 1] {
            i += 1;
        }
        c[i] += 1;
        let mut j = 0;
        while j < i {
            c[j] = j as u8;
            j += 1;
        }
        n += 1;
    }
    out
}

static ONES: [[u8; 1]; MOST] = colex::<1, MOST>();
static PAIRS: [[u8; 2]; MOST * (MOST - 1) / 2] = colex::<2, { MOST * (MOST - 1) / 2 }>();
static TRIPLES: [[u8; 3]; MOST * (MOST - 1) * (MOST - 2) / 6] =
    colex::<3, { MOST * (MOST - 1) * (MOST - 2) / 6 }>();

/// Every hand's count and its place in the list, by the rank of its set.
#[derive(Clone, Debug)]
pub(super) struct Subsets {
    /// How many places every hand uses (1 to 3).
    size: usize,
    /// By rank: the count (0: no hand has that set) and the place in the list.
    hands: Vec<(u32, u32)>,
    /// The most places left at which a visit costs less than a walk over every hand.
    pub most: u32,
}

impl Subsets {
    /// The table, when the hands are listed in the order of their masks, each with its own set,
    /// and all use the same number of places (1 to 3): then the sets are visited in the listed
    /// order. `places`: above every place used.
    pub fn new(masks: &[u32], counts: &[u32], places: usize) -> Option<Subsets> {
        let size = masks.first()?.count_ones() as usize;
        let alike = masks.iter().all(|m| m.count_ones() as usize == size);
        let ordered = masks.windows(2).all(|w| w[0] < w[1]);
        if !(1..=3).contains(&size) || !alike || !ordered {
            return None;
        }
        let mut hands = vec![(0, 0); CHOOSE[size][places] as usize];
        for (k, (&m, &c)) in masks.iter().zip(counts).enumerate() {
            hands[rank(m) as usize] = (c, k as u32);
        }
        let cost = |a: usize| 5 * CHOOSE[size][a] as usize + 2 * a + 8;
        let most = (0..=MOST.min(places))
            .take_while(|&a| cost(a) < masks.len())
            .last()
            .unwrap_or(0);
        Some(Subsets {
            size,
            hands,
            most: most as u32,
        })
    }

    /// The total count of the hands within the places `avail` (at most [`MOST`] of them).
    pub fn kept(&self, avail: u32) -> u32 {
        let mut kept = 0;
        self.visit(avail, |c| {
            kept += c;
            false
        });
        kept
    }

    /// The hand at `r` (below what is kept) among the hands within `avail`, in the listed order.
    pub fn nth(&self, avail: u32, mut r: u32) -> usize {
        let k = self.visit(avail, |c| {
            if r < c {
                return true;
            }
            r -= c;
            false
        });
        k.expect("`r` is below what is kept")
    }

    /// The hands within `avail` in the listed order, `f(count)` (0 where no hand has a set)
    /// until it returns true; the hand it stopped at.
    #[inline(always)]
    fn visit(&self, avail: u32, f: impl FnMut(u32) -> bool) -> Option<usize> {
        match self.size {
            1 => self.each(avail, &ONES, f),
            2 => self.each(avail, &PAIRS, f),
            _ => self.each(avail, &TRIPLES, f),
        }
    }

    #[inline(always)]
    fn each<const K: usize>(
        &self,
        avail: u32,
        subsets: &[[u8; K]],
        mut f: impl FnMut(u32) -> bool,
    ) -> Option<usize> {
        // What the place at each index adds to a set's rank at each position in the set.
        let mut part = [[0u32; MOST]; K];
        let mut a = 0;
        let mut rest = avail;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            for (i, row) in part.iter_mut().enumerate() {
                row[a % MOST] = CHOOSE[i + 1][p];
            }
            a += 1;
            rest &= rest - 1;
        }
        for s in &subsets[..CHOOSE[K][a] as usize] {
            let rank: u32 = (0..K).map(|i| part[i][s[i] as usize % MOST]).sum();
            let (count, hand) = self.hands[rank as usize];
            if f(count) {
                return Some(hand as usize);
            }
        }
        None
    }
}

/// The rank of a set of places among the sets of as many places.
fn rank(mask: u32) -> u32 {
    let mut rest = mask;
    let mut rank = 0;
    let mut i = 1;
    while rest != 0 {
        rank += CHOOSE[i][rest.trailing_zeros() as usize];
        rest &= rest - 1;
        i += 1;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed lists hold every subset once, in the order of their masks, and a subset's rank
    /// is its place in that order.
    #[test]
    fn subsets_are_listed_in_the_order_of_their_masks() {
        fn check<const K: usize>(list: &[[u8; K]]) {
            let masks: Vec<u32> = list
                .iter()
                .map(|s| s.iter().fold(0, |m, &i| m | 1 << i))
                .collect();
            assert!(masks.windows(2).all(|w| w[0] < w[1]), "{K}: in order");
            assert!(masks.iter().all(|m| m.count_ones() as usize == K));
            assert_eq!(masks.len() as u32, CHOOSE[K][MOST], "{K}: every subset");
            for (r, &m) in masks.iter().enumerate() {
                assert_eq!(rank(m), r as u32);
            }
        }
        check(&ONES);
        check(&PAIRS);
        check(&TRIPLES);
    }
}
