//! A game-agnostic parallel Monte Carlo engine. It knows nothing of cards.
//!
//! A game plugs in through two traits:
//! - [`worlds::Factored`]: sample a world consistent with one player's view, part by part
//!   (each part tested on its own, the parts combined when compatible);
//! - [`evaluate::Simulator`]: play a world out after one of the player's choices, under every
//!   policy of a sweep at once.
//!
//! The engine supplies the rest: deterministic random streams ([`rng`]), the parallel runner with
//! its time limit and cancellation ([`runner`]), consistent-world collection ([`worlds`]), the
//! policy sweep with its confirmation run ([`evaluate`]), the outcomes' tallies ([`outcomes`])
//! and the statistics ([`stats`]).

pub mod evaluate;
pub mod explain;
pub mod outcomes;
pub mod rng;
pub mod runner;
pub mod sequential;
pub mod stats;
pub mod worlds;

pub use evaluate::{evaluate, ChoiceResult, EvalSettings, Evaluation, Simulator};
pub use explain::Unexplained;
pub use outcomes::{Outcome, Outcomes};
pub use rng::Rng;
pub use runner::{Runner, Stop};
pub use stats::{margin, rounded, to_fixed, Tally, VALUE_ONE};
pub use worlds::{collect, CollectSettings, Collected, Factored, Weighted};
