//! Your knock in a playout, its final turns played apart. A knock branches off the shared
//! trajectory at few of your turns (one knock threshold newly reached), and each branch is
//! the same few turns: everyone else's final turn by the table's rule, then the showdown. Played
//! on a copy of the round ([`Profiled::branch`]), a branch cost about two hundred instructions
//! besides its turns (the round's 256 bytes and the hands copied, the hands written back, the
//! loss worked out from the whole round). The final turns change little: the top discard, the
//! stock's size and each player's own hand, each once; whether a player may take the top
//! discard reads the cards they put down before, which their own final turn is the first to
//! change. [`Profiled::knock_loss`] plays them on those few values and works out your loss
//! from the hands' scores, with [`super::costs::showdown_pays`], the rule [`Round::loss_of`]
//! reads. A game-level query values the round from every seat's loss
//! ([`Profiled::knock_losses`], with [`super::costs::showdown_losses`], the rule
//! [`Round::losses`] reads; the round's end likewise, [`Profiled::settled_losses`]), told as one
//! seat's loss where one hand alone is lowest and no 31 was shown ([`super::costs::Losses`]).
//! Tests play every knock of random rounds both ways.

use super::costs::{lowest_alone, showdown_losses, showdown_pays, Losses};
use super::draws::Draws;
use super::profiled::Profiled;
use super::public::{End, Stage};
use super::Round;
use crate::hand::profile;
use crate::hand::{Card, Score};
use crate::rules::{LivesMode, RoundRules, ThirtyOneAfterKnock, MAX_SEATS};

/// Whether [`Profiled::knock_loss`] applies to playouts of `round`: standard scoring (the
/// profiles), a table in lives (not Gin lives), and no 31 hidden (the profiled turns hide none:
/// none is hidden later).
pub(crate) fn knock_loss_applies(round: &Round) -> bool {
    round.score_table.is_standard()
        && round.public.rules.lives_mode == LivesMode::Lives
        && round.hid_31 == [false; MAX_SEATS]
}

/// The two-player mercy: at a table of two the one final turn may take back its own last
/// put-down (the top discard's `top_by` is then the round's).
#[inline(always)]
fn mercy(public: &super::public::PublicRound) -> bool {
    public.rules.two_player_mercy && public.seats == 2
}

/// Every seat's losses at a showdown in lives (`scores`: the table's seats' counted hands) on
/// top of the lives lost to 31s shown after the knock (`shown`, by seat): one seat's where one
/// hand alone is lowest and no 31 was shown, the common case ([`lowest_alone`]); else every
/// seat's.
#[inline(always)]
fn showdown_with_shown(
    rules: &RoundRules,
    scores: &[Score],
    knocker: Option<u8>,
    shown: [u8; MAX_SEATS],
) -> Losses {
    if shown == [0; MAX_SEATS] {
        if let Some(one) = lowest_alone(rules, scores, knocker) {
            return one;
        }
    }
    let mut lost = [0; MAX_SEATS];
    showdown_losses(rules, scores, knocker, &mut lost);
    // Every slot, in a loop of fixed length (the slots past the table's seats are 0 in both).
    for (l, extra) in lost.iter_mut().zip(shown) {
        *l += extra;
    }
    Losses::All(lost)
}

impl<const PROFILES: bool> Profiled<'_, PROFILES> {
    /// Every seat's score now, read from the hands' profiles (the slots past the table's seats
    /// are never read).
    #[inline(always)]
    fn scores(&self) -> [Score; MAX_SEATS] {
        let mut scores = [Score(0); MAX_SEATS];
        for (score, p) in scores.iter_mut().zip(&self.hands.profiles) {
            *score = p.score();
        }
        scores
    }

    /// The lives the player to move loses by knocking now (they may: [`Profiled::may_knock`]),
    /// everyone else then playing their final turn by the table's rule with the playout's
    /// `draws`: what [`Round`]'s knock on a copy of the round, [`Profiled::turn`] until the
    /// round is over, [`Profiled::settle`] and [`Round::loss_of`] come to, the round itself left
    /// as it is. Only with profiles, where [`knock_loss_applies`] (a debug build checks).
    #[inline(always)]
    pub(crate) fn knock_loss<const SMOOTH: bool>(&self, draws: &mut Draws) -> u8 {
        debug_assert!(PROFILES && knock_loss_applies(self.round) && self.may_knock());
        let public = &self.round.public;
        let rules = &public.rules;
        let me = public.to_move;
        let mercy = mercy(public);
        let mut scores = self.scores();
        let (mut top, mut stock_len) = (public.top, public.stock_len);
        let mut shown = public.shown_losses[usize::from(me)];
        let mut seat = self.next_seat(me);
        while seat != me {
            let Some((after, gone)) =
                self.final_turn::<SMOOTH>(seat, top, &mut stock_len, (mercy, draws))
            else {
                break;
            };
            if after.is_blitz() {
                if rules.thirty_one_after_knock != ThirtyOneAfterKnock::Continues {
                    // Shown: everyone else loses a life (and what they lost before).
                    return 1 + shown;
                }
                shown += 1;
            }
            scores[usize::from(seat)] = after;
            top = gone;
            seat = self.next_seat(seat);
        }
        let seats = usize::from(public.seats);
        showdown_pays(rules, &scores[..seats], Some(me), usize::from(me)) + shown
    }

    /// Every seat's lives lost (by seat) if the player to move knocks now (they may), everyone
    /// else then playing their final turn by the table's rule with the playout's `draws`:
    /// [`Profiled::knock_loss`] for the whole table, what [`Round::losses`] comes to after the
    /// knock played on a copy of the round (the game's outcome is made from it), the round
    /// itself left as it is. Only with profiles, where [`knock_loss_applies`].
    #[inline(always)]
    pub(crate) fn knock_losses<const SMOOTH: bool>(&self, draws: &mut Draws) -> Losses {
        debug_assert!(PROFILES && knock_loss_applies(self.round) && self.may_knock());
        let public = &self.round.public;
        let rules = &public.rules;
        let (me, seats) = (public.to_move, usize::from(public.seats));
        let mercy = mercy(public);
        let mut scores = self.scores();
        let (mut top, mut stock_len) = (public.top, public.stock_len);
        let mut lost = public.shown_losses;
        let mut seat = self.next_seat(me);
        while seat != me {
            let Some((after, gone)) =
                self.final_turn::<SMOOTH>(seat, top, &mut stock_len, (mercy, draws))
            else {
                break;
            };
            if after.is_blitz() {
                // Everyone else loses a life: at once, or as the final turns go on.
                for (o, l) in lost.iter_mut().enumerate().take(seats) {
                    *l += u8::from(o != usize::from(seat));
                }
                if rules.thirty_one_after_knock != ThirtyOneAfterKnock::Continues {
                    return Losses::All(lost);
                }
            }
            scores[usize::from(seat)] = after;
            top = gone;
            seat = self.next_seat(seat);
        }
        showdown_with_shown(rules, &scores[..seats], Some(me), lost)
    }

    /// The final turn of `seat` after a knock by the table's rule (nobody knocks again), `top`
    /// the top discard and `stock_len` the stock's size (one less when it draws), `mercy` the
    /// table's [`mercy`]: the score of the hand it leaves and the card put down, read from the
    /// hand's profile alone (the profile of the hand left is never needed: the round ends). None:
    /// the top discard declined with the stock empty, which ends the round as at the showdown.
    /// `SMOOTH`: a drawn card kept or sent back chosen without a branch, as a modelled turn's.
    #[inline(always)]
    fn final_turn<const SMOOTH: bool>(
        &self,
        seat: u8,
        top: Card,
        stock_len: &mut u8,
        (mercy, draws): (bool, &mut Draws),
    ) -> Option<(Score, Card)> {
        #[cfg(feature = "count-turns")]
        super::turn_count::add();
        let public = &self.round.public;
        let s = usize::from(seat);
        let (word, now) = (self.hands.words[s], self.hands.profiles[s]);
        // The take: as `PublicRound::may_take` after a knock.
        let f = now.for_card(top);
        let may_take = !public.put_downs[s].contains(top) || (mercy && public.top_by == seat);
        if f.worth_taking() && may_take {
            return Some((
                f.taken_score(now.score()),
                profile::card_at(word, now.goes(f)),
            ));
        }
        if *stock_len == 0 {
            return None;
        }
        let new = draws.next(*stock_len);
        *stock_len -= 1;
        let f = now.for_card(new);
        let after = f.kept_score(now.score());
        if SMOOTH {
            let gone = profile::card_at(word, now.goes(f));
            let gone = if f.goes_back() { new } else { gone };
            return Some((after, gone));
        }
        if f.goes_back() {
            Some((after, new))
        } else {
            Some((after, profile::card_at(word, now.goes(f))))
        }
    }

    /// The lives `seat` loses in the round, which is over: [`Round::loss_of`] after
    /// [`Profiled::settle`], read from the hands' profiles at the common endings (a 31 shown, a
    /// showdown) without writing the hands back; settled first otherwise. Only with profiles,
    /// where [`knock_loss_applies`].
    #[inline(always)]
    pub(crate) fn settled_loss(&mut self, seat: u8) -> u8 {
        debug_assert!(PROFILES && knock_loss_applies(self.round));
        let public = &self.round.public;
        let s = usize::from(seat);
        match public.stage {
            Stage::Over(End::ThirtyOne { seat: shower }) => {
                u8::from(shower != seat) + public.shown_losses[s]
            }
            Stage::Over(End::Showdown | End::StockOut { .. }) => {
                let mut scores = [Score(0); MAX_SEATS];
                for (score, p) in scores.iter_mut().zip(&self.hands.profiles) {
                    *score = p.score();
                }
                let seats = usize::from(public.seats);
                showdown_pays(&public.rules, &scores[..seats], public.knocker, s)
                    + public.shown_losses[s]
            }
            _ => {
                self.settle();
                self.round.loss_of(seat)
            }
        }
    }

    /// Every seat's lives lost (by seat) in the round, which is over: [`Round::losses`] after
    /// [`Profiled::settle`], read from the hands' profiles at the common endings as
    /// [`Profiled::settled_loss`] reads one seat's; settled first otherwise. Only with profiles,
    /// where [`knock_loss_applies`].
    #[inline(always)]
    pub(crate) fn settled_losses(&mut self) -> Losses {
        debug_assert!(PROFILES && knock_loss_applies(self.round));
        let public = &self.round.public;
        let seats = usize::from(public.seats);
        match public.stage {
            Stage::Over(End::ThirtyOne { seat: shower }) => {
                let mut lost = public.shown_losses;
                for (s, l) in lost.iter_mut().enumerate().take(seats) {
                    *l += u8::from(s != usize::from(shower));
                }
                Losses::All(lost)
            }
            Stage::Over(End::Showdown | End::StockOut { .. }) => {
                let scores = self.scores();
                let (rules, knocker) = (&public.rules, public.knocker);
                showdown_with_shown(rules, &scores[..seats], knocker, public.shown_losses)
            }
            _ => {
                self.settle();
                Losses::All(self.round.losses())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::profile::profiles;
    use crate::hand::Card;
    use crate::round::profiled::tests::varied_rules;
    use crate::round::{Action, Hands};
    use crate::rules::KnockerTie;
    use montecarlo::Rng;

    /// At every turn of random rounds (2 to 9 seats, rules that change a turn, every tie rule
    /// and knock penalty, a 31 after a knock ending the round or not) where the player to move
    /// may knock, the knock played apart loses what the knock played on a copy of the round
    /// does, its final turns by [`Profiled::turn`] with the same draws (those `knock_losses`
    /// made, as a game-level playout's fallback to the copy plays them): the knocker's loss
    /// ([`Profiled::knock_loss`], for the round) and every seat's ([`Profiled::knock_losses`],
    /// for the game); the round played apart is left as it was. At the end of each such knock
    /// and of each round, every seat's loss read from the profiles is the round's.
    #[test]
    fn a_knock_played_apart_loses_what_the_round_does() {
        let deck: Vec<Card> = Card::all().collect();
        let mut rng = Rng::stream(13, 0, 0);
        let all = profiles();
        let ties = [
            KnockerTie::KnockerPays,
            KnockerTie::OthersPay,
            KnockerTie::OnlyKnocker,
            KnockerTie::Cadillac,
        ];
        let (mut knocks, mut ends, mut shown, mut over_two) = (0, [0usize; 3], 0, 0);
        for game in 0..3_000u32 {
            let rules = crate::rules::RoundRules {
                knocker_tie: ties[(game / 3 % 4) as usize],
                knock_penalty: 1 + (game / 2 % 2) as u8,
                ..varied_rules(game)
            };
            let seats = 2 + (game % 8) as u8;
            let mut cards = deck.clone();
            rng.shuffle(&mut cards);
            let Ok(mut round) = Round::deal(rules, seats, 0, &cards) else {
                panic!("a legal deal")
            };
            assert!(knock_loss_applies(&round));
            let stream = Rng::stream(6, 2, u64::from(game));
            let mut draws = Draws::new(&round, &stream);
            while !round.is_over() {
                let hands = Hands::of(&round, all);
                if round.public.stage == Stage::Start && round.may_knock() {
                    let before = round.clone();
                    let apart = Profiled::<true>::new(&mut round, &hands, all);
                    let lost = apart.knock_loss::<false>(&mut draws.clone());
                    let smoothly = apart.knock_loss::<true>(&mut draws.clone());
                    assert_eq!(lost, smoothly, "game {game}, drawn without a branch");
                    // The copy plays with the draws `knock_losses` has just made, as a
                    // game-level playout's knock does when the table does not list a loss
                    // (`Playouts::knock_branch`): the same cards, read back by the stock's size.
                    let mut shared = draws.clone();
                    let every = if game % 2 == 0 {
                        apart.knock_losses::<false>(&mut shared)
                    } else {
                        apart.knock_losses::<true>(&mut shared)
                    };
                    let every = every.by_seat();
                    let mut copy = before.clone();
                    copy.apply_legal(Action::Knock);
                    let mut on_copy = Profiled::<true>::new(&mut copy, &hands, all);
                    while !on_copy.round().is_over() {
                        on_copy.turn(Score::NEVER, &mut shared);
                    }
                    let read: Vec<u8> = (0..seats).map(|s| on_copy.settled_loss(s)).collect();
                    let read_all = on_copy.settled_losses().by_seat();
                    on_copy.settle();
                    assert_eq!(lost, copy.loss_of(before.to_move()), "game {game}");
                    assert_eq!(every, copy.losses(), "game {game}");
                    assert_eq!(read_all, copy.losses(), "game {game}");
                    for s in 0..seats {
                        assert_eq!(read[usize::from(s)], copy.loss_of(s), "game {game}");
                    }
                    assert_eq!(round.public, before.public, "game {game}");
                    knocks += 1;
                    shown += usize::from(copy.public.shown_losses.iter().any(|&l| l > 0));
                    // A seat losing more than 2: where a game-level playout falls back to the copy.
                    over_two += usize::from(every.iter().any(|&l| l > 2));
                    ends[match copy.end() {
                        Some(End::ThirtyOne { .. }) => 0,
                        Some(End::StockOut { .. }) => 1,
                        _ => 2,
                    }] += 1;
                }
                // Played on by the rule, at a score that knocks now and then.
                let k = Score::from_points(20 + rng.below(12) as u8);
                round.rule_turn(k, Some(&mut draws));
            }
            // The round's own end, its losses read from the profiles.
            let (hands, mut copy) = (Hands::of(&round, all), round.clone());
            let mut read = Profiled::<true>::new(&mut copy, &hands, all);
            for s in 0..seats {
                assert_eq!(read.settled_loss(s), round.loss_of(s), "game {game}");
            }
            assert_eq!(
                read.settled_losses().by_seat(),
                round.losses(),
                "game {game}"
            );
        }
        assert!(
            knocks > 20_000 && ends.iter().all(|&e| e > 60) && shown > 30 && over_two > 30,
            "{knocks} {ends:?} {shown} {over_two}"
        );
    }
}
