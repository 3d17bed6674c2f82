//! One round (rules.md): the deal, dealt 31, 31 in play and after a knock, no put-back, no
//! retake, the final turns, every row of the losses (with the knocker-tie variants), the stock
//! running out.

mod common;

use common::{build_deck, c, cards, deal, pass, showdown};
use thirtyone_core::rules::KnockerTie;
use thirtyone_core::{Action, Card, End, Phase, Round, RoundRules, Source};

const H24: &str = "AH 9H 4H";
const H17: &str = "KS 7S AC";
const H10: &str = "QD QH 5C";
const H22: &str = "JC TC 2C";
const H10B: &str = "TS 4D 3H";
const H10C: &str = "KD 2S 6H";
const H31: &str = "AS KS QS";

fn std() -> RoundRules {
    RoundRules::default()
}

fn rules(penalty: u8, tie: KnockerTie) -> RoundRules {
    RoundRules {
        knock_penalty: penalty,
        knocker_tie: tie,
        ..RoundRules::default()
    }
}

fn sorted(h: [Card; 3]) -> Vec<Card> {
    let mut v = h.to_vec();
    v.sort();
    v
}

#[test]
fn deals_one_card_at_a_time_from_the_first_player() {
    // Pack order, 3 seats, seat 1 first: AC -> 1, 2C -> 2, 3C -> 0, 4C -> 1, ...
    let pack: Vec<Card> = Card::all().collect();
    let mut r = Round::deal(std(), 3, 1, &pack).unwrap();
    assert_eq!(r.hand(1).to_vec(), cards("AC 4C 7C"));
    assert_eq!(r.hand(2).to_vec(), cards("2C 5C 8C"));
    assert_eq!(r.hand(0).to_vec(), cards("3C 6C 9C"));
    assert_eq!(r.top(), c("TC"));
    assert_eq!(r.stock_len(), 42);
    assert_eq!(r.to_move(), 1);
    r.apply(Action::Draw(Source::Stock)).unwrap();
    assert_eq!(
        r.phase(),
        Phase::PutDown {
            new: c("JC"),
            from_pile: false
        }
    );
}

#[test]
fn dealt_31_one_player() {
    let r = deal(std(), &[H24, H31, H10], "8D", "");
    assert_eq!(r.end(), Some(End::Dealt31));
    assert_eq!(&r.losses()[..3], &[1, 0, 1]);
    assert!(r.legal_actions().is_empty());
}

#[test]
fn dealt_31_two_players_both_safe() {
    let r = deal(std(), &[H31, H10, "AD TD JD", H24], "8D", "");
    assert_eq!(r.end(), Some(End::Dealt31));
    assert_eq!(&r.losses()[..4], &[0, 1, 0, 1]);
}

#[test]
fn thirty_one_in_play_ends_the_round() {
    let mut r = deal(std(), &[H24, H10B, "AD KD 2C"], "8D", "3S 7D QD");
    pass(&mut r);
    pass(&mut r);
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("2C"))).unwrap();
    assert_eq!(r.end(), Some(End::ThirtyOne { seat: 2 }));
    assert!(r.showed_31(2));
    assert_eq!(&r.losses()[..3], &[1, 1, 0]);
    assert!(r.apply(Action::Draw(Source::Stock)).is_err());
}

#[test]
fn thirty_one_after_a_knock_costs_the_knocker_one_life() {
    // Seat 0 knocks on 10; seat 1 shows 31 at once; seats 2 and 3 never play.
    let mut r = deal(std(), &[H10, "AS KS 2D", H24, H22], "8D", "QS");
    r.apply(Action::Knock).unwrap();
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("2D"))).unwrap();
    assert_eq!(r.end(), Some(End::ThirtyOne { seat: 1 }));
    assert_eq!(&r.losses()[..4], &[1, 0, 1, 1]);
}

#[test]
fn no_put_back_of_a_taken_card_but_a_drawn_one_may_go_back() {
    let mut r = deal(std(), &[H24, H10, H22], "8H", "5S");
    r.apply(Action::Draw(Source::Pile)).unwrap();
    assert!(!r.legal_actions().contains(&Action::PutDown(c("8H"))));
    assert!(r.apply(Action::PutDown(c("8H"))).is_err());
    r.apply(Action::PutDown(c("4H"))).unwrap();
    assert_eq!(sorted(r.hand(0)), cards("AH 8H 9H"));
    // seat 1 draws 5S and puts it straight back
    assert_eq!(pass(&mut r), c("5S"));
    assert_eq!(sorted(r.hand(1)), {
        let mut v = cards(H10);
        v.sort();
        v
    });
    assert_eq!((r.top(), r.top_by()), (c("5S"), Some(1)));
}

#[test]
fn no_retake_of_your_own_put_down() {
    // 2 seats: seat 0 puts down 4H, seat 1 knocks: seat 0 finds its own card on top.
    let mut r = deal(std(), &[H24, H10], "8D", "5S 6S");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("4H"))).unwrap();
    r.apply(Action::Knock).unwrap();
    assert_eq!((r.to_move(), r.top_by()), (0, Some(0)));
    assert!(!r.may_take());
    assert!(!r.legal_actions().contains(&Action::Draw(Source::Pile)));
    assert!(r.apply(Action::Draw(Source::Pile)).is_err());
    pass(&mut r);
    assert_eq!(r.end(), Some(End::Showdown));

    // The two-player mercy option allows it.
    let mercy = RoundRules {
        two_player_mercy: true,
        ..RoundRules::default()
    };
    let mut r = deal(mercy, &[H24, H10], "8D", "5S");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("4H"))).unwrap();
    r.apply(Action::Knock).unwrap();
    assert!(r.may_take());
}

#[test]
fn the_knock_gives_each_other_player_one_turn_ending_on_its_right() {
    let mut r = deal(std(), &[H24, H17, H10, H22], "8D", "");
    pass(&mut r);
    pass(&mut r);
    r.apply(Action::Knock).unwrap();
    assert_eq!(r.knocker(), Some(2));
    let mut order = Vec::new();
    while !r.is_over() {
        order.push(r.to_move());
        assert!(!r.may_knock());
        assert!(r.apply(Action::Knock).is_err());
        pass(&mut r);
    }
    assert_eq!(order, vec![3, 0, 1]);
    assert_eq!(r.end(), Some(End::Showdown));
}

#[test]
fn losses_lowest_and_ties() {
    // seed 003: Alice knocks on 24, Cara (10) loses one
    assert_eq!(showdown(std(), &[H24, H17, H10, H22], 0), vec![0, 0, 1, 0]);
    assert_eq!(showdown(std(), &[H24, H10B, H10, H22], 0), vec![0, 1, 1, 0]);
    assert_eq!(
        showdown(std(), &[H24, H10B, H10, H10C], 0),
        vec![0, 1, 1, 1]
    );
    // the same hands with seat 3 knocking: tied for lowest, it pays the penalty
    assert_eq!(
        showdown(std(), &[H24, H10B, H10, H10C], 3),
        vec![0, 1, 1, 2]
    );
}

#[test]
fn losses_knocker_lowest_pays_the_penalty() {
    for penalty in [1, 2] {
        let r = rules(penalty, KnockerTie::KnockerPays);
        assert_eq!(
            showdown(r, &[H10, H17, H24, H22], 0),
            vec![penalty, 0, 0, 0]
        );
        assert_eq!(showdown(r, &[H17, H24, H10], 2), vec![0, 0, penalty]);
    }
}

#[test]
fn losses_knocker_tied_every_variant() {
    // knocker seat 0 and seat 2 on 10; the others higher
    let hands = [H10, H17, H10B, H22];
    let cases = [
        (KnockerTie::KnockerPays, 2, [2, 0, 1, 0]),
        (KnockerTie::KnockerPays, 1, [1, 0, 1, 0]),
        (KnockerTie::OthersPay, 2, [0, 0, 1, 0]),
        (KnockerTie::OthersPay, 1, [0, 0, 1, 0]),
        (KnockerTie::OnlyKnocker, 2, [2, 0, 0, 0]),
        (KnockerTie::OnlyKnocker, 1, [1, 0, 0, 0]),
        (KnockerTie::Cadillac, 2, [2, 0, 0, 0]),
        (KnockerTie::Cadillac, 1, [2, 0, 0, 0]),
    ];
    for (tie, penalty, want) in cases {
        assert_eq!(
            showdown(rules(penalty, tie), &hands, 0),
            want.to_vec(),
            "{tie:?} penalty {penalty}"
        );
        // lowest alone: the penalty under every variant
        assert_eq!(
            showdown(rules(penalty, tie), &[H10, H17, H24, H22], 0),
            vec![penalty, 0, 0, 0]
        );
    }
    // three tied with the knocker, standard: the knocker 2, the others 1
    assert_eq!(
        showdown(std(), &[H10, H10C, H10B, H22], 0),
        vec![2, 1, 1, 0]
    );
    assert_eq!(KnockerTie::default(), KnockerTie::KnockerPays);
    assert_eq!(RoundRules::default().knock_penalty, 2);
}

#[test]
fn stock_out_takes_continue_and_the_first_decline_ends_it() {
    // 2 seats: 45 stock cards; the last (drawn by seat 0) is 2D at the bottom.
    let mut deck = build_deck(&[H24, H10], "3S", "");
    let at = deck.iter().position(|&x| x == c("2D")).unwrap();
    let two_d = deck.remove(at);
    deck.push(two_d);
    let mut r = Round::deal(std(), 2, 0, &deck).unwrap();
    while r.stock_len() > 0 {
        pass(&mut r);
    }
    assert_eq!((r.to_move(), r.top()), (1, c("2D")));
    assert!(!r.may_knock());
    let mut legal = r.legal_actions();
    legal.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(legal, vec![Action::Decline, Action::Draw(Source::Pile)]);
    r.apply(Action::Draw(Source::Pile)).unwrap();
    r.apply(Action::PutDown(c("5C"))).unwrap();
    assert!(!r.is_over());
    r.apply(Action::Decline).unwrap();
    assert_eq!(r.end(), Some(End::StockOut { seat: 0 }));
    assert_eq!(&r.losses()[..2], &[0, 1]); // seat 1 on QD QH 2D = 12
}

#[test]
fn stock_out_ties_lose_one_each_and_no_penalty_without_a_knock() {
    let mut r = deal(std(), &[H10, H24, H10B], "8D", "");
    while r.stock_len() > 0 {
        pass(&mut r);
    }
    r.apply(Action::Decline).unwrap();
    assert_eq!(&r.losses()[..3], &[1, 0, 1]);
}

#[test]
fn stock_out_during_the_final_turns_is_settled_as_the_knock() {
    // DECISIONS.md 2: seat 2 knocks on 10 with one stock card left, seat 0 draws it, seat 1
    // declines: the knocker is lowest and pays the penalty.
    let mut r = deal(std(), &[H24, H22, H10], "8D", "");
    while r.stock_len() > 1 {
        pass(&mut r);
    }
    assert_eq!(r.to_move(), 2);
    r.apply(Action::Knock).unwrap();
    pass(&mut r);
    assert!(r.apply(Action::Knock).is_err());
    r.apply(Action::Decline).unwrap();
    assert_eq!(r.end(), Some(End::StockOut { seat: 1 }));
    assert_eq!(&r.losses()[..3], &[0, 0, 2]);
}

#[test]
fn rule_turns_play_the_table_rule() {
    // seat 0: 2C 3D 9H, upcard 8H: take, put down 2C
    let mut r = deal(std(), &["2C 3D 9H", "AS 5D 7C"], "8H", "KD");
    let rec = r.play_rule_turn(thirtyone_core::hand::decision::TABLE_KNOCK_AT);
    assert_eq!(rec.draw, Some((Source::Pile, c("8H"))));
    assert_eq!(rec.put_down, Some(c("2C")));
    // seat 1: draw KD, put down 7C (ties with AS at 15, lower value)
    let rec = r.play_rule_turn(thirtyone_core::hand::decision::TABLE_KNOCK_AT);
    assert_eq!(rec.draw, Some((Source::Stock, c("KD"))));
    assert_eq!(rec.put_down, Some(c("7C")));
}

/// A refused action says why, in the rules' words (the terminal prints it as it is).
#[test]
fn refusals_give_the_rules_reason() {
    use thirtyone_core::rules::FirstTurnKnock;
    use thirtyone_core::Score;
    let hands = ["2C 3D 4H", "5S 6C 7D"];
    // The knock minimum: the hand scores 4.
    let rules = RoundRules {
        min_knock: Score::from_points(17),
        ..RoundRules::default()
    };
    let r = deal(rules, &hands, "9S", "");
    let why = r.refuse(Action::Knock).expect("refused");
    assert!(
        why.contains("only from 17") && why.contains("scores 4"),
        "{why}"
    );
    // No knock on the round's first turn where the table forbids it.
    let rules = RoundRules {
        first_turn_knock: FirstTurnKnock::Forbidden,
        ..RoundRules::default()
    };
    let mut r = deal(rules, &hands, "9S", "");
    assert!(r
        .refuse(Action::Knock)
        .expect("refused")
        .contains("first turn"));
    pass(&mut r);
    assert_eq!(
        r.refuse(Action::Knock),
        None,
        "allowed from the second turn"
    );
    // Nobody takes back a card they put down: seat 0 puts down the 2C, seat 1 takes it and
    // later puts it down again; seat 0 may not take it.
    let mut r = deal(RoundRules::default(), &hands, "9S", "KH QH");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("2C"))).unwrap();
    r.apply(Action::Draw(Source::Pile)).unwrap();
    r.apply(Action::PutDown(c("5S"))).unwrap();
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("3D"))).unwrap();
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("2C"))).unwrap();
    let why = r.refuse(Action::Draw(Source::Pile)).expect("refused");
    assert!(why.contains("you put it down yourself"), "{why}");
    let err = r.apply(Action::Draw(Source::Pile)).unwrap_err().to_string();
    assert!(err.contains("seat 0") && err.contains("2C"), "{err}");
    // Once somebody has knocked.
    let mut r = deal(RoundRules::default(), &hands, "9S", "");
    r.apply(Action::Knock).unwrap();
    assert!(r
        .refuse(Action::Knock)
        .expect("refused")
        .contains("already knocked"));
}
