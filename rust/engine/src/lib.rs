//! A game-agnostic parallel Monte Carlo engine. It knows nothing of cards.
