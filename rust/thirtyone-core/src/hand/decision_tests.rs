//! The rule as the playouts' turns compute it (`start_with` and `put_down_with` under standard
//! scoring: the suit lanes and one packed key per candidate), against the rule read straight from
//! `rules.md`, for every hand in every order of its cards, every fourth card and every flag of a
//! turn. Until the put-down table was retired (`docs/evidence/speed-cache-profile.md`, "A hot path
//! that does not need a big cache") the turns read their put-downs from a 4.6 MB table built from
//! these functions, and its test compared the two for every case; this test keeps that proof for
//! the computation that replaced it.

use super::*;

/// A hand's score by the rules: the best total of one suit's values.
fn naive_score(cards: [Card; 3]) -> Score {
    let mut by_suit = [0u8; 4];
    for c in cards {
        by_suit[usize::from(c.suit())] += c.value();
    }
    Score::from_points(by_suit.into_iter().max().unwrap_or(0))
}

/// Rule 4's order of a card: value, not the card just drawn, suit, rank (smaller goes first).
type TieBreak = (u8, bool, u8, u8);

/// Rules 2 to 4 read from `rules.md`: among the cards that may go (not a card taken from the
/// pile), the one whose going keeps the best score; ties to the lowest value, then the card just
/// drawn, then suit order (clubs, diamonds, hearts, spades), then the lower rank. The kept hand
/// is the hand with that card replaced by the new one (the hand itself when the new card goes).
fn naive_put_down(hand: [Card; 3], new: Card, from_pile: bool) -> PutDown {
    // The best so far: the score kept, the tie-break's order (smaller goes first), the slot.
    let mut best: Option<(Score, TieBreak, usize)> = None;
    for slot in 0..4 {
        if from_pile && slot == 3 {
            continue;
        }
        let mut kept = hand;
        let card = if slot == 3 { new } else { hand[slot] };
        if slot < 3 {
            kept[slot] = new;
        }
        let score = naive_score(kept);
        // Smaller goes first: lower value, drawn (false sorts first), suit, rank.
        let order = (card.value(), slot != 3, card.suit(), card.rank());
        let better = match best {
            None => true,
            Some((s, o, _)) => score > s || (score == s && order < o),
        };
        if better {
            best = Some((score, order, slot));
        }
    }
    let (score, _, slot) = best.expect("three cards may always go");
    let mut kept = hand;
    let card = if slot == 3 { new } else { hand[slot] };
    if slot < 3 {
        kept[slot] = new;
    }
    PutDown { card, kept, score }
}

/// Rules 1 to 3 read from `rules.md`.
fn naive_start(
    hand: [Card; 3],
    top: Option<Card>,
    may_knock: bool,
    stock_empty: bool,
    knock_at: Score,
) -> (Start, Option<PutDown>) {
    let now = naive_score(hand);
    if may_knock && now >= knock_at {
        return (Start::Knock, None);
    }
    if let Some(c) = top {
        let p = naive_put_down(hand, c, true);
        if p.score > now {
            return (Start::Take, Some(p));
        }
    }
    if stock_empty {
        (Start::Decline, None)
    } else {
        (Start::Draw, None)
    }
}

#[test]
fn the_computed_rule_is_the_rule_for_every_hand_card_and_flag() {
    let table = ScoreTable::STANDARD;
    let (mut checked, mut takes, mut knocks) = (0usize, 0usize, 0usize);
    for high in 2..52u8 {
        for middle in 1..high {
            for low in 0..middle {
                let [x, y, z] = [low, middle, high].map(Card::from_index);
                for hand in [
                    [x, y, z],
                    [x, z, y],
                    [y, x, z],
                    [y, z, x],
                    [z, x, y],
                    [z, y, x],
                ] {
                    let now = table.score(hand);
                    assert_eq!(now, naive_score(hand), "{hand:?}");
                    for new in Card::all().filter(|c| !hand.contains(c)) {
                        for from_pile in [false, true] {
                            assert_eq!(
                                put_down_with(table, hand, now, new, from_pile),
                                naive_put_down(hand, new, from_pile),
                                "{hand:?} + {new}, from the pile: {from_pile}"
                            );
                        }
                        for flags in 0..16u8 {
                            let top = (flags & 1 != 0).then_some(new);
                            let (may_knock, stock_empty) = (flags & 2 != 0, flags & 4 != 0);
                            let knock_at = if flags & 8 != 0 {
                                TABLE_KNOCK_AT
                            } else {
                                Score::from_points(20)
                            };
                            let got =
                                start_with(table, hand, now, top, may_knock, stock_empty, knock_at);
                            let want = naive_start(hand, top, may_knock, stock_empty, knock_at);
                            assert_eq!(got, want, "{hand:?} top {top:?}, flags {flags}");
                            takes += usize::from(got.0 == Start::Take);
                            knocks += usize::from(got.0 == Start::Knock);
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 22_100 * 6 * 49);
    // Every kind of start came up in numbers.
    // Takes and knocks came up in numbers (half the flags offer a top, half allow a knock).
    assert!(
        takes > checked / 2 && knocks > checked / 4,
        "{takes} {knocks}"
    );
}
