//! A playout's stock draws, made once and shared by every trajectory of the playout.
//!
//! A playout's stock is in no order: each draw takes a random card of what is left, with the
//! playout's random stream ([`Draws::next`]). The stream is used for nothing else, and the
//! stock only ever loses its cards one draw at a time, so the `k`-th draw of a playout takes
//! the same card whatever was played before it: in the trajectory of each option and each of
//! its put-downs, and in each knock threshold's branch. The draws are therefore made once, by
//! the first trajectory to reach them, and read back by the others (the random number and the
//! stock's slot cost some forty instructions a draw; reading one back, a few).

use montecarlo::Rng;

use super::dealt::spread_cards;
use super::Round;
use crate::hand::{Card, CardSet};

/// The draws of one playout: the cards drawn so far, by the size of the stock each was drawn
/// from, and the stock they leave with the stream that draws the next.
#[derive(Clone, Debug)]
pub(crate) struct Draws {
    /// The stream as it was before the first draw (whose draws these are), kept by a debug
    /// build alone, which checks that every trajectory of the playout draws with it.
    #[cfg(debug_assertions)]
    seed: Rng,
    /// The stream that makes the next draw.
    rng: Rng,
    /// The cards not drawn yet (the first `left` slots, cards by index), in no order. 256
    /// slots, so that a slot indexed by a byte needs no bounds check.
    rest: [u8; 256],
    /// The cards drawn, each in the slot of the stock's size it was drawn from (the slots
    /// above `left`, up to the stock's size before the first draw; 256 as `rest`).
    order: [Card; 256],
    /// How many cards have not been drawn yet.
    left: u8,
    /// The draws are of the round set out now (false after [`Draws::stale`]).
    current: bool,
}

impl Draws {
    /// The draws of `round`'s stock (its first `stock_len` slots, in no order) with `rng`.
    pub(crate) fn new(round: &Round, rng: &Rng) -> Draws {
        let mut draws = Draws {
            #[cfg(debug_assertions)]
            seed: rng.clone(),
            rng: rng.clone(),
            rest: [0; 256],
            order: [Card::from_index(0); 256],
            left: 0,
            current: false,
        };
        draws.begin(round, rng);
        draws
    }

    /// A new round was set out: the next [`Draws::begin`] starts again.
    #[inline]
    pub(crate) fn stale(&mut self) {
        self.current = false;
    }

    /// Ready to draw from `round`'s stock with `rng`: the draws made so far are kept until the
    /// round is set out again ([`Draws::stale`]), as every trajectory of one playout draws with
    /// the same stream (a debug build checks), and started again after.
    #[inline]
    pub(crate) fn begin(&mut self, round: &Round, rng: &Rng) {
        if self.restart(rng) {
            for (slot, c) in self.rest.iter_mut().zip(&round.stock) {
                *slot = c.index();
            }
            self.left = round.public.stock_len;
        }
    }

    /// [`Draws::begin`] of a round whose stock's slots would hold the cards of `stock` in the
    /// order of their indices (as a playout's deal is set out: `Round::set_hands`), the slots
    /// written here from the set. The round's slots, written as the deal was set out and read
    /// back at once, made the reads wait for the writes.
    #[inline]
    pub(crate) fn begin_with(&mut self, stock: CardSet, rng: &Rng) {
        if self.restart(rng) {
            spread_cards(stock.bits(), &mut self.rest);
            self.left = stock.len() as u8;
        }
    }

    /// Whether the draws start again with `rng` (the round was set out again); if so, the
    /// stream is taken, and the caller sets out the stock.
    #[inline(always)]
    fn restart(&mut self, rng: &Rng) -> bool {
        if self.current {
            #[cfg(debug_assertions)]
            assert!(
                self.seed == *rng,
                "a playout's trajectories draw with one stream"
            );
            return false;
        }
        #[cfg(debug_assertions)]
        {
            self.seed = rng.clone();
        }
        self.rng = rng.clone();
        self.current = true;
        true
    }

    /// The card drawn from a stock of `stock_len` cards: the draw made before (by another
    /// trajectory), or a random card of those left, made now.
    #[inline(always)]
    pub(crate) fn next(&mut self, stock_len: u8) -> Card {
        if stock_len > self.left {
            self.order[usize::from(stock_len)]
        } else {
            self.draw(stock_len)
        }
    }

    /// A new draw from the `stock_len` cards left: the card at a random slot; the last card
    /// left takes its slot (as [`Round`]'s own draws at random did). Inlined: called apart,
    /// the call cost about one instruction per table-rule turn more.
    #[inline(always)]
    fn draw(&mut self, stock_len: u8) -> Card {
        debug_assert_eq!(stock_len, self.left);
        debug_assert!(stock_len > 0);
        // Below `stock_len`, so a byte.
        let j = usize::from(self.rng.below(u32::from(stock_len)) as u8);
        let card = Card::from_index(self.rest[j]);
        self.rest[j] = self.rest[usize::from(stock_len - 1)];
        self.order[usize::from(stock_len)] = card;
        self.left -= 1;
        card
    }

    /// The cards not drawn yet.
    #[cfg(test)]
    pub(crate) fn stock_cards(&self) -> CardSet {
        self.rest[..usize::from(self.left)]
            .iter()
            .map(|&c| Card::from_index(c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RoundRules;

    /// The shared draws take, draw by draw, the cards that one random draw after another takes
    /// from the stock (a card at a random slot, the last card moved into it), and every
    /// trajectory that reads them back sees the same cards.
    #[test]
    fn draws_are_the_stock_drawn_at_random_and_read_back_the_same() {
        let mut deck: Vec<Card> = Card::all().collect();
        let mut shuffle = Rng::stream(2, 0, 0);
        for game in 0..300u64 {
            shuffle.shuffle(&mut deck);
            let round = Round::deal(RoundRules::default(), 2 + (game % 8) as u8, 0, &deck).unwrap();
            let rng = Rng::stream(8, 1, game);
            // By hand: the stock's cards, a random slot's card drawn, the last into its slot.
            let (mut by_hand, mut r) = (round.stock, rng.clone());
            let len = round.public.stock_len;
            let expected: Vec<Card> = (1..=len)
                .rev()
                .map(|left| {
                    let j = r.below(u32::from(left)) as usize;
                    let card = by_hand[j];
                    by_hand[j] = by_hand[usize::from(left) - 1];
                    card
                })
                .collect();
            let mut draws = Draws::new(&round, &rng);
            // A first trajectory draws a few, a second draws them all, a third reads some again.
            for stop in [len / 3, 0, len / 2] {
                draws.begin(&round, &rng);
                let mut left = len;
                let seen: Vec<Card> = std::iter::from_fn(|| {
                    (left > stop).then(|| {
                        let card = draws.next(left);
                        left -= 1;
                        card
                    })
                })
                .collect();
                assert_eq!(seen[..], expected[..usize::from(len - stop)], "game {game}");
            }
            // The round set out again (another playout, another stream): they start again.
            let other = Rng::stream(8, 1, game + 1000);
            draws.stale();
            draws.begin(&round, &other);
            assert_eq!(draws.left, len);
            assert_eq!(draws.stock_cards(), round.stock_cards());
        }
    }

    /// Set out from a set of cards (a playout's deal), the draws are those of a round whose
    /// stock's slots hold the set in the order of the cards' indices: card for card, for stocks
    /// of every size, a set's cards in every byte of the word among them.
    #[test]
    fn draws_from_a_set_are_those_of_its_cards_in_order() {
        let deck: Vec<Card> = Card::all().collect();
        let mut pick = Rng::stream(3, 0, 0);
        for game in 0..400u64 {
            let round = Round::deal(RoundRules::default(), 2 + (game % 8) as u8, 0, &deck).unwrap();
            let len = usize::from(round.public.stock_len);
            let mut cards = deck.clone();
            pick.shuffle(&mut cards);
            let set: CardSet = cards[..len].iter().copied().collect();
            let mut slotted = round.clone();
            let mut in_order: Vec<Card> = set.iter().collect();
            in_order.sort_by_key(|c| c.index());
            slotted.stock[..len].copy_from_slice(&in_order);
            let rng = Rng::stream(8, 2, game);
            let (mut from_set, mut from_slots) =
                (Draws::new(&round, &rng), Draws::new(&slotted, &rng));
            from_set.stale();
            from_set.begin_with(set, &rng);
            assert_eq!(from_set.left, from_slots.left);
            for left in (1..=round.public.stock_len).rev() {
                assert_eq!(from_set.next(left), from_slots.next(left), "game {game}");
            }
        }
    }
}
