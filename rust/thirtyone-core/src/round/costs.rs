//! What a round costs each seat when it is over: lives, or the letters of Gin lives.

use super::{End, Round, Stage};
use crate::hand::Score;
use crate::rules::{KnockerTie, LivesMode, RoundRules, MAX_SEATS};

impl Round {
    /// Lives `seat` loses this round: [`Round::losses`] for one seat, with a quick way for the
    /// common endings (a playout needs only the advised player's).
    #[inline]
    pub fn loss_of(&self, seat: u8) -> u8 {
        let s = seat as usize;
        match self.public.stage {
            Stage::Over(End::ThirtyOne { seat: shower }) if shower != seat => {
                1 + self.public.shown_losses[s]
            }
            Stage::Over(End::Showdown | End::StockOut { .. })
                if self.public.rules.lives_mode == LivesMode::Lives
                    && !self.hid_31.contains(&true) =>
            {
                let scores = &self.scores[..usize::from(self.public.seats)];
                showdown_pays(&self.public.rules, scores, self.public.knocker, s)
                    + self.public.shown_losses[s]
            }
            _ => self.losses()[s],
        }
    }

    /// Lives (or, under Gin lives, letters) each seat loses this round (all zero while the round
    /// is on).
    pub fn losses(&self) -> [u8; MAX_SEATS] {
        let mut lost = [0u8; MAX_SEATS];
        let n = self.public.seats as usize;
        let Stage::Over(end) = self.public.stage else {
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
                // A hidden 31 counts as 30; otherwise the hands' kept scores as they are.
                let mut hidden = [Score::NEVER; MAX_SEATS];
                let scores: &[Score] = if self.hid_31 != [false; MAX_SEATS] {
                    for (s, score) in hidden.iter_mut().enumerate().take(n) {
                        *score = if self.hid_31[s] {
                            Score::from_points(30)
                        } else {
                            self.score(s as u8)
                        };
                    }
                    &hidden[..n]
                } else {
                    &self.scores[..n]
                };
                match (self.public.knocker, self.public.rules.lives_mode) {
                    (Some(k), LivesMode::Gin) => {
                        // The knock claims the highest hand: only strictly higher than every
                        // other hand makes it so.
                        let k = k as usize;
                        let claim = (0..n).all(|s| s == k || scores[s] < scores[k]);
                        for (s, l) in lost.iter_mut().enumerate().take(n) {
                            if claim && s != k {
                                *l = 1;
                            } else if !claim && s == k {
                                *l = self.public.rules.knock_penalty;
                            }
                        }
                    }
                    (knocker, _) => self.lowest_pay(scores, knocker, &mut lost),
                }
            }
        }
        for (l, extra) in lost.iter_mut().zip(self.public.shown_losses).take(n) {
            *l += extra;
        }
        lost
    }

    /// The showdown in lives (`scores`: the seats' counted hands): what each seat pays.
    fn lowest_pay(&self, scores: &[Score], knocker: Option<u8>, lost: &mut [u8]) {
        showdown_losses(&self.public.rules, scores, knocker, lost);
    }
}

/// What each seat pays at a showdown in lives (`scores`: the seats' counted hands), written to
/// `lost` by seat: [`Round::losses`]'s showdown, and a knock's final turns played apart for the
/// game's outcome (`super::finals`).
#[inline]
pub(super) fn showdown_losses(
    rules: &RoundRules,
    scores: &[Score],
    knocker: Option<u8>,
    lost: &mut [u8],
) {
    let showdown = Showdown::of(scores);
    let rates = lowest_rates(rules, &showdown, knocker);
    // (A seat number no seat has when nobody knocked.)
    let k = knocker.map_or(usize::MAX, usize::from);
    for (s, (l, &score)) in lost.iter_mut().zip(scores).enumerate() {
        *l = pays(score == showdown.low, s == k, rates);
    }
}

/// What `seat` pays at a showdown in lives where every hand counts its score (no hidden 31;
/// `scores`: the table's seats'), `knocker` as it is: [`Round::loss_of`]'s common case, and a
/// knock's final turns played apart (`super::finals`).
#[inline]
pub(super) fn showdown_pays(
    rules: &RoundRules,
    scores: &[Score],
    knocker: Option<u8>,
    seat: usize,
) -> u8 {
    // Most often somebody is lower, and the seat pays nothing at the showdown.
    let low = scores[seat];
    if scores.iter().any(|&x| x < low) {
        return 0;
    }
    let showdown = Showdown { scores, low };
    let rates = lowest_rates(rules, &showdown, knocker);
    pays(true, knocker == Some(seat as u8), rates)
}

/// Every seat's losses in a round that is over, as a game-level playout's end reads them: most
/// often one seat alone loses (one hand lowest at a showdown, no 31 shown), told as that seat
/// and its loss; otherwise every seat's, by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Losses {
    One { seat: u8, lives: u8 },
    All([u8; MAX_SEATS]),
}

impl Losses {
    /// Every seat's losses, by seat.
    #[cfg(test)]
    pub(crate) fn by_seat(self) -> [u8; MAX_SEATS] {
        match self {
            Losses::One { seat, lives } => {
                let mut lost = [0; MAX_SEATS];
                lost[usize::from(seat)] = lives;
                lost
            }
            Losses::All(lost) => lost,
        }
    }
}

/// The showdown in lives where one hand alone is lowest (`scores`: the table's seats' counted
/// hands): its seat and what it pays, the knocker the penalty and anyone else one (as
/// [`showdown_losses`] comes to: nobody else pays). None where hands tie for the lowest.
#[inline(always)]
pub(super) fn lowest_alone(
    rules: &RoundRules,
    scores: &[Score],
    knocker: Option<u8>,
) -> Option<Losses> {
    let (mut low, mut seat, mut tied) = (scores[0], 0, false);
    for (s, &x) in scores.iter().enumerate().skip(1) {
        if x < low {
            (low, seat, tied) = (x, s as u8, false);
        } else if x == low {
            tied = true;
        }
    }
    let lives = if knocker == Some(seat) {
        rules.knock_penalty
    } else {
        1
    };
    (!tied).then_some(Losses::One { seat, lives })
}

/// What a hand among the lowest pays: (the knocker's, any other's). With no knocker among the
/// lowest, one each.
#[inline]
fn lowest_rates(rules: &RoundRules, showdown: &Showdown, knocker: Option<u8>) -> (u8, u8) {
    match knocker {
        Some(k) if showdown.scores[k as usize] == showdown.low => {
            let penalty = rules.knock_penalty;
            if showdown.tied() == 1 {
                // The knocker alone is lowest (nobody else pays).
                return (penalty, 0);
            }
            match rules.knocker_tie {
                KnockerTie::KnockerPays => (penalty, 1),
                KnockerTie::OthersPay => (0, 1),
                KnockerTie::OnlyKnocker => (penalty, 0),
                KnockerTie::Cadillac => (2, 0),
            }
        }
        _ => (1, 1),
    }
}

/// What a seat pays, by the rates of [`lowest_rates`] (the knocker's, any other's): nothing
/// unless its hand is among the `lowest`; `knocks`: it is the knocker.
#[inline]
fn pays(lowest: bool, knocks: bool, (knockers, others): (u8, u8)) -> u8 {
    match (lowest, knocks) {
        (false, _) => 0,
        (true, true) => knockers,
        (true, false) => others,
    }
}

/// The hands counted at a showdown, with the lowest score.
struct Showdown<'a> {
    scores: &'a [Score],
    low: Score,
}

impl<'a> Showdown<'a> {
    #[inline]
    fn of(scores: &'a [Score]) -> Showdown<'a> {
        // A plain loop: at most nine seats, too few for the vector code `min` compiles to.
        let mut low = scores[0];
        for &x in &scores[1..] {
            if x < low {
                low = x;
            }
        }
        Showdown { scores, low }
    }

    /// How many hands hold the lowest score.
    fn tied(&self) -> usize {
        self.scores.iter().filter(|&&x| x == self.low).count()
    }
}

#[cfg(test)]
mod tests {
    use montecarlo::Rng;

    use crate::hand::decision::TABLE_KNOCK_AT;
    use crate::hand::{Card, Score};
    use crate::round::Round;
    use crate::rules::{KnockerTie, LivesMode, RoundRules, ThirtyOneAfterKnock};

    #[test]
    fn one_seats_loss_is_its_share_of_the_rounds_losses() {
        // Rounds played by the rule under every way of settling a tie, some knocking early so
        // that knockers are often caught among the lowest; every ending and seat count.
        let ties = [
            KnockerTie::KnockerPays,
            KnockerTie::OthersPay,
            KnockerTie::OnlyKnocker,
            KnockerTie::Cadillac,
        ];
        let mut rng = Rng::stream(5, 0, 0);
        let mut checked = [0usize; 2];
        for i in 0..4_000u64 {
            let gin = i % 7 == 0;
            let rules = RoundRules {
                // (Gin lives settle a knock by the highest hand: no tie rule applies.)
                knocker_tie: if gin {
                    KnockerTie::KnockerPays
                } else {
                    ties[(i % 4) as usize]
                },
                knock_penalty: 1 + (i / 4 % 2) as u8,
                lives_mode: if gin {
                    LivesMode::Gin
                } else {
                    LivesMode::Lives
                },
                thirty_one_after_knock: if i % 3 == 0 {
                    ThirtyOneAfterKnock::Continues
                } else {
                    ThirtyOneAfterKnock::EndsRound
                },
                ..RoundRules::default()
            };
            let seats = 2 + (i % 8) as u8;
            let mut deck: Vec<Card> = Card::all().collect();
            rng.shuffle(&mut deck);
            let mut round = Round::deal(rules, seats, 0, &deck).expect("a deal");
            let knock_at = if i % 2 == 0 {
                Score::from_points(12)
            } else {
                TABLE_KNOCK_AT
            };
            while !round.is_over() {
                round.play_rule_turn(knock_at);
            }
            let all = round.losses();
            for seat in 0..seats {
                assert_eq!(
                    round.loss_of(seat),
                    all[seat as usize],
                    "round {i}, seat {seat}"
                );
            }
            checked[usize::from(all.iter().any(|&l| l > 1))] += 1;
        }
        // Both single and double losses came up.
        assert!(checked.iter().all(|&c| c > 100), "{checked:?}");
    }
}
