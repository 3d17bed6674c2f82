//! The opponents' hands combined into consistent deals, for the engine.
//!
//! Each opponent is drawn from their own posterior ([`Inference`]); a deal is the opponents'
//! hands when no unseen card is in two of them. The consistent deals are equally likely, so a
//! deal's probability is the product of its opponents' counts (the number of consistent
//! fillings of their slots that end in those hidden cards), over deals whose hidden cards differ.
//!
//! When such deals are rare (many seats, few unseen cards) the engine draws the opponents one
//! after another instead, each from their posterior restricted to the hands that use none of the
//! cards given to those before ([`Factored::sample_after`], `conditional`), and weights the deal
//! by the shares those restrictions kept (`montecarlo::sequential`, `docs/sampling.md`). The
//! opponents with the fewest hands are drawn first: they are the most constrained, and drawn
//! late they would most often find their hands taken.
//!
//! An opponent whose play no deal explains (alone, or together with the plays of the opponents
//! before them in the round: `joint`, in the order of play) is dealt without the consistency
//! test, after the others, from the unseen cards they left (`montecarlo::explain`).

use montecarlo::{Factored, Rng};

use super::joint::fit;
use super::{Deal, Inference, OppDeal, Posterior};
use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::{Card, CardSet};
use crate::rules::MAX_SEATS;

impl Factored for Inference<'_> {
    type Part = OppDeal;
    type World = Deal;

    fn parts(&self) -> usize {
        self.view.opponents.len()
    }

    fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<OppDeal> {
        let o = &self.view.opponents[i];
        let part = match (&self.posteriors[i], &self.conditionals[i]) {
            (Posterior::Counted { cumulative, .. }, Some(c)) if !cumulative.is_empty() => {
                c.draw_any(rng)
            }
            (Posterior::Counted { .. }, _) => None,
            (Posterior::Rejection, _) => self.attempt(o, rng),
        };
        part.map(|p| self.knocking(i, p, rng))
    }

    fn explainable(&self, i: usize) -> Option<bool> {
        match &self.posteriors[i] {
            Posterior::Counted { cumulative, .. } => Some(!cumulative.is_empty()),
            Posterior::Rejection => None,
        }
    }

    /// The opponent dealt without the consistency test, from the unseen cards the hands dealt
    /// before do not use.
    fn fallback_part(&self, i: usize, others: &[OppDeal], rng: &mut Rng) -> OppDeal {
        let taken = others
            .iter()
            .fold(CardSet::EMPTY, |u, p| u.union(p.unseen_used));
        let part = self.untested(&self.view.opponents[i], taken, rng);
        self.knocking(i, part, rng)
    }

    /// Exact for counted opponents, within a bounded search (`joint`).
    fn combinable(&self, which: &[usize]) -> Option<bool> {
        let mut lists = Vec::with_capacity(which.len());
        for &i in which {
            match &self.posteriors[i] {
                Posterior::Counted { hands, .. } => {
                    lists.push(hands.iter().map(|h| h.1.bits()).collect());
                }
                Posterior::Rejection => return None,
            }
        }
        fit(lists)
    }

    /// The opponents in the order they play from the round's first player: where their plays do
    /// not fit together, the later player's is the one no deal explains.
    fn explain_order(&self) -> Vec<usize> {
        let t = &self.view.public;
        let mut order: Vec<usize> = (0..self.view.opponents.len()).collect();
        order.sort_by_key(|&i| (self.view.opponents[i].seat + t.seats - t.first) % t.seats);
        order
    }

    fn combine(&self, parts: &[OppDeal]) -> Option<Deal> {
        let mut used = CardSet::EMPTY;
        let mut hands = [[Card::from_index(0); 3]; MAX_SEATS];
        let mut knock_at = [TABLE_KNOCK_AT; MAX_SEATS];
        for (o, p) in self.view.opponents.iter().zip(parts) {
            if used.intersects(p.unseen_used) {
                return None;
            }
            used = used.union(p.unseen_used);
            hands[o.seat as usize] = p.hand;
            knock_at[o.seat as usize] = p.knock_at;
        }
        Some(Deal {
            hands,
            stock: self.view.unseen.minus(used),
            knock_at,
        })
    }

    /// Every opponent counted exactly (none left to rejection).
    fn sequential(&self) -> bool {
        self.conditionals.iter().all(Option::is_some)
    }

    /// The opponents with the fewest hands first (then in seat order), but large listed
    /// posteriors before them all, the largest first: given few cards taken, their shares are
    /// counted by a few lookups instead of a walk over thousands of hands.
    fn sequence(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.conditionals.len()).collect();
        order.sort_by_key(|&i| match &self.conditionals[i] {
            Some(c) if c.large() => (0, u64::MAX - c.len()),
            Some(c) => (1, c.len()),
            None => (2, 0),
        });
        order
    }

    fn sample_after(&self, i: usize, earlier: &[OppDeal], rng: &mut Rng) -> Option<(OppDeal, f64)> {
        let taken = earlier
            .iter()
            .fold(CardSet::EMPTY, |u, p| u.union(p.unseen_used));
        let (part, share) = self.conditionals[i].as_ref()?.draw(taken, rng)?;
        Some((self.knocking(i, part, rng), share))
    }
}

impl Inference<'_> {
    /// A modelled opponent's part with the score they knock at, drawn from their hand's
    /// posterior (a table player's part as it is, the stream untouched).
    fn knocking(&self, i: usize, mut part: OppDeal, rng: &mut Rng) -> OppDeal {
        if let Some(k) = &self.knocks[i] {
            part.knock_at = k.draw(part.row, rng);
        }
        part
    }
}

#[cfg(test)]
#[path = "deals_tests.rs"]
mod tests;
