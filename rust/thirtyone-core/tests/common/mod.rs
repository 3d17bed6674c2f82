//! Helpers shared by the integration tests: cards from text, stacked decks, scripted turns.
#![allow(dead_code)]

use thirtyone_core::{Action, Card, CardSet, Phase, Round, RoundRules, Source};

pub fn c(text: &str) -> Card {
    text.parse().expect("a card")
}

pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(c).collect()
}

pub fn hand(text: &str) -> [Card; 3] {
    cards(text).try_into().expect("three cards")
}

/// A deck that deals `hands` (seat 0 first, one card at a time), then `upcard`, then the
/// stock's top cards `stock` in drawing order; the other cards fill the stock's bottom in
/// pack order.
pub fn build_deck(hands: &[&str], upcard: &str, stock: &str) -> Vec<Card> {
    let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut deck = Vec::with_capacity(52);
    for k in 0..3 {
        for h in &hs {
            deck.push(h[k]);
        }
    }
    deck.push(c(upcard));
    deck.extend(cards(stock));
    let named: CardSet = deck.iter().copied().collect();
    assert_eq!(named.len(), deck.len(), "a card is named twice");
    deck.extend(Card::all().filter(|x| !named.contains(*x)));
    assert_eq!(deck.len(), 52);
    deck
}

pub fn deal(rules: RoundRules, hands: &[&str], upcard: &str, stock: &str) -> Round {
    Round::deal(
        rules,
        hands.len() as u8,
        0,
        &build_deck(hands, upcard, stock),
    )
    .expect("a good deal")
}

/// Draw from the stock and put the drawn card straight back. Returns the card.
pub fn pass(r: &mut Round) -> Card {
    r.apply(Action::Draw(Source::Stock)).expect("draw");
    let Phase::PutDown { new, from_pile } = r.phase() else {
        panic!("no put-down after a draw")
    };
    assert!(!from_pile);
    r.apply(Action::PutDown(new)).expect("put back");
    new
}

/// Seat 0 first; everybody passes except `knocker`, who knocks on their first turn; returns
/// the losses of the showdown.
pub fn showdown(rules: RoundRules, hands: &[&str], knocker: u8) -> Vec<u8> {
    let mut r = deal(rules, hands, "8D", "");
    for _ in 0..knocker {
        pass(&mut r);
    }
    assert_eq!(r.to_move(), knocker);
    r.apply(Action::Knock).expect("knock");
    for _ in 1..hands.len() {
        assert!(!r.is_over());
        pass(&mut r);
    }
    assert_eq!(r.end(), Some(thirtyone_core::End::Showdown));
    r.losses()[..hands.len()].to_vec()
}
