//! Whether some opponents' counted hands fit together: one hand of each, no unseen card in two
//! of them. Exact, by a search over the hands, within a fixed number of steps
//! ([`JOINT_BUDGET`]); the engine uses it to find an opponent whose play no deal explains
//! together with the plays of those before them (`montecarlo::explain`).
//!
//! The search takes the opponents with the fewest hands first, and for each a hand that meets
//! none of the cards of the hands chosen before; a dead end is remembered by the cards chosen
//! that the opponents still to come could use, so it is not walked twice.

use std::collections::HashSet;

/// Hands looked at, over the whole search, before it gives up (not knowing).
pub const JOINT_BUDGET: u64 = 4_000_000;

/// Whether one hand from each list (as the bits of its unseen cards) can be chosen with no card
/// in two of them (None: not known within [`JOINT_BUDGET`] steps).
pub(crate) fn fit(mut lists: Vec<Vec<u64>>) -> Option<bool> {
    lists.sort_by_key(Vec::len);
    // The cards the opponents from each depth on could use.
    let mut rest = vec![0u64; lists.len() + 1];
    for d in (0..lists.len()).rev() {
        rest[d] = rest[d + 1] | lists[d].iter().fold(0, |u, s| u | s);
    }
    let mut search = Search {
        lists,
        rest,
        dead: HashSet::new(),
        steps: 0,
    };
    search.from(0, 0)
}

struct Search {
    lists: Vec<Vec<u64>>,
    rest: Vec<u64>,
    dead: HashSet<(usize, u64)>,
    steps: u64,
}

impl Search {
    /// Whether the opponents from `depth` on have hands that meet neither `used` nor each other.
    fn from(&mut self, depth: usize, used: u64) -> Option<bool> {
        if depth == self.lists.len() {
            return Some(true);
        }
        let key = (depth, used & self.rest[depth]);
        if self.dead.contains(&key) {
            return Some(false);
        }
        for k in 0..self.lists[depth].len() {
            self.steps += 1;
            if self.steps > JOINT_BUDGET {
                return None;
            }
            let hand = self.lists[depth][k];
            if hand & used == 0 && self.from(depth + 1, used | hand)? {
                return Some(true);
            }
        }
        self.dead.insert(key);
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(cards: &[u32]) -> u64 {
        cards.iter().fold(0, |u, c| u | 1 << c)
    }

    #[test]
    fn hands_that_share_a_needed_card_do_not_fit() {
        // Like issue 31's seats: one needs card 7 or 8, the other both.
        let a = vec![bits(&[1, 2, 7]), bits(&[1, 3, 8])];
        let b = vec![bits(&[7, 8, 4]), bits(&[7, 8, 5])];
        assert_eq!(fit(vec![a.clone(), b.clone()]), Some(false));
        let c = vec![bits(&[7, 9, 4])];
        assert_eq!(fit(vec![a.clone(), c.clone()]), Some(true));
        assert_eq!(fit(vec![a, b, c]), Some(false));
        assert_eq!(fit(vec![]), Some(true));
        assert_eq!(fit(vec![vec![]]), Some(false));
    }

    #[test]
    fn a_search_too_long_is_not_known() {
        // Pigeons: 20 opponents, each holding one of 19 cards. No fit, and every set of cards
        // the first ones can hold is a different dead end: about 19 * 2^19 steps, over the
        // budget. With 12 of them among 11 cards the search proves it.
        let pigeons = |n: u32| {
            (0..n)
                .map(|_| (0..n - 1).map(|c| 1u64 << c).collect())
                .collect()
        };
        assert_eq!(fit(pigeons(20)), None);
        assert_eq!(fit(pigeons(12)), Some(false));
    }
}
