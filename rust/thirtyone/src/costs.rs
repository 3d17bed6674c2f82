//! What a round costs each seat when it is over: lives, or the letters of Gin lives.

use crate::public::{End, Stage, MAX_SEATS};
use crate::round::Round;
use crate::rules::{KnockerTie, LivesMode};
use crate::scoring::Score;

impl Round {
    /// Lives `seat` loses this round: [`Round::losses`] for one seat, with a quick way for the
    /// common endings (a playout needs only the advised player's).
    #[inline]
    pub fn loss_of(&self, seat: u8) -> u8 {
        let s = seat as usize;
        match self.table.stage {
            Stage::Over(End::ThirtyOne { seat: shower }) if shower != seat => {
                1 + self.table.shown_losses[s]
            }
            Stage::Over(End::Showdown | End::StockOut { .. })
                if self.table.rules.lives_mode == LivesMode::Lives
                    && !self.hid_31.contains(&true) =>
            {
                // Not among the lowest: nothing to pay at the showdown.
                let mine = self.score(seat);
                let beaten = (0..self.table.seats).any(|o| o != seat && self.score(o) < mine);
                if beaten {
                    self.table.shown_losses[s]
                } else {
                    self.losses()[s]
                }
            }
            _ => self.losses()[s],
        }
    }

    /// Lives (or, under Gin lives, letters) each seat loses this round (all zero while the round
    /// is on).
    pub fn losses(&self) -> [u8; MAX_SEATS] {
        let mut lost = [0u8; MAX_SEATS];
        let n = self.table.seats as usize;
        let Stage::Over(end) = self.table.stage else {
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
                let mut scores = [Score::NEVER; MAX_SEATS];
                for (s, score) in scores.iter_mut().enumerate().take(n) {
                    *score = self.score(s as u8);
                }
                let low = *scores.iter().min().expect("at least two seats");
                for (s, l) in lost.iter_mut().enumerate().take(n) {
                    if scores[s] == low {
                        *l = if s == caller as usize { 2 } else { 1 };
                    }
                }
            }
            End::Showdown | End::StockOut { .. } => {
                let mut scores = [Score::NEVER; MAX_SEATS];
                for (s, score) in scores.iter_mut().enumerate().take(n) {
                    *score = if self.hid_31[s] {
                        Score::from_points(30)
                    } else {
                        self.score(s as u8)
                    };
                }
                match (self.table.knocker, self.table.rules.lives_mode) {
                    (Some(k), LivesMode::Gin) => {
                        // The knock claims the highest hand: only strictly higher than every
                        // other hand makes it so.
                        let k = k as usize;
                        let claim = (0..n).all(|s| s == k || scores[s] < scores[k]);
                        for (s, l) in lost.iter_mut().enumerate().take(n) {
                            if claim && s != k {
                                *l = 1;
                            } else if !claim && s == k {
                                *l = self.table.rules.knock_penalty;
                            }
                        }
                    }
                    (knocker, _) => self.lowest_pay(&scores, knocker, &mut lost),
                }
            }
        }
        for (l, extra) in lost.iter_mut().zip(self.table.shown_losses).take(n) {
            *l += extra;
        }
        lost
    }

    /// The showdown in lives: the lowest hand loses one, every hand tied for lowest one; a
    /// knocker among the lowest pays the knock penalty, a tie settled by `knocker_tie`.
    fn lowest_pay(&self, scores: &[Score; MAX_SEATS], knocker: Option<u8>, lost: &mut [u8]) {
        let n = self.table.seats as usize;
        let scores = &scores[..n];
        let low = *scores.iter().min().expect("at least two seats");
        let lowest = |s: usize| scores[s] == low;
        let tied = scores.iter().filter(|&&x| x == low).count();
        match knocker {
            Some(k) if lowest(k as usize) => {
                let k = k as usize;
                let penalty = self.table.rules.knock_penalty;
                if tied == 1 {
                    lost[k] = penalty;
                } else {
                    let (knocker_pays, others_pay) = match self.table.rules.knocker_tie {
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
