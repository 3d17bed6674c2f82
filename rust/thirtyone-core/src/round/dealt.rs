//! One round of Thirty-One as a state machine: the deal, turns (knock, draw or take, put-down),
//! the final turns after a knock, 31 shown (or hidden, where the table allows it), the stock
//! running out, the blind showdown, and what the round costs each seat (lives, or Gin letters).
//! The game loop and the Oracle's playouts both drive this one implementation.

use montecarlo::Rng;

use super::public::{knock_limits, knock_limits_allow_with, End, Move, Source, Stage, Table};
use crate::error::{Error, Result};
use crate::hand::put_downs::HandKey;
use crate::hand::{Card, CardSet, Score, ScoreTable};
use crate::rules::{FirstTurnKnock, RoundRules, MAX_SEATS};

/// Slots for the stock (it holds at most 45 cards; 48 keep a round at 256 bytes, a size that a
/// playout copies cheaply).
const STOCK_SLOTS: usize = 48;

/// One step of a turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Knock,
    Draw(Source),
    PutDown(Card),
    /// Only when the stock is empty: do not take the top discard, which ends the round.
    Decline,
    /// Only where the table allows hiding a 31 (`may_hide_31`), and only when the put-down
    /// leaves a 31: put `card` down and keep the 31 hidden. The round goes on; at the showdown
    /// the hidden hand counts as 30. The decision rule never does this.
    PutDownHidden(Card),
    /// `first_turn_knock = blind`, before anybody looks at their cards: the first player calls a
    /// blind showdown of the dealt hands, which ends the round.
    CallBlind,
    /// `first_turn_knock = blind`: the first player does not call the blind showdown; everybody
    /// looks at their cards (a dealt 31 is then shown), and play starts.
    Look,
}

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

/// A whole turn as it was played, for the game's record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TurnRecord {
    pub seat: u8,
    /// None for a knock or a decline.
    pub draw: Option<(Source, Card)>,
    pub put_down: Option<Card>,
    pub knock: bool,
    pub declined: bool,
    /// The player showed 31 after the put-down.
    pub showed_31: bool,
}

/// A dealt round: the public [`Table`] plus what the table does not see — every hand, the
/// stock's order, the card just drawn and the 31s kept hidden.
#[derive(Debug)]
pub struct Round {
    pub(crate) table: Table,
    /// Each seat's hand as one word, its three cards' bytes and a zero (`word`): one load and one
    /// store in a playout's turn.
    pub(super) hands: [u32; MAX_SEATS],
    /// The stock, its top card last (the first `table.stock_len` slots are in play; a draw's
    /// index is capped at the last slot, so that it needs no bounds check).
    pub(crate) stock: [Card; STOCK_SLOTS],
    /// The fourth card of the player to move while they put one down.
    pub(crate) drawn: Card,
    /// The seat holds a 31 it kept hidden at its last put-down (counts as 30 at the showdown).
    pub(crate) hid_31: [bool; MAX_SEATS],
    /// Each hand's score, kept with the hands (a playout asks for them every turn).
    pub(crate) scores: [Score; MAX_SEATS],
    /// How this table scores a hand (looked up once, not every turn).
    pub(super) score_table: ScoreTable,
    /// Each hand's key in the put-down table (`put_downs`), kept with the hands.
    pub(super) keys: [HandKey; MAX_SEATS],
}

/// Field by field: with a derived clone the sweep's copy of a round (at each of its branches)
/// is one call to the C library's `memcpy`; written out, the compiler copies it inline, and the
/// 14 benchmark positions took 0.963 of the time (two threads, best of 11; `docs/evidence.md`).
impl Clone for Round {
    #[inline(always)]
    fn clone(&self) -> Round {
        Round {
            table: self.table.clone(),
            hands: self.hands,
            stock: self.stock,
            drawn: self.drawn,
            hid_31: self.hid_31,
            scores: self.scores,
            score_table: self.score_table,
            keys: self.keys,
        }
    }
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
            table: Table::dealt(rules, seats, first, deck[3 * n]),
            hands: padded(&hands),
            stock,
            drawn: deck[0],
            hid_31: [false; MAX_SEATS],
            scores: scores_of(&rules, seats, &hands),
            score_table: rules.scoring.table(),
            keys: keys_of(seats, &hands),
        };
        if rules.first_turn_knock != FirstTurnKnock::Blind {
            round.look();
        }
        Ok(round)
    }

    /// A round that continues from a player's view of the table, with every hand and the stock
    /// supplied (in no order: a playout draws from it with a random number stream).
    pub(crate) fn continued(
        table: &Table,
        hands: [[Card; 3]; MAX_SEATS],
        stock: CardSet,
        drawn: Option<Card>,
        hid_31: [bool; MAX_SEATS],
    ) -> Round {
        // (A playout starts here: the loops are written for speed.)
        let mut cards = [Card::from_index(0); STOCK_SLOTS];
        let mut bits = stock.bits();
        for slot in cards.iter_mut() {
            if bits == 0 {
                break;
            }
            *slot = Card::from_index(bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
        debug_assert_eq!(stock.len(), table.stock_len as usize);
        let score_table = table.rules.scoring.table();
        Round {
            table: table.clone(),
            scores: scores_with(score_table, table.seats, &hands),
            score_table,
            keys: keys_of(table.seats, &hands),
            hands: padded(&hands),
            stock: cards,
            drawn: drawn.unwrap_or(table.top),
            hid_31,
        }
    }

    /// Everybody looks at their cards: a dealt 31 ends the round before play.
    pub(super) fn look(&mut self) {
        let dealt_31 = (0..self.table.seats).any(|s| self.score(s).is_blitz());
        self.table.apply(Move::Look { dealt_31 });
    }

    /// The public state of the round.
    pub fn table(&self) -> &Table {
        &self.table
    }
    pub fn rules(&self) -> &RoundRules {
        &self.table.rules
    }
    pub fn seats(&self) -> u8 {
        self.table.seats
    }
    pub fn first(&self) -> u8 {
        self.table.first
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
        debug_assert_eq!(s, self.table.rules.scoring.score(self.hand(seat)));
        s
    }
    pub fn top(&self) -> Card {
        self.table.top
    }
    pub fn top_by(&self) -> Option<u8> {
        self.table.top_by
    }
    pub fn stock_len(&self) -> u8 {
        self.table.stock_len
    }
    pub fn to_move(&self) -> u8 {
        self.table.to_move
    }
    pub fn knocker(&self) -> Option<u8> {
        self.table.knocker
    }
    pub fn phase(&self) -> Phase {
        match self.table.stage {
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
        self.table.turns_played
    }
    pub fn is_over(&self) -> bool {
        self.table.is_over()
    }
    pub fn end(&self) -> Option<End> {
        match self.table.stage {
            Stage::Over(e) => Some(e),
            _ => None,
        }
    }
    /// Whether `seat` showed 31 this round.
    pub fn showed_31(&self, seat: u8) -> bool {
        self.table.showed_31[seat as usize]
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
        self.table.may_take()
    }

    /// May the player to move knock now?
    pub fn may_knock(&self) -> bool {
        self.may_knock_with(self.score(self.table.to_move))
    }

    /// Why the player to move may not knock now (None: they may).
    pub fn why_no_knock(&self) -> Option<String> {
        if let Some(why) = self.table.knock_closed() {
            return Some(why.to_string());
        }
        knock_limits(&self.table.rules, self.hand(self.table.to_move))
    }

    /// [`Round::may_knock`], given the score of the hand of the player to move.
    #[inline]
    pub(super) fn may_knock_with(&self, now: Score) -> bool {
        self.table.knock_closed().is_none()
            && knock_limits_allow_with(&self.table.rules, self.hand(self.table.to_move), now)
    }

    /// The hand of the player to move and the fourth card, while they put one down.
    fn four(&self) -> Option<([Card; 3], Card, bool)> {
        match self.table.stage {
            Stage::PutDown { from_pile } => {
                Some((self.hand(self.table.to_move), self.drawn, from_pile))
            }
            _ => None,
        }
    }

    /// The actions the player to move may take now.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.table.stage {
            Stage::Over(_) => {}
            Stage::Blind => {
                out.push(Action::CallBlind);
                out.push(Action::Look);
            }
            Stage::Start => {
                if self.may_knock() {
                    out.push(Action::Knock);
                }
                if self.table.stock_len > 0 {
                    out.push(Action::Draw(Source::Stock));
                }
                if self.may_take() {
                    out.push(Action::Draw(Source::Pile));
                }
                if self.table.stock_len == 0 {
                    out.push(Action::Decline);
                }
            }
            Stage::PutDown { .. } => {
                let (hand, new, from_pile) = self.four().expect("putting down");
                let mut cards = hand.to_vec();
                if !from_pile {
                    cards.push(new);
                }
                for &c in &cards {
                    out.push(Action::PutDown(c));
                }
                if self.table.rules.may_hide_31 {
                    for &c in &cards {
                        if self.leaves_31(hand, new, c) {
                            out.push(Action::PutDownHidden(c));
                        }
                    }
                }
            }
        }
        out
    }

    fn leaves_31(&self, hand: [Card; 3], new: Card, card: Card) -> bool {
        self.table
            .rules
            .scoring
            .score(kept_after(hand, new, card))
            .is_blitz()
    }

    /// Why the player to move may not take `action` now (None: they may): the table's reason, or
    /// their hand's.
    pub fn refuse(&self, action: Action) -> Option<String> {
        let m = match action {
            Action::Knock => return self.why_no_knock(),
            Action::Draw(source) => Move::Draw(source),
            Action::Decline => Move::Decline,
            Action::CallBlind => Move::CallBlind,
            Action::Look => Move::Look { dealt_31: false },
            Action::PutDown(card) | Action::PutDownHidden(card) => Move::PutDown {
                card,
                shows_31: false,
            },
        };
        if let Some(why) = self.table.refuse(m) {
            return Some(why);
        }
        let (Action::PutDown(card) | Action::PutDownHidden(card)) = action else {
            return None;
        };
        let (hand, new, _) = self.four()?;
        if !hand.contains(&card) && card != new {
            return Some(format!("{card} is not in your hand"));
        }
        if action == Action::PutDownHidden(card) {
            if !self.table.rules.may_hide_31 {
                return Some("this table does not allow hiding a 31".into());
            }
            if !self.leaves_31(hand, new, card) {
                return Some(format!("putting down {card} leaves no 31 to hide"));
            }
        }
        None
    }

    /// Apply one action of the player to move, refusing anything the rules do not allow.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        if let Some(why) = self.refuse(action) {
            return Err(Error::IllegalAction(format!(
                "seat {}: {why}",
                self.table.to_move
            )));
        }
        self.apply_legal(action);
        Ok(())
    }

    /// [`Round::apply`] for an action known to be legal (a playout's own options): the same
    /// transition without asking why not. A stock draw here takes the stock's top card, as a
    /// dealt round does; a playout, whose stock is in no order, draws with
    /// [`Round::draw_by_rule`] and its random stream instead.
    #[inline]
    pub(crate) fn apply_legal(&mut self, action: Action) {
        debug_assert_eq!(self.refuse(action), None);
        match action {
            Action::CallBlind => self.table.apply(Move::CallBlind),
            Action::Look => self.look(),
            Action::Knock => self.table.apply(Move::Knock),
            Action::Decline => self.table.apply(Move::Decline),
            Action::Draw(Source::Stock) => {
                self.drawn = self.pop_stock(None);
                self.table.apply(Move::Draw(Source::Stock));
            }
            Action::Draw(Source::Pile) => {
                self.drawn = self.table.top;
                self.table.apply(Move::Draw(Source::Pile));
            }
            Action::PutDown(card) | Action::PutDownHidden(card) => {
                let hide = matches!(action, Action::PutDownHidden(_));
                let (_, new, _) = self.four().expect("checked: putting down");
                self.put_down_with_new(card, new, hide);
            }
        }
    }

    /// Take the top discard and put `card` down (the Oracle's take options: legal, which a
    /// debug build checks).
    #[inline]
    pub(crate) fn take_putting_down(&mut self, card: Card) {
        debug_assert_eq!(self.refuse(Action::Draw(Source::Pile)), None);
        let top = self.table.top;
        self.drawn = top;
        self.table.draw(Source::Pile);
        debug_assert_eq!(self.refuse(Action::PutDown(card)), None);
        self.put_down_with_new(card, top, false);
    }

    /// The put-down of `card` by the player to move, who holds `new` as their fourth card.
    #[inline(always)]
    fn put_down_with_new(&mut self, card: Card, new: Card, hide: bool) {
        let kept = kept_after(self.hand(self.table.to_move), new, card);
        let score = self.score_table.score(kept);
        self.finish_put_down(card, kept, score, HandKey::of(kept), hide);
    }

    /// Take the top card of the stock. In a playout (`shuffle` given) the stock is in no
    /// particular order and the draw picks a random card of it: a shuffle done one draw at a
    /// time. (The stream is the caller's local, so that its state can stay in registers.)
    #[inline(always)]
    pub(super) fn pop_stock(&mut self, shuffle: Option<&mut Rng>) -> Card {
        let len = self.table.stock_len;
        let last = (len as usize - 1).min(STOCK_SLOTS - 1);
        match shuffle {
            Some(rng) => {
                // The card at a random slot is drawn; the top card takes its slot.
                let j = (rng.below(len as u32) as usize).min(STOCK_SLOTS - 1);
                let card = self.stock[j];
                self.stock[j] = self.stock[last];
                card
            }
            None => self.stock[last],
        }
    }

    /// The put-down of `card`, keeping `kept` (whose score is `score`), and what follows. `hide`:
    /// a 31 left in hand is kept hidden (checked by the caller) instead of shown.
    #[inline(always)]
    pub(super) fn finish_put_down(
        &mut self,
        card: Card,
        kept: [Card; 3],
        score: Score,
        key: HandKey,
        hide: bool,
    ) {
        let seat = self.table.to_move as usize;
        debug_assert_eq!(key, HandKey::of(kept));
        self.keys[seat] = key;
        self.hands[seat] = word(kept);
        self.scores[seat] = score;
        self.hid_31[seat] = hide;
        self.table.put_down(card, score.is_blitz() && !hide);
    }
}

/// The keys of the first `seats` hands (see `put_downs`).
#[inline(always)]
fn keys_of(seats: u8, hands: &[[Card; 3]; MAX_SEATS]) -> [HandKey; MAX_SEATS] {
    let mut keys = [HandKey::default(); MAX_SEATS];
    for (key, hand) in keys.iter_mut().zip(hands).take(usize::from(seats)) {
        *key = HandKey::of(*hand);
    }
    keys
}

/// A hand as one word: its cards' bytes, the fourth zero (so that a put-down stores it at once).
#[inline(always)]
fn word([a, b, c]: [Card; 3]) -> u32 {
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

/// The hand left when `card` is put down from `hand` plus `new` (`card` may be `new`).
#[inline]
fn kept_after(hand: [Card; 3], new: Card, card: Card) -> [Card; 3] {
    let mut kept = hand;
    if let Some(slot) = kept.iter_mut().find(|c| **c == card) {
        *slot = new;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(t: &str) -> Card {
        t.parse().unwrap()
    }

    #[test]
    fn nobody_takes_back_any_card_they_put_down_this_round() {
        // The pack in order: seat 0 is dealt AC 3C 5C, seat 1 2C 4C 6C, the upcard is 7C and
        // the stock runs 8C, 9C, TC, ...
        let deck: Vec<Card> = Card::all().collect();
        let mut r = Round::deal(RoundRules::default(), 2, 0, &deck).unwrap();
        r.apply(Action::Draw(Source::Stock)).unwrap(); // seat 0 draws 8C
        r.apply(Action::PutDown(c("3C"))).unwrap(); //   and puts down 3C
        r.apply(Action::Draw(Source::Pile)).unwrap(); // seat 1 takes the 3C
        r.apply(Action::PutDown(c("2C"))).unwrap();
        r.apply(Action::Draw(Source::Stock)).unwrap(); // seat 0 draws 9C
        r.apply(Action::PutDown(c("9C"))).unwrap();
        r.apply(Action::Draw(Source::Stock)).unwrap(); // seat 1 draws TC
        r.apply(Action::PutDown(c("3C"))).unwrap(); //   and puts the 3C down again
        assert_eq!(r.to_move(), 0);
        assert_eq!(r.top(), c("3C"));
        assert_eq!(r.top_by(), Some(1));
        assert!(!r.may_take(), "seat 0 put the 3C down earlier this round");
        assert!(r.apply(Action::Draw(Source::Pile)).is_err());
        assert!(!r.legal_actions().contains(&Action::Draw(Source::Pile)));
        // Seat 1 may take seat 0's cards.
        r.apply(Action::Draw(Source::Stock)).unwrap();
        r.apply(Action::PutDown(c("AC"))).unwrap();
        assert!(r.may_take());
    }
}
