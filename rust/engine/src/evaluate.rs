//! Playouts, the policy sweep and its confirmation run.
//!
//! Each of the player's choices may come with several policies for the rest of the play (in a
//! card game: the score at which to knock later, or which card to put down). The sweep plays every
//! policy of a choice over the same playouts (the simulator plays them on one shared trajectory
//! where it can); the best policy is then played again on fresh playouts, and that confirmation —
//! free of the upward bias of a maximum — is the choice's result. A choice with one policy is
//! simply played once.
//!
//! Playout `i` uses world `i % worlds` and the random stream `i`, the same for every choice
//! (common random numbers: the comparison between choices is sharper than their margins).

use crate::rng::Rng;
use crate::runner::{Runner, Stop};
use crate::stats::{best, Tally};

/// The outcome of one playout for the advised player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The player came through safe.
    pub success: bool,
    /// What it cost the player.
    pub cost: u32,
}

/// A game's playouts.
pub trait Simulator: Sync {
    type World: Sync;
    type Choice: Sync;

    /// The policies swept for this choice (1: nothing to sweep).
    fn policies(&self, choice: &Self::Choice) -> usize;

    /// Play `world` out after `choice`, with the randomness of `rng`, and write the outcome under
    /// every policy into `out` (`out.len() == policies(choice)`).
    fn playout(
        &self,
        world: &Self::World,
        choice: &Self::Choice,
        rng: &mut Rng,
        out: &mut [Outcome],
    );

    /// The same under one policy only (the confirmation run). The default plays them all.
    fn playout_policy(
        &self,
        world: &Self::World,
        choice: &Self::Choice,
        policy: usize,
        rng: &mut Rng,
    ) -> Outcome {
        let mut out = vec![Outcome::default(); self.policies(choice)];
        self.playout(world, choice, rng, &mut out);
        out[policy]
    }
}

/// What the evaluation found for one choice.
#[derive(Clone, Debug, Default)]
pub struct ChoiceResult {
    /// The sweep's tallies, one per policy (empty when there was nothing to sweep).
    pub sweep: Vec<Tally>,
    /// The policy kept.
    pub policy: usize,
    /// The reported figures: the confirmation run's (or the single run's).
    pub result: Tally,
}

#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    pub choices: Vec<ChoiceResult>,
    /// Why the evaluation stopped early, if it did (its tallies then hold fewer playouts).
    pub stopped: Option<Stop>,
}

const PURPOSE_SWEEP: u64 = 0x5357_4545; // "SWEE"
const PURPOSE_CONFIRM: u64 = 0x434f_4e46; // "CONF"
const CHUNK: usize = 256;

/// Evaluate every choice over `playouts` playouts (and as many again for a sweep's confirmation).
pub fn evaluate<S: Simulator>(
    sim: &S,
    worlds: &[S::World],
    choices: &[S::Choice],
    playouts: usize,
    seed: u64,
    runner: &Runner,
) -> Evaluation {
    let mut eval = Evaluation::default();
    if worlds.is_empty() {
        eval.choices = vec![ChoiceResult::default(); choices.len()];
        return eval;
    }
    for choice in choices {
        let k = sim.policies(choice).max(1);
        let (sweep, stop) = run(runner, playouts, k, |i, out| {
            let mut rng = Rng::stream(seed, PURPOSE_SWEEP, i as u64);
            sim.playout(&worlds[i % worlds.len()], choice, &mut rng, out);
        });
        eval.stopped = eval.stopped.or(stop);
        if k == 1 {
            eval.choices.push(ChoiceResult {
                sweep: Vec::new(),
                policy: 0,
                result: sweep[0],
            });
            continue;
        }
        let policy = best(&sweep).unwrap_or(0);
        let (confirmed, stop) = run(runner, playouts, 1, |i, out| {
            let mut rng = Rng::stream(seed, PURPOSE_CONFIRM, i as u64);
            out[0] = sim.playout_policy(&worlds[i % worlds.len()], choice, policy, &mut rng);
        });
        eval.stopped = eval.stopped.or(stop);
        eval.choices.push(ChoiceResult {
            sweep,
            policy,
            result: confirmed[0],
        });
    }
    eval
}

/// Run `n` playouts of `k` policies each; tally them per policy.
fn run<F>(runner: &Runner, n: usize, k: usize, play: F) -> (Vec<Tally>, Option<Stop>)
where
    F: Fn(usize, &mut [Outcome]) + Sync,
{
    let chunks = runner.chunks(n, CHUNK, |range| {
        let mut tallies = vec![Tally::default(); k];
        let mut out = vec![Outcome::default(); k];
        for i in range {
            play(i, &mut out);
            for (t, o) in tallies.iter_mut().zip(&out) {
                t.add(o.success, o.cost);
            }
        }
        tallies
    });
    let mut total = vec![Tally::default(); k];
    let mut stopped = false;
    for c in chunks {
        match c {
            Some(t) => total.iter_mut().zip(&t).for_each(|(a, b)| a.merge(b)),
            None => stopped = true,
        }
    }
    (total, if stopped { runner.stop() } else { None })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A coin game: policy j succeeds with probability (j + 1) / 10; the cost is 1 on failure.
    struct Coins;
    impl Simulator for Coins {
        type World = ();
        type Choice = usize;
        fn policies(&self, c: &usize) -> usize {
            *c
        }
        fn playout(&self, _: &(), _: &usize, rng: &mut Rng, out: &mut [Outcome]) {
            let u = rng.below(10);
            for (j, o) in out.iter_mut().enumerate() {
                let success = u <= j as u32;
                *o = Outcome {
                    success,
                    cost: u32::from(!success),
                };
            }
        }
    }

    #[test]
    fn the_sweep_keeps_the_best_and_reports_the_confirmation() {
        let r = Runner::simple(Some(2));
        let e = evaluate(&Coins, &[()], &[5, 1], 20_000, 3, &r);
        let c = &e.choices[0];
        assert_eq!(c.sweep.len(), 5);
        assert_eq!(c.policy, 4);
        assert!((c.result.p() - 0.5).abs() < 0.02);
        // The confirmation is a different run from the sweep's own figure.
        assert_ne!(c.result, c.sweep[4]);
        let single = &e.choices[1];
        assert!(single.sweep.is_empty());
        assert!((single.result.p() - 0.1).abs() < 0.01);
        assert!(e.stopped.is_none());
    }

    #[test]
    fn deterministic_whatever_the_threads() {
        let a = evaluate(&Coins, &[()], &[3], 5_000, 9, &Runner::simple(Some(1)));
        let b = evaluate(&Coins, &[()], &[3], 5_000, 9, &Runner::simple(Some(2)));
        assert_eq!(a.choices[0].result, b.choices[0].result);
        assert_eq!(a.choices[0].sweep, b.choices[0].sweep);
    }
}
