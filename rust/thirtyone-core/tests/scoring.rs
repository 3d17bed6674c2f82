//! Hand scores (rules.md "Cards and hands") checked from the outside of the crate.

mod common;

use common::{c, hand};
use thirtyone_core::{Card, Score, Scoring, ThreeOfAKind};

fn pts(p: f64) -> Score {
    Score((p * 2.0) as u8)
}

#[test]
fn seed_003_worked_hand() {
    let s = Scoring::default();
    assert_eq!(s.score(hand("AH 9H 4H")), pts(24.0)); // 11 + 9 + 4
    assert_eq!(s.score(hand("KS 7S AC")), pts(17.0)); // 10 + 7 beats the lone 11
    assert_eq!(s.score(hand("QD QH 5C")), pts(10.0)); // three suits: the highest card
    assert_eq!(s.score(hand("JC TC 2C")), pts(22.0)); // 10 + 10 + 2
}

#[test]
fn thirty_one_and_three_suits() {
    let s = Scoring::default();
    assert_eq!(s.score(hand("AS KS QS")), pts(31.0));
    assert_eq!(s.score(hand("TD JD AD")), pts(31.0));
    assert_eq!(s.score(hand("AH TH 9H")), pts(30.0));
    assert_eq!(s.score(hand("2C 3D 9H")), pts(9.0));
    assert_eq!(s.score(hand("AC KD QH")), pts(11.0));
    assert_eq!(s.score(hand("2S 3S AC")), pts(11.0));
    assert_eq!(s.score(hand("2C 2D 2H")), pts(2.0));
}

#[test]
fn three_of_a_kind_settings() {
    let mut s = Scoring::default();
    for (setting, sevens) in [
        (ThreeOfAKind::None, 7.0),
        (ThreeOfAKind::Thirty, 30.0),
        (ThreeOfAKind::ThirtyHalf, 30.5),
    ] {
        s.three_of_a_kind = setting;
        assert_eq!(s.score(hand("7C 7D 7H")), pts(sevens));
        // a pair is not trips: 7 + 9 of clubs
        assert_eq!(s.score(hand("7C 7D 9C")), pts(16.0));
    }
    s.three_of_a_kind = ThreeOfAKind::ThirtyHalf;
    assert!(s.score(hand("7C 7D 7H")) > s.score(hand("AH TH 9H")));
    assert!(s.score(hand("7C 7D 7H")) < s.score(hand("AH TH JH")));
    let cadillac = Scoring {
        three_aces_33: true,
        ..Scoring::default()
    };
    assert_eq!(cadillac.score(hand("AC AD AH")), pts(33.0));
    assert_eq!(cadillac.score(hand("7C 7D 7H")), pts(7.0));
    assert!(cadillac.score(hand("AC AD AH")).is_blitz());
}

#[test]
fn runs_option() {
    let s = Scoring {
        runs: true,
        ..Scoring::default()
    };
    assert_eq!(s.score(hand("4H 5H 6H")), pts(30.0));
    assert_eq!(s.score(hand("AD 2D 3D")), pts(30.0)); // DECISIONS.md 4
    assert_eq!(s.score(hand("QS KS AS")), pts(31.0));
    assert_eq!(s.score(hand("KH AH 2H")), pts(23.0)); // no wrap
    assert_eq!(s.score(hand("4H 5H 7H")), pts(16.0));
    assert_eq!(s.score(hand("4H 5H 6C")), pts(9.0));
    assert_eq!(Scoring::default().score(hand("4H 5H 6H")), pts(15.0));
}

/// The test's own scorer, in half points.
fn reference(h: [Card; 3], toak: ThreeOfAKind, aces33: bool, runs: bool) -> u8 {
    let value = |x: Card| match x.to_string().as_bytes()[0] {
        b'A' => 11u8,
        b'T' | b'J' | b'Q' | b'K' => 10,
        d => d - b'0',
    };
    let suit = |x: Card| x.to_string().as_bytes()[1];
    let mut best = 0u8;
    for s in [b'C', b'D', b'H', b'S'] {
        let total: u8 = h.iter().filter(|x| suit(**x) == s).map(|x| value(*x)).sum();
        best = best.max(total * 2);
    }
    let rank = |x: Card| {
        "A23456789TJQK"
            .find(x.to_string().chars().next().unwrap())
            .unwrap()
    };
    if rank(h[0]) == rank(h[1]) && rank(h[1]) == rank(h[2]) {
        if rank(h[0]) == 0 && aces33 {
            best = best.max(66);
        } else {
            best = best.max(match toak {
                ThreeOfAKind::None => 0,
                ThreeOfAKind::Thirty => 60,
                ThreeOfAKind::ThirtyHalf => 61,
            });
        }
    }
    if runs && suit(h[0]) == suit(h[1]) && suit(h[1]) == suit(h[2]) {
        let mut r = [rank(h[0]), rank(h[1]), rank(h[2])];
        r.sort();
        if (r[1] == r[0] + 1 && r[2] == r[1] + 1) || r == [0, 11, 12] {
            best = best.max(60);
        }
    }
    best
}

#[test]
fn all_22100_hands_agree_with_the_reference() {
    let all: Vec<Card> = Card::all().collect();
    let settings = [
        (ThreeOfAKind::None, false, false),
        (ThreeOfAKind::Thirty, false, false),
        (ThreeOfAKind::ThirtyHalf, false, false),
        (ThreeOfAKind::None, true, false),
        (ThreeOfAKind::None, false, true),
        (ThreeOfAKind::ThirtyHalf, true, true),
    ];
    for (toak, aces33, runs) in settings {
        let s = Scoring {
            three_of_a_kind: toak,
            three_aces_33: aces33,
            runs,
        };
        let mut count = 0;
        for i in 0..52 {
            for j in i + 1..52 {
                for k in j + 1..52 {
                    let h = [all[i], all[j], all[k]];
                    assert_eq!(
                        s.score(h).halves(),
                        reference(h, toak, aces33, runs),
                        "{} {} {} under {toak:?} {aces33} {runs}",
                        h[0],
                        h[1],
                        h[2]
                    );
                    count += 1;
                }
            }
        }
        assert_eq!(count, 22_100);
    }
    assert_eq!(c("10D"), c("TD"));
}
