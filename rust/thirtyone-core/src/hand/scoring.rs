//! Hand scores: the best single-suit total, with the table's scoring options.

use std::fmt;
use std::sync::OnceLock;

use super::Card;

/// A hand score in half points (so that 30½ is exact). `Score::from_points(31)` is 31.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub u8);

impl Score {
    pub const THIRTY_ONE: Score = Score(62);
    /// Above every hand: a knock threshold that never knocks.
    pub const NEVER: Score = Score(u8::MAX);

    pub const fn from_points(p: u8) -> Score {
        Score(p * 2)
    }
    pub const fn halves(self) -> u8 {
        self.0
    }
    pub fn points(self) -> f64 {
        self.0 as f64 / 2.0
    }
    /// A hand that is shown at once: 31, or more (three aces at 33 under Cadillac scoring).
    pub const fn is_blitz(self) -> bool {
        self.0 >= 62 && self.0 != u8::MAX
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

/// How a table scores hands fast. Standard scoring adds the cards' values in one word, one
/// six-bit lane per suit, and takes the largest lane; with scoring options, a lookup table.
#[derive(Clone, Copy)]
pub struct ScoreTable(Option<&'static Triples>);

/// The scores of every ordered triple of cards (by card index, 52 × 52 × 52).
type Triples = [u8; TRIPLES];
const TRIPLES: usize = 52 * 52 * 52;

impl fmt::Debug for ScoreTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_standard() {
            "ScoreTable(standard)"
        } else {
            "ScoreTable(options)"
        })
    }
}

/// The width of a suit's lane: at most four cards are ever summed (a hand and the card it might
/// take or has drawn), 41 points at most, so six bits hold any lane.
const LANE_BITS: u32 = 6;
const LANE_MASK: u32 = (1 << LANE_BITS) - 1;

/// Each card's value in its suit's lane. (Tables by card are 256 long, zero past the pack, so
/// that indexing by a card's byte needs no bounds check in the playouts' inner loop.)
const LANES: [u32; 256] = {
    let mut v = [0u32; 256];
    let mut i = 0;
    while i < 52 {
        v[i] = (Card::from_index(i as u8).value() as u32) << (LANE_BITS * (i as u32 / 13));
        i += 1;
    }
    v
};

/// Where each card's suit lane starts.
const SUIT_SHIFT: [u8; 256] = {
    let mut v = [0u8; 256];
    let mut i = 0;
    while i < 52 {
        v[i] = LANE_BITS as u8 * Card::from_index(i as u8).suit();
        i += 1;
    }
    v
};

/// The larger of two lanes side by side (twelve bits), as a score in half points: the best
/// lane of a hand is the larger of two lookups in this 4 kB table.
static BETTER_OF_TWO: [u8; 1 << (2 * LANE_BITS)] = {
    let mut v = [0u8; 1 << (2 * LANE_BITS)];
    let mut i = 0;
    while i < v.len() {
        let (low, high) = (i as u32 & LANE_MASK, i as u32 >> LANE_BITS);
        v[i] = 2 * if low > high { low } else { high } as u8;
        i += 1;
    }
    v
};

/// The largest of the four suit lanes, as a score.
#[inline(always)]
fn best_lane(x: u32) -> Score {
    let low = BETTER_OF_TWO[(x & 0xFFF) as usize];
    let high = BETTER_OF_TWO[((x >> 12) & 0xFFF) as usize];
    Score(low.max(high))
}

impl ScoreTable {
    /// Standard scoring.
    pub const STANDARD: ScoreTable = ScoreTable(None);

    /// Whether this is standard scoring (the suit-lane sums).
    #[inline]
    pub fn is_standard(self) -> bool {
        self.0.is_none()
    }

    /// The suit lanes of a card (standard scoring).
    #[inline(always)]
    pub fn lanes(card: Card) -> u32 {
        LANES[card.index() as usize]
    }

    /// The score of a hand given by the sum of its cards' lanes (standard scoring).
    #[inline(always)]
    pub fn lane_score(sum: u32) -> Score {
        best_lane(sum)
    }

    /// The total of `card`'s suit in a sum of lanes, as a score.
    #[inline(always)]
    pub fn lane_score_of_suit(sum: u32, card: Card) -> Score {
        Score(2 * ((sum >> SUIT_SHIFT[card.index() as usize]) & LANE_MASK) as u8)
    }

    #[inline(always)]
    pub fn score(self, hand: [Card; 3]) -> Score {
        match self.0 {
            None => best_lane(
                LANES[hand[0].index() as usize]
                    + LANES[hand[1].index() as usize]
                    + LANES[hand[2].index() as usize],
            ),
            Some(t) => {
                let i = hand[0].index() as usize * 2704
                    + hand[1].index() as usize * 52
                    + hand[2].index() as usize;
                Score(t[i])
            }
        }
    }
}

/// What three cards of one rank score.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ThreeOfAKind {
    /// Standard: trips score like any other hand (their highest card).
    #[default]
    None,
    Thirty,
    ThirtyHalf,
}

/// The scoring options of a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Scoring {
    pub three_of_a_kind: ThreeOfAKind,
    /// Cadillac: three aces score 33.
    pub three_aces_33: bool,
    /// Three in sequence in one suit score 30 (ace high: A-K-Q of a suit is 31).
    pub runs: bool,
}

/// Scores of every ordered triple of cards, one table per set of scoring options, built on
/// first use: a playout scores a hand about ten times a turn, and a lookup is the cheapest way.
static TABLES: [OnceLock<Box<Triples>>; 12] = [const { OnceLock::new() }; 12];

impl Scoring {
    /// The score of a three-card hand.
    #[inline]
    pub fn score(&self, hand: [Card; 3]) -> Score {
        self.table().score(hand)
    }

    /// The score table of these options.
    #[inline]
    pub fn table(&self) -> ScoreTable {
        if *self == Scoring::default() {
            ScoreTable(None)
        } else {
            ScoreTable(Some(
                TABLES[self.variant()].get_or_init(|| self.build_table()),
            ))
        }
    }

    fn variant(&self) -> usize {
        let trips = match self.three_of_a_kind {
            ThreeOfAKind::None => 0,
            ThreeOfAKind::Thirty => 1,
            ThreeOfAKind::ThirtyHalf => 2,
        };
        trips * 4 + usize::from(self.three_aces_33) * 2 + usize::from(self.runs)
    }

    fn build_table(&self) -> Box<Triples> {
        let mut t: Box<Triples> = vec![0u8; TRIPLES]
            .into_boxed_slice()
            .try_into()
            .expect("the size of a triples table");
        for a in Card::all() {
            for b in Card::all() {
                for c in Card::all() {
                    let i =
                        a.index() as usize * 2704 + b.index() as usize * 52 + c.index() as usize;
                    t[i] = self.compute(a, b, c).0;
                }
            }
        }
        t
    }

    /// The score computed from the rules (the tables are filled from this).
    pub fn compute(&self, a: Card, b: Card, c: Card) -> Score {
        let hand = [a, b, c];
        let base = best_suit_total(hand);
        if *self == Scoring::default() {
            return Score::from_points(base);
        }
        let mut s = Score::from_points(base);
        let [a, b, c] = hand;
        if a.rank() == b.rank() && b.rank() == c.rank() {
            let trips = if a.rank() == 0 && self.three_aces_33 {
                Score::from_points(33)
            } else {
                match self.three_of_a_kind {
                    ThreeOfAKind::None => Score(0),
                    ThreeOfAKind::Thirty => Score::from_points(30),
                    ThreeOfAKind::ThirtyHalf => Score(61),
                }
            };
            s = s.max(trips);
        }
        if self.runs && a.suit() == b.suit() && b.suit() == c.suit() && is_run(hand) {
            s = s.max(Score::from_points(30));
        }
        s
    }
}

/// The best single-suit total of three cards (no options).
#[inline]
pub fn best_suit_total(hand: [Card; 3]) -> u8 {
    let mut totals = [0u8; 4];
    for c in hand {
        totals[c.suit() as usize] += c.value();
    }
    totals[0].max(totals[1]).max(totals[2]).max(totals[3])
}

/// Three ranks in sequence, the ace high only (Q-K-A) or low (A-2-3).
fn is_run(hand: [Card; 3]) -> bool {
    let mut r = [hand[0].rank(), hand[1].rank(), hand[2].rank()];
    r.sort_unstable();
    // rank 0 is the ace: A-2-3 is consecutive as is; A-Q-K is the ace high.
    (r[1] == r[0] + 1 && r[2] == r[1] + 1) || r == [0, 11, 12]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(t: &str) -> [Card; 3] {
        let v: Vec<Card> = t.split_whitespace().map(|c| c.parse().unwrap()).collect();
        [v[0], v[1], v[2]]
    }

    #[test]
    fn seed_003_worked_hand() {
        let s = Scoring::default();
        assert_eq!(s.score(hand("AH 9H 4H")), Score::from_points(24));
        assert_eq!(s.score(hand("KS 7S AC")), Score::from_points(17));
        assert_eq!(s.score(hand("QD QH 5C")), Score::from_points(10));
        assert_eq!(s.score(hand("JC TC 2C")), Score::from_points(22));
    }

    #[test]
    fn thirty_one_and_three_suits() {
        let s = Scoring::default();
        assert_eq!(s.score(hand("AS KS QS")), Score::THIRTY_ONE);
        assert!(s.score(hand("AS KS QS")).is_blitz());
        assert_eq!(s.score(hand("2C 3D 9H")), Score::from_points(9));
    }

    #[test]
    fn three_of_a_kind_options() {
        let trips = hand("7C 7D 7H");
        let mut s = Scoring::default();
        assert_eq!(s.score(trips), Score::from_points(7));
        s.three_of_a_kind = ThreeOfAKind::Thirty;
        assert_eq!(s.score(trips), Score::from_points(30));
        s.three_of_a_kind = ThreeOfAKind::ThirtyHalf;
        assert_eq!(s.score(trips), Score(61));
        assert_eq!(s.score(trips).to_string(), "30.5");
        s.three_aces_33 = true;
        assert_eq!(s.score(hand("AC AD AH")), Score::from_points(33));
    }

    #[test]
    fn the_suit_lanes_score_every_hand_and_every_four_cards_by_the_rules() {
        let table = Scoring::default().table();
        let all: Vec<Card> = Card::all().collect();
        for (i, &a) in all.iter().enumerate() {
            for (j, &b) in all.iter().enumerate().skip(i + 1) {
                for (k, &c) in all.iter().enumerate().skip(j + 1) {
                    let hand = [a, b, c];
                    assert_eq!(table.score(hand), Score::from_points(best_suit_total(hand)));
                    // With a fourth card: each suit's total, and the best three of the four.
                    for &d in &all[k + 1..] {
                        let sum: u32 = [a, b, c, d].iter().map(|&x| ScoreTable::lanes(x)).sum();
                        let suit_total: u8 = [a, b, c, d]
                            .iter()
                            .filter(|x| x.suit() == d.suit())
                            .map(|x| x.value())
                            .sum();
                        assert_eq!(
                            ScoreTable::lane_score_of_suit(sum, d),
                            Score::from_points(suit_total)
                        );
                        let kept = ScoreTable::lane_score(sum - ScoreTable::lanes(a));
                        assert_eq!(kept, Score::from_points(best_suit_total([b, c, d])));
                    }
                }
            }
        }
    }

    #[test]
    fn runs_option() {
        let s = Scoring {
            runs: true,
            ..Scoring::default()
        };
        assert_eq!(s.score(hand("4H 5H 6H")), Score::from_points(30));
        assert_eq!(s.score(hand("AH KH QH")), Score::THIRTY_ONE);
        assert_eq!(s.score(hand("4H 5H 7H")), Score::from_points(16));
        assert_eq!(s.score(hand("4H 5H 6C")), Score::from_points(9));
    }
}
