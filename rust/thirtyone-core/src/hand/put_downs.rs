//! The table's put-down (rules 2–4 of `decision.rs`) under standard scoring, worked out once for
//! every three-card hand and every fourth card, so that a playout's turn reads it instead of
//! scoring four candidates.
//!
//! The rule itself stays in [`crate::hand::decision`]: this table is built by calling it, and the
//! tests compare the two for every hand, in every order of its cards, and every fourth card. One
//! entry serves a stock draw and a take alike: when the drawn card would be the one put down, the
//! hand keeps its score, and a take is made only when the put-down beats the score it has (rule 2);
//! when it would not, the card put down is the same whichever way the fourth card came.

use std::sync::OnceLock;

use super::decision::{put_down_with, PutDown, Take};
use super::{Card, Score, ScoreTable};

/// Three-card hands: 52 choose 3.
const HANDS: usize = 22_100;

/// A hand's place in the table: its rank among the 22,100 hands (cards in any order). A round
/// keeps each seat's key beside its hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct HandKey(u16);

/// By card index: the card's share of a sorted hand's rank as the lowest (`k = 1`), middle
/// (`k = 2`) or highest (`k = 3`) card: C(index, k) (the combinatorial number system). 256 long,
/// like the tables by card of `scoring.rs`.
const fn rank_share(k: u32) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut i = 0u32;
    while i < 52 {
        let c = match k {
            1 => i,
            2 => i * i.saturating_sub(1) / 2,
            _ => i * i.saturating_sub(1) * i.saturating_sub(2) / 6,
        };
        t[i as usize] = c as u16;
        i += 1;
    }
    t
}
const LOW: [u16; 256] = rank_share(1);
const MIDDLE: [u16; 256] = rank_share(2);
const HIGH: [u16; 256] = rank_share(3);

impl HandKey {
    /// The key of a hand, its cards in any order.
    #[inline(always)]
    pub(crate) fn of(hand: [Card; 3]) -> HandKey {
        let [a, b, c] = hand.map(Card::index);
        let (a, b) = (a.min(b), a.max(b));
        let (b, c) = (b.min(c), b.max(c));
        let (a, b) = (a.min(b), a.max(b));
        HandKey(HIGH[usize::from(c)] + MIDDLE[usize::from(b)] + LOW[usize::from(a)])
    }
}

/// One entry per (hand, fourth card): the card put down (bits 0–7), the score kept (8–15) and the
/// rank of the hand kept (16–31). Entries of a fourth card that is in the hand are unused.
pub(crate) struct PutDowns(Box<[u32]>);

static TABLE: OnceLock<PutDowns> = OnceLock::new();

impl PutDowns {
    /// The table, built on first use (4.6 MB; about 10 ms).
    pub(crate) fn get() -> &'static PutDowns {
        TABLE.get_or_init(PutDowns::build)
    }

    fn build() -> PutDowns {
        let scores = ScoreTable::STANDARD;
        let mut t = vec![0u32; HANDS * 52].into_boxed_slice();
        for high in 2..52u8 {
            for middle in 1..high {
                for low in 0..middle {
                    let hand = [low, middle, high].map(Card::from_index);
                    let base = usize::from(HandKey::of(hand).0) * 52;
                    let now = scores.score(hand);
                    for new in Card::all().filter(|c| !hand.contains(c)) {
                        let p = put_down_with(scores, hand, now, new, false);
                        t[base + usize::from(new.index())] = u32::from(p.card.index())
                            | u32::from(p.score.halves()) << 8
                            | u32::from(HandKey::of(p.kept).0) << 16;
                    }
                }
            }
        }
        PutDowns(t)
    }

    #[inline(always)]
    fn entry(&self, key: HandKey, new: Card) -> u32 {
        self.0[usize::from(key.0) * 52 + usize::from(new.index())]
    }

    /// The put-down from `hand` (whose key is `key`) and `new`, drawn from the stock: the same as
    /// `decision::put_down_with`, the kept hand in the same order (the card put down replaced
    /// by `new`). Taken from the pile, it is the take's put-down whenever the take beats the
    /// hand's score (otherwise the rule does not take).
    #[inline(always)]
    pub(crate) fn put_down(&self, key: HandKey, hand: [Card; 3], new: Card) -> PutDown {
        let [card, score, _, _] = self.entry(key, new).to_le_bytes();
        let [a, b, c] = hand;
        let four = u32::from_le_bytes([a.index(), b.index(), c.index(), new.index()]);
        // The slot of the card put down: the lowest zero byte of `four ^ card` (the cards are
        // distinct, so there is one; a borrow can only mark bytes above it).
        let x = four ^ (u32::from(card) * 0x0101_0101);
        let shift = (x.wrapping_sub(0x0101_0101) & !x & 0x8080_8080).trailing_zeros() & 24;
        let kept = four ^ (u32::from(card ^ new.index()) << shift);
        let [x, y, z, _] = kept.to_le_bytes();
        PutDown {
            card: Card::from_index(card),
            kept: [x, y, z].map(Card::from_index),
            score: Score(score),
        }
    }

    /// The key of the hand kept after [`PutDowns::put_down`] of the same hand and card.
    #[inline(always)]
    pub(crate) fn next(&self, key: HandKey, new: Card) -> HandKey {
        HandKey((self.entry(key, new) >> 16) as u16)
    }

    /// [`PutDowns::next`], the kept hand's row asked of the cache for the seat's next turn.
    ///
    /// At the first turns of a round the hands are random and their rows are spread over the
    /// whole table, so a turn's reads likely come from far caches; asked for a whole round of
    /// turns ahead, the row is likely near by then. The first-turn positions took 0.92 of the
    /// time with it (`docs/evidence.md`, "The kept hand's row asked for ahead").
    #[inline(always)]
    pub(crate) fn next_asked(&self, key: HandKey, new: Card) -> HandKey {
        let next = self.next(key, new);
        self.prefetch_row(next);
        next
    }

    /// Ask the cache for the row of `key` (208 bytes: four cache lines when the table starts on a
    /// 16-byte boundary, as it does with the usual allocators); nothing else happens.
    #[inline(always)]
    fn prefetch_row(&self, key: HandKey) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let row = self
                .0
                .as_ptr()
                .wrapping_add(usize::from(key.0) * 52)
                .cast::<i8>();
            for line in [0, 64, 128, 192] {
                // SAFETY: the intrinsic needs SSE, which every x86-64 processor has (it is part
                // of the target's baseline). A prefetch only hints the cache: it reads no memory
                // the program can see and cannot fault, whatever the address (here one inside
                // the table).
                unsafe { _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(line)) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

/// Rule 2's put-down read from the table, for `decision::start_by`.
pub(crate) struct Keyed {
    pub(crate) puts: &'static PutDowns,
    pub(crate) key: HandKey,
    pub(crate) hand: [Card; 3],
}

impl Take for Keyed {
    /// The put-down as if `c` were drawn: when that puts `c` itself down, the hand keeps its
    /// score and the rule does not take. (The score is read first: most tops are not taken.)
    #[inline(always)]
    fn take(&self, c: Card, now: Score) -> Option<PutDown> {
        let [_, score, _, _] = self.puts.entry(self.key, c).to_le_bytes();
        (Score(score) > now).then(|| self.puts.put_down(self.key, self.hand, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::decision::{start_by, start_with, Start, TABLE_KNOCK_AT};

    /// Every hand in each of the six orders of its cards, with every other card as the fourth:
    /// the table's put-down is `put_down_with`'s (card, kept hand in order, score), drawn or,
    /// where the rule takes, taken; the next key is the kept hand's; and the take decision read
    /// from the table (take when the put-down beats the hand) is `start_with`'s.
    #[test]
    fn the_table_is_the_rule_for_every_hand_and_card() {
        let scores = ScoreTable::STANDARD;
        let puts = PutDowns::get();
        let (mut checked, mut takes) = (0usize, 0usize);
        for high in 2..52u8 {
            for middle in 1..high {
                for low in 0..middle {
                    let [x, y, z] = [low, middle, high].map(Card::from_index);
                    for hand in [
                        [x, y, z],
                        [x, z, y],
                        [y, x, z],
                        [y, z, x],
                        [z, x, y],
                        [z, y, x],
                    ] {
                        let now = scores.score(hand);
                        let key = HandKey::of(hand);
                        for new in Card::all().filter(|c| !hand.contains(c)) {
                            let got = puts.put_down(key, hand, new);
                            assert_eq!(got, put_down_with(scores, hand, now, new, false));
                            assert_eq!(puts.next(key, new), HandKey::of(got.kept));
                            let taken = put_down_with(scores, hand, now, new, true);
                            let rule = start_with(
                                scores,
                                hand,
                                now,
                                Some(new),
                                false,
                                false,
                                TABLE_KNOCK_AT,
                            );
                            if got.score > now {
                                assert_eq!(got, taken, "{hand:?} {new}: taken");
                                assert_eq!(rule, (Start::Take, Some(taken)));
                                takes += 1;
                            } else {
                                assert!(taken.score <= now, "{hand:?} {new}: not taken");
                                assert_eq!(rule, (Start::Draw, None));
                            }
                            // Rules 1–3 through the table as a turn asks them.
                            let keyed = Keyed { puts, key, hand };
                            for (may_knock, stock_empty) in [(false, true), (true, false)] {
                                let want = start_with(
                                    scores,
                                    hand,
                                    now,
                                    Some(new),
                                    may_knock,
                                    stock_empty,
                                    TABLE_KNOCK_AT,
                                );
                                let got = start_by(
                                    now,
                                    Some(new),
                                    may_knock,
                                    stock_empty,
                                    TABLE_KNOCK_AT,
                                    &keyed,
                                );
                                assert_eq!(got, want, "{hand:?} {new}: {may_knock} {stock_empty}");
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, HANDS * 6 * 49);
        // Both kinds came up in numbers.
        assert!(
            takes > checked / 10 && takes < checked - checked / 10,
            "{takes}"
        );
    }

    #[test]
    fn keys_number_every_hand_once() {
        let mut seen = vec![false; HANDS];
        for high in 2..52u8 {
            for middle in 1..high {
                for low in 0..middle {
                    let k = HandKey::of([high, low, middle].map(Card::from_index));
                    let rank = usize::from(k.0);
                    assert!(!seen[rank], "rank {rank} twice");
                    seen[rank] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
