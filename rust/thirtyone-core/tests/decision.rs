//! The table's decision rule (rules.md), clause by clause and step by step of the tie-break.

mod common;

use common::{c, hand};
use thirtyone_core::hand::decision::{choose_put_down, choose_start, Start, TABLE_KNOCK_AT};
use thirtyone_core::{Card, Score, Scoring};

const S: Scoring = Scoring {
    three_of_a_kind: thirtyone_core::ThreeOfAKind::None,
    three_aces_33: false,
    runs: false,
};

fn start(h: &str, top: Option<&str>, may_knock: bool, stock_empty: bool) -> Start {
    choose_start(
        &S,
        hand(h),
        top.map(c),
        may_knock,
        stock_empty,
        TABLE_KNOCK_AT,
    )
}

fn put(h: &str, new: &str, from_pile: bool) -> Card {
    choose_put_down(&S, hand(h), c(new), from_pile).card
}

#[test]
fn knock_at_27_only_when_allowed() {
    assert_eq!(TABLE_KNOCK_AT, Score::from_points(27));
    assert_eq!(start("AH KH 6H", Some("2C"), true, false), Start::Knock); // 27
    assert_eq!(start("AH KH 5H", Some("2C"), true, false), Start::Draw); // 26
    assert_eq!(start("AH KH 6H", Some("2C"), false, false), Start::Draw);
    // rule 1 before rule 2: QH would make 31, but 27 knocks first
    assert_eq!(start("AH KH 6H", Some("QH"), true, false), Start::Knock);
    assert_eq!(start("AH KH 6H", Some("QH"), false, false), Start::Take);
}

#[test]
fn take_only_when_strictly_better() {
    assert_eq!(start("2C 3D 9H", Some("8H"), false, false), Start::Take); // 17 > 9
    assert_eq!(start("2C 3D 9H", Some("9S"), false, false), Start::Draw); // 9 = 9
    assert_eq!(start("KH QH 5C", Some("5D"), false, false), Start::Draw); // 20 = 20
    assert_eq!(start("KH QH 5C", Some("2H"), false, false), Start::Take); // 22 > 20
    assert_eq!(start("2C 3D 9H", Some("8H"), false, true), Start::Take);
}

#[test]
fn draw_otherwise_decline_with_an_empty_stock() {
    assert_eq!(start("2C 3D 9H", Some("4S"), false, false), Start::Draw);
    assert_eq!(start("2C 3D 9H", Some("4S"), false, true), Start::Decline);
    assert_eq!(start("2C 3D 9H", None, false, false), Start::Draw);
    assert_eq!(start("2C 3D 9H", None, false, true), Start::Decline);
}

#[test]
fn best_score_first() {
    // 2H 3H KH + drawn 5S: dropping 5S keeps 15, more than any other drop.
    assert_eq!(put("2H 3H KH", "5S", false), c("5S"));
    let p = choose_put_down(&S, hand("AH KH 2C"), c("9H"), false);
    assert_eq!((p.card, p.score), (c("2C"), Score::from_points(30)));
}

#[test]
fn tie_break_lowest_value() {
    assert_eq!(put("2H 9H KS", "QS", false), c("2H"));
    assert_eq!(put("KH QH 3C", "2C", false), c("2C"));
    assert_eq!(put("KH QH 2C", "3C", false), c("2C"));
}

#[test]
fn tie_break_card_just_drawn() {
    assert_eq!(put("KH QH 5C", "5S", false), c("5S"));
    assert_eq!(put("AH KH TC", "KS", false), c("KS"));
    assert_eq!(put("AH KH QS", "KS", false), c("KS"));
    assert_eq!(put("KD QD TD", "JD", false), c("JD"));
}

#[test]
fn tie_break_suit_order() {
    assert_eq!(put("KH 5D 5C", "QH", true), c("5C"));
    assert_eq!(put("6S 6D KC", "QC", false), c("6D"));
    assert_eq!(put("7S 7H 7D", "7C", true), c("7D"));
    assert_eq!(put("7S 7H 9C", "9D", true), c("7H"));
    // suit order before rank: KC (clubs) before TD (diamonds)
    assert_eq!(put("KC TD AH", "QH", true), c("KC"));
}

#[test]
fn tie_break_ten_value_rank() {
    assert_eq!(put("KS QS JS", "2C", true), c("JS"));
    assert_eq!(put("QS KS TS", "2C", true), c("TS"));
    assert_eq!(put("KD QD TD", "JD", true), c("TD"));
    assert_eq!(put("KD QD JD", "TD", true), c("JD"));
}

#[test]
fn taken_card_never_goes_back() {
    assert_eq!(put("2C 3D 4H", "2S", true), c("2C"));
    assert_eq!(put("2C 3D 4H", "2S", false), c("2S"));
}

/// The test's own reading of rules 2-4: the card to put down.
fn reference_put_down(h: [Card; 3], new: Card, from_pile: bool) -> Card {
    let four = [h[0], h[1], h[2], new];
    let mut options: Vec<(Score, Card)> = Vec::new();
    for &d in &four {
        if from_pile && d == new {
            continue;
        }
        let kept: Vec<Card> = four.iter().copied().filter(|&x| x != d).collect();
        options.push((S.score([kept[0], kept[1], kept[2]]), d));
    }
    let best = options.iter().map(|o| o.0).max().unwrap();
    let key = |d: Card| {
        let t = d.to_string();
        let (r, s) = (t.as_bytes()[0], t.as_bytes()[1]);
        (
            d.value(),
            u8::from(d != new || from_pile),
            b"CDHS".iter().position(|&x| x == s).unwrap(),
            b"TJQK".iter().position(|&x| x == r),
        )
    };
    options
        .into_iter()
        .filter(|o| o.0 == best)
        .map(|o| o.1)
        .min_by_key(|&d| key(d))
        .unwrap()
}

#[test]
fn random_put_downs_agree_with_the_reference() {
    // A small LCG: deterministic and dependency-free.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % m
    };
    let all: Vec<Card> = Card::all().collect();
    for _ in 0..20_000 {
        let mut four: Vec<Card> = Vec::new();
        while four.len() < 4 {
            let k = all[next(52) as usize];
            if !four.contains(&k) {
                four.push(k);
            }
        }
        let h = [four[0], four[1], four[2]];
        for from_pile in [true, false] {
            assert_eq!(
                choose_put_down(&S, h, four[3], from_pile).card,
                reference_put_down(h, four[3], from_pile),
                "{h:?} + {} from_pile={from_pile}",
                four[3]
            );
        }
    }
}
