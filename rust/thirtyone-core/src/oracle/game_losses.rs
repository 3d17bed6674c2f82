//! A game-level playout's outcome read from every seat's losses: the game's value after the
//! round for each way the seats may lose at most two lives each
//! ([`GameValue::listed_by_losses`]), laid out once a query in the engine's fixed point, so
//! that a playout's end is one place worked out ([`LossWeights::index`]) and one read.

use montecarlo::{to_fixed, Outcome};

use crate::game::game_value::{GameValue, LossWeights};
use crate::round::Losses;
#[cfg(test)]
use crate::rules::MAX_SEATS;

/// Your outcome by every seat's losses in a round of the table a query asks about.
pub(crate) struct GameLosses {
    weights: LossWeights,
    /// [`GameValue::listed_by_losses`] in fixed point (`montecarlo::to_fixed`).
    values: Box<[u32]>,
    /// Your seat.
    me: usize,
    /// The most lives you can lose ([`GameValue::most_you_can_lose`]).
    most: u8,
}

impl GameLosses {
    /// For a round of `seats` first played by `first`, valued by `g` for the player at `me`;
    /// None where `g` does not list the round's losses ([`GameValue::loss_weights`]).
    pub(crate) fn new(g: &GameValue, (first, seats): (u8, u8), me: u8) -> Option<GameLosses> {
        let weights = g.loss_weights(usize::from(first), usize::from(seats))?;
        let values = g.listed_by_losses().iter().map(|&v| to_fixed(v)).collect();
        Some(GameLosses {
            weights,
            values,
            me: usize::from(me),
            most: g.most_you_can_lose(),
        })
    }

    /// Your outcome when the seats lost `all` (by seat): safe when you lost nothing, the lives
    /// you lost (no more than you can: [`GameValue::most_you_can_lose`]), and the game's value
    /// after the round; None where a seat lost more than the
    /// table lists (the round is then valued by the game's step).
    #[inline(always)]
    pub(crate) fn outcome(&self, losses: &Losses) -> Option<Outcome> {
        let (index, lost) = match *losses {
            Losses::One { seat, lives } => (
                self.weights.index_of_one(seat, lives)?,
                if usize::from(seat) == self.me {
                    lives
                } else {
                    0
                },
            ),
            Losses::All(ref all) => (self.weights.index(all)?, all[self.me]),
        };
        let value = self.values[index];
        Some(Outcome {
            success: lost == 0,
            cost: u32::from(lost.min(self.most)),
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameRules;
    use crate::rules::{Placing, RoundRules};
    use montecarlo::Runner;

    /// Every way a 4-seat round's seats may lose up to three lives each (first played by each
    /// seat), read here and by the game's own reading ([`GameValue::after_losses`]): the same
    /// value in fixed point, and your loss (you, seat 1, hold one life: a loss of two counts
    /// one); none where a seat lost three. One seat's loss told alone ([`Losses::One`]) is read
    /// as the same losses told by seat.
    #[test]
    fn the_outcome_is_the_games_value_after_the_losses() {
        let rules = RoundRules::default();
        let runner = Runner::simple(Some(2));
        let standard = GameRules {
            county: false,
            placing: Placing::WinnerTakesAll,
        };
        for first in 0..4u8 {
            let g = GameValue::new(
                &rules,
                standard,
                &[3, 1, 2, 2],
                (1, usize::from(first)),
                &runner,
                None,
            )
            .unwrap();
            let losses = GameLosses::new(&g, (first, 4), 1).unwrap();
            for code in 0..256u32 {
                let mut lost = [0u8; MAX_SEATS];
                for (s, l) in lost.iter_mut().enumerate().take(4) {
                    *l = (code >> (2 * s) & 3) as u8;
                }
                let o = losses.outcome(&Losses::All(lost));
                // One seat alone lost: told as that seat's loss, the same outcome.
                if let [(seat, &lives)] = lost
                    .iter()
                    .enumerate()
                    .filter(|(_, &l)| l > 0)
                    .collect::<Vec<_>>()[..]
                {
                    let one = Losses::One {
                        seat: seat as u8,
                        lives,
                    };
                    assert_eq!(losses.outcome(&one), o, "{lost:?}");
                }
                match g.after_losses(&lost, usize::from(first), 4) {
                    Some(v) => assert_eq!(
                        o,
                        Some(Outcome {
                            success: lost[1] == 0,
                            cost: u32::from(lost[1].min(1)),
                            value: to_fixed(v),
                        }),
                        "{lost:?}, first {first}"
                    ),
                    None => assert_eq!(o, None, "{lost:?}"),
                }
            }
        }
    }
}
