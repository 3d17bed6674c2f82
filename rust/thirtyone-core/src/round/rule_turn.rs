//! A turn played by the table's decision rule: the computer players' turns, and the Oracle's
//! playouts' turns at tables with scoring options (under standard scoring the playouts read the
//! same rule from the hands' profiles: `profiled`, checked against this turn). It applies the
//! same transitions as a player's own actions.

use super::draws::Draws;

#[cfg(feature = "count-turns")]
use super::turn_count;
use super::{Action, Round, Source};
use super::{Move, Stage};
use crate::hand::decision::{self, Start};
use crate::hand::{Card, Score, ScoreTable};

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

impl Round {
    /// Play the whole turn of the player to move by the table's decision rule, knocking at
    /// `knock_at` or more. Returns what was done.
    #[inline]
    pub fn play_rule_turn(&mut self, knock_at: Score) -> TurnRecord {
        self.rule_turn(knock_at, None)
    }

    /// How a loop of this round's rule turns applies the rule (see [`TurnRule`]).
    pub(crate) fn turn_rule(&self) -> TurnRule {
        TurnRule::of(self.score_table)
    }

    /// [`Round::play_rule_turn`]; a stock draw is the playout's next when `shuffle` is given (see
    /// [`Round::pop_stock`]).
    #[inline(always)]
    pub(crate) fn rule_turn(&mut self, knock_at: Score, shuffle: Option<&mut Draws>) -> TurnRecord {
        self.rule_turn_by(knock_at, shuffle, self.turn_rule())
    }

    /// [`Round::rule_turn`], inlined into the playouts' loops, by `rule` (this round's
    /// [`Round::turn_rule`]; a loop matches on it once, so that each copy of the loop is
    /// compiled for one kind and tests no option).
    #[inline(always)]
    pub(crate) fn rule_turn_by(
        &mut self,
        knock_at: Score,
        shuffle: Option<&mut Draws>,
        rule: TurnRule,
    ) -> TurnRecord {
        debug_assert_eq!(
            matches!(rule, TurnRule::Standard),
            self.score_table.is_standard()
        );
        let table = rule.table();
        let seat = self.public.to_move;
        let mut rec = TurnRecord {
            seat,
            draw: None,
            put_down: None,
            knock: false,
            declined: false,
            showed_31: false,
        };
        if !matches!(self.public.stage, Stage::Start) {
            if !matches!(self.public.stage, Stage::Blind) {
                return rec;
            }
            // The table's rule never calls a blind showdown: it looks, and plays on.
            self.look();
            if !matches!(self.public.stage, Stage::Start) {
                return rec;
            }
        }
        #[cfg(feature = "count-turns")]
        turn_count::add();
        let hand = self.hand(seat);
        let now = self.score(seat);
        let top = self.public.top;
        let may_take = self.public.may_take().then_some(top);
        // Only asked when the score would knock.
        let may_knock = now >= knock_at && self.may_knock_with(now);
        let stock_empty = self.public.stock_len == 0;
        let (start, take) =
            decision::start_with(table, hand, now, may_take, may_knock, stock_empty, knock_at);
        let (source, new, choice) = match (start, take) {
            (Start::Knock, _) => {
                self.public.knock();
                rec.knock = true;
                return rec;
            }
            (Start::Decline, _) => {
                self.public.apply(Move::Decline);
                rec.declined = true;
                return rec;
            }
            (Start::Take, Some(p)) => {
                self.public.draw(Source::Pile);
                self.finish_put_down(p.card, p.kept, p.score, false);
                (Source::Pile, top, p)
            }
            _ => {
                let (new, p) = self.draw_by(shuffle, rule);
                (Source::Stock, new, p)
            }
        };
        rec.draw = Some((source, new));
        rec.put_down = Some(choice.card);
        rec.showed_31 = self.public.showed_31[seat as usize];
        rec
    }

    /// The player to move draws from the stock and puts a card down by the table's rule (the
    /// Oracle's `draw` option, and the rule's turn when it neither knocks nor takes). Returns the
    /// card drawn and the put-down.
    #[inline(always)]
    pub(crate) fn draw_by_rule(
        &mut self,
        shuffle: Option<&mut Draws>,
    ) -> (Card, decision::PutDown) {
        self.draw_by(shuffle, self.turn_rule())
    }

    /// [`Round::draw_by_rule`] by `rule`, as in [`Round::rule_turn_by`].
    #[inline(always)]
    fn draw_by(
        &mut self,
        shuffle: Option<&mut Draws>,
        rule: TurnRule,
    ) -> (Card, decision::PutDown) {
        debug_assert_eq!(self.refuse(Action::Draw(Source::Stock)), None);
        let seat = self.public.to_move;
        let new = self.pop_stock(shuffle);
        let hand = self.hand(seat);
        let p = decision::put_down_with(rule.table(), hand, self.score(seat), new, false);
        self.public.draw(Source::Stock);
        self.finish_put_down(p.card, p.kept, p.score, false);
        (new, p)
    }
}

/// How a turn by the table's rule scores: standard scoring (the suit lanes, worked out in a few
/// instructions from tables of a few kilobytes: nothing a small cache misses), or the scoring
/// options' table. A loop matches on it once, so that each copy is compiled for one kind and
/// the standard one tests no option.
#[derive(Clone, Copy)]
pub(crate) enum TurnRule {
    Standard,
    Scored(ScoreTable),
}

impl TurnRule {
    /// The rule of a table that scores hands by `table`.
    #[inline]
    pub(crate) fn of(table: ScoreTable) -> TurnRule {
        if table.is_standard() {
            TurnRule::Standard
        } else {
            TurnRule::Scored(table)
        }
    }

    /// Whether hands score the standard way.
    #[inline(always)]
    pub(crate) fn is_standard(self) -> bool {
        matches!(self, TurnRule::Standard)
    }

    /// The score table (a constant in the standard copy of a loop).
    #[inline(always)]
    pub(crate) fn table(self) -> ScoreTable {
        match self {
            TurnRule::Standard => ScoreTable::STANDARD,
            TurnRule::Scored(table) => table,
        }
    }
}
