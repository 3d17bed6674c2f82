//! A dealt round with its record: every turn as it was played, and each seat's view of it (the
//! Oracle's input, `oracle.md`). The game loop plays its rounds through this one record, so the
//! history a front-end shows, a saved game replays and the Oracle reads is kept once, here.
//!
//! The playouts use the bare [`Round`]: a record grows with every turn, which a playout does not
//! need.

use super::{PendingInput, StateInput, TurnInput};
use crate::error::Result;
use crate::hand::{Card, Score};
use crate::round::{Action, Phase, Round, Source};
use crate::rules::RoundRules;

/// What a whole turn did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Played {
    Knock,
    /// The stock was empty and the player would not take the top discard: the round ended.
    Decline,
    /// The blind showdown called (`first_turn_knock = blind`).
    Blind,
    /// A draw (`card`: the card drawn from the stock, or taken from the pile) and a put-down.
    Play {
        from: Source,
        card: Card,
        discard: Card,
        /// The hand shown: the put-down left a 31 and the player showed it.
        shows: Option<[Card; 3]>,
        /// The put-down left a 31 that the player kept hidden (only they know).
        hid_31: bool,
    },
}

/// One whole turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlayedTurn {
    pub seat: u8,
    pub played: Played,
}

/// A round and its record (see the module's doc).
#[derive(Clone, Debug)]
pub struct RoundRecord {
    round: Round,
    upcard: Card,
    turns: Vec<PlayedTurn>,
}

impl RoundRecord {
    /// Deal a round ([`Round::deal`]) and start its record.
    pub fn deal(rules: RoundRules, seats: u8, first: u8, deck: &[Card]) -> Result<RoundRecord> {
        let round = Round::deal(rules, seats, first, deck)?;
        let upcard = round.top();
        Ok(RoundRecord {
            round,
            upcard,
            turns: Vec::new(),
        })
    }

    /// The round as it stands (every hand included).
    pub fn round(&self) -> &Round {
        &self.round
    }

    /// The card turned up at the deal.
    pub fn upcard(&self) -> Card {
        self.upcard
    }

    /// The whole turns played so far, in order (a turn under way, after its draw, is not yet
    /// among them).
    pub fn turns(&self) -> &[PlayedTurn] {
        &self.turns
    }

    /// Apply one action of the player to move ([`Round::apply`]: refused with the rules' reason
    /// when they do not allow it), and record the turn when it is whole.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        let seat = self.round.to_move();
        let before = self.round.phase();
        self.round.apply(action)?;
        let played = match (action, before) {
            (Action::Knock, _) => Played::Knock,
            (Action::Decline, _) => Played::Decline,
            (Action::CallBlind, _) => Played::Blind,
            (Action::PutDown(_) | Action::PutDownHidden(_), Phase::PutDown { new, from_pile }) => {
                let from = if from_pile {
                    Source::Pile
                } else {
                    Source::Stock
                };
                self.play(seat, from, new, matches!(action, Action::PutDownHidden(_)))
            }
            // A draw, a take or a look: the turn goes on.
            _ => return Ok(()),
        };
        self.turns.push(PlayedTurn { seat, played });
        Ok(())
    }

    /// Play the whole turn of the player to move by the table's decision rule, knocking from
    /// `knock_at` ([`Round::play_rule_turn`]), and record it. None: no turn was played (at a
    /// blind table the rule looks first, and a dealt 31 found then ends the round).
    pub fn play_rule_turn(&mut self, knock_at: Score) -> Option<PlayedTurn> {
        let rec = self.round.play_rule_turn(knock_at);
        let played = if rec.knock {
            Played::Knock
        } else if rec.declined {
            Played::Decline
        } else if let Some((from, card)) = rec.draw {
            self.play(rec.seat, from, card, false)
        } else {
            return None;
        };
        let turn = PlayedTurn {
            seat: rec.seat,
            played,
        };
        self.turns.push(turn);
        Some(turn)
    }

    /// The play just finished by `seat`, who drew or took `card` from `from`.
    fn play(&self, seat: u8, from: Source, card: Card, hid_31: bool) -> Played {
        let shown = self.round.showed_31(seat) && !hid_31;
        Played::Play {
            from,
            card,
            discard: self.round.top(),
            shows: shown.then(|| self.round.hand(seat)),
            hid_31,
        }
    }

    /// The discard pile, bottom to top (a card taken this turn is in the taker's hand until
    /// they put one down).
    pub fn pile(&self) -> Vec<Card> {
        let mut pile = vec![self.upcard];
        for t in &self.turns {
            if let Played::Play { from, discard, .. } = t.played {
                if from == Source::Pile {
                    pile.pop();
                }
                pile.push(discard);
            }
        }
        if let Phase::PutDown {
            from_pile: true, ..
        } = self.round.phase()
        {
            pile.pop();
        }
        pile
    }

    /// The round as `seat` sees it: the Oracle's input of that seat (`oracle.md`). Only `seat`'s
    /// own stock draws carry the card drawn, only their own hidden 31 is marked, and a draw of
    /// theirs under way is pending.
    pub fn view(&self, seat: u8) -> StateInput {
        let turns = self.turns.iter().filter_map(|t| seen_by(t, seat)).collect();
        let pending = match self.round.phase() {
            Phase::PutDown { new, from_pile } if self.round.to_move() == seat => {
                Some(if from_pile {
                    PendingInput {
                        from: Source::Pile,
                        drew: None,
                    }
                } else {
                    PendingInput {
                        from: Source::Stock,
                        drew: Some(new),
                    }
                })
            }
            _ => None,
        };
        StateInput {
            rules: *self.round.rules(),
            seats: self.round.seats(),
            me: seat,
            first: self.round.first(),
            upcard: self.upcard,
            hand: self.round.hand(seat),
            turns,
            pending,
        }
    }
}

/// A turn as `me` saw it (None: a turn the Oracle's input leaves out, a decline or the blind
/// showdown, after which there is nothing to advise).
fn seen_by(t: &PlayedTurn, me: u8) -> Option<TurnInput> {
    let seat = t.seat;
    match t.played {
        Played::Knock => Some(TurnInput::Knock { seat }),
        Played::Decline | Played::Blind => None,
        Played::Play {
            from,
            card,
            discard,
            shows,
            hid_31,
        } => {
            let drew = (from == Source::Stock && seat == me).then_some(card);
            Some(if hid_31 && seat == me {
                TurnInput::PlayHiding31 {
                    seat,
                    from,
                    drew,
                    discard,
                }
            } else {
                TurnInput::Play {
                    seat,
                    from,
                    drew,
                    discard,
                    shows,
                }
            })
        }
    }
}
