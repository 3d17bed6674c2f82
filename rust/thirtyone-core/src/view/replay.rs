//! Checking a state: its turns replayed through the table's transitions ([`PublicRound::apply`]),
//! every turn in order, every card where it can be, your hand matching your own turns, what each
//! opponent visibly did recorded for inference. Every refusal names its problem.

use super::{OppAct, OppTurn, Opponent, PendingInput, StateInput, TurnInput, View};
use crate::error::{Error, Result};
use crate::hand::{same_cards, Card, CardSet};
use crate::round::{knock_limits, End, Move, PublicRound, Source, Stage};
use crate::rules::{ThirtyOneAfterKnock, MAX_SEATS};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Unknown,
    Pile,
    Mine,
    Held(u8),
}

fn bad<T>(msg: String) -> Result<T> {
    Err(Error::BadState(msg))
}

/// The replay of a state's turns through the table's transitions, keeping track of where each
/// card is and what each opponent visibly did.
struct Replay {
    public: PublicRound,
    me: u8,
    my_hand: [Card; 3],
    place: [Place; 52],
    opponents: Vec<Opponent>,
    hid_31: [bool; MAX_SEATS],
    /// Why the round is over, once it is.
    over: Option<String>,
}

/// Check `input` and build its view.
pub fn check(input: &StateInput) -> Result<View> {
    input.rules.validate()?;
    let (seats, me, first) = (input.seats, input.me, input.first);
    if !(2..=MAX_SEATS as u8).contains(&seats) {
        return bad(format!("seats must be 2 to 9, not {seats}"));
    }
    for (what, s) in [("me", me), ("first", first)] {
        if s >= seats {
            return bad(format!(
                "{what}: seat {s} is not one of the {seats} seats (0 to {})",
                seats - 1
            ));
        }
    }
    if distinct(&input.hand) != 3 {
        return bad(format!(
            "hand: a card appears twice in {}",
            show(&input.hand)
        ));
    }
    let dealt = dealt_hand(input)?;
    let mut r = Replay::dealt(input, dealt)?;
    for (i, t) in input.turns.iter().enumerate() {
        r.turn(i, t)?;
    }
    r.finish(input)
}

/// The tops of the pile at the start of each turn (they do not depend on hidden cards), and at
/// the end.
fn tops(input: &StateInput) -> Vec<Card> {
    let mut tops = Vec::with_capacity(input.turns.len() + 1);
    let mut top = input.upcard;
    for t in &input.turns {
        tops.push(top);
        if let TurnInput::Play { discard, .. } | TurnInput::PlayHiding31 { discard, .. } = *t {
            top = discard;
        }
    }
    tops.push(top);
    tops
}

/// Your dealt hand: your own turns undone from your hand now.
fn dealt_hand(input: &StateInput) -> Result<[Card; 3]> {
    let tops = tops(input);
    let mut dealt: Vec<Card> = input.hand.to_vec();
    for (i, t) in input.turns.iter().enumerate().rev() {
        let TurnInput::Play {
            seat,
            from,
            drew,
            discard,
            ..
        } = t.unhidden().0
        else {
            continue;
        };
        if seat != input.me {
            continue;
        }
        let new = match (from, drew) {
            (Source::Pile, _) => tops[i],
            (Source::Stock, Some(c)) => c,
            (Source::Stock, None) => {
                return bad(format!(
                    "turns[{}]: your own stock draw must give the card drawn (\"drew\")",
                    i
                ))
            }
        };
        // After the turn you held `dealt`; before it: without `new`, with `discard`.
        if discard != new {
            let Some(pos) = dealt.iter().position(|&c| c == new) else {
                return bad(format!(
                    "your hand does not match your own turns: you took {new} at turns[{}] but do not hold it afterwards",
                    i
                ));
            };
            dealt[pos] = discard;
        } else if from == Source::Pile {
            return bad(format!(
                "turns[{}]: a card taken from the pile ({new}) may not be put straight back",
                i
            ));
        }
    }
    Ok([dealt[0], dealt[1], dealt[2]])
}

impl Replay {
    fn dealt(input: &StateInput, dealt: [Card; 3]) -> Result<Replay> {
        let mut public = PublicRound::dealt(input.rules, input.seats, input.first, input.upcard);
        // A state is a round in play: nobody was dealt 31 (checked for you below; for the
        // others, a dealt 31 would have ended the round before any turn).
        public.apply(Move::Look { dealt_31: false });
        let mut r = Replay {
            public,
            me: input.me,
            my_hand: dealt,
            place: [Place::Unknown; 52],
            opponents: (0..input.seats)
                .filter(|&s| s != input.me)
                .map(Opponent::new)
                .collect(),
            hid_31: [false; MAX_SEATS],
            over: None,
        };
        r.claim(input.upcard, Place::Pile, "upcard")?;
        for c in dealt {
            r.claim(c, Place::Mine, "your dealt hand")?;
        }
        if input.rules.scoring.score(dealt).is_blitz() {
            return bad("the round is already over: you were dealt 31".into());
        }
        Ok(r)
    }

    /// Put a card where it now is, refusing a card already placed elsewhere.
    fn claim(&mut self, c: Card, p: Place, what: &str) -> Result<()> {
        let slot = &mut self.place[c.index() as usize];
        if *slot != Place::Unknown {
            return bad(format!("{what}: {c} is already {}", describe(*slot)));
        }
        *slot = p;
        Ok(())
    }

    fn opponent(&mut self, seat: u8) -> &mut Opponent {
        let i = if seat < self.me { seat } else { seat - 1 };
        &mut self.opponents[i as usize]
    }

    fn turn(&mut self, num: usize, t: &TurnInput) -> Result<()> {
        if let Some(why) = &self.over {
            return bad(format!("turns[{num}]: the round was already over ({why})"));
        }
        let (t, hides) = t.unhidden();
        let seat = match t {
            TurnInput::Knock { seat } | TurnInput::Play { seat, .. } => seat,
            TurnInput::PlayHiding31 { .. } => unreachable!("turned into a play"),
        };
        let to_move = self.public.to_move;
        if seat >= self.public.seats {
            return bad(format!(
                "turns[{num}]: seat {seat} is not one of the {} seats",
                self.public.seats
            ));
        }
        if seat != to_move {
            return bad(format!(
                "turns[{num}]: seat {seat} played out of order (it was seat {to_move}'s turn)"
            ));
        }
        let seen = OppTurn {
            top: self.public.top,
            may_take: self.public.may_take(),
            knock_open: self.public.knock_closed().is_none(),
            final_turn: self.public.knocker.is_some(),
            lap: u8::try_from(self.public.turns_played / u16::from(self.public.seats))
                .unwrap_or(u8::MAX),
            stock_empty: self.public.stock_len == 0,
            act: OppAct::Knock,
        };
        match t {
            TurnInput::Knock { .. } => self.knock(num, seat, seen)?,
            TurnInput::Play {
                from,
                drew,
                discard,
                shows,
                ..
            } => {
                let new = self.draw(num, seat, from, drew)?;
                let after = self.put_down(num, seat, seen, (from, new, discard), shows)?;
                let shows_31 = self.check_31(num, seat, hides, shows, after)?;
                self.public.apply(Move::PutDown {
                    card: discard,
                    shows_31,
                });
                self.note_end(num, seat);
            }
            TurnInput::PlayHiding31 { .. } => unreachable!("turned into a play"),
        }
        Ok(())
    }

    fn knock(&mut self, num: usize, seat: u8, seen: OppTurn) -> Result<()> {
        if let Some(k) = self.public.knocker {
            return bad(format!(
                "turns[{num}]: a second knock (seat {k} already knocked)"
            ));
        }
        if let Some(why) = self.public.knock_closed() {
            return bad(format!("turns[{num}]: {why}"));
        }
        if seat == self.me {
            if let Some(why) = knock_limits(&self.public.rules, self.my_hand) {
                return bad(format!(
                    "turns[{num}]: your knock breaks the table's knock limits: {why}"
                ));
            }
        } else {
            self.opponent(seat).turns.push(seen);
        }
        self.public.apply(Move::Knock);
        Ok(())
    }

    /// The draw of a play: the card drawn (a placeholder for an opponent's hidden stock draw).
    fn draw(&mut self, num: usize, seat: u8, from: Source, drew: Option<Card>) -> Result<Card> {
        let top = self.public.top;
        if let Some(why) = self.public.refuse(Move::Draw(from)) {
            return bad(match from {
                Source::Pile => format!(
                    "turns[{num}]: seat {seat} took {top}, a card they had put down themselves this round"
                ),
                Source::Stock => format!("turns[{num}]: seat {seat} drew from an empty stock ({why})"),
            });
        }
        self.public.apply(Move::Draw(from));
        match (from, drew) {
            (Source::Pile, _) => Ok(top),
            (Source::Stock, Some(c)) if seat == self.me => {
                self.claim(c, Place::Mine, &format!("turns[{num}]: the card you drew"))?;
                Ok(c)
            }
            (Source::Stock, Some(_)) => bad(format!(
                "turns[{num}]: \"drew\" is only known for your own stock draws, not seat {seat}'s"
            )),
            (Source::Stock, None) if seat == self.me => bad(format!(
                "turns[{num}]: your own stock draw must give the card drawn (\"drew\")"
            )),
            (Source::Stock, None) => Ok(top), // hidden
        }
    }

    /// The put-down of a play (`how`: where the new card came from, the card, the card put
    /// down): where the cards now are. Returns the hand after it, when it is known.
    fn put_down(
        &mut self,
        num: usize,
        seat: u8,
        seen: OppTurn,
        how: (Source, Card, Card),
        shows: Option<[Card; 3]>,
    ) -> Result<Option<[Card; 3]>> {
        let (from, new, discard) = how;
        if let Some(why) = self.public.refuse(Move::PutDown {
            card: discard,
            shows_31: false,
        }) {
            return bad(format!("turns[{num}]: {why} ({new})"));
        }
        if seat == self.me {
            if from == Source::Pile {
                self.place[new.index() as usize] = Place::Mine;
            }
            let four = [self.my_hand[0], self.my_hand[1], self.my_hand[2], new];
            let Some(pos) = four.iter().position(|&c| c == discard) else {
                return bad(format!(
                    "your hand does not match your own turns: turns[{num}] puts down {discard}, which you did not hold"
                ));
            };
            let mut kept = four
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != pos)
                .map(|(_, &c)| c);
            self.my_hand = [
                kept.next().unwrap(),
                kept.next().unwrap(),
                kept.next().unwrap(),
            ];
            self.place[discard.index() as usize] = Place::Pile;
            return Ok(Some(self.my_hand));
        }
        let held_by = self.place[discard.index() as usize];
        let o = self.opponent(seat);
        let act = match from {
            Source::Pile => {
                o.known_held.insert(new);
                OppAct::Take { discard, shows }
            }
            Source::Stock => {
                o.stock_draws += 1;
                OppAct::Draw {
                    draw: o.stock_draws - 1,
                    discard,
                    shows,
                }
            }
        };
        match held_by {
            Place::Held(s) if s == seat => o.known_held.remove(discard),
            Place::Unknown if o.shown_hand.is_some() => {
                return bad(format!(
                    "turns[{num}]: seat {seat} put down {discard}, but their hand was shown"
                ))
            }
            Place::Unknown => o.hidden_discards.push((discard, 3 + o.stock_draws)),
            p => {
                return bad(format!(
                    "turns[{num}]: seat {seat} put down {discard}, which is {}",
                    describe(p)
                ))
            }
        }
        o.turns.push(OppTurn { act, ..seen });
        let shown = o.shown_hand;
        if from == Source::Pile {
            self.place[new.index() as usize] = Place::Held(seat);
        }
        self.place[discard.index() as usize] = Place::Pile;
        Ok(shown)
    }

    /// A 31 after a put-down: hidden (yours), shown after a knock where the round goes on, or
    /// shown and ending the round. Returns whether the table saw a 31 shown.
    fn check_31(
        &mut self,
        num: usize,
        seat: u8,
        hides: bool,
        shows: Option<[Card; 3]>,
        after: Option<[Card; 3]>,
    ) -> Result<bool> {
        let rules = self.public.rules;
        let blitz_now = after.is_some_and(|h| rules.scoring.score(h).is_blitz());
        let continues = self.public.knocker.is_some()
            && rules.thirty_one_after_knock == ThirtyOneAfterKnock::Continues;
        if seat == self.me {
            self.hid_31[seat as usize] = hides;
        }
        if hides {
            if !rules.may_hide_31 {
                return bad(format!(
                    "turns[{num}]: this table does not allow hiding a 31 (may_hide_31 is off)"
                ));
            }
            if shows.is_some() {
                return bad(format!(
                    "turns[{num}]: a 31 is either shown or hidden, not both"
                ));
            }
            if seat != self.me {
                return bad(format!(
                    "turns[{num}]: \"hides\" is only known for your own turns, not seat {seat}'s"
                ));
            }
            if !blitz_now {
                return bad(format!(
                    "turns[{num}]: you hid a 31, but your hand after the put-down is {}, which is not 31",
                    show(&self.my_hand)
                ));
            }
            return Ok(false);
        }
        let Some(s) = shows else {
            if blitz_now && seat == self.me && continues {
                return bad(format!(
                    "turns[{num}]: your hand is 31 after the put-down: give the hand you showed (\"shows\")"
                ));
            }
            return Ok(blitz_now);
        };
        if !continues {
            return bad(format!(
                "turns[{num}]: \"shows\" belongs only to a 31 shown after a knock at a table where the round goes on (thirty_one_after_knock = continues)"
            ));
        }
        if !rules.scoring.score(s).is_blitz() {
            return bad(format!(
                "turns[{num}]: the hand shown, {}, is not 31",
                show(&s)
            ));
        }
        if seat == self.me {
            if !same_cards(s, self.my_hand) {
                return bad(format!(
                    "turns[{num}]: you showed {} but held {}",
                    show(&s),
                    show(&self.my_hand)
                ));
            }
            return Ok(true);
        }
        for c in s {
            match self.place[c.index() as usize] {
                Place::Unknown => self.place[c.index() as usize] = Place::Held(seat),
                Place::Held(h) if h == seat => {}
                p => {
                    return bad(format!(
                        "turns[{num}]: seat {seat} showed {c}, which is {}",
                        describe(p)
                    ))
                }
            }
        }
        let o = self.opponent(seat);
        o.shown_hand = Some(s);
        o.known_held = s.iter().copied().collect();
        Ok(true)
    }

    /// Remember why the round ended, if this turn ended it.
    fn note_end(&mut self, num: usize, seat: u8) {
        self.over = match self.public.stage {
            Stage::Over(End::ThirtyOne { .. }) => {
                Some(format!("seat {seat} showed 31 at turns[{num}]"))
            }
            Stage::Over(_) => Some("every player had their final turn after the knock".into()),
            _ => None,
        };
    }

    fn finish(mut self, input: &StateInput) -> Result<View> {
        if let Some(why) = self.over {
            return bad(format!("the round is already over ({why})"));
        }
        let to_move = self.public.to_move;
        if to_move != self.me {
            return bad(format!(
                "it is not your turn: seat {to_move} is to play, and you are seat {}",
                self.me
            ));
        }
        if !same_cards(self.my_hand, input.hand) {
            return bad(format!(
                "your hand does not match your own turns: they leave you {}, not {}",
                show(&self.my_hand),
                show(&input.hand)
            ));
        }
        let pending = match input.pending {
            Some(p) => Some(self.pending(p)?),
            None => None,
        };
        let unseen: CardSet = Card::all()
            .filter(|c| self.place[c.index() as usize] == Place::Unknown)
            .collect();
        let hidden: usize = self.opponents.iter().map(Opponent::hidden_now).sum();
        if unseen.len() != self.public.stock_len as usize + hidden {
            return bad("the cards do not add up to one pack".into());
        }
        Ok(View {
            public: self.public,
            me: self.me,
            hand: input.hand,
            pending,
            unseen,
            opponents: self.opponents,
            hid_31: self.hid_31,
        })
    }

    /// Your pending draw, applied to the table.
    fn pending(&mut self, p: PendingInput) -> Result<(Card, bool)> {
        let top = self.public.top;
        let out = match p.from {
            Source::Stock => {
                if self.public.stock_len == 0 {
                    return bad("pending: the stock is empty".into());
                }
                let Some(c) = p.drew else {
                    return bad("pending: a stock draw must give the card drawn (\"drew\")".into());
                };
                self.claim(c, Place::Mine, "pending: the card you drew")?;
                (c, false)
            }
            Source::Pile => {
                if p.drew.is_some_and(|c| c != top) {
                    return bad(format!(
                        "pending: the top discard is {top}, not {}",
                        p.drew.unwrap_or(top)
                    ));
                }
                if !self.public.may_take() {
                    return bad(format!(
                        "pending: you may not take {top}: you put it down yourself this round"
                    ));
                }
                (top, true)
            }
        };
        self.public.apply(Move::Draw(p.from));
        Ok(out)
    }
}

impl Opponent {
    fn new(seat: u8) -> Opponent {
        Opponent {
            seat,
            turns: Vec::new(),
            stock_draws: 0,
            hidden_discards: Vec::new(),
            known_held: CardSet::EMPTY,
            shown_hand: None,
            model: crate::model::Model::Table,
        }
    }
}

fn distinct(cards: &[Card]) -> usize {
    cards.iter().copied().collect::<CardSet>().len()
}

fn show(cs: &[Card]) -> String {
    cs.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
}

fn describe(p: Place) -> String {
    match p {
        Place::Unknown => "unseen".into(),
        Place::Pile => "in the discard pile".into(),
        Place::Mine => "in your hand".into(),
        Place::Held(s) => format!("in seat {s}'s hand (taken from the pile)"),
    }
}
