//! The round's record (`RoundRecord`): every turn kept as it was played, the discard pile, and
//! each seat's view of the round (the Oracle's input), which must be a round that could have
//! happened as that seat saw it.

mod common;

use common::{build_deck, c, cards};
use montecarlo::Rng;
use thirtyone_core::rules::{FirstTurnKnock, ThirtyOneAfterKnock};
use thirtyone_core::view::{PendingInput, TurnInput, View};
use thirtyone_core::{Action, Card, Phase, Played, RoundRecord, RoundRules, Source};

fn record(rules: RoundRules, hands: &[&str], upcard: &str, stock: &str) -> RoundRecord {
    let deck = build_deck(hands, upcard, stock);
    RoundRecord::deal(rules, hands.len() as u8, 0, &deck).expect("a good deal")
}

#[test]
fn each_seat_sees_its_own_draws_and_only_the_cards_the_table_saw() {
    // Seat 0 draws 5C and puts it back; seat 1 takes the 5C and puts down 2S; seat 2 knocks.
    let mut r = record(
        RoundRules::default(),
        &["2H 3H 4D", "2S 9S TS", "AD KD 9D"],
        "7C",
        "5C 6C",
    );
    r.apply(Action::Draw(Source::Stock)).unwrap();
    // A turn under way is not yet recorded, and only the drawer sees what is pending.
    assert!(r.turns().is_empty());
    assert_eq!(
        r.view(0).pending,
        Some(PendingInput {
            from: Source::Stock,
            drew: Some(c("5C"))
        })
    );
    assert_eq!(r.view(1).pending, None);
    r.apply(Action::PutDown(c("5C"))).unwrap();
    r.apply(Action::Draw(Source::Pile)).unwrap();
    // Taken this turn: in seat 1's hand, no longer on the pile.
    assert_eq!(r.pile(), cards("7C"));
    assert_eq!(
        r.view(1).pending,
        Some(PendingInput {
            from: Source::Pile,
            drew: None
        })
    );
    r.apply(Action::PutDown(c("2S"))).unwrap();
    r.apply(Action::Knock).unwrap();

    assert_eq!(r.pile(), cards("7C 2S"));
    let played: Vec<(u8, Played)> = r.turns().iter().map(|t| (t.seat, t.played)).collect();
    let play = |from, card: &str, discard: &str| Played::Play {
        from,
        card: c(card),
        discard: c(discard),
        shows: None,
        hid_31: false,
    };
    assert_eq!(
        played,
        vec![
            (0, play(Source::Stock, "5C", "5C")),
            (1, play(Source::Pile, "5C", "2S")),
            (2, Played::Knock),
        ]
    );
    // Seat 0 knows the card it drew; seats 1 and 2 only that seat 0 drew and put down the 5C.
    let first_turn = |seat: u8| r.view(seat).turns[0].clone();
    let seat0 = |drew| TurnInput::Play {
        seat: 0,
        from: Source::Stock,
        drew,
        discard: c("5C"),
        shows: None,
    };
    assert_eq!(first_turn(0), seat0(Some(c("5C"))));
    assert_eq!(first_turn(1), seat0(None));
    assert_eq!(first_turn(2), seat0(None));
    let v = r.view(1);
    assert_eq!((v.me, v.seats, v.first, v.upcard), (1, 3, 0, c("7C")));
    assert_eq!(v.hand, r.round().hand(1));
    assert_eq!(v.turns.len(), 3);
    assert_eq!(v.turns[2], TurnInput::Knock { seat: 2 });
}

#[test]
fn a_31_shown_after_a_knock_is_seen_by_all_and_a_hidden_one_only_by_its_holder() {
    // Seed 001's table: a 31 after a knock is shown and the round goes on. Seat 0 knocks;
    // seat 1 takes the KS for AS QS KS = 31 and shows it; seat 2 plays on.
    let rules = RoundRules {
        thirty_one_after_knock: ThirtyOneAfterKnock::Continues,
        ..RoundRules::default()
    };
    let mut r = record(rules, &["2H 3H 4D", "AS QS 5D", "8C 9C 2C"], "KS", "6H");
    r.apply(Action::Knock).unwrap();
    r.apply(Action::Draw(Source::Pile)).unwrap();
    r.apply(Action::PutDown(c("5D"))).unwrap();
    let shown = match r.turns()[1].played {
        Played::Play { shows, .. } => shows.map(|h| {
            let mut v = h.to_vec();
            v.sort();
            v
        }),
        other => panic!("not a play: {other:?}"),
    };
    let mut expected = cards("AS QS KS");
    expected.sort();
    assert_eq!(shown, Some(expected));
    for seat in 0..3 {
        assert!(matches!(
            r.view(seat).turns[1],
            TurnInput::Play { shows: Some(_), .. }
        ));
    }

    // Seed 003's option: a 31 kept hidden is known to its holder only.
    let rules = RoundRules {
        may_hide_31: true,
        ..RoundRules::default()
    };
    let mut r = record(rules, &["AS QS 5D", "2H 3H 4D", "8C 9C 2C"], "KS", "6H");
    r.apply(Action::Draw(Source::Pile)).unwrap();
    r.apply(Action::PutDownHidden(c("5D"))).unwrap();
    assert!(matches!(
        r.turns()[0].played,
        Played::Play {
            hid_31: true,
            shows: None,
            ..
        }
    ));
    assert!(matches!(
        r.view(0).turns[0],
        TurnInput::PlayHiding31 { seat: 0, .. }
    ));
    assert!(matches!(
        r.view(1).turns[0],
        TurnInput::Play {
            seat: 0,
            shows: None,
            ..
        }
    ));
}

#[test]
fn a_refused_action_records_nothing() {
    let mut r = record(RoundRules::default(), &["2H 3H 4D", "2S 9S TS"], "7C", "5C");
    r.apply(Action::Draw(Source::Stock)).unwrap();
    // The card drawn this turn may go back; a card not in the hand may not go down.
    assert!(r.apply(Action::PutDown(c("AS"))).is_err());
    assert!(r.turns().is_empty());
    r.apply(Action::PutDown(c("5C"))).unwrap();
    assert_eq!(r.turns().len(), 1);
}

/// Random legal play (knocking seldom, so that the stock sometimes runs out), at tables with
/// the options that change what a view holds.
fn random_round(rules: RoundRules, seats: u8, seed: u64) -> Vec<RoundRecord> {
    let mut rng = Rng::stream(seed, 1, 0);
    let mut deck: Vec<Card> = Card::all().collect();
    for i in (1..deck.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    let first = rng.below(u32::from(seats)) as u8;
    let mut r = RoundRecord::deal(rules, seats, first, &deck).unwrap();
    let mut steps = vec![r.clone()];
    while !r.round().is_over() {
        let legal = r.round().legal_actions();
        let hide = legal.iter().find(|a| matches!(a, Action::PutDownHidden(_)));
        let knock = legal.contains(&Action::Knock) && rng.below(40) == 0;
        let action = match (hide, knock) {
            (Some(&h), _) if rng.below(2) == 0 => h,
            (_, true) => Action::Knock,
            _ => {
                let others: Vec<Action> = legal
                    .iter()
                    .copied()
                    .filter(|a| *a != Action::Knock)
                    .collect();
                let pool = if others.is_empty() { &legal } else { &others };
                pool[rng.below(pool.len() as u32) as usize]
            }
        };
        r.apply(action).unwrap();
        steps.push(r.clone());
    }
    steps
}

#[test]
fn every_seats_view_at_every_step_is_a_round_that_could_have_happened() {
    let tables = [
        RoundRules::default(),
        RoundRules {
            may_hide_31: true,
            ..RoundRules::default()
        },
        RoundRules {
            thirty_one_after_knock: ThirtyOneAfterKnock::Continues,
            ..RoundRules::default()
        },
        RoundRules {
            first_turn_knock: FirstTurnKnock::Blind,
            ..RoundRules::default()
        },
    ];
    let (mut views, mut declines) = (0, 0);
    for (t, rules) in tables.iter().enumerate() {
        for seed in 0..60 {
            let seats = 2 + (seed % 4) as u8;
            for r in random_round(*rules, seats, seed * 10 + t as u64) {
                if r.turns().iter().any(|t| t.played == Played::Decline) {
                    declines += 1;
                }
                if r.round().is_over() || r.round().phase() == Phase::Blind {
                    continue;
                }
                if !matches!(
                    r.round().phase(),
                    Phase::PutDown {
                        from_pile: true,
                        ..
                    }
                ) {
                    assert_eq!(r.pile().last().copied(), Some(r.round().top()));
                }
                // The Oracle is asked by the player to move: their view replays.
                let seat = r.round().to_move();
                let input = r.view(seat);
                assert_eq!(input.hand, r.round().hand(seat));
                let view = View::from_input(&input).unwrap_or_else(|e| {
                    panic!("table {t}, seed {seed}, seat {seat}: {e}; {input:?}")
                });
                assert_eq!(view.public.top, r.round().top());
                assert_eq!(view.public.stock_len, r.round().stock_len());
                views += 1;
                // The others' views differ from it only in what each holds and drew.
                for other in (0..seats).filter(|&s| s != seat) {
                    let theirs = r.view(other);
                    assert_eq!(theirs.turns.len(), input.turns.len());
                    assert_eq!(theirs.pending, None);
                }
            }
        }
    }
    assert!(views > 3_000, "only {views} views checked");
    assert!(declines > 0, "no round ran out of stock");
}
