//! The playouts' turns by the table's rule. Under standard scoring the rule is read from each
//! hand's profile ([`crate::hand::profile`]) instead of scoring the candidates: the round's public
//! state goes through its one transition function as in [`Round::play_rule_turn`]; only the hands
//! are held here, sorted, with their profiles, and written back to the round by
//! [`Profiled::settle`]. A test plays rounds both ways and compares them after every turn. Under
//! scoring options the round's own rule turn is played. A modelled expert at four seats or more
//! plays the same turn with a least score for its takes before a knock
//! ([`Profiled::turn_taking_from`]; `crate::model::Params::take_from`).

use super::dealt::word;
use super::draws::Draws;
use super::hands::Hands;
use super::public::{knock_limits_allow_with, Move, Source, Stage, NEXT_SEATS};
use super::{Round, TurnRule};
use crate::hand::decision::takes_leaving;
use crate::hand::profile::{self, ForCard, Profile, Profiles};
use crate::hand::{Card, CardSet, Score};
use crate::rules::MAX_SEATS;

/// A round played on by the table's rule in a playout, reading the hands' profiles when
/// `PROFILES` (standard scoring), by the round's own turns otherwise. With profiles the round's
/// own hands and scores are left as they were until [`Profiled::settle`]. A hidden 31 can only
/// be yours (nobody sees another's), and your option, the playout's first move, shows or keeps
/// no hidden 31 once you put a card down ([`Profiled::draw_by_rule`] and
/// [`Profiled::take_putting_down`] clear it; a put-down on the round itself, its own rule): the
/// turns after it, which hide none, leave `hid_31` alone (a debug build checks).
pub(crate) struct Profiled<'r, const PROFILES: bool> {
    pub(super) round: &'r mut Round,
    pub(super) hands: Hands,
    /// Every hand's profile, by index.
    pub(super) all: &'static Profiles,
}

impl<'r, const PROFILES: bool> Profiled<'r, PROFILES> {
    /// Play on from `round`, whose hands are `hands` but for `changed`'s (read again here).
    /// Without profiles, `hands` is not read.
    #[cfg(test)]
    pub(crate) fn resume(
        round: &'r mut Round,
        hands: &Hands,
        changed: u8,
        all: &'static Profiles,
    ) -> Profiled<'r, PROFILES> {
        let mut turns = Profiled::new(round, hands, all);
        turns.read_again(changed);
        turns
    }

    /// Play on from `round`, whose hands are `hands` (not read without profiles).
    #[inline(always)]
    pub(crate) fn new(
        round: &'r mut Round,
        hands: &Hands,
        all: &'static Profiles,
    ) -> Profiled<'r, PROFILES> {
        debug_assert_eq!(PROFILES, round.score_table.is_standard());
        debug_assert!(!PROFILES || hands.next == NEXT_SEATS[usize::from(round.public.seats) & 15]);
        Profiled {
            round,
            hands: *hands,
            all,
        }
    }

    /// `seat`'s hand read again from the round, after an action on the round itself changed it
    /// (nothing to read without profiles).
    #[inline(always)]
    pub(crate) fn read_again(&mut self, seat: u8) {
        if PROFILES {
            self.hands.read(self.round, seat, self.all);
        }
    }

    /// This round played on apart in `into`, a copy of it ([`Profiled::round`]'s clone), with
    /// the hands held here: the copy's own are current after its [`Profiled::settle`].
    #[inline]
    pub(crate) fn branch<'b>(&self, into: &'b mut Round) -> Profiled<'b, PROFILES> {
        Profiled {
            round: into,
            hands: self.hands,
            all: self.all,
        }
    }

    /// The round: its public state; its hands and scores are current after
    /// [`Profiled::settle`].
    #[inline(always)]
    pub(crate) fn round(&self) -> &Round {
        self.round
    }

    /// The round, to apply an action of the player to move that changes no hand (a knock), or
    /// one whose hand is then read again ([`Profiled::read_again`]).
    #[inline(always)]
    pub(crate) fn round_mut(&mut self) -> &mut Round {
        self.round
    }

    /// The seat after `seat` ([`super::public::PublicRound::next_seat`]), from the table held.
    #[inline(always)]
    pub(super) fn next_seat(&self, seat: u8) -> u8 {
        self.hands.next[usize::from(seat) & 15]
    }

    /// The score of `seat`'s hand now.
    #[inline(always)]
    pub(crate) fn score(&self, seat: u8) -> Score {
        if PROFILES {
            self.hands.profiles[usize::from(seat)].score()
        } else {
            self.round.score(seat)
        }
    }

    /// May the player to move knock now ([`Round::may_knock`])?
    #[inline]
    pub(crate) fn may_knock(&self) -> bool {
        let seat = self.round.public.to_move;
        self.may_knock_with(seat, self.score(seat))
    }

    #[inline]
    pub(super) fn may_knock_with(&self, seat: u8, now: Score) -> bool {
        if !PROFILES {
            return self.round.may_knock();
        }
        let [a, b, c, _] = self.hands.words[usize::from(seat)].to_le_bytes();
        let hand = [a, b, c].map(Card::from_index);
        self.round.public.knock_closed().is_none()
            && knock_limits_allow_with(&self.round.public.rules, hand, now)
    }

    /// The hands and scores written back to the round, which is then as the table's rule would
    /// have left it (each hand's cards in the order of their indices).
    #[inline]
    pub(crate) fn settle(&mut self) {
        if PROFILES {
            // Every slot, in a loop of fixed length (the slots past the table's seats are never
            // read).
            self.round.hands = self.hands.words;
            for (score, profile) in self.round.scores.iter_mut().zip(&self.hands.profiles) {
                *score = profile.score();
            }
        }
    }

    /// [`Round::play_rule_turn`]: the whole turn of the player to move, knocking at `knock_at`
    /// or more; a stock draw is the playout's next of `draws`.
    #[inline(always)]
    pub(crate) fn turn(&mut self, knock_at: Score, draws: &mut Draws) {
        self.turn_taking_from(knock_at, None, draws);
    }

    /// [`Profiled::turn`], but where `take_from` is given, a take of the top discard before
    /// anybody knocks is made only where the hand it leaves scores that or more, or where the
    /// stock is empty (else a draw): the modelled expert's at four seats or more
    /// (`crate::model::Params::take_from`). Without profiles, the round's own turn.
    #[inline(always)]
    pub(crate) fn turn_taking_from(
        &mut self,
        knock_at: Score,
        take_from: Option<Score>,
        draws: &mut Draws,
    ) {
        if !PROFILES {
            let rule = TurnRule::Scored(self.round.score_table);
            self.round.rule_turn_by(knock_at, Some(draws), rule);
            return;
        }
        if !matches!(self.round.public.stage, Stage::Start) {
            return self.turn_elsewhere(knock_at, draws);
        }
        let Some((s, profile, now)) = self.knocks_or_plays(knock_at) else {
            return;
        };
        if self.takes_or_declines(s, profile, now, take_from) {
            return;
        }
        self.draw_with(s, profile, draws, false);
    }

    /// [`Profiled::turn_taking_from`] for a modelled opponent, its stock draw made without a branch
    /// on the card ([`Profiled::draw_smoothly`]).
    #[inline(always)]
    pub(crate) fn modelled_turn(
        &mut self,
        knock_at: Score,
        take_from: Option<Score>,
        draws: &mut Draws,
    ) {
        if !PROFILES || !matches!(self.round.public.stage, Stage::Start) {
            return self.turn_taking_from(knock_at, take_from, draws);
        }
        let Some((s, profile, now)) = self.knocks_or_plays(knock_at) else {
            return;
        };
        if self.takes_or_declines(s, profile, now, take_from) {
            return;
        }
        self.draw_smoothly(s, profile, draws);
    }

    /// The turn of the player at `s` (to move, holding `profile` of score `now`) after they did
    /// not knock: the top discard taken where the rule takes it ([`Profiled::takes`]), or the
    /// turn declined with the stock empty (true: the turn is over), else false (a stock draw
    /// follows).
    #[inline(always)]
    fn takes_or_declines(
        &mut self,
        s: usize,
        profile: Profile,
        now: Score,
        take_from: Option<Score>,
    ) -> bool {
        // Whether the top discard is worth taking is asked first: most often it is not, and
        // whether it may be taken is then not asked.
        let top = self.round.public.top;
        let f = profile.for_card(top);
        if f.worth_taking() && self.round.public.may_take_at_start() {
            let place = profile.goes(f);
            if self.takes(f, now, take_from) {
                self.round.public.draw_to_put_down(Source::Pile);
                self.keep(s, place, top);
                return true;
            }
        }
        if self.round.public.stock_len == 0 {
            self.round.public.apply(Move::Decline);
            return true;
        }
        false
    }

    /// The start of a turn: the player to move knocks at `knock_at` or more where they may (None:
    /// the turn is over), or plays on: their seat, their hand's profile and its score.
    #[inline(always)]
    fn knocks_or_plays(&mut self, knock_at: Score) -> Option<(usize, Profile, Score)> {
        let (seat, profile) = self.starting();
        let now = profile.score();
        if now >= knock_at && self.may_knock_with(seat, now) {
            let next = self.next_seat(seat);
            self.round.public.knock_passing_to(next);
            return None;
        }
        Some((usize::from(seat), profile, now))
    }

    /// Whether the player to move, holding a hand of score `now`, takes the top discard `f` says
    /// the rule takes: always without `take_from`; with it, after a knock, with the stock empty,
    /// or where the hand the take leaves ([`ForCard::taken_score`]) scores `take_from` or more.
    #[inline(always)]
    fn takes(&self, f: ForCard, now: Score, take_from: Option<Score>) -> bool {
        let public = &self.round.public;
        takes_leaving(
            take_from,
            public.knocker.is_some(),
            public.stock_len == 0,
            || f.taken_score(now),
        )
    }

    /// [`Round::draw_by_rule`]: the player to move draws from the stock and puts a card down by
    /// the table's rule (with profiles: [`Profiled::draw_with`]).
    #[inline(always)]
    pub(crate) fn draw_by_rule(&mut self, draws: &mut Draws) {
        if !PROFILES {
            self.round.draw_by_rule(Some(draws));
            return;
        }
        let seat = usize::from(self.round.public.to_move);
        self.round.hid_31[seat] = false;
        self.draw_with(seat, self.hands.profiles[seat], draws, true);
    }

    /// The player at `seat` (to move), whose hand's profile is `profile`, draws from the stock
    /// and puts a card down by the table's rule. `hidden`: the hand may be a 31 you hid (your
    /// option, a playout's first move); at any later turn's start no hand is a 31 (one made is
    /// shown, a dealt one ends the round at the look), so a card sent back shows none.
    #[inline(always)]
    fn draw_with(&mut self, s: usize, profile: Profile, draws: &mut Draws, hidden: bool) {
        let new = self.round.pop_stock(Some(draws));
        self.round.public.draw_to_put_down(Source::Stock);
        let f = profile.for_card(new);
        if f.goes_back() {
            debug_assert!(!self.round.hid_31[s]);
            debug_assert!(hidden || !profile.is_31());
            let next = self.next_seat(s as u8);
            self.round
                .public
                .put_down_passing_to(s, new, hidden && profile.is_31(), next);
        } else {
            self.keep(s, profile.goes(f), new);
        }
    }

    /// [`Profiled::draw_with`] at a turn after your option's (no hidden 31), the card kept or sent
    /// back chosen without a branch: a card sent back is put down as a kept one is, the hand left
    /// as it was. Which a drawn card does is as good as random, and a mispredicted branch costs
    /// more than the instructions this adds. The modelled opponents' turns, which draw more often
    /// than the table's, play it; the table query's turns keep the branch (fewer instructions: the
    /// benchmark's figure). A take's check without a branch too, the stock's next card drawn
    /// beside it, took more time (docs/evidence/expert-takes.md).
    #[inline(always)]
    fn draw_smoothly(&mut self, s: usize, profile: Profile, draws: &mut Draws) {
        debug_assert!(!self.round.hid_31[s] && !profile.is_31());
        let new = self.round.pop_stock(Some(draws));
        self.round.public.draw_to_put_down(Source::Stock);
        let f = profile.for_card(new);
        let (left, gone) = profile::kept_or_sent_back(self.hands.words[s], profile, f, new);
        self.put_down(s, left, gone);
    }

    /// [`Round::take_putting_down`]: the player to move takes the top discard and puts `card`
    /// down (a card of their hand: legal, which a debug build checks). Inlined into the
    /// playouts (a call of its own cost about half an instruction per table-rule turn more).
    #[inline(always)]
    pub(crate) fn take_putting_down(&mut self, card: Card) {
        if !PROFILES {
            self.round.take_putting_down(card);
            return;
        }
        let s = usize::from(self.round.public.to_move);
        self.round.hid_31[s] = false;
        let top = self.round.public.top;
        self.round.drawn = top;
        self.round.public.draw_to_put_down(Source::Pile);
        let word = self.hands.words[s];
        let place = (0..2)
            .find(|&p| (word >> (8 * p)) & 0xFF == u32::from(card.index()))
            .unwrap_or(2);
        debug_assert_eq!((word >> (8 * place)) & 0xFF, u32::from(card.index()));
        self.keep(s, place, top);
    }

    /// The player to move at the start of their turn (a turn counted, with `count-turns`):
    /// their seat and their hand's profile.
    #[inline(always)]
    pub(super) fn starting(&self) -> (u8, Profile) {
        #[cfg(feature = "count-turns")]
        super::turn_count::add();
        let seat = self.round.public.to_move;
        (seat, self.hands.profiles[usize::from(seat)])
    }

    /// A turn that does not start at the start of a turn (a blind table, before anybody looked):
    /// the round's own.
    #[cold]
    #[inline(never)]
    fn turn_elsewhere(&mut self, knock_at: Score, draws: &mut Draws) {
        self.settle();
        self.round.rule_turn(knock_at, Some(draws));
        self.hands = Hands::of(self.round, self.all);
    }

    /// The player at `seat` keeps `new`, putting down the card at `place` of their sorted hand.
    #[inline(always)]
    fn keep(&mut self, seat: usize, place: u32, new: Card) {
        let (left, gone) = profile::replaced(self.hands.words[seat], place, new);
        self.put_down(seat, left, gone);
    }

    /// The player at `seat` puts `gone` down, keeping the sorted hand `left`.
    #[inline(always)]
    pub(super) fn put_down(&mut self, seat: usize, left: u32, gone: Card) {
        let p = self.all[profile::index(left)];
        self.hands.words[seat] = left;
        self.hands.profiles[seat] = p;
        debug_assert!(!self.round.hid_31[seat]);
        let next = self.next_seat(seat as u8);
        self.round
            .public
            .put_down_passing_to(seat, gone, p.is_31(), next);
    }
}

/// A deal's hands set out for the profiled turns: read into `hands` (every hand but `keep`'s),
/// and the stock they leave of `unseen` returned, for the playout's draws to set out
/// (`Draws::begin_with`); the round's own hands and scores of those seats are left for
/// [`Profiled::settle`] to write, its stock's slots as they were. Each hand's
/// cards are in the order of their indices (the order `hands` holds them in); the round scores
/// hands the standard way.
#[inline]
pub(crate) fn set_sorted_hands(
    round: &mut Round,
    hands: &mut Hands,
    (sorted, keep): (&[[Card; 3]; MAX_SEATS], u8),
    unseen: CardSet,
    all: &'static Profiles,
) -> CardSet {
    debug_assert!(round.score_table.is_standard());
    round.set_hands_by::<false>(sorted, keep, unseen, |seat, hand| {
        let w = word(hand);
        debug_assert_eq!(w, profile::sorted(hand));
        let p = all[profile::index(w)];
        hands.words[seat] = w;
        hands.profiles[seat] = p;
        p.score()
    })
}

/// The hands of a round that scores them the standard way, for [`Profiled`]; nothing to read
/// otherwise (the round's own turns need no profiles).
#[cfg(test)]
pub(crate) fn hands_of(round: &Round, all: &'static Profiles) -> Hands {
    if round.score_table.is_standard() {
        Hands::of(round, all)
    } else {
        Hands::EMPTY
    }
}

#[cfg(test)]
#[path = "profiled_tests.rs"]
pub(super) mod tests;
