//! The actions of the player to move: which are legal now, why one is not (the table's reason,
//! or the hand's), and what each does, through the public round's one transition function.

use super::draws::Draws;

use super::dealt::{word, STOCK_SLOTS};
use super::public::{Move, Source, Stage};
use super::Round;
use crate::error::{Error, Result};
use crate::hand::{Card, Score};

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

impl Round {
    /// The hand of the player to move and the fourth card, while they put one down.
    fn four(&self) -> Option<([Card; 3], Card, bool)> {
        match self.public.stage {
            Stage::PutDown { from_pile } => {
                Some((self.hand(self.public.to_move), self.drawn, from_pile))
            }
            _ => None,
        }
    }

    /// The actions the player to move may take now.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.public.stage {
            Stage::Over(_) => {}
            Stage::Blind => {
                out.push(Action::CallBlind);
                out.push(Action::Look);
            }
            Stage::Start => {
                if self.may_knock() {
                    out.push(Action::Knock);
                }
                if self.public.stock_len > 0 {
                    out.push(Action::Draw(Source::Stock));
                }
                if self.may_take() {
                    out.push(Action::Draw(Source::Pile));
                }
                if self.public.stock_len == 0 {
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
                if self.public.rules.may_hide_31 {
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
        self.public
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
        if let Some(why) = self.public.refuse(m) {
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
            if !self.public.rules.may_hide_31 {
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
                self.public.to_move
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
            Action::CallBlind => self.public.apply(Move::CallBlind),
            Action::Look => self.look(),
            Action::Knock => self.public.apply(Move::Knock),
            Action::Decline => self.public.apply(Move::Decline),
            Action::Draw(Source::Stock) => {
                self.drawn = self.pop_stock(None);
                self.public.apply(Move::Draw(Source::Stock));
            }
            Action::Draw(Source::Pile) => {
                self.drawn = self.public.top;
                self.public.apply(Move::Draw(Source::Pile));
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
        let top = self.public.top;
        self.drawn = top;
        self.public.draw(Source::Pile);
        debug_assert_eq!(self.refuse(Action::PutDown(card)), None);
        self.put_down_with_new(card, top, false);
    }

    /// The put-down of `card` by the player to move, who holds `new` as their fourth card.
    #[inline(always)]
    fn put_down_with_new(&mut self, card: Card, new: Card, hide: bool) {
        let kept = kept_after(self.hand(self.public.to_move), new, card);
        let score = self.score_table.score(kept);
        self.finish_put_down(card, kept, score, hide);
    }

    /// Take the top card of the stock. In a playout (`shuffle` given) the stock is in no
    /// particular order and the draw is the playout's next ([`Draws::next`]: a random card of
    /// the stock, made once for all the playout's trajectories); the round's own stock is then
    /// left as it was set out, the cards left being the draws'.
    #[inline(always)]
    pub(super) fn pop_stock(&mut self, shuffle: Option<&mut Draws>) -> Card {
        let len = self.public.stock_len;
        match shuffle {
            Some(draws) => draws.next(len),
            None => self.stock[(len as usize - 1).min(STOCK_SLOTS - 1)],
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
        hide: bool,
    ) {
        let seat = self.public.to_move as usize;
        self.hands[seat] = word(kept);
        self.scores[seat] = score;
        self.hid_31[seat] = hide;
        self.public.put_down(card, score.is_blitz() && !hide);
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
    use crate::rules::RoundRules;

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
