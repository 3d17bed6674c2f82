//! The round-level variants of the rule documents: Gin lives (seed 003), hiding a 31 (003), the
//! blind showdown (003's hammer), the first-turn knock limits, and seed 001's 31 after a knock.

mod common;

use common::{build_deck, c, deal, pass, showdown};
use thirtyone_core::rules::{FirstTurnKnock, KnockerTie, LivesMode, ThirtyOneAfterKnock};
use thirtyone_core::view::{StateInput, TurnInput, View};
use thirtyone_core::{Action, End, Phase, Round, RoundRules, Score, Source};

const H24: &str = "AH 9H 4H";
const H17: &str = "KS 7S AC";
const H10: &str = "QD QH 5C";
const H22: &str = "JC TC 2C";
const H10B: &str = "TS 4D 3H";
const H31: &str = "AS KS QS";

fn gin() -> RoundRules {
    RoundRules {
        lives_mode: LivesMode::Gin,
        knock_penalty: 1,
        ..RoundRules::default()
    }
}

fn hide() -> RoundRules {
    RoundRules {
        may_hide_31: true,
        ..RoundRules::default()
    }
}

fn blind() -> RoundRules {
    RoundRules {
        first_turn_knock: FirstTurnKnock::Blind,
        ..RoundRules::default()
    }
}

// -- Gin lives ------------------------------------------------------------------------------------

#[test]
fn gin_a_knock_that_is_the_highest_gives_everybody_else_a_letter() {
    assert_eq!(showdown(gin(), &[H24, H17, H10, H22], 0), vec![0, 1, 1, 1]);
}

#[test]
fn gin_a_beaten_knocker_takes_the_penalty_and_nobody_else_pays() {
    assert_eq!(showdown(gin(), &[H22, H17, H24, H10], 0), vec![1, 0, 0, 0]);
    let two = RoundRules {
        knock_penalty: 2,
        ..gin()
    };
    assert_eq!(showdown(two, &[H22, H17, H24, H10], 0), vec![2, 0, 0, 0]);
    // The lowest hand is not what matters: the knocker on 17 is beaten even though 10 is lower.
    assert_eq!(showdown(gin(), &[H17, H10, H24], 0), vec![1, 0, 0]);
}

#[test]
fn gin_a_tie_for_the_highest_counts_as_beaten() {
    // 24 against 24: the knock did not claim the highest hand alone.
    assert_eq!(showdown(gin(), &[H24, "AD 9D 4D", H10], 0), vec![1, 0, 0]);
}

#[test]
fn gin_thirty_one_and_stock_out_cost_letters_like_lives() {
    let r = deal(gin(), &[H24, H31, H10], "8D", "");
    assert_eq!(r.end(), Some(End::Dealt31));
    assert_eq!(&r.losses()[..3], &[1, 0, 1]);
    // Stock out without a knock: the lowest takes a letter.
    let mut r = deal(gin(), &[H10, H24, H17], "8D", "");
    while r.stock_len() > 0 {
        pass(&mut r);
    }
    r.apply(Action::Decline).unwrap();
    assert_eq!(&r.losses()[..3], &[1, 0, 0]);
}

#[test]
fn gin_refuses_a_knocker_tie_variant() {
    let r = RoundRules {
        knocker_tie: KnockerTie::OthersPay,
        ..gin()
    };
    let err = r.validate().unwrap_err().to_string();
    assert!(err.contains("knocker_tie"), "{err}");
}

// -- hiding a 31 ----------------------------------------------------------------------------------

#[test]
fn a_hidden_31_counts_30_at_the_showdown() {
    // Seat 0 knocks on 24; seat 1 reaches 31 with KS and hides it; seat 2 holds 30.
    let mut r = deal(hide(), &[H24, "AS QS 2D", "KD QD JD"], "8C", "KS");
    r.apply(Action::Knock).unwrap();
    r.apply(Action::Draw(Source::Stock)).unwrap();
    let legal = r.legal_actions();
    assert!(legal.contains(&Action::PutDownHidden(c("2D"))));
    assert!(
        !legal.contains(&Action::PutDownHidden(c("QS"))),
        "no 31 left to hide"
    );
    assert!(r.apply(Action::PutDownHidden(c("QS"))).is_err());
    r.apply(Action::PutDownHidden(c("2D"))).unwrap();
    assert!(!r.is_over(), "a hidden 31 does not end the round");
    assert!(r.hid_31(1) && !r.showed_31(1));
    assert_eq!(r.score(1), Score::THIRTY_ONE);
    assert_eq!(r.counted_score(1), Score::from_points(30));
    pass(&mut r);
    assert_eq!(r.end(), Some(End::Showdown));
    // 24, 30 (hidden 31), 30: the knocker is lowest.
    assert_eq!(&r.losses()[..3], &[2, 0, 0]);
}

#[test]
fn a_hidden_31_pays_when_somebody_else_shows_one() {
    let mut r = deal(hide(), &["AS QS 2D", "AH JH 3C", H22], "8C", "KS KH");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDownHidden(c("2D"))).unwrap();
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDown(c("3C"))).unwrap();
    assert_eq!(r.end(), Some(End::ThirtyOne { seat: 1 }));
    assert_eq!(&r.losses()[..3], &[1, 0, 1]);
}

#[test]
fn hiding_needs_the_option_and_the_rule_always_shows() {
    let mut r = deal(RoundRules::default(), &["AS QS 2D", H10], "8C", "KS");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    assert!(!r
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::PutDownHidden(_))));
    assert!(r.apply(Action::PutDownHidden(c("2D"))).is_err());
    // Under the option the table's rule still shows.
    let mut r = deal(hide(), &["AS QS 2D", H10], "8C", "KS");
    let rec = r.play_rule_turn(Score::NEVER);
    assert!(rec.showed_31);
    assert_eq!(r.end(), Some(End::ThirtyOne { seat: 0 }));
}

#[test]
fn a_hidden_31_put_down_again_normally_is_shown() {
    let mut r = deal(hide(), &["AS QS 2D", H10], "8C", "KS 3D 4D");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    r.apply(Action::PutDownHidden(c("2D"))).unwrap();
    pass(&mut r);
    // Seat 0 draws 3D and puts it straight back without hiding: the 31 is shown now.
    pass(&mut r);
    assert_eq!(r.end(), Some(End::ThirtyOne { seat: 0 }));
}

// -- the blind showdown ---------------------------------------------------------------------------

#[test]
fn blind_table_starts_before_anybody_looks() {
    let mut r = deal(blind(), &[H24, H17, H10], "8D", "");
    assert_eq!(r.phase(), Phase::Blind);
    assert_eq!(r.legal_actions(), vec![Action::CallBlind, Action::Look]);
    assert!(r.apply(Action::Draw(Source::Stock)).is_err());
    r.apply(Action::Look).unwrap();
    assert_eq!(r.phase(), Phase::Start);
    // After looking, no first-turn knock: the knock on the dealt hand had to be blind.
    assert!(!r.may_knock());
    assert!(r.apply(Action::Knock).is_err());
    assert!(r.apply(Action::CallBlind).is_err());
    pass(&mut r);
    assert!(r.may_knock());
}

#[test]
fn blind_showdown_the_lowest_loses_one_the_caller_two() {
    let mut r = deal(blind(), &[H24, H17, H10], "8D", "");
    r.apply(Action::CallBlind).unwrap();
    assert_eq!(r.end(), Some(End::Blind { caller: 0 }));
    assert_eq!(&r.losses()[..3], &[0, 0, 1]);
    let mut r = deal(blind(), &[H10, H17, H24], "8D", "");
    r.apply(Action::CallBlind).unwrap();
    assert_eq!(&r.losses()[..3], &[2, 0, 0]);
    // Ties: each of the lowest one, the caller among them two, whatever the knock penalty.
    let one = RoundRules {
        knock_penalty: 1,
        ..blind()
    };
    let mut r = deal(one, &[H10, H10B, H24], "8D", "");
    r.apply(Action::CallBlind).unwrap();
    assert_eq!(&r.losses()[..3], &[2, 1, 0]);
}

#[test]
fn blind_a_dealt_31_is_found_when_they_look_or_is_just_the_top_hand_of_the_call() {
    let mut r = deal(blind(), &[H24, H31, H10], "8D", "");
    assert_eq!(r.phase(), Phase::Blind);
    r.apply(Action::Look).unwrap();
    assert_eq!(r.end(), Some(End::Dealt31));
    assert_eq!(&r.losses()[..3], &[1, 0, 1]);
    let mut r = deal(blind(), &[H24, H31, H10], "8D", "");
    r.apply(Action::CallBlind).unwrap();
    assert_eq!(&r.losses()[..3], &[0, 0, 1]);
}

#[test]
fn blind_the_rule_looks_and_plays_on() {
    let mut r = deal(blind(), &[H24, H17, H10], "8D", "");
    let rec = r.play_rule_turn(Score(0));
    assert!(!rec.knock, "no knock on the first turn after looking");
    assert!(rec.draw.is_some());
    assert_eq!(r.turns_played(), 1);
}

#[test]
fn forbidden_first_turn_knock() {
    let rules = RoundRules {
        first_turn_knock: FirstTurnKnock::Forbidden,
        ..RoundRules::default()
    };
    let mut r = deal(rules, &[H24, H17], "8D", "");
    assert_eq!(r.phase(), Phase::Start);
    assert!(!r.may_knock());
    pass(&mut r);
    assert!(r.may_knock());
}

// -- seed 001: a 31 after a knock lets the round go on ----------------------------------------------

#[test]
fn seed_001_knocker_loses_one_to_each_31_and_two_at_the_showdown() {
    let rules = RoundRules {
        thirty_one_after_knock: ThirtyOneAfterKnock::Continues,
        ..RoundRules::default()
    };
    // Seat 0 knocks on 10; seats 1, 2, 3 each draw their 31.
    let mut r = deal(
        rules,
        &[H10B, "AS KS 2D", "AH KH 2C", "AC KC 3D"],
        "8D",
        "QS QH QC",
    );
    r.apply(Action::Knock).unwrap();
    for put in ["2D", "2C", "3D"] {
        r.apply(Action::Draw(Source::Stock)).unwrap();
        r.apply(Action::PutDown(c(put))).unwrap();
    }
    assert_eq!(r.end(), Some(End::Showdown));
    assert_eq!(&r.losses()[..4], &[5, 2, 2, 2]);
}

// -- the Oracle's view --------------------------------------------------------------------------------

fn input(rules: RoundRules, turns: Vec<TurnInput>, hand: &str) -> StateInput {
    StateInput {
        rules,
        seats: 2,
        me: 0,
        first: 0,
        upcard: c("8C"),
        hand: common::hand(hand),
        turns,
        pending: None,
    }
}

#[test]
fn view_a_hidden_31_of_yours_keeps_the_round_on() {
    let hid = TurnInput::PlayHiding31 {
        seat: 0,
        from: Source::Stock,
        drew: Some(c("KS")),
        discard: c("2D"),
    };
    let opp = TurnInput::Play {
        seat: 1,
        from: Source::Stock,
        drew: None,
        discard: c("5H"),
        shows: None,
    };
    let v = View::from_input(&input(hide(), vec![hid.clone(), opp.clone()], "AS KS QS")).unwrap();
    assert!(v.hid_31[0]);
    // Without the option, or shown normally, the round would be over.
    assert!(View::from_input(&input(
        RoundRules::default(),
        vec![hid.clone(), opp.clone()],
        "AS KS QS"
    ))
    .is_err());
    let shown = TurnInput::Play {
        seat: 0,
        from: Source::Stock,
        drew: Some(c("KS")),
        discard: c("2D"),
        shows: None,
    };
    let err = View::from_input(&input(hide(), vec![shown, opp], "AS KS QS")).unwrap_err();
    assert!(err.to_string().contains("already over"), "{err}");
}

#[test]
fn view_blind_table_no_first_turn_knock() {
    let v = View::from_input(&input(blind(), vec![], H24)).unwrap();
    assert!(!v.may_knock());
    let err = View::from_input(&input(blind(), vec![TurnInput::Knock { seat: 0 }], H24));
    assert!(err.is_err());
}

#[test]
fn deal_with_a_blind_table_from_any_first_seat() {
    let deck = build_deck(&[H24, H17, H10], "8D", "");
    let r = Round::deal(blind(), 3, 2, &deck).unwrap();
    assert_eq!((r.phase(), r.to_move()), (Phase::Blind, 2));
}
