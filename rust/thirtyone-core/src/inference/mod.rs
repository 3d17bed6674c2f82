//! What the advised player can infer about the hidden cards: each opponent's consistent hands now,
//! the table's decision rule replayed over what the table saw on their turns, counted exactly
//! (`count`) or sampled by rejection (`posterior`), or for a modelled opponent weighed by the
//! likelihood of their play (`weighted`); one opponent's counted posterior drawn given
//! the cards the others hold (`conditional`); whether the opponents' counted hands fit together at
//! all (`joint`); and the opponents combined into consistent deals for the engine, the
//! `montecarlo::Factored` of the game (`deals`). This room may use [`crate::view`],
//! [`crate::round`], [`crate::rules`], [`crate::hand`] and the `montecarlo` engine.

mod conditional;
mod count;
mod deals;
mod joint;
mod particles;
mod posterior;
#[cfg(test)]
pub(crate) mod test_positions;
mod weighted;

pub(crate) use posterior::Posterior;
pub use posterior::{Deal, Inference, OppDeal, COUNT_BUDGET};
pub use weighted::{Effort, PARTICLES};
