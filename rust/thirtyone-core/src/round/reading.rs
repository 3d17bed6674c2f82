//! A playout's turn for a player who reads the table: how the `expert` model plays on at a table
//! of two (`crate::model::Model::reads`; `docs/models.md`). The expert, being the Oracle, plays
//! far better than the table's rule, and most of its edge comes from what it reads of the other
//! hands: when to knock, which card not to hand to the next player, which discard is not worth
//! taking, and, on its final turn, what it needs to beat. In a playout the other hands are known,
//! and the model reads them exactly. Under standard scoring, at the start of a turn:
//!
//! - it knocks with [`TABLE_KNOCK_AT`] or more, or from [`READ_KNOCK_FROM`] with more than every
//!   other hand holds;
//! - before anybody knocks it takes a discard that the rule would take only if the hand left
//!   scores [`TAKE_FROM`] or more (else it draws), and puts down the card that leaves the most
//!   of its own score less what that card would add to the next player's hand if they took it
//!   (the rule takes a card exactly when it adds something; ties: the rule's card);
//! - on its final turn, holding the lowest hand, it takes a discard only if that lifts it above
//!   the lowest of the others (else it draws, for a chance of more); otherwise, and for the
//!   put-down, it plays the rule.
//!
//! With the stock empty it takes what the rule takes. Without profiles (other scorings), and at
//! a blind table's look, its turn is the rule's at its knock score ([`Profiled::turn`]).

use super::draws::Draws;
use super::profiled::Profiled;
use super::public::{Move, Source, Stage};
use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::profile::{self, Profile};
use crate::hand::{Card, Score};

/// The lowest score the reading player knocks with when it holds more than every other hand.
pub(crate) const READ_KNOCK_FROM: Score = Score::from_points(20);
/// The least score after a take, before anybody knocks, for the reading player to take.
pub(crate) const TAKE_FROM: Score = Score::from_points(18);

/// A put-down weighed by the reading player: what it is worth (its own score kept less the
/// next player's gain, in half points), the sorted hand left, and the card that goes (`left`
/// unchanged and `back`: the card drawn goes straight back).
#[derive(Clone, Copy)]
struct Weighed {
    worth: i32,
    left: u32,
    gone: Card,
    back: bool,
}

impl<const PROFILES: bool> Profiled<'_, PROFILES> {
    /// The turn of the player to move, reading the other hands (see the module's documentation);
    /// `knock_at`: their knock score where they play the rule.
    #[inline(never)]
    pub(crate) fn reading_turn(&mut self, knock_at: Score, draws: &mut Draws) {
        if !PROFILES || !matches!(self.round.public.stage, Stage::Start) {
            return self.turn(knock_at, draws);
        }
        let (seat, profile) = self.starting();
        let (s, now) = (usize::from(seat), profile.score());
        let (highest, lowest) = self.others(seat);
        let ahead = now >= READ_KNOCK_FROM && now > highest;
        if (now >= TABLE_KNOCK_AT || ahead) && self.may_knock_with(seat, now) {
            let next = self.next_seat(seat);
            self.round.public.knock_passing_to(next);
            return;
        }
        let knocked = self.round.public.knocker.is_some();
        let stock_empty = self.round.public.stock_len == 0;
        if self.round.public.may_take_at_start() {
            let top = self.round.public.top;
            let f = profile.for_card(top);
            if f.worth_taking() {
                let after = f.taken_score(now);
                let takes = if knocked {
                    now > lowest || after > lowest
                } else {
                    after >= TAKE_FROM
                };
                if takes || stock_empty {
                    self.round.public.draw_to_put_down(Source::Pile);
                    self.read_put_down(s, top, true);
                    return;
                }
            }
        }
        if stock_empty {
            self.round.public.apply(Move::Decline);
            return;
        }
        let new = self.round.pop_stock(Some(draws));
        self.round.public.draw_to_put_down(Source::Stock);
        self.read_put_down(s, new, false);
    }

    /// The highest and the lowest score of the hands other than `seat`'s.
    #[inline(always)]
    fn others(&self, seat: u8) -> (Score, Score) {
        let (mut highest, mut lowest) = (Score::from_points(0), Score::from_points(31));
        for o in (0..self.round.public.seats).filter(|&o| o != seat) {
            let score = self.hands.profiles[usize::from(o)].score();
            highest = highest.max(score);
            lowest = lowest.min(score);
        }
        (highest, lowest)
    }

    /// The put-down of the player at `seat` holding `new` besides their hand (taken from the
    /// pile: `from_pile`, and then not put straight back).
    #[inline(always)]
    fn read_put_down(&mut self, seat: usize, new: Card, from_pile: bool) {
        let profile = self.hands.profiles[seat];
        let f = profile.for_card(new);
        let hand = self.hands.words[seat];
        let back = Weighed {
            worth: i32::from(profile.score().halves()),
            left: hand,
            gone: new,
            back: true,
        };
        let place = |p: u32| {
            let (left, gone, kept) = self.replaced(hand, p, new);
            Weighed {
                worth: i32::from(kept.halves()),
                left,
                gone,
                back: false,
            }
        };
        let rule_place = profile.goes(f);
        let rule = if !from_pile && f.goes_back() {
            back
        } else {
            place(rule_place)
        };
        let chosen = if self.round.public.knocker.is_some() {
            rule
        } else {
            let next = usize::from(self.next_seat(seat as u8));
            let weigh = |w: Weighed| Weighed {
                worth: w.worth - self.gain_of(next, w.gone),
                ..w
            };
            let mut best = weigh(rule);
            // The other places; the rule's own too when the rule sends `new` back.
            let others = [(rule_place + 1) % 3, (rule_place + 2) % 3, rule_place];
            for p in others.into_iter().take(if rule.back { 3 } else { 2 }) {
                best = better(best, weigh(place(p)));
            }
            if !from_pile && !rule.back {
                best = better(best, weigh(back));
            }
            best
        };
        if chosen.back {
            debug_assert!(!self.round.hid_31[seat]);
            let next = self.next_seat(seat as u8);
            self.round
                .public
                .put_down_passing_to(seat, new, profile.is_31(), next);
        } else {
            self.put_down(seat, chosen.left, chosen.gone);
        }
    }

    /// The sorted hand `word` with the card at `place` replaced by `card`: the hand left, the
    /// card that went, and the hand's score.
    #[inline(always)]
    fn replaced(&self, word: u32, place: u32, card: Card) -> (u32, Card, Score) {
        let (left, gone) = profile::replaced(word, place, card);
        (left, gone, self.all[profile::index(left)].score())
    }

    /// What `card` would add to the hand at `seat`, in half points, if they took it (the rule
    /// takes a card exactly when it adds something).
    #[inline(always)]
    fn gain_of(&self, seat: usize, card: Card) -> i32 {
        let theirs: Profile = self.hands.profiles[seat];
        let f = theirs.for_card(card);
        if !f.worth_taking() {
            return 0;
        }
        let after = f.taken_score(theirs.score());
        i32::from(after.halves()) - i32::from(theirs.score().halves())
    }
}

/// The better of two put-downs: `b` only if it is worth more (a tie keeps `a`).
#[inline(always)]
fn better(a: Weighed, b: Weighed) -> Weighed {
    if b.worth > a.worth {
        b
    } else {
        a
    }
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
