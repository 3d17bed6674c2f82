//! The table's decision rule (`rules.md`): every computer player, and the Oracle's model of every
//! player. It exists once, here.

use super::{Card, Score, ScoreTable, Scoring};

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
    let table = scoring.table();
    start_with(
        table,
        hand,
        table.score(hand),
        top,
        may_knock,
        stock_empty,
        knock_at,
    )
    .0
}

/// Whether a player who takes a discard only where it leaves `least` or more (None: wherever the
/// rule does) makes a take the rule makes, the hand then left scoring `left` (asked only where
/// it counts): always after a knock (`knocked`) or with the stock empty. The modelled expert's
/// takes (`crate::model::Params::take_from`), played in the playouts and weighed in the read.
#[inline(always)]
pub fn takes_leaving(
    least: Option<Score>,
    knocked: bool,
    stock_empty: bool,
    left: impl FnOnce() -> Score,
) -> bool {
    match least {
        Some(least) if !knocked && !stock_empty => left() >= least,
        _ => true,
    }
}

/// [`choose_start`] with the score table and the hand's score at hand; a take comes with its
/// put-down (rule 2 has already chosen it).
#[inline(always)]
pub fn start_with(
    table: ScoreTable,
    hand: [Card; 3],
    now: Score,
    top: Option<Card>,
    may_knock: bool,
    stock_empty: bool,
    knock_at: Score,
) -> (Start, Option<PutDown>) {
    let take = Scored { table, hand };
    start_by(now, top, may_knock, stock_empty, knock_at, &take)
}

/// How rule 2 finds the best put-down after taking a card.
pub(crate) trait Take {
    /// The put-down after taking `c` when it beats the hand's score `now` (rule 2 takes only
    /// then), or None.
    fn take(&self, c: Card, now: Score) -> Option<PutDown>;
}

/// Rule 2 worked out by scoring the candidates.
struct Scored {
    table: ScoreTable,
    hand: [Card; 3],
}

impl Take for Scored {
    #[inline(always)]
    fn take(&self, c: Card, now: Score) -> Option<PutDown> {
        let Scored { table, hand } = *self;
        // Under standard scoring a take can only beat `now` in the taken card's suit, and by at
        // most its value: when even that does not beat it, no put-down will (rule 2 is strict).
        let hopeless = table.is_standard()
            && ScoreTable::lane_score_of_suit(
                ScoreTable::lanes(hand[0])
                    + ScoreTable::lanes(hand[1])
                    + ScoreTable::lanes(hand[2])
                    + ScoreTable::lanes(c),
                c,
            ) <= now;
        if hopeless {
            return None;
        }
        let p = put_down_with(table, hand, now, c, true);
        (p.score > now).then_some(p)
    }
}

/// Rules 1 to 3, rule 2's put-down found by `take`.
#[inline(always)]
pub(crate) fn start_by(
    now: Score,
    top: Option<Card>,
    may_knock: bool,
    stock_empty: bool,
    knock_at: Score,
    take: &impl Take,
) -> (Start, Option<PutDown>) {
    if may_knock && now >= knock_at {
        return (Start::Knock, None);
    }
    if let Some(p) = top.and_then(|c| take.take(c, now)) {
        return (Start::Take, Some(p));
    }
    if stock_empty {
        (Start::Decline, None)
    } else {
        (Start::Draw, None)
    }
}

/// Rule 4's order of a card, reversed so that the card to put down has the larger key: lowest
/// value, then the card just drawn, then suit order, then the lower rank. Bit 6 is left free for
/// "the card just drawn" (added as 64). Shifted up by two: a key's lowest bits are the place.
const ORDER: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 52 {
        let c = Card::from_index(i as u8);
        let tie = ((c.value() as u32) << 7) | ((c.suit() as u32) << 4) | c.rank() as u32;
        t[i] = (2047 - (tie | 64)) << 2;
        i += 1;
    }
    t
};

/// Rules 2–4: the card to put down from `hand` plus the new card `new`.
///
/// `from_pile`: `new` was taken from the discard pile and may not be put straight back. When it
/// was drawn from the stock it may be, and it is "the card just drawn" of the tie-break.
#[inline]
pub fn choose_put_down(scoring: &Scoring, hand: [Card; 3], new: Card, from_pile: bool) -> PutDown {
    let table = scoring.table();
    put_down_with(table, hand, table.score(hand), new, from_pile)
}

/// [`choose_put_down`] with the score table and the hand's score (`now`) at hand.
///
/// Each candidate gets one key: the score kept (highest first), then rule 4's order, then the
/// candidate's place among the four cards, packed so that one comparison decides and the winner
/// is read from its key without a branch. Putting the new card down keeps the hand: `now`.
#[inline(always)]
pub fn put_down_with(
    table: ScoreTable,
    hand: [Card; 3],
    now: Score,
    new: Card,
    from_pile: bool,
) -> PutDown {
    let [a, b, c] = hand;
    let key = |card: Card, kept: Score, place: u32| {
        (u32::from(kept.halves()) << 13) | ORDER[card.index() as usize] | place
    };
    let (ka, kb, kc) = if table.is_standard() {
        let all = ScoreTable::lanes(a) + ScoreTable::lanes(b) + ScoreTable::lanes(c);
        let with_new = all + ScoreTable::lanes(new);
        let without = |x: Card| ScoreTable::lane_score(with_new - ScoreTable::lanes(x));
        (
            key(a, without(a), 0),
            key(b, without(b), 1),
            key(c, without(c), 2),
        )
    } else {
        (
            key(a, table.score([new, b, c]), 0),
            key(b, table.score([a, new, c]), 1),
            key(c, table.score([a, b, new]), 2),
        )
    };
    let kn = key(new, now, 3) + (64 << 2);
    // The first three are always candidates; the new card only when it was drawn.
    let kn = if from_pile { 0 } else { kn };
    let best = ka.max(kb).max(kc).max(kn);
    // The four cards as bytes; the one put down is replaced by the new card (a no-op when the
    // new card itself goes).
    let shift = 8 * (best & 3);
    let four = u32::from_le_bytes([a.index(), b.index(), c.index(), new.index()]);
    let card = Card::from_index((four >> shift) as u8);
    let kept = (four & !(0xFF << shift)) | (u32::from(new.index()) << shift);
    let [x, y, z, _] = kept.to_le_bytes();
    PutDown {
        card,
        kept: [
            Card::from_index(x),
            Card::from_index(y),
            Card::from_index(z),
        ],
        score: Score((best >> 13) as u8),
    }
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
        three_of_a_kind: crate::hand::ThreeOfAKind::None,
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

#[cfg(test)]
#[path = "decision_tests.rs"]
mod exhaustive;
