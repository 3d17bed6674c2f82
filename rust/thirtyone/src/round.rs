//! One round of Thirty-One as a state machine: the deal, turns (knock, draw or take, put-down),
//! the final turns after a knock, 31 shown (or hidden, where the table allows it), the stock
//! running out, the blind showdown, and what the round costs each seat (lives, or Gin letters).
//! The game loop and the Oracle's playouts both drive this one implementation.

use montecarlo::Rng;

use crate::cards::{Card, CardSet};
use crate::decision::{self, Start};
use crate::error::{Error, Result};
use crate::rules::{FirstTurnKnock, KnockerTie, LivesMode, RoundRules, ThirtyOneAfterKnock};
use crate::scoring::Score;

/// The most seats at a table.
pub const MAX_SEATS: usize = 9;

/// Where a draw comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    Stock,
    Pile,
}

/// One step of a turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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

/// Where the current turn stands.
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

/// How a round ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// One or more players were dealt 31: no play.
    Dealt31,
    /// A player showed 31 after a put-down.
    ThirtyOne { seat: u8 },
    /// Every player had their final turn after the knock.
    Showdown,
    /// The stock was spent and the player to move declined the top discard.
    StockOut { seat: u8 },
    /// The first player called a blind showdown of the dealt hands.
    Blind { caller: u8 },
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

/// Whether `seat` may take the top discard `top` (put down by `top_by`): nobody takes a card
/// they put down themselves this round, except, under the two-player mercy rule, their own last
/// put-down on the final turn after the opponent's knock.
pub fn may_take_top(
    rules: &RoundRules,
    seats: u8,
    seat: u8,
    top: Card,
    top_by: Option<u8>,
    knocker: Option<u8>,
    own_put_downs: CardSet,
) -> bool {
    !own_put_downs.contains(top)
        || (rules.two_player_mercy && seats == 2 && knocker.is_some() && top_by == Some(seat))
}

/// The state of one round. Seats are numbered 0..seats in turn order (play goes to seat + 1).
#[derive(Clone, Debug)]
pub struct Round {
    pub(crate) rules: RoundRules,
    pub(crate) seats: u8,
    pub(crate) hands: [[Card; 3]; MAX_SEATS],
    /// The stock, its top card last.
    pub(crate) stock: [Card; 52],
    pub(crate) stock_len: u8,
    pub(crate) top: Card,
    /// Who put the top discard down (None: the upcard).
    pub(crate) top_by: Option<u8>,
    pub(crate) first: u8,
    pub(crate) to_move: u8,
    pub(crate) turns_played: u16,
    pub(crate) knocker: Option<u8>,
    /// Final turns still to be played after the knock.
    pub(crate) finals_left: u8,
    pub(crate) phase: Phase,
    /// Lives already lost this round to 31s shown during the final turns (seed 001's rule).
    pub(crate) shown_losses: [u8; MAX_SEATS],
    pub(crate) showed_31: [bool; MAX_SEATS],
    /// The cards each seat has put down this round (nobody takes one of their own back).
    pub(crate) put_downs: [CardSet; MAX_SEATS],
    /// The seat holds a 31 it kept hidden at its last put-down (counts as 30 at the showdown).
    pub(crate) hid_31: [bool; MAX_SEATS],
    /// In a playout: the stock is in no particular order and each draw picks a random card
    /// from it (a shuffle done one draw at a time). None: the stock's order is the deal's.
    pub(crate) draw_rng: Option<Rng>,
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
        let mut stock = [deck[0]; 52];
        let rest = &deck[3 * n + 1..];
        for (i, &c) in rest.iter().rev().enumerate() {
            stock[i] = c;
        }
        let mut round = Round {
            rules,
            seats,
            hands,
            stock,
            stock_len: rest.len() as u8,
            top: deck[3 * n],
            top_by: None,
            first,
            to_move: first,
            turns_played: 0,
            knocker: None,
            finals_left: 0,
            phase: Phase::Start,
            shown_losses: [0; MAX_SEATS],
            showed_31: [false; MAX_SEATS],
            put_downs: [CardSet::EMPTY; MAX_SEATS],
            draw_rng: None,
            hid_31: [false; MAX_SEATS],
        };
        if rules.first_turn_knock == FirstTurnKnock::Blind {
            // Nobody has looked yet: a dealt 31 is found when they do (Action::Look).
            round.phase = Phase::Blind;
        } else {
            round.look();
        }
        Ok(round)
    }

    /// Everybody looks at their cards: a dealt 31 ends the round before play.
    fn look(&mut self) {
        self.phase = if (0..self.seats).any(|s| self.score(s).is_blitz()) {
            Phase::Over(End::Dealt31)
        } else {
            Phase::Start
        };
    }

    pub fn rules(&self) -> &RoundRules {
        &self.rules
    }
    pub fn seats(&self) -> u8 {
        self.seats
    }
    pub fn first(&self) -> u8 {
        self.first
    }
    pub fn hand(&self, seat: u8) -> [Card; 3] {
        self.hands[seat as usize]
    }
    pub fn score(&self, seat: u8) -> Score {
        self.rules.scoring.score(self.hands[seat as usize])
    }
    pub fn top(&self) -> Card {
        self.top
    }
    pub fn top_by(&self) -> Option<u8> {
        self.top_by
    }
    pub fn stock_len(&self) -> u8 {
        self.stock_len
    }
    pub fn to_move(&self) -> u8 {
        self.to_move
    }
    pub fn knocker(&self) -> Option<u8> {
        self.knocker
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn turns_played(&self) -> u16 {
        self.turns_played
    }
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }
    pub fn end(&self) -> Option<End> {
        match self.phase {
            Phase::Over(e) => Some(e),
            _ => None,
        }
    }
    /// Whether `seat` showed 31 this round.
    pub fn showed_31(&self, seat: u8) -> bool {
        self.showed_31[seat as usize]
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
        self.phase == Phase::Start
            && may_take_top(
                &self.rules,
                self.seats,
                self.to_move,
                self.top,
                self.top_by,
                self.knocker,
                self.put_downs[self.to_move as usize],
            )
    }

    /// May the player to move knock now?
    pub fn may_knock(&self) -> bool {
        self.may_knock_with(self.score(self.to_move))
    }

    /// [`Round::may_knock`], given the score of the hand of the player to move.
    #[inline]
    fn may_knock_with(&self, now: Score) -> bool {
        if self.phase != Phase::Start || self.knocker.is_some() || self.stock_len == 0 {
            return false;
        }
        if self.turns_played == 0 && self.rules.first_turn_knock != FirstTurnKnock::Allowed {
            return false;
        }
        let hand = self.hands[self.to_move as usize];
        if self.rules.knock_needs_one_suit
            && !(hand[0].suit() == hand[1].suit() && hand[1].suit() == hand[2].suit())
        {
            return false;
        }
        now >= self.rules.min_knock
    }

    /// The actions the player to move may take now.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Over(_) => {}
            Phase::Blind => {
                out.push(Action::CallBlind);
                out.push(Action::Look);
            }
            Phase::Start => {
                if self.may_knock() {
                    out.push(Action::Knock);
                }
                if self.stock_len > 0 {
                    out.push(Action::Draw(Source::Stock));
                }
                if self.may_take() {
                    out.push(Action::Draw(Source::Pile));
                }
                if self.stock_len == 0 {
                    out.push(Action::Decline);
                }
            }
            Phase::PutDown { new, from_pile } => {
                let hand = self.hands[self.to_move as usize];
                let mut cards = hand.to_vec();
                if !from_pile {
                    cards.push(new);
                }
                for &c in &cards {
                    out.push(Action::PutDown(c));
                }
                if self.rules.may_hide_31 {
                    for &c in &cards {
                        if self
                            .rules
                            .scoring
                            .score(kept_after(hand, new, c))
                            .is_blitz()
                        {
                            out.push(Action::PutDownHidden(c));
                        }
                    }
                }
            }
        }
        out
    }

    /// Apply one action of the player to move, refusing anything the rules do not allow.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        let seat = self.to_move;
        let illegal = |why: &str| Err(Error::IllegalAction(format!("seat {seat}: {why}")));
        match (self.phase, action) {
            (Phase::Over(_), _) => return illegal("the round is over"),
            (Phase::Blind, Action::CallBlind) => {
                self.phase = Phase::Over(End::Blind { caller: seat });
            }
            (Phase::Blind, Action::Look) => self.look(),
            (Phase::Blind, _) => {
                return illegal(
                    "nobody has looked at their cards yet: call the blind showdown or look first",
                )
            }
            (_, Action::CallBlind) => {
                return illegal(
                    "a blind showdown is called only at a blind table, before anybody looks",
                )
            }
            (_, Action::Look) => return illegal("the cards have been looked at already"),
            (Phase::Start, Action::Knock) => {
                if self.knocker.is_some() {
                    return illegal("somebody has already knocked this round");
                }
                if !self.may_knock() {
                    return illegal("the table's rules do not allow a knock now");
                }
                self.knock();
            }
            (Phase::Start, Action::Draw(Source::Stock)) => {
                if self.stock_len == 0 {
                    return illegal("the stock is empty");
                }
                self.draw_stock();
            }
            (Phase::Start, Action::Draw(Source::Pile)) => {
                if !self.may_take() {
                    return illegal(&format!(
                        "you may not take {}: you put it down yourself this round",
                        self.top
                    ));
                }
                self.take_pile();
            }
            (Phase::Start, Action::Decline) => {
                if self.stock_len > 0 {
                    return illegal("you may only decline the discard when the stock is empty");
                }
                self.phase = Phase::Over(End::StockOut { seat });
            }
            (Phase::Start, Action::PutDown(_) | Action::PutDownHidden(_)) => {
                return illegal("draw or take a card before putting one down")
            }
            (
                Phase::PutDown { new, from_pile },
                Action::PutDown(card) | Action::PutDownHidden(card),
            ) => {
                let hide = matches!(action, Action::PutDownHidden(_));
                let hand = self.hands[seat as usize];
                if from_pile && card == new {
                    return illegal("a card taken from the pile may not be put straight back");
                }
                if !hand.contains(&card) && card != new {
                    return illegal(&format!("{card} is not in your hand"));
                }
                if hide {
                    if !self.rules.may_hide_31 {
                        return illegal("this table does not allow hiding a 31");
                    }
                    if !self
                        .rules
                        .scoring
                        .score(kept_after(hand, new, card))
                        .is_blitz()
                    {
                        return illegal(&format!("putting down {card} leaves no 31 to hide"));
                    }
                }
                self.put_down(card, hide);
            }
            (Phase::PutDown { .. }, _) => return illegal("put a card down to finish your turn"),
        }
        Ok(())
    }

    fn knock(&mut self) {
        self.knocker = Some(self.to_move);
        self.finals_left = self.seats - 1;
        self.turns_played += 1;
        self.to_move = (self.to_move + 1) % self.seats;
    }

    /// Take the top card of the stock.
    #[inline]
    fn pop_stock(&mut self) -> Card {
        let last = self.stock_len as usize - 1;
        if let Some(rng) = &mut self.draw_rng {
            let j = rng.below(self.stock_len as u32) as usize;
            self.stock.swap(j, last);
        }
        self.stock_len -= 1;
        self.stock[last]
    }

    fn draw_stock(&mut self) {
        let new = self.pop_stock();
        self.phase = Phase::PutDown {
            new,
            from_pile: false,
        };
    }

    fn take_pile(&mut self) {
        self.phase = Phase::PutDown {
            new: self.top,
            from_pile: true,
        };
    }

    fn put_down(&mut self, card: Card, hide: bool) {
        let seat = self.to_move;
        let Phase::PutDown { new, .. } = self.phase else {
            unreachable!("put_down outside the put-down phase")
        };
        let kept = kept_after(self.hands[seat as usize], new, card);
        let score = self.rules.scoring.score(kept);
        self.finish_put_down(card, kept, score, hide);
    }

    /// The put-down of `card`, keeping `kept` (whose score is `score`), and what follows. `hide`:
    /// a 31 left in hand is kept hidden (checked by the caller) instead of shown.
    #[inline]
    fn finish_put_down(&mut self, card: Card, kept: [Card; 3], score: Score, hide: bool) {
        let seat = self.to_move;
        self.hands[seat as usize] = kept;
        self.top = card;
        self.top_by = Some(seat);
        self.put_downs[seat as usize].insert(card);
        self.phase = Phase::Start;
        self.turns_played += 1;
        self.hid_31[seat as usize] = hide;
        if score.is_blitz() && !hide {
            self.showed_31[seat as usize] = true;
            if self.knocker.is_some()
                && self.rules.thirty_one_after_knock == ThirtyOneAfterKnock::Continues
            {
                for s in 0..self.seats {
                    if s != seat {
                        self.shown_losses[s as usize] += 1;
                    }
                }
            } else {
                self.phase = Phase::Over(End::ThirtyOne { seat });
                return;
            }
        }
        self.finish_turn();
    }

    fn finish_turn(&mut self) {
        if self.knocker.is_some() {
            self.finals_left -= 1;
            if self.finals_left == 0 {
                self.phase = Phase::Over(End::Showdown);
                return;
            }
        }
        self.to_move = (self.to_move + 1) % self.seats;
    }

    /// Play the whole turn of the player to move by the table's decision rule, knocking at
    /// `knock_at` or more. Returns what was done.
    #[inline]
    pub fn play_rule_turn(&mut self, knock_at: Score) -> TurnRecord {
        let seat = self.to_move;
        let mut rec = TurnRecord {
            seat,
            draw: None,
            put_down: None,
            knock: false,
            declined: false,
            showed_31: false,
        };
        if self.phase != Phase::Start {
            if self.phase != Phase::Blind {
                return rec;
            }
            // The table's rule never calls a blind showdown: it looks, and plays on.
            self.look();
            if self.phase != Phase::Start {
                return rec;
            }
        }
        let table = self.rules.scoring.table();
        let hand = self.hands[seat as usize];
        let now = table.score(hand);
        let top = self.may_take().then_some(self.top);
        let (start, take) = decision::start_with(
            table,
            hand,
            now,
            top,
            self.may_knock_with(now),
            self.stock_len == 0,
            knock_at,
        );
        let (source, new, choice) = match (start, take) {
            (Start::Knock, _) => {
                self.knock();
                rec.knock = true;
                return rec;
            }
            (Start::Decline, _) => {
                self.phase = Phase::Over(End::StockOut { seat });
                rec.declined = true;
                return rec;
            }
            (Start::Take, Some(p)) => (Source::Pile, self.top, p),
            _ => {
                let new = self.pop_stock();
                (
                    Source::Stock,
                    new,
                    decision::put_down_with(table, hand, new, false),
                )
            }
        };
        rec.draw = Some((source, new));
        rec.put_down = Some(choice.card);
        self.finish_put_down(choice.card, choice.kept, choice.score, false);
        rec.showed_31 = self.showed_31[seat as usize];
        rec
    }

    /// Lives (or, under Gin lives, letters) each seat loses this round (all zero while the round
    /// is on).
    /// Lives `seat` loses this round: [`Round::losses`] for one seat, with a quick way for the
    /// common endings (a playout needs only the advised player's).
    #[inline]
    pub fn loss_of(&self, seat: u8) -> u8 {
        let s = seat as usize;
        match self.phase {
            Phase::Over(End::ThirtyOne { seat: shower }) if shower != seat => {
                1 + self.shown_losses[s]
            }
            Phase::Over(End::Showdown | End::StockOut { .. })
                if self.rules.lives_mode == LivesMode::Lives && !self.hid_31.contains(&true) =>
            {
                // Not among the lowest: nothing to pay at the showdown.
                let table = self.rules.scoring.table();
                let mine = table.score(self.hands[s]);
                let beaten =
                    (0..self.seats as usize).any(|o| o != s && table.score(self.hands[o]) < mine);
                if beaten {
                    self.shown_losses[s]
                } else {
                    self.losses()[s]
                }
            }
            _ => self.losses()[s],
        }
    }

    pub fn losses(&self) -> [u8; MAX_SEATS] {
        let mut lost = [0u8; MAX_SEATS];
        let n = self.seats as usize;
        let Phase::Over(end) = self.phase else {
            return lost;
        };
        match end {
            End::Dealt31 => {
                for (s, l) in lost.iter_mut().enumerate().take(n) {
                    if !self.score(s as u8).is_blitz() {
                        *l = 1;
                    }
                }
            }
            End::ThirtyOne { seat } => {
                for (s, l) in lost.iter_mut().enumerate().take(n) {
                    if s != seat as usize {
                        *l = 1;
                    }
                }
            }
            End::Blind { caller } => {
                // The dealt hands: each of the lowest loses one, the caller among them two.
                let table = self.rules.scoring.table();
                let mut scores = [Score::NEVER; MAX_SEATS];
                for (s, score) in scores.iter_mut().enumerate().take(n) {
                    *score = table.score(self.hands[s]);
                }
                let low = *scores.iter().min().expect("at least two seats");
                for (s, l) in lost.iter_mut().enumerate().take(n) {
                    if scores[s] == low {
                        *l = if s == caller as usize { 2 } else { 1 };
                    }
                }
            }
            End::Showdown | End::StockOut { .. } => {
                let table = self.rules.scoring.table();
                let mut scores = [Score::NEVER; MAX_SEATS];
                for (s, score) in scores.iter_mut().enumerate().take(n) {
                    *score = if self.hid_31[s] {
                        Score::from_points(30)
                    } else {
                        table.score(self.hands[s])
                    };
                }
                match (self.knocker, self.rules.lives_mode) {
                    (Some(k), LivesMode::Gin) => {
                        // The knock claims the highest hand: only strictly higher than every
                        // other hand makes it so.
                        let k = k as usize;
                        let claim = (0..n).all(|s| s == k || scores[s] < scores[k]);
                        for (s, l) in lost.iter_mut().enumerate().take(n) {
                            if claim && s != k {
                                *l = 1;
                            } else if !claim && s == k {
                                *l = self.rules.knock_penalty;
                            }
                        }
                    }
                    (knocker, _) => self.lowest_pay(&scores, knocker, &mut lost),
                }
            }
        }
        for (l, extra) in lost.iter_mut().zip(self.shown_losses) {
            *l += extra;
        }
        lost
    }

    /// The showdown in lives: the lowest hand loses one, every hand tied for lowest one; a
    /// knocker among the lowest pays the knock penalty, a tie settled by `knocker_tie`.
    fn lowest_pay(&self, scores: &[Score; MAX_SEATS], knocker: Option<u8>, lost: &mut [u8]) {
        let n = self.seats as usize;
        let low = *scores.iter().min().expect("at least two seats");
        let lowest = |s: usize| scores[s] == low;
        let tied = scores.iter().filter(|&&x| x == low).count();
        match knocker {
            Some(k) if lowest(k as usize) => {
                let k = k as usize;
                let penalty = self.rules.knock_penalty;
                if tied == 1 {
                    lost[k] = penalty;
                } else {
                    let (knocker_pays, others_pay) = match self.rules.knocker_tie {
                        KnockerTie::KnockerPays => (penalty, 1),
                        KnockerTie::OthersPay => (0, 1),
                        KnockerTie::OnlyKnocker => (penalty, 0),
                        KnockerTie::Cadillac => (2, 0),
                    };
                    for (s, l) in lost.iter_mut().enumerate().take(n) {
                        if lowest(s) {
                            *l = if s == k { knocker_pays } else { others_pay };
                        }
                    }
                }
            }
            _ => {
                for (s, l) in lost.iter_mut().enumerate().take(n) {
                    if lowest(s) {
                        *l = 1;
                    }
                }
            }
        }
    }
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
