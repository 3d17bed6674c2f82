//! The table's decision rule (`rules.md`): every computer player, and the Oracle's model of every
//! player. It exists once, here.

use crate::cards::Card;
use crate::scoring::{Score, Scoring};

/// The computer players' knock threshold.
pub const TABLE_KNOCK_AT: Score = Score::from_points(27);

/// What a player does at the start of a turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start {
    Knock,
    /// Take the top discard.
    Take,
    /// Draw from the stock.
    Draw,
    /// The stock is empty and the top discard is not worth taking (or may not be taken):
    /// the round ends.
    Decline,
}

/// The choice of a put-down: the card put down, the hand kept and its score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PutDown {
    pub card: Card,
    pub kept: [Card; 3],
    pub score: Score,
}

/// Rules 1 to 3: what to do at the start of a turn.
///
/// `top` is the top discard if this player may take it (None when they may not), `may_knock`
/// whether the table allows this player to knock now, `stock_empty` whether the stock is spent.
#[inline]
pub fn choose_start(
    scoring: &Scoring,
    hand: [Card; 3],
    top: Option<Card>,
    may_knock: bool,
    stock_empty: bool,
    knock_at: Score,
) -> Start {
    let now = scoring.score(hand);
    if may_knock && now >= knock_at {
        return Start::Knock;
    }
    if let Some(c) = top {
        if choose_put_down(scoring, hand, c, true).score > now {
            return Start::Take;
        }
    }
    if stock_empty {
        Start::Decline
    } else {
        Start::Draw
    }
}

/// Rules 2–4: the card to put down from `hand` plus the new card `new`.
///
/// `from_pile`: `new` was taken from the discard pile and may not be put straight back. When it
/// was drawn from the stock it may be, and it is "the card just drawn" of the tie-break.
#[inline]
pub fn choose_put_down(scoring: &Scoring, hand: [Card; 3], new: Card, from_pile: bool) -> PutDown {
    let four = [hand[0], hand[1], hand[2], new];
    let mut best: Option<(PutDown, (u8, u8, u8, u8))> = None;
    for i in 0..4 {
        if from_pile && i == 3 {
            continue;
        }
        let d = four[i];
        let mut kept = [new; 3];
        let mut k = 0;
        for (j, &c) in four.iter().enumerate() {
            if j != i && k < 3 {
                kept[k] = c;
                k += 1;
            }
        }
        let score = scoring.score(kept);
        // Rule 4: lowest value, then the card just drawn, then suit order, then lower rank.
        let key = (d.value(), u8::from(i != 3), d.suit(), d.rank());
        let better = match &best {
            None => true,
            Some((b, bkey)) => score > b.score || (score == b.score && key < *bkey),
        };
        if better {
            best = Some((
                PutDown {
                    card: d,
                    kept,
                    score,
                },
                key,
            ));
        }
    }
    best.expect("a put-down always has a candidate").0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards<const N: usize>(t: &str) -> [Card; N] {
        let v: Vec<Card> = t.split_whitespace().map(|c| c.parse().unwrap()).collect();
        v.try_into().unwrap()
    }
    fn card(t: &str) -> Card {
        t.parse().unwrap()
    }
    const S: Scoring = Scoring {
        three_of_a_kind: crate::scoring::ThreeOfAKind::None,
        three_aces_33: false,
        runs: false,
    };

    #[test]
    fn knocks_at_27_when_allowed() {
        let h = cards("AH KH 5H"); // 26
        assert_eq!(
            choose_start(&S, h, None, true, false, TABLE_KNOCK_AT),
            Start::Draw
        );
        let h = cards("AH KH 6H"); // 27
        assert_eq!(
            choose_start(&S, h, None, true, false, TABLE_KNOCK_AT),
            Start::Knock
        );
        assert_eq!(
            choose_start(&S, h, None, false, false, TABLE_KNOCK_AT),
            Start::Draw
        );
    }

    #[test]
    fn takes_only_a_strict_improvement() {
        // 2C 3D 9H scores 9; 9S would leave 9 at best: not strictly better.
        let h = cards("2C 3D 9H");
        assert_eq!(
            choose_start(&S, h, Some(card("9S")), false, false, TABLE_KNOCK_AT),
            Start::Draw
        );
        assert_eq!(
            choose_start(&S, h, Some(card("TH")), false, false, TABLE_KNOCK_AT),
            Start::Take
        );
        assert_eq!(
            choose_start(&S, h, None, false, true, TABLE_KNOCK_AT),
            Start::Decline
        );
    }

    #[test]
    fn tie_break_lowest_value_then_drawn_then_suit_then_rank() {
        // Holding KH QH plus a drawn 5S, with 2C: dropping 2C or 5S both leave 20.
        let p = choose_put_down(&S, cards("KH QH 2C"), card("5S"), false);
        assert_eq!(p.card, card("2C"));
        // Equal values: the card just drawn goes first.
        let p = choose_put_down(&S, cards("KH QH 5C"), card("5S"), false);
        assert_eq!(p.card, card("5S"));
        // Equal values, not drawn (taken from the pile): suit order.
        let p = choose_put_down(&S, cards("KH 5D 5C"), card("QH"), true);
        assert_eq!(p.card, card("5C"));
        // Ten-value cards of one suit: the lower rank.
        let p = choose_put_down(&S, cards("KS QS JS"), card("2C"), true);
        assert_eq!(p.card, card("JS"));
        assert_eq!(p.score, Score::from_points(20));
    }
}
