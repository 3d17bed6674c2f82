//! A round as one player sees it (the Oracle's input, `oracle.md`), checked by replaying it:
//! every turn in order, every card where it can be, your hand matching your own turns. The
//! result, a [`View`], is what inference and playouts start from.

use crate::cards::{Card, CardSet};
use crate::error::{Error, Result};
use crate::round::{may_take_top, Source, MAX_SEATS};
use crate::rules::{FirstTurnKnock, RoundRules, ThirtyOneAfterKnock};

/// One turn of the round as the table saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnInput {
    Knock {
        seat: u8,
    },
    Play {
        seat: u8,
        from: Source,
        /// Your own stock draws carry the card drawn; nobody else's do.
        drew: Option<Card>,
        discard: Card,
        /// A 31 shown after a knock at a table where the round goes on (seed 001).
        shows: Option<[Card; 3]>,
    },
    /// One of your own turns whose put-down left a 31 that you kept hidden (`may_hide_31`,
    /// seed 003): otherwise like [`TurnInput::Play`]. Only you know it; opponents are modelled
    /// by the table's rule, which always shows a 31.
    PlayHiding31 {
        seat: u8,
        from: Source,
        drew: Option<Card>,
        discard: Card,
    },
}

impl TurnInput {
    /// The turn as a play or knock, and whether it hid a 31.
    fn unhidden(&self) -> (TurnInput, bool) {
        match *self {
            TurnInput::PlayHiding31 {
                seat,
                from,
                drew,
                discard,
            } => (
                TurnInput::Play {
                    seat,
                    from,
                    drew,
                    discard,
                    shows: None,
                },
                true,
            ),
            ref t => (t.clone(), false),
        }
    }
}

/// You have drawn and now choose the card to put down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingInput {
    pub from: Source,
    pub drew: Option<Card>,
}

/// The Oracle's input: a round as one player sees it.
#[derive(Clone, Debug)]
pub struct StateInput {
    pub rules: RoundRules,
    pub seats: u8,
    pub me: u8,
    pub first: u8,
    pub upcard: Card,
    pub hand: [Card; 3],
    pub turns: Vec<TurnInput>,
    pub pending: Option<PendingInput>,
}

/// What an opponent visibly did on one turn, with what the table looked like then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OppTurn {
    /// The top discard at the start of the turn, and whether this player could take it.
    pub top: Card,
    pub may_take: bool,
    /// Whether the table allowed a knock then, before the player's own limits (the knock
    /// minimum and one-suit rule, which depend on the hidden hand).
    pub knock_open: bool,
    pub stock_empty: bool,
    pub act: OppAct,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OppAct {
    Knock,
    /// Took the top discard (`top`) and put down `discard`.
    Take {
        discard: Card,
        shows: Option<[Card; 3]>,
    },
    /// Drew the next stock card (their `draw`-th, from 0) and put down `discard`.
    Draw {
        draw: u8,
        discard: Card,
        shows: Option<[Card; 3]>,
    },
}

/// One opponent's round so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    pub seat: u8,
    pub turns: Vec<OppTurn>,
    /// How many cards they drew from the stock.
    pub stock_draws: u8,
    /// Cards they put down that had been hidden in their hand (dealt or drawn), in order, each
    /// with the number of their hidden slots filled by then (3 dealt + the draws made so far).
    pub hidden_discards: Vec<(Card, u8)>,
    /// Cards they took from the pile and still hold.
    pub known_held: CardSet,
    /// Their whole hand, when a 31 they showed revealed it.
    pub shown_hand: Option<[Card; 3]>,
}

impl Opponent {
    /// Hidden cards in their hand now.
    pub fn hidden_now(&self) -> usize {
        if self.shown_hand.is_some() {
            0
        } else {
            3 - self.known_held.len()
        }
    }
}

/// A checked view of the round, at the advised player's turn.
#[derive(Clone, Debug)]
pub struct View {
    pub rules: RoundRules,
    pub seats: u8,
    pub me: u8,
    pub first: u8,
    pub hand: [Card; 3],
    /// A pending draw: the new card and whether it came from the pile.
    pub pending: Option<(Card, bool)>,
    pub top: Card,
    pub top_by: Option<u8>,
    pub knocker: Option<u8>,
    pub finals_left: u8,
    pub turns_played: u16,
    pub stock_len: u8,
    /// Cards whose place is unknown to you: in the stock or hidden in an opponent's hand.
    pub unseen: CardSet,
    pub opponents: Vec<Opponent>,
    pub shown_losses: [u8; MAX_SEATS],
    pub showed_31: [bool; MAX_SEATS],
    /// The cards each seat has put down this round.
    pub put_downs: [CardSet; MAX_SEATS],
    /// You hold a 31 you kept hidden (it counts as 30 at the showdown).
    pub hid_31: [bool; MAX_SEATS],
}

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

impl View {
    /// Check a state by replaying it, and build the view. Every refusal names its problem.
    pub fn from_input(input: &StateInput) -> Result<View> {
        input.rules.validate()?;
        let StateInput {
            rules,
            seats,
            me,
            first,
            upcard,
            hand,
            ref turns,
            pending,
        } = *input;
        if !(2..=MAX_SEATS as u8).contains(&seats) {
            return bad(format!("seats must be 2 to 9, not {seats}"));
        }
        if me >= seats {
            return bad(format!(
                "me: seat {me} is not one of the {seats} seats (0 to {})",
                seats - 1
            ));
        }
        if first >= seats {
            return bad(format!(
                "first: seat {first} is not one of the {seats} seats (0 to {})",
                seats - 1
            ));
        }
        let n = seats as usize;
        if hand.iter().collect::<std::collections::HashSet<_>>().len() != 3 {
            return bad(format!("hand: a card appears twice in {}", show(&hand)));
        }

        let hidden: Vec<bool> = turns.iter().map(|t| t.unhidden().1).collect();
        let turns: Vec<TurnInput> = turns.iter().map(|t| t.unhidden().0).collect();
        let turns = &turns;
        // The top of the pile at the start of each turn (it does not depend on hidden cards).
        let mut tops = Vec::with_capacity(turns.len() + 1);
        let mut top = upcard;
        for t in turns {
            tops.push(top);
            if let TurnInput::Play { discard, .. } = t {
                top = *discard;
            }
        }
        tops.push(top);

        // Your dealt hand: undo your own turns from your hand now.
        let mut dealt: Vec<Card> = hand.to_vec();
        if let Some(p) = pending {
            if p.from == Source::Stock && p.drew.is_none() {
                return bad("pending: a stock draw must give the card drawn (\"drew\")".into());
            }
        }
        for (i, t) in turns.iter().enumerate().rev() {
            if let TurnInput::Play {
                seat,
                from,
                drew,
                discard,
                ..
            } = *t
            {
                if seat != me {
                    continue;
                }
                let new = match from {
                    Source::Pile => tops[i],
                    Source::Stock => match drew {
                        Some(c) => c,
                        None => {
                            return bad(format!(
                                "turn {}: your own stock draw must give the card drawn (\"drew\")",
                                i + 1
                            ))
                        }
                    },
                };
                // After the turn you held `dealt`; before it: without `new`, with `discard`.
                if discard != new {
                    let Some(pos) = dealt.iter().position(|&c| c == new) else {
                        return bad(format!(
                            "your hand does not match your own turns: you took {new} on turn {} but do not hold it afterwards",
                            i + 1
                        ));
                    };
                    dealt[pos] = discard;
                } else if from == Source::Pile {
                    return bad(format!(
                        "turn {}: a card taken from the pile ({new}) may not be put straight back",
                        i + 1
                    ));
                }
            }
        }
        let dealt: [Card; 3] = [dealt[0], dealt[1], dealt[2]];

        let mut place = [Place::Unknown; 52];
        claim(&mut place, upcard, Place::Pile, "upcard")?;
        for c in dealt {
            claim(&mut place, c, Place::Mine, "your dealt hand")?;
        }
        if rules.scoring.score(dealt).is_blitz() {
            return bad("the round is already over: you were dealt 31".into());
        }

        let mut opponents: Vec<Opponent> = (0..seats)
            .filter(|&s| s != me)
            .map(|s| Opponent {
                seat: s,
                turns: Vec::new(),
                stock_draws: 0,
                hidden_discards: Vec::new(),
                known_held: CardSet::EMPTY,
                shown_hand: None,
            })
            .collect();
        let opp_index = |s: u8| -> usize {
            if s < me {
                s as usize
            } else {
                s as usize - 1
            }
        };

        let mut my_hand = dealt;
        let mut to_move = first;
        let mut top_by: Option<u8> = None;
        let mut knocker: Option<u8> = None;
        let mut finals_left = 0u8;
        let mut stock_len: i32 = 52 - 3 * n as i32 - 1;
        let mut over: Option<String> = None;
        let mut shown_losses = [0u8; MAX_SEATS];
        let mut showed_31 = [false; MAX_SEATS];
        let mut put_downs = [CardSet::EMPTY; MAX_SEATS];
        let mut hid_31 = [false; MAX_SEATS];

        for (i, t) in turns.iter().enumerate() {
            let num = i + 1;
            if let Some(why) = &over {
                return bad(format!("turn {num}: the round was already over ({why})"));
            }
            let seat = match *t {
                TurnInput::Knock { seat }
                | TurnInput::Play { seat, .. }
                | TurnInput::PlayHiding31 { seat, .. } => seat,
            };
            if seat >= seats {
                return bad(format!(
                    "turn {num}: seat {seat} is not one of the {seats} seats"
                ));
            }
            if seat != to_move {
                return bad(format!(
                    "turn {num}: seat {seat} played out of order (it was seat {to_move}'s turn)"
                ));
            }
            let top = tops[i];
            let may_take = may_take_top(
                &rules,
                seats,
                seat,
                top,
                top_by,
                knocker,
                put_downs[seat as usize],
            );
            let knock_open = knocker.is_none()
                && stock_len > 0
                && !(i == 0 && rules.first_turn_knock != FirstTurnKnock::Allowed);
            let stock_empty = stock_len == 0;
            match *t {
                TurnInput::Knock { .. } => {
                    if knocker.is_some() {
                        return bad(format!(
                            "turn {num}: a second knock (seat {} already knocked)",
                            knocker.unwrap_or(0)
                        ));
                    }
                    if stock_len == 0 {
                        return bad(format!(
                            "turn {num}: nobody may knock once the stock is empty"
                        ));
                    }
                    if !knock_open {
                        return bad(format!(
                            "turn {num}: the table does not allow a knock on the first turn{}",
                            if rules.first_turn_knock == FirstTurnKnock::Blind {
                                " (only a blind showdown called before looking, which ends the round)"
                            } else {
                                ""
                            }
                        ));
                    }
                    if seat == me {
                        check_my_knock(&rules, my_hand, num)?;
                    } else {
                        opponents[opp_index(seat)].turns.push(OppTurn {
                            top,
                            may_take,
                            knock_open,
                            stock_empty,
                            act: OppAct::Knock,
                        });
                    }
                    knocker = Some(seat);
                    finals_left = seats - 1;
                    to_move = (seat + 1) % seats;
                    continue;
                }
                TurnInput::Play {
                    from,
                    drew,
                    discard,
                    shows,
                    ..
                } => {
                    let hides = hidden[i];
                    if hides && seat != me {
                        return bad(format!(
                            "turn {num}: \"hides\" is only known for your own turns, not seat {seat}'s"
                        ));
                    }
                    let new = match from {
                        Source::Pile => {
                            if !may_take {
                                return bad(format!(
                                    "turn {num}: seat {seat} took {top}, a card they had put down themselves this round"
                                ));
                            }
                            top
                        }
                        Source::Stock => {
                            if stock_len == 0 {
                                return bad(format!(
                                    "turn {num}: seat {seat} drew from an empty stock"
                                ));
                            }
                            stock_len -= 1;
                            if seat == me {
                                let c = drew.expect("checked above");
                                claim(
                                    &mut place,
                                    c,
                                    Place::Mine,
                                    &format!("turn {num}: the card you drew"),
                                )?;
                                c
                            } else {
                                if drew.is_some() {
                                    return bad(format!(
                                        "turn {num}: \"drew\" is only known for your own stock draws, not seat {seat}'s"
                                    ));
                                }
                                upcard // placeholder: hidden
                            }
                        }
                    };
                    if from == Source::Pile && discard == new {
                        return bad(format!(
                            "turn {num}: a card taken from the pile ({new}) may not be put straight back"
                        ));
                    }
                    let after: Option<[Card; 3]>;
                    if seat == me {
                        if from == Source::Pile {
                            place[new.index() as usize] = Place::Mine;
                        }
                        let four = [my_hand[0], my_hand[1], my_hand[2], new];
                        let Some(pos) = four.iter().position(|&c| c == discard) else {
                            return bad(format!(
                                "your hand does not match your own turns: turn {num} puts down {discard}, which you did not hold"
                            ));
                        };
                        let mut kept = Vec::with_capacity(3);
                        for (j, &c) in four.iter().enumerate() {
                            if j != pos {
                                kept.push(c);
                            }
                        }
                        my_hand = [kept[0], kept[1], kept[2]];
                        place[discard.index() as usize] = Place::Pile;
                        after = Some(my_hand);
                    } else {
                        let o = &mut opponents[opp_index(seat)];
                        let act = match from {
                            Source::Pile => {
                                o.known_held.insert(new);
                                place[new.index() as usize] = Place::Held(seat);
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
                        match place[discard.index() as usize] {
                            Place::Held(s) if s == seat => o.known_held.remove(discard),
                            Place::Unknown => {
                                if o.shown_hand.is_some() {
                                    return bad(format!(
                                        "turn {num}: seat {seat} put down {discard}, but their hand was shown"
                                    ));
                                }
                                o.hidden_discards.push((discard, 3 + o.stock_draws));
                            }
                            p => {
                                return bad(format!(
                                    "turn {num}: seat {seat} put down {discard}, which is {}",
                                    describe(p)
                                ))
                            }
                        }
                        place[discard.index() as usize] = Place::Pile;
                        o.turns.push(OppTurn {
                            top,
                            may_take,
                            knock_open,
                            stock_empty,
                            act,
                        });
                        after = o.shown_hand;
                    }
                    // A 31 after the put-down.
                    let blitz_now = after.is_some_and(|h| rules.scoring.score(h).is_blitz());
                    let continues = knocker.is_some()
                        && rules.thirty_one_after_knock == ThirtyOneAfterKnock::Continues;
                    if hides {
                        if !rules.may_hide_31 {
                            return bad(format!(
                                "turn {num}: this table does not allow hiding a 31 (may_hide_31 is off)"
                            ));
                        }
                        if shows.is_some() {
                            return bad(format!(
                                "turn {num}: a 31 is either shown or hidden, not both"
                            ));
                        }
                        if !blitz_now {
                            return bad(format!(
                                "turn {num}: you hid a 31, but your hand after the put-down is {}, which is not 31",
                                show(&my_hand)
                            ));
                        }
                    }
                    if seat == me {
                        hid_31[me as usize] = hides;
                    }
                    if hides {
                        // Kept hidden: the round goes on.
                    } else if let Some(s) = shows {
                        if !continues {
                            return bad(format!(
                                "turn {num}: \"shows\" belongs only to a 31 shown after a knock at a table where the round goes on (thirty_one_after_knock = continues)"
                            ));
                        }
                        if !rules.scoring.score(s).is_blitz() {
                            return bad(format!(
                                "turn {num}: the hand shown, {}, is not 31",
                                show(&s)
                            ));
                        }
                        if seat == me {
                            if !same_cards(s, my_hand) {
                                return bad(format!(
                                    "turn {num}: you showed {} but held {}",
                                    show(&s),
                                    show(&my_hand)
                                ));
                            }
                        } else {
                            let o = &mut opponents[opp_index(seat)];
                            for c in s {
                                match place[c.index() as usize] {
                                    Place::Unknown => place[c.index() as usize] = Place::Held(seat),
                                    Place::Held(h) if h == seat => {}
                                    p => {
                                        return bad(format!(
                                            "turn {num}: seat {seat} showed {c}, which is {}",
                                            describe(p)
                                        ))
                                    }
                                }
                            }
                            o.shown_hand = Some(s);
                            o.known_held = s.iter().copied().collect();
                        }
                        showed_31[seat as usize] = true;
                        for (x, l) in shown_losses.iter_mut().enumerate().take(n) {
                            if x != seat as usize {
                                *l += 1;
                            }
                        }
                    } else if blitz_now {
                        if seat == me && continues {
                            return bad(format!(
                                "turn {num}: your hand is 31 after the put-down: give the hand you showed (\"shows\")"
                            ));
                        }
                        over = Some(format!("seat {seat} showed 31 on turn {num}"));
                    }
                    top_by = Some(seat);
                    put_downs[seat as usize].insert(discard);
                }
                TurnInput::PlayHiding31 { .. } => unreachable!("turned into a play above"),
            }
            if knocker.is_some() {
                finals_left -= 1;
                if finals_left == 0 {
                    over = Some("every player had their final turn after the knock".into());
                }
            }
            to_move = (seat + 1) % seats;
        }
        if let Some(why) = over {
            return bad(format!("the round is already over ({why})"));
        }
        if to_move != me {
            return bad(format!(
                "it is not your turn: seat {to_move} is to play, and you are seat {me}"
            ));
        }
        if !same_cards(my_hand, hand) {
            return bad(format!(
                "your hand does not match your own turns: they leave you {}, not {}",
                show(&my_hand),
                show(&hand)
            ));
        }
        let mut pend = None;
        if let Some(p) = pending {
            match p.from {
                Source::Stock => {
                    if stock_len == 0 {
                        return bad("pending: the stock is empty".into());
                    }
                    let c = p.drew.expect("checked above");
                    claim(&mut place, c, Place::Mine, "pending: the card you drew")?;
                    stock_len -= 1;
                    pend = Some((c, false));
                }
                Source::Pile => {
                    if p.drew.is_some_and(|c| c != top) {
                        return bad(format!(
                            "pending: the top discard is {top}, not {}",
                            p.drew.unwrap_or(top)
                        ));
                    }
                    if !may_take_top(
                        &rules,
                        seats,
                        me,
                        top,
                        top_by,
                        knocker,
                        put_downs[me as usize],
                    ) {
                        return bad(format!(
                            "pending: you may not take {top}: you put it down yourself this round"
                        ));
                    }
                    pend = Some((top, true));
                }
            }
        }
        let unseen: CardSet = Card::all()
            .filter(|c| place[c.index() as usize] == Place::Unknown)
            .collect();
        let hidden: usize = opponents.iter().map(Opponent::hidden_now).sum();
        debug_assert_eq!(unseen.len(), stock_len as usize + hidden);
        if unseen.len() != stock_len as usize + hidden {
            return bad("the cards do not add up to one pack".into());
        }
        Ok(View {
            rules,
            seats,
            me,
            first,
            hand,
            pending: pend,
            top,
            top_by,
            knocker,
            finals_left,
            turns_played: turns.len() as u16,
            stock_len: stock_len as u8,
            unseen,
            opponents,
            shown_losses,
            showed_31,
            put_downs,
            hid_31,
        })
    }

    /// Whether you may knock now (before a pending draw only).
    pub fn may_knock(&self) -> bool {
        self.pending.is_none()
            && self.knocker.is_none()
            && self.stock_len > 0
            && !(self.turns_played == 0 && self.rules.first_turn_knock != FirstTurnKnock::Allowed)
            && knock_limits_allow(&self.rules, self.hand)
    }

    /// Whether you may take the top discard now.
    pub fn may_take(&self) -> bool {
        self.pending.is_none()
            && may_take_top(
                &self.rules,
                self.seats,
                self.me,
                self.top,
                self.top_by,
                self.knocker,
                self.put_downs[self.me as usize],
            )
    }
}

/// The table's own limits on a knock with this hand: the minimum score and the one-suit rule.
pub fn knock_limits_allow(rules: &RoundRules, hand: [Card; 3]) -> bool {
    if rules.knock_needs_one_suit
        && !(hand[0].suit() == hand[1].suit() && hand[1].suit() == hand[2].suit())
    {
        return false;
    }
    rules.scoring.score(hand) >= rules.min_knock
}

fn check_my_knock(rules: &RoundRules, hand: [Card; 3], num: usize) -> Result<()> {
    if knock_limits_allow(rules, hand) {
        Ok(())
    } else {
        bad(format!(
            "turn {num}: your knock breaks the table's knock limits"
        ))
    }
}

/// Put a card where it now is, refusing a card already placed elsewhere.
fn claim(place: &mut [Place; 52], c: Card, p: Place, what: &str) -> Result<()> {
    let slot = &mut place[c.index() as usize];
    if *slot != Place::Unknown {
        return bad(format!("{what}: {c} is already {}", describe(*slot)));
    }
    *slot = p;
    Ok(())
}

fn same_cards(a: [Card; 3], b: [Card; 3]) -> bool {
    a.iter().copied().collect::<CardSet>() == b.iter().copied().collect::<CardSet>()
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
