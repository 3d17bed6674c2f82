//! Cards of the 52-card pack: their text form, value, and small sets of cards.

use std::fmt;

use crate::error::Error;

/// Suit order used everywhere (and by the put-down tie-break): clubs, diamonds, hearts, spades.
pub const SUITS: [char; 4] = ['C', 'D', 'H', 'S'];
/// Rank order: ace, two … ten, jack, queen, king.
pub const RANKS: [char; 13] = [
    'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
];

const fn value_of_rank(r: u8) -> u8 {
    match r {
        0 => 11,
        r if r >= 9 => 10,
        r => r + 1,
    }
}

/// The value of every card, by index.
const VALUES: [u8; 52] = {
    let mut v = [0u8; 52];
    let mut i = 0;
    while i < 52 {
        v[i] = value_of_rank((i % 13) as u8);
        i += 1;
    }
    v
};

/// One card, `suit * 13 + rank` with rank 0 = ace … 12 = king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Card(u8);

impl Card {
    pub const COUNT: usize = 52;

    /// The card with index `i` (0..52).
    pub const fn from_index(i: u8) -> Card {
        debug_assert!(i < 52);
        Card(i)
    }

    pub const fn new(rank: u8, suit: u8) -> Card {
        Card(suit * 13 + rank)
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    /// 0 = ace, 1 = two, …, 9 = ten, 10 = jack, 11 = queen, 12 = king.
    pub const fn rank(self) -> u8 {
        self.0 % 13
    }

    /// 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades.
    pub const fn suit(self) -> u8 {
        self.0 / 13
    }

    /// Ace 11, king, queen, jack and ten 10, other cards their pip value.
    #[inline]
    pub const fn value(self) -> u8 {
        VALUES[self.0 as usize]
    }

    /// Every card of the pack, in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52u8).map(Card)
    }

    /// Parse `AH`, `TD`, `10D`, `K♠` (case-insensitive, surrounding spaces ignored).
    pub fn parse(text: &str) -> Result<Card, Error> {
        let bad = || Error::BadCard(text.chars().take(crate::error::QUOTE_CHARS + 1).collect());
        let t = text.trim();
        let mut chars: Vec<char> = t.chars().collect();
        if chars.len() < 2 {
            return Err(bad());
        }
        let suit_char = chars.pop().ok_or_else(bad)?;
        let suit = match suit_char.to_ascii_uppercase() {
            'C' | '♣' | '♧' => 0,
            'D' | '♦' | '♢' => 1,
            'H' | '♥' | '♡' => 2,
            'S' | '♠' | '♤' => 3,
            _ => return Err(bad()),
        };
        let rank_text: String = chars.iter().collect::<String>().to_ascii_uppercase();
        let rank = match rank_text.as_str() {
            "10" | "T" => 9,
            "J" => 10,
            "Q" => 11,
            "K" => 12,
            "A" => 0,
            s if s.len() == 1 => match s.as_bytes()[0] {
                b @ b'2'..=b'9' => b - b'1',
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        Ok(Card::new(rank, suit))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANKS[self.rank() as usize],
            SUITS[self.suit() as usize]
        )
    }
}

impl std::str::FromStr for Card {
    type Err = Error;
    fn from_str(s: &str) -> Result<Card, Error> {
        Card::parse(s)
    }
}

/// A set of cards as a 52-bit mask.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct CardSet(u64);

/// Each card's bit in a [`CardSet`], by index (256 slots: read at a byte without a bounds
/// check; those past the cards are never read): a load where the shift took three
/// instructions (the playouts' put-downs insert a card every turn).
static CARD_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 64 {
        t[i] = 1u64 << i;
        i += 1;
    }
    t
};

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const FULL: CardSet = CardSet((1u64 << 52) - 1);

    pub const fn bits(self) -> u64 {
        self.0
    }
    /// The cards of a mask's bits (those above the pack's 52 dropped).
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & CardSet::FULL.0)
    }
    pub fn contains(self, c: Card) -> bool {
        self.0 & (1u64 << c.0) != 0
    }
    #[inline(always)]
    pub fn insert(&mut self, c: Card) {
        self.0 |= CARD_BITS[usize::from(c.0)];
    }
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1u64 << c.0);
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    pub fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    pub fn intersects(self, o: CardSet) -> bool {
        self.0 & o.0 != 0
    }
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(Card(i))
            }
        })
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Whether two hands hold the same cards, in any order.
pub fn same_cards(a: [Card; 3], b: [Card; 3]) -> bool {
    a.iter().copied().collect::<CardSet>() == b.iter().copied().collect::<CardSet>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_for_every_card() {
        for c in Card::all() {
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
        }
    }

    #[test]
    fn accepted_spellings() {
        assert_eq!(Card::parse("10D").unwrap(), Card::parse("TD").unwrap());
        assert_eq!(Card::parse("K♠").unwrap().to_string(), "KS");
        assert_eq!(Card::parse(" ah ").unwrap().to_string(), "AH");
        for bad in ["", "A", "1X", "11H", "ZZ", "AHH", "0S"] {
            assert!(Card::parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn values_follow_the_rules() {
        let v = |s: &str| Card::parse(s).unwrap().value();
        assert_eq!(v("AS"), 11);
        assert_eq!(v("KS"), 10);
        assert_eq!(v("QD"), 10);
        assert_eq!(v("JC"), 10);
        assert_eq!(v("TH"), 10);
        assert_eq!(v("9H"), 9);
        assert_eq!(v("2C"), 2);
    }
}
