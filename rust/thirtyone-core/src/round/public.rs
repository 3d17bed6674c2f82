//! The public part of a round — what every player at the table sees — and its one transition
//! function. A dealt [`crate::round::Round`] is this state plus the hands and the stock's order; a
//! player's [`crate::view::View`] is this state plus what that player knows; checking a state
//! replays its turns through these same transitions, and a playout continues from them.

use crate::hand::{Card, CardSet, Score};
use crate::rules::{FirstTurnKnock, RoundRules, ThirtyOneAfterKnock, MAX_SEATS};

/// Where a draw comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Source {
    Stock,
    Pile,
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

/// Where the turn of the player to move stands, as the table sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// `first_turn_knock = blind`: dealt, nobody has looked; the first player calls the blind
    /// showdown or looks.
    Blind,
    /// The player to move knocks, draws, takes, or (stock empty) declines.
    Start,
    /// The player to move drew (from the pile: `from_pile`) and must put a card down.
    PutDown {
        from_pile: bool,
    },
    Over(End),
}

/// A move as the table sees it (a stock draw's card and a hidden 31 are not seen).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Move {
    Knock,
    Draw(Source),
    /// `shows_31`: the hand left is a 31 that is shown (not hidden).
    PutDown {
        card: Card,
        shows_31: bool,
    },
    Decline,
    CallBlind,
    /// Everybody looks at their cards; `dealt_31`: somebody was dealt 31.
    Look {
        dealt_31: bool,
    },
}

/// The public state of a round. Seats are numbered 0..seats in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicRound {
    pub rules: RoundRules,
    pub seats: u8,
    pub first: u8,
    pub to_move: u8,
    pub stage: Stage,
    /// The top discard, and who put it down ([`PublicRound::top_by`]: a seat, or
    /// [`UPCARD`] for the upcard; one byte, so that a put-down writes it at once).
    pub top: Card,
    pub(crate) top_by: u8,
    pub stock_len: u8,
    /// Turns played this round (a knock is a turn; looking at a blind table is not).
    pub turns_played: u16,
    pub knocker: Option<u8>,
    /// Final turns still to be played after the knock.
    pub finals_left: u8,
    /// Lives already lost this round to 31s shown during the final turns (seed 001's rule).
    pub shown_losses: [u8; MAX_SEATS],
    pub showed_31: [bool; MAX_SEATS],
    /// The cards each seat has put down this round (nobody takes one of their own back).
    pub put_downs: [CardSet; MAX_SEATS],
}

/// [`PublicRound`]'s `top_by` while the top discard is the upcard.
pub(crate) const UPCARD: u8 = u8::MAX;

impl PublicRound {
    /// Who put the top discard down (None: it is the upcard).
    pub fn top_by(&self) -> Option<u8> {
        (self.top_by != UPCARD).then_some(self.top_by)
    }

    /// The table right after the deal (`upcard` turned up), before anybody looks.
    pub fn dealt(rules: RoundRules, seats: u8, first: u8, upcard: Card) -> PublicRound {
        PublicRound {
            rules,
            seats,
            first,
            to_move: first,
            stage: Stage::Blind,
            top: upcard,
            top_by: UPCARD,
            stock_len: 52 - 3 * seats - 1,
            turns_played: 0,
            knocker: None,
            finals_left: 0,
            shown_losses: [0; MAX_SEATS],
            showed_31: [false; MAX_SEATS],
            put_downs: [CardSet::EMPTY; MAX_SEATS],
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self.stage, Stage::Over(_))
    }

    /// Why the table does not allow the player to move a knock now, whatever they hold (None: it
    /// does; the hand's own limits are [`knock_limits`]).
    pub fn knock_closed(&self) -> Option<&'static str> {
        match self.stage {
            Stage::Over(_) => Some("the round is over"),
            Stage::Blind => Some("nobody has looked at their cards yet"),
            Stage::PutDown { .. } => Some("you have drawn already: put a card down"),
            Stage::Start if self.knocker.is_some() => {
                Some("somebody has already knocked this round")
            }
            Stage::Start if self.stock_len == 0 => Some("nobody may knock once the stock is empty"),
            Stage::Start
                if self.turns_played == 0
                    && self.rules.first_turn_knock == FirstTurnKnock::Forbidden =>
            {
                Some("this table does not allow a knock on the round's first turn")
            }
            Stage::Start
                if self.turns_played == 0
                    && self.rules.first_turn_knock == FirstTurnKnock::Blind =>
            {
                Some(
                    "this table does not allow a knock on the round's first turn (only a blind \
                     showdown called before looking)",
                )
            }
            Stage::Start => None,
        }
    }

    /// Whether the player to move may take the top discard: nobody takes a card they put down
    /// themselves this round, except, under the two-player mercy rule, their own last put-down
    /// on the final turn after the opponent's knock.
    #[inline]
    pub fn may_take(&self) -> bool {
        matches!(self.stage, Stage::Start) && self.may_take_at_start()
    }

    /// [`PublicRound::may_take`] at the start of a turn (the caller read the stage).
    #[inline(always)]
    pub(crate) fn may_take_at_start(&self) -> bool {
        debug_assert!(matches!(self.stage, Stage::Start));
        let seat = self.to_move;
        !self.put_downs[seat as usize].contains(self.top)
            || (self.rules.two_player_mercy
                && self.seats == 2
                && self.knocker.is_some()
                && self.top_by == seat)
    }

    /// Why `m` is not a legal move of the player to move now (None: it is). Only what the table
    /// sees is checked: a knock's hand limits, the card put down and a 31 are the hand's.
    pub fn refuse(&self, m: Move) -> Option<String> {
        let top = self.top;
        let why = match (self.stage, m) {
            (Stage::Over(_), _) => "the round is over",
            (Stage::Blind, Move::CallBlind | Move::Look { .. }) => return None,
            (Stage::Blind, _) => {
                "nobody has looked at their cards yet: call the blind showdown or look first"
            }
            (_, Move::CallBlind) => {
                "a blind showdown is called only at a blind table, before anybody looks"
            }
            (_, Move::Look { .. }) => "the cards have been looked at already",
            (Stage::Start, Move::Knock) => return self.knock_closed().map(str::to_string),
            (Stage::Start, Move::Draw(Source::Stock)) if self.stock_len == 0 => {
                "the stock is empty"
            }
            (Stage::Start, Move::Draw(Source::Pile)) if !self.may_take() => {
                return Some(format!(
                    "you may not take {top}: you put it down yourself this round"
                ))
            }
            (Stage::Start, Move::Draw(_)) => return None,
            (Stage::Start, Move::Decline) if self.stock_len > 0 => {
                "you may only decline the discard when the stock is empty"
            }
            (Stage::Start, Move::Decline) => return None,
            (Stage::Start, Move::PutDown { .. }) => "draw or take a card before putting one down",
            (Stage::PutDown { from_pile }, Move::PutDown { card, .. }) => {
                if from_pile && card == top {
                    "a card taken from the pile may not be put straight back"
                } else {
                    return None;
                }
            }
            (Stage::PutDown { .. }, _) => "put a card down to finish your turn",
        };
        Some(why.to_string())
    }

    /// Apply a move of the player to move (legal: see [`PublicRound::refuse`]).
    #[inline]
    pub fn apply(&mut self, m: Move) {
        let seat = self.to_move;
        match m {
            Move::Look { dealt_31 } => {
                self.stage = if dealt_31 {
                    Stage::Over(End::Dealt31)
                } else {
                    Stage::Start
                }
            }
            Move::CallBlind => self.stage = Stage::Over(End::Blind { caller: seat }),
            Move::Decline => self.stage = Stage::Over(End::StockOut { seat }),
            Move::Knock => self.knock(),
            Move::Draw(source) => self.draw(source),
            Move::PutDown { card, shows_31 } => self.put_down(card, shows_31),
        }
    }

    /// The seat after `seat`.
    #[inline(always)]
    pub(crate) fn next_seat(&self, seat: u8) -> u8 {
        if seat + 1 == self.seats {
            0
        } else {
            seat + 1
        }
    }

    /// [`Move::Knock`] by the player to move.
    #[inline(always)]
    pub(crate) fn knock(&mut self) {
        self.knock_passing_to(self.next_seat(self.to_move));
    }

    /// [`PublicRound::knock`], `next` the seat after the knocker's ([`PublicRound::next_seat`],
    /// which the profiled turns hold in a table).
    #[inline(always)]
    pub(crate) fn knock_passing_to(&mut self, next: u8) {
        let seat = self.to_move;
        debug_assert_eq!(next, self.next_seat(seat));
        self.knocker = Some(seat);
        self.finals_left = self.seats - 1;
        self.turns_played += 1;
        self.to_move = next;
    }

    /// [`Move::Draw`] by the player to move.
    #[inline(always)]
    pub(crate) fn draw(&mut self, source: Source) {
        if source == Source::Stock {
            self.stock_len -= 1;
        }
        self.stage = Stage::PutDown {
            from_pile: source == Source::Pile,
        };
    }

    /// [`PublicRound::draw`] from `source` when the put-down that ends the turn follows at once
    /// (the profiled turns): the stage the draw passes through is not written, and the
    /// put-down ([`PublicRound::put_down_passing_to`]) writes only a stage that changes.
    #[inline(always)]
    pub(crate) fn draw_to_put_down(&mut self, source: Source) {
        if source == Source::Stock {
            self.stock_len -= 1;
        }
    }

    /// [`Move::PutDown`] by the player to move.
    #[inline(always)]
    pub(crate) fn put_down(&mut self, card: Card, shows_31: bool) {
        self.stage = Stage::Start;
        let seat = self.to_move;
        self.put_down_passing_to(usize::from(seat), card, shows_31, self.next_seat(seat));
    }

    /// [`PublicRound::put_down`] after [`PublicRound::draw_to_put_down`] (the profiled turns)
    /// by the player at `s`, the player to move (whose seat the caller holds: it is not read
    /// again): the stage is still the turn's start, and is not written again. `next`: the seat
    /// after `s` ([`PublicRound::next_seat`], which the profiled turns hold in a table: a load
    /// where working it out took four instructions).
    #[inline(always)]
    pub(crate) fn put_down_passing_to(&mut self, s: usize, card: Card, shows_31: bool, next: u8) {
        debug_assert!(matches!(self.stage, Stage::Start));
        debug_assert_eq!(next, self.next_seat(s as u8));
        debug_assert_eq!(s, usize::from(self.to_move));
        let seat = s as u8;
        self.top = card;
        self.top_by = seat;
        self.put_downs[s].insert(card);
        self.turns_played += 1;
        if shows_31 {
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
                self.stage = Stage::Over(End::ThirtyOne { seat });
                return;
            }
        }
        if self.knocker.is_some() {
            self.finals_left -= 1;
            if self.finals_left == 0 {
                self.stage = Stage::Over(End::Showdown);
                return;
            }
        }
        self.to_move = next;
    }
}

/// For each number of seats, the seat after each seat ([`PublicRound::next_seat`]), 16 slots a
/// row: the profiled turns hold their table's row.
pub(crate) const NEXT_SEATS: [[u8; 16]; 16] = {
    let mut t = [[0u8; 16]; 16];
    let mut seats = 1;
    while seats < 16 {
        let mut seat = 0;
        while seat < seats {
            t[seats][seat] = if seat + 1 == seats { 0 } else { seat as u8 + 1 };
            seat += 1;
        }
        seats += 1;
    }
    t
};

/// Whether the table's own limits allow a knock with this hand, whose score is `score`: the
/// minimum score and the one-suit rule.
#[inline]
pub fn knock_limits_allow_with(rules: &RoundRules, hand: [Card; 3], score: Score) -> bool {
    let one_suit = || hand[0].suit() == hand[1].suit() && hand[1].suit() == hand[2].suit();
    score >= rules.min_knock && (!rules.knock_needs_one_suit || one_suit())
}

/// [`knock_limits_allow_with`], scoring the hand.
#[inline]
pub fn knock_limits_allow(rules: &RoundRules, hand: [Card; 3]) -> bool {
    knock_limits_allow_with(rules, hand, rules.scoring.score(hand))
}

/// Why the table's own limits forbid a knock with this hand, or None.
pub fn knock_limits(rules: &RoundRules, hand: [Card; 3]) -> Option<String> {
    let score = rules.scoring.score(hand);
    if knock_limits_allow_with(rules, hand, score) {
        None
    } else if score < rules.min_knock {
        Some(format!(
            "this table allows a knock only from {} (the hand scores {score})",
            rules.min_knock
        ))
    } else {
        Some("this table allows a knock only with three cards of one suit".into())
    }
}
