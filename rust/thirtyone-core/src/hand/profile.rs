//! A hand's profile: what the table's decision rule does, under standard scoring, with any fourth
//! card, packed in one word per hand (22,100 words, 177 KB, in a table of 32,768 slots). A playout's turn reads its seat's
//! profile instead of scoring the candidates: whether the top discard is worth taking, whether a
//! card drawn goes straight back, and otherwise which card of the hand goes; the hand then left
//! has a profile of its own, found by its index.
//!
//! Why a few numbers per suit say it all (`rules.md`, rules 2–4; `hand` is the three cards,
//! `now` their score, `h[s]` the total of suit `s` in the hand, the new card `n` of suit `s` and
//! value `v`; "first to go" is rule 4's order: lowest value, the card just drawn, suit, rank):
//!
//! - When `h[s] + v > now`, suit `s` is then the only best suit: putting down any card outside it
//!   keeps `h[s] + v`, every other choice keeps less. The first to go of the hand's cards outside
//!   `s` goes (`n` never), and a take beats the hand's score. If all three cards are of suit `s`,
//!   every choice but `n` keeps `now + v - value`: the lowest card of the hand goes, and a take
//!   beats `now` only when `v` is above that card's value.
//! - When `h[s] + v <= now`, no choice keeps more than `now`, and a take never helps. Putting `n`
//!   down keeps `now`, as does putting down any card outside the hand's only best suit (or any
//!   card at all, if two suits tie for best, or if suit `s` ties with the best once `n` is in
//!   it). Among those, rule 4 puts down the first to go: `n` when its value is at most theirs.
//!
//! So for each suit the profile holds a threshold for the take (`gap`: a card of that suit is
//! worth taking exactly when its value is above it; see [`Profile`]), a threshold for going
//! straight back, and the card of the hand that goes when a card of that suit above the gap is
//! kept; and for the whole hand the card that goes when every choice ties, and the one that goes
//! when the new card is below the gap. A test checks every hand, every fourth card and both
//! sources against the rule itself ([`super::decision::put_down_with`] and
//! [`super::decision::start_with`]).

use std::sync::OnceLock;

use super::{Card, Score};

/// The number of three-card hands.
pub(crate) const HANDS: usize = 22_100;

/// A hand's profile. Bits 0–7: the hand's score in half points (at most 62: the low byte is the
/// score as it is, with no mask); bit 12: the hand is a 31 (one test where its score would take
/// two). Bits 8–9: the place (0–2, in
/// the hand sorted by card index) of the card that goes when every choice keeps the score
/// (`tied`); bits 10–11: the one that goes when the new card is below its suit's gap and kept
/// (`below`). From bit 16, twelve bits for each suit: the gap (bits 0–3, at most 15: the new card
/// of that suit is worth taking, and is kept, exactly when its value is above it; its value
/// equal to the gap ties the suit with the hand's best), the largest value that goes straight
/// back when drawn (bits 4–7; 0: none), and the place of the card that goes when the new card is
/// above the gap (bits 8–9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Profile(pub(crate) u64);

/// A profile's bit for a hand that is a 31.
const THIRTY_ONE: u64 = 1 << 12;

/// What a profile says about one fourth card: its suit's twelve bits, and its value.
#[derive(Clone, Copy)]
pub(crate) struct ForCard {
    suit: u32,
    value: u32,
}

impl ForCard {
    /// Taken from the discard pile, the card beats the hand's score (rule 2 takes it).
    #[inline(always)]
    pub(crate) fn worth_taking(self) -> bool {
        self.value > self.suit & 15
    }

    /// The score of the hand a take of the card leaves, `now` being the hand's score; for a card
    /// [`ForCard::worth_taking`] only. Its suit is then the only best one, at its total with the
    /// card: the hand's score less the gap, plus the card's value (the gap is the hand's score
    /// less the suit's total, or, with three cards of the suit, its lowest card's value, which
    /// goes).
    #[inline(always)]
    pub(crate) fn taken_score(self, now: Score) -> Score {
        debug_assert!(self.worth_taking());
        Score(now.0 + 2 * (self.value - (self.suit & 15)) as u8)
    }

    /// The score of the hand left when the card, drawn or taken, is not sent straight back,
    /// `now` being the hand's score: [`ForCard::taken_score`] where its value is above the gap,
    /// else `now` (no choice keeps more). A card sent straight back is never above the gap: the
    /// hand's score after any draw by the rule, without the hand's own profile.
    #[inline(always)]
    pub(crate) fn kept_score(self, now: Score) -> Score {
        Score(now.0 + 2 * self.value.saturating_sub(self.suit & 15) as u8)
    }

    /// Drawn from the stock, the card goes straight back.
    #[inline(always)]
    pub(crate) fn goes_back(self) -> bool {
        self.value <= (self.suit >> 4) & 15
    }
}

impl Profile {
    /// The hand's score.
    #[inline(always)]
    pub(crate) fn score(self) -> Score {
        Score(self.0 as u8)
    }

    /// The hand is a 31 ([`Score::is_blitz`] of its score).
    #[inline(always)]
    pub(crate) fn is_31(self) -> bool {
        self.0 & THIRTY_ONE != 0
    }

    /// What the profile says about `card`.
    #[inline(always)]
    pub(crate) fn for_card(self, card: Card) -> ForCard {
        let info = CARD_INFO[usize::from(card.index())];
        ForCard {
            suit: (self.0 >> (info & 63)) as u32 & 0xFFF,
            value: u32::from(info >> 8),
        }
    }

    /// The place in the sorted hand of the card that goes when the new card (`f`, not going
    /// back itself if drawn) is kept.
    #[inline(always)]
    pub(crate) fn goes(self, f: ForCard) -> u32 {
        // Chosen without a branch: which case a card falls in is as good as random.
        let gap = f.suit & 15;
        let low = self.0 as u32;
        let at_or_below = pick(f.value == gap, low >> 8, low >> 10);
        pick(f.value > gap, f.suit >> 8, at_or_below) & 3
    }
}

/// Per card: where its suit's twelve bits start in a profile (bits 0–5) and its value (8–11).
const CARD_INFO: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 52 {
        let c = Card::from_index(i as u8);
        t[i] = (16 + 12 * c.suit() as u16) | ((c.value() as u16) << 8);
        i += 1;
    }
    t
};

/// `x` choose 2 and `x` choose 3, for the hands' index.
const CHOOSE: [(u32, u32); 256] = {
    let mut t = [(0u32, 0u32); 256];
    let mut x = 0u32;
    while x < 52 {
        t[x as usize] = (
            x * x.saturating_sub(1) / 2,
            x * x.saturating_sub(1) * x.saturating_sub(2) / 6,
        );
        x += 1;
    }
    t
};

/// A sorted hand's index among all hands (colex order): the hand's cards are the bytes 0–2 of
/// `sorted`, in increasing order. Taken below [`SLOTS`] (which it always is), so that a lookup
/// in [`Profiles`] needs no bounds check.
#[inline(always)]
pub(crate) fn index(sorted: u32) -> usize {
    let [a, b, c, _] = sorted.to_le_bytes();
    (u32::from(a) + CHOOSE[usize::from(b)].0 + CHOOSE[usize::from(c)].1) as usize & (SLOTS - 1)
}

/// A hand as a sorted word: its cards' bytes in increasing order, the fourth byte zero.
#[inline(always)]
pub(crate) fn sorted(hand: [Card; 3]) -> u32 {
    let [a, b, c] = hand.map(|c| u32::from(c.index()));
    let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
    lo | ((a + b + c - lo - hi) << 8) | (hi << 16)
}

/// The sorted hand left when the card at `place` of `sorted` goes and `new` comes in; and the
/// card that went.
#[inline(always)]
pub(crate) fn replaced(sorted: u32, place: u32, new: Card) -> (u32, Card) {
    let [a, b, c, _] = sorted.to_le_bytes().map(u32::from);
    let gone = (sorted >> (8 * place)) & 0xFF;
    // The two cards left, in order (chosen without a branch).
    let x = pick(place == 0, b, a);
    let y = pick(place == 2, b, c);
    let n = u32::from(new.index());
    let (lo, hi) = (x.min(n), y.max(n));
    let word = lo | ((x + y + n - lo - hi) << 8) | (hi << 16);
    (word, Card::from_index(gone as u8))
}

/// The card at `place` (0–2) of the sorted hand `sorted`.
#[inline(always)]
pub(crate) fn card_at(sorted: u32, place: u32) -> Card {
    Card::from_index((sorted >> (8 * place)) as u8)
}

/// After drawing `new` (what `profile`, the profile of the sorted hand `sorted`, says of it:
/// `f`), the sorted hand left and the card put down: `new` kept and the card at its place gone,
/// or `new` sent straight back and the hand as it was, chosen without a branch (which it is is
/// as good as random; a mispredicted branch costs more than the choice).
#[inline(always)]
pub(crate) fn kept_or_sent_back(
    sorted: u32,
    profile: Profile,
    f: ForCard,
    new: Card,
) -> (u32, Card) {
    let (kept, gone) = replaced(sorted, profile.goes(f), new);
    let back = f.goes_back();
    let left = pick(back, sorted, kept);
    let gone = pick(back, u32::from(new.index()), u32::from(gone.index()));
    (left, Card::from_index(gone as u8))
}

/// `a` if `c`, else `b`, worked out without a branch (where `c` is as good as random, a
/// mispredicted branch costs more than the few instructions).
#[inline(always)]
fn pick(c: bool, a: u32, b: u32) -> u32 {
    let all = u32::from(c).wrapping_neg();
    (a & all) | (b & !all)
}

/// The slots of [`Profiles`]: the power of two above [`HANDS`].
pub(crate) const SLOTS: usize = HANDS.next_power_of_two();

/// Every hand's profile, by [`index`]; the slots past the hands are never read (never touched,
/// so never in memory).
pub(crate) type Profiles = [Profile; SLOTS];

/// The profiles of every hand, by [`index`], worked out on first use (about a millisecond).
pub(crate) fn profiles() -> &'static Profiles {
    static PROFILES: OnceLock<Box<Profiles>> = OnceLock::new();
    PROFILES.get_or_init(|| {
        let mut all: Box<Profiles> = vec![Profile(0); SLOTS]
            .into_boxed_slice()
            .try_into()
            .expect("SLOTS profiles");
        for hand in every_hand() {
            all[index(sorted(hand))] = profile_of(hand);
        }
        all
    })
}

/// Every three-card hand once, its cards in increasing order of index.
fn every_hand() -> impl Iterator<Item = [Card; 3]> {
    (2..52u8).flat_map(|c| {
        (1..c).flat_map(move |b| (0..b).map(move |a| [a, b, c].map(Card::from_index)))
    })
}

/// Rule 4's order among the hand's cards at `places` (a bit per place): the place of the first
/// to go (lowest value, then suit, then rank).
fn first_to_go(hand: [Card; 3], places: u8) -> u64 {
    let order = |c: Card| (c.value(), c.suit(), c.rank());
    (0..3)
        .filter(|p| places & (1 << p) != 0)
        .min_by_key(|&p| order(hand[p]))
        .unwrap_or(0) as u64
}

/// The profile of a hand sorted by card index (see the module's documentation).
fn profile_of(hand: [Card; 3]) -> Profile {
    let mut by_suit = [0i32; 4];
    for c in hand {
        by_suit[usize::from(c.suit())] += i32::from(c.value());
    }
    let now = *by_suit.iter().max().unwrap_or(&0);
    let mut best_suits = (0..4u8).filter(|&s| by_suit[usize::from(s)] == now);
    let (best, tie) = (best_suits.next().unwrap_or(0), best_suits.next().is_some());
    let value = |p: usize| i32::from(hand[p].value());
    let lowest = (0..3).map(value).min().unwrap_or(0);
    let in_suit = |s: u8| -> u8 {
        (0..3)
            .filter(|&p| hand[p].suit() == s)
            .map(|p| 1 << p)
            .sum()
    };
    let tied = first_to_go(hand, 0b111);
    // The cards that keep the score when put down, the new card below its suit's gap.
    let keeping = if tie { 0b111 } else { 0b111 & !in_suit(best) };
    let below = if keeping == 0 {
        tied
    } else {
        first_to_go(hand, keeping)
    };
    // Their lowest value (none: the new card below the gap always goes back).
    let keeping_low = (0..3)
        .filter(|p| keeping & (1 << p) != 0)
        .map(value)
        .min()
        .unwrap_or(15);
    let thirty_one = if now == 31 { THIRTY_ONE } else { 0 };
    let mut word = u64::from(now as u8 * 2) | thirty_one | (tied << 8) | (below << 10);
    for s in 0..4u8 {
        let mine = in_suit(s);
        let (gap, back, goes) = if mine == 0b111 {
            // Three of this suit: only a card above the lowest is kept.
            (lowest, lowest, tied)
        } else {
            let gap = now - by_suit[usize::from(s)];
            let below_gap = (gap - 1).min(keeping_low);
            let at_gap = if gap <= lowest { gap } else { 0 };
            (
                gap.min(15),
                below_gap.max(at_gap).clamp(0, 15),
                first_to_go(hand, 0b111 & !mine),
            )
        };
        let bits = gap as u64 | ((back as u64) << 4) | (goes << 8);
        word |= bits << (16 + 12 * u32::from(s));
    }
    Profile(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::decision::{put_down_with, start_with, Start, TABLE_KNOCK_AT};
    use crate::hand::ScoreTable;

    /// For every hand and every fourth card, drawn or taken, the profile does what the rule does:
    /// the same take, the same card down, and the hand left has the score the rule says.
    #[test]
    fn every_profile_is_the_rule() {
        let table = ScoreTable::STANDARD;
        let profiles = profiles();
        let mut checked = 0;
        for hand in every_hand() {
            let word = sorted(hand);
            let [a, b, c] = hand.map(|c| c.index());
            assert_eq!(word, u32::from_le_bytes([a, b, c, 0]));
            let p = profiles[index(word)];
            let now = table.score(hand);
            assert_eq!(p.score(), now, "{hand:?}");
            assert_eq!(p.is_31(), now.is_blitz(), "{hand:?}");
            for new in Card::all().filter(|x| !hand.contains(x)) {
                let f = p.for_card(new);
                // Taken from the pile.
                let (start, take) =
                    start_with(table, hand, now, Some(new), false, false, TABLE_KNOCK_AT);
                assert_eq!(
                    f.worth_taking(),
                    start == Start::Take,
                    "{hand:?} take {new}"
                );
                if let Some(rule) = take {
                    let (left, gone) = replaced(word, p.goes(f), new);
                    assert_eq!(gone, rule.card, "{hand:?} take {new}");
                    assert_eq!(profiles[index(left)].score(), rule.score);
                    assert_eq!(f.taken_score(now), rule.score, "{hand:?} take {new}");
                    assert_eq!(f.kept_score(now), rule.score, "{hand:?} take {new}");
                    assert_eq!(card_at(word, p.goes(f)), rule.card, "{hand:?} take {new}");
                    assert_eq!(left, sorted(rule.kept));
                }
                // Drawn from the stock.
                let rule = put_down_with(table, hand, now, new, false);
                assert_eq!(f.goes_back(), rule.card == new, "{hand:?} draw {new}");
                // The score left, whether the card is kept or sent back.
                assert_eq!(f.kept_score(now), rule.score, "{hand:?} draw {new}");
                if rule.card != new {
                    let (left, gone) = replaced(word, p.goes(f), new);
                    assert_eq!(gone, rule.card, "{hand:?} draw {new}");
                    assert_eq!(card_at(word, p.goes(f)), rule.card, "{hand:?} draw {new}");
                    assert_eq!(profiles[index(left)].score(), rule.score);
                    assert_eq!(left, sorted(rule.kept));
                }
                checked += 1;
            }
        }
        assert_eq!(checked, HANDS * 49);
    }

    /// The index numbers the hands 0 to 22,099, each once.
    #[test]
    fn the_index_numbers_every_hand_once() {
        let mut seen = vec![false; HANDS];
        for hand in every_hand() {
            let [a, b, c] = hand.map(|c| c.index());
            let i = index(u32::from_le_bytes([a, b, c, 0]));
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
