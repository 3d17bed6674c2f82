//! A dealt round: the public round plus what the table does not see (every hand, the stock's
//! order, the card just drawn, the hidden 31s); the deal, a round continued from a player's view
//! for a playout, and what may be read of it. Its actions are `actions`, a turn by the table's
//! rule is `rule_turn`, what it costs is `costs`: the game loop and the Oracle's playouts all
//! drive this one round.

use super::public::{knock_limits, knock_limits_allow_with, End, Move, PublicRound, Stage};
use crate::error::{Error, Result};
use crate::hand::{Card, CardSet, Score, ScoreTable};
use crate::rules::{FirstTurnKnock, RoundRules, MAX_SEATS};

/// Slots for the stock (it holds at most 45 cards; 48 keep a round at 256 bytes, a size that a
/// playout copies cheaply).
pub(super) const STOCK_SLOTS: usize = 48;

/// Where the current turn stands, with the card drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// `first_turn_knock = blind`: dealt, nobody has looked; the first player calls the blind
    /// showdown or looks.
    Blind,
    /// The player to move knocks, draws, takes, or (stock empty) declines.
    Start,
    /// The player to move holds a fourth card and must put one down.
    PutDown { new: Card, from_pile: bool },
    /// The round is over.
    Over(End),
}

/// A dealt round: the [`PublicRound`] plus what the table does not see — every hand, the
/// stock's order, the card just drawn and the 31s kept hidden.
#[derive(Clone, Debug)]
pub struct Round {
    pub(crate) public: PublicRound,
    /// Each seat's hand as one word, its three cards' bytes and a zero (`word`): one load and one
    /// store in a playout's turn.
    pub(super) hands: [u32; MAX_SEATS],
    /// The stock, its top card last (the first `public.stock_len` slots are in play; a draw's
    /// index is capped at the last slot, so that it needs no bounds check). A playout's round
    /// keeps its stock as it was set out: its draws, at random, are the playout's
    /// (`super::draws::Draws`), which hold the cards left.
    pub(crate) stock: [Card; STOCK_SLOTS],
    /// The fourth card of the player to move while they put one down.
    pub(crate) drawn: Card,
    /// The seat holds a 31 it kept hidden at its last put-down (counts as 30 at the showdown).
    pub(crate) hid_31: [bool; MAX_SEATS],
    /// Each hand's score, kept with the hands (a playout asks for them every turn).
    pub(crate) scores: [Score; MAX_SEATS],
    /// How this table scores a hand (looked up once, not every turn).
    pub(super) score_table: ScoreTable,
}

impl Round {
    /// Deal a round from a shuffled pack: three cards each, one at a time, starting with `first`
    /// (the dealer's left); the next card is the upcard; the rest is the stock, `deck[3n+1]` on top.
    pub fn deal(rules: RoundRules, seats: u8, first: u8, deck: &[Card]) -> Result<Round> {
        rules.validate()?;
        if !(2..=MAX_SEATS as u8).contains(&seats) {
            return Err(Error::BadState(format!(
                "a round needs 2 to 9 seats, not {seats}"
            )));
        }
        if first >= seats {
            return Err(Error::BadState(format!(
                "first seat {first} is not one of the {seats} seats"
            )));
        }
        if deck.len() != 52 || deck.iter().copied().collect::<CardSet>() != CardSet::FULL {
            return Err(Error::BadState(
                "the deck must hold each of the 52 cards once".into(),
            ));
        }
        let n = seats as usize;
        let mut hands = [[deck[0]; 3]; MAX_SEATS];
        for k in 0..3 {
            for i in 0..n {
                hands[(first as usize + i) % n][k] = deck[k * n + i];
            }
        }
        let mut stock = [deck[0]; STOCK_SLOTS];
        let rest = &deck[3 * n + 1..];
        for (i, &c) in rest.iter().rev().enumerate() {
            stock[i] = c;
        }
        let mut round = Round {
            public: PublicRound::dealt(rules, seats, first, deck[3 * n]),
            hands: padded(&hands),
            stock,
            drawn: deck[0],
            hid_31: [false; MAX_SEATS],
            scores: scores_of(&rules, seats, &hands),
            score_table: rules.scoring.table(),
        };
        if rules.first_turn_knock != FirstTurnKnock::Blind {
            round.look();
        }
        Ok(round)
    }

    /// A round that continues from a player's view of the table, with its stock still to be set
    /// out: the playouts' template, which [`Round::set_hands`] completes with a deal's hands and
    /// stock.
    pub(crate) fn unstocked(
        public: &PublicRound,
        hands: [[Card; 3]; MAX_SEATS],
        drawn: Option<Card>,
        hid_31: [bool; MAX_SEATS],
    ) -> Round {
        let score_table = public.rules.scoring.table();
        Round {
            public: *public,
            scores: scores_with(score_table, public.seats, &hands),
            score_table,
            hands: padded(&hands),
            stock: [Card::from_index(0); STOCK_SLOTS],
            drawn: drawn.unwrap_or(public.top),
            hid_31,
        }
    }

    /// The stock's first slots set to the cards of `bits`, in the order of their indices
    /// ([`spread_cards`]).
    #[inline(always)]
    fn set_stock(&mut self, bits: u64) {
        let mut slots = [0u8; STOCK_SLOTS + 8];
        spread_cards(bits, &mut slots);
        for (slot, &c) in self.stock.iter_mut().zip(&slots) {
            *slot = Card::from_index(c);
        }
    }

    /// The cards in the stock, in no order.
    #[cfg(test)]
    pub(crate) fn stock_cards(&self) -> CardSet {
        self.stock[..usize::from(self.public.stock_len)]
            .iter()
            .copied()
            .collect()
    }

    /// Every hand but `keep`'s set to `hands`, and the stock to the cards of `unseen` that those
    /// hands leave (in no order: a playout draws from it with a random number stream), which
    /// are returned. The playouts set each deal out so, on a round that holds the rest.
    #[inline]
    pub(crate) fn set_hands(
        &mut self,
        hands: &[[Card; 3]; MAX_SEATS],
        keep: u8,
        unseen: CardSet,
    ) -> CardSet {
        let table = self.score_table;
        self.set_hands_by::<true>(hands, keep, unseen, |_, hand| table.score(hand))
    }

    /// [`Round::set_hands`], each hand's score given by `score` (of its seat and its hand). The
    /// round's own hands and scores of those seats, and its stock's slots, are written when
    /// `ROUND`; else they are left as they were, for turns that hold the hands themselves and
    /// write them back when they settle (`super::profiled`) and draws that set out the stock
    /// returned (`Draws::begin_with`), and `score` is only told the hands.
    #[inline(always)]
    pub(super) fn set_hands_by<const ROUND: bool>(
        &mut self,
        hands: &[[Card; 3]; MAX_SEATS],
        keep: u8,
        unseen: CardSet,
        mut score: impl FnMut(usize, [Card; 3]) -> Score,
    ) -> CardSet {
        let mut stock = unseen.bits();
        let seats = usize::from(self.public.seats);
        for (seat, &hand) in hands.iter().enumerate().take(seats) {
            if seat != usize::from(keep) {
                let s = score(seat, hand);
                if ROUND {
                    self.hands[seat] = word(hand);
                    self.scores[seat] = s;
                }
                for c in hand {
                    stock &= !(1u64 << c.index());
                }
            }
        }
        debug_assert_eq!(stock.count_ones(), u32::from(self.public.stock_len));
        if ROUND {
            self.set_stock(stock);
        }
        CardSet::from_bits(stock)
    }

    /// Everybody looks at their cards: a dealt 31 ends the round before play.
    pub(super) fn look(&mut self) {
        let dealt_31 = (0..self.public.seats).any(|s| self.score(s).is_blitz());
        self.public.apply(Move::Look { dealt_31 });
    }

    /// The public state of the round.
    pub fn public(&self) -> &PublicRound {
        &self.public
    }
    pub fn rules(&self) -> &RoundRules {
        &self.public.rules
    }
    pub fn seats(&self) -> u8 {
        self.public.seats
    }
    pub fn first(&self) -> u8 {
        self.public.first
    }
    pub fn hand(&self, seat: u8) -> [Card; 3] {
        let [a, b, c, _] = self.hands[seat as usize]
            .to_le_bytes()
            .map(Card::from_index);
        [a, b, c]
    }
    #[inline(always)]
    pub fn score(&self, seat: u8) -> Score {
        let s = self.scores[seat as usize];
        debug_assert_eq!(s, self.public.rules.scoring.score(self.hand(seat)));
        s
    }
    pub fn top(&self) -> Card {
        self.public.top
    }
    pub fn top_by(&self) -> Option<u8> {
        self.public.top_by()
    }
    pub fn stock_len(&self) -> u8 {
        self.public.stock_len
    }
    pub fn to_move(&self) -> u8 {
        self.public.to_move
    }
    pub fn knocker(&self) -> Option<u8> {
        self.public.knocker
    }
    pub fn phase(&self) -> Phase {
        match self.public.stage {
            Stage::Blind => Phase::Blind,
            Stage::Start => Phase::Start,
            Stage::PutDown { from_pile } => Phase::PutDown {
                new: self.drawn,
                from_pile,
            },
            Stage::Over(end) => Phase::Over(end),
        }
    }
    pub fn turns_played(&self) -> u16 {
        self.public.turns_played
    }
    pub fn is_over(&self) -> bool {
        self.public.is_over()
    }
    pub fn end(&self) -> Option<End> {
        match self.public.stage {
            Stage::Over(e) => Some(e),
            _ => None,
        }
    }
    /// Whether `seat` showed 31 this round.
    pub fn showed_31(&self, seat: u8) -> bool {
        self.public.showed_31[seat as usize]
    }
    /// Whether `seat` holds a 31 it kept hidden (`may_hide_31`).
    pub fn hid_31(&self, seat: u8) -> bool {
        self.hid_31[seat as usize]
    }
    /// What `seat`'s hand counts at a showdown: its score, or 30 for a hidden 31.
    pub fn counted_score(&self, seat: u8) -> Score {
        if self.hid_31[seat as usize] {
            Score::from_points(30)
        } else {
            self.score(seat)
        }
    }

    /// May the player to move take the top discard now?
    pub fn may_take(&self) -> bool {
        self.public.may_take()
    }

    /// May the player to move knock now?
    pub fn may_knock(&self) -> bool {
        self.may_knock_with(self.score(self.public.to_move))
    }

    /// Why the player to move may not knock now (None: they may).
    pub fn why_no_knock(&self) -> Option<String> {
        if let Some(why) = self.public.knock_closed() {
            return Some(why.to_string());
        }
        knock_limits(&self.public.rules, self.hand(self.public.to_move))
    }

    /// [`Round::may_knock`], given the score of the hand of the player to move.
    #[inline]
    pub(super) fn may_knock_with(&self, now: Score) -> bool {
        self.public.knock_closed().is_none()
            && knock_limits_allow_with(&self.public.rules, self.hand(self.public.to_move), now)
    }
}

/// The cards of `bits` (at most [`STOCK_SLOTS`] of them), by index, written to the first places of
/// `out` in the order of their indices: a byte of `bits` at a time, its cards written at once
/// from [`BYTE_CARDS`] (a playout starts here: a bit at a time took two hundred instructions).
/// A byte's eight places are written wherever it starts, so `out` holds eight places past the
/// last slot.
#[inline(always)]
pub(super) fn spread_cards<const N: usize>(bits: u64, out: &mut [u8; N]) {
    const { assert!(N >= STOCK_SLOTS + 8) };
    let mut at = 0;
    for (k, byte) in bits.to_le_bytes().into_iter().enumerate().take(7) {
        let (cards, count) = BYTE_CARDS[usize::from(byte)];
        let first = (k as u64 * 8) * 0x0101_0101_0101_0101;
        let to = at.min(STOCK_SLOTS);
        out[to..to + 8].copy_from_slice(&(cards + first).to_le_bytes());
        at += usize::from(count);
    }
}

/// For each byte: the places of its set bits in order, one per byte of the word (those past
/// the last zero), and how many there are.
const BYTE_CARDS: [(u64, u8); 256] = {
    let mut t = [(0u64, 0u8); 256];
    let mut b = 0;
    while b < 256 {
        let (mut word, mut n, mut bit) = (0u64, 0u8, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                word |= (bit as u64) << (8 * n);
                n += 1;
            }
            bit += 1;
        }
        t[b] = (word, n);
        b += 1;
    }
    t
};

/// A hand as one word: its cards' bytes, the fourth zero (so that a put-down stores it at once).
#[inline(always)]
pub(super) fn word([a, b, c]: [Card; 3]) -> u32 {
    u32::from_le_bytes([a.index(), b.index(), c.index(), 0])
}

/// Hands as words.
#[inline(always)]
fn padded(hands: &[[Card; 3]; MAX_SEATS]) -> [u32; MAX_SEATS] {
    hands.map(word)
}

/// The scores of the first `seats` hands.
fn scores_of(rules: &RoundRules, seats: u8, hands: &[[Card; 3]; MAX_SEATS]) -> [Score; MAX_SEATS] {
    scores_with(rules.scoring.table(), seats, hands)
}

/// [`scores_of`] with the score table at hand.
#[inline(always)]
fn scores_with(table: ScoreTable, seats: u8, hands: &[[Card; 3]; MAX_SEATS]) -> [Score; MAX_SEATS] {
    let mut scores = [Score(0); MAX_SEATS];
    for (score, hand) in scores.iter_mut().zip(hands).take(usize::from(seats)) {
        *score = table.score(*hand);
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use montecarlo::Rng;

    /// A round set out with other hands holds them, scored, and a stock of exactly the unseen
    /// cards they leave, in the order of the cards' indices (the order the playouts' random
    /// draws rest on), whatever the template's stock held before.
    #[test]
    fn set_hands_leaves_the_unseen_cards_in_order() {
        let deck: Vec<Card> = Card::all().collect();
        let mut rng = Rng::stream(5, 0, 0);
        for seats in [2u8, 4, 9] {
            let mut round = Round::deal(RoundRules::default(), seats, 0, &deck).unwrap();
            for _ in 0..200 {
                let mut cards = deck.clone();
                rng.shuffle(&mut cards);
                // Seat 0 keeps its hand; the others get new ones; the upcard is taken out.
                let kept = round.hand(0);
                let mut pool: Vec<Card> = cards
                    .into_iter()
                    .filter(|c| !kept.contains(c) && *c != round.top())
                    .collect();
                let mut hands = [[deck[0]; 3]; MAX_SEATS];
                for hand in hands.iter_mut().take(usize::from(seats)).skip(1) {
                    for card in hand.iter_mut() {
                        *card = pool.pop().unwrap();
                    }
                }
                let stock_len = usize::from(round.stock_len());
                let unseen: CardSet = pool[pool.len() - stock_len..]
                    .iter()
                    .chain(hands[1..usize::from(seats)].iter().flatten())
                    .copied()
                    .collect();
                round.set_hands(&hands, 0, unseen);
                assert_eq!(round.hand(0), kept);
                for s in 1..seats {
                    assert_eq!(round.hand(s), hands[usize::from(s)]);
                    let scored = round.rules().scoring.score(hands[usize::from(s)]);
                    assert_eq!(round.score(s), scored);
                }
                let stock: Vec<Card> = round.stock[..stock_len].to_vec();
                let mut expected: Vec<Card> = pool[pool.len() - stock_len..].to_vec();
                expected.sort_by_key(|c| c.index());
                assert_eq!(stock, expected);
            }
        }
    }
}
