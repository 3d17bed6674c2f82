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
//! (common random numbers: the comparison between choices is sharper than their margins). Each
//! chunk of playouts is played for every choice, so that a run cut short by its time limit still
//! has the same playouts for every choice: the best estimate reached in the time.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use rayon::prelude::*;

use crate::outcomes::{Outcome, Outcomes, Runs};
use crate::rng::{Rng, Streams};
use crate::runner::{Runner, Stop};
use crate::stats::{best, best_by_value, Tally};

/// A game's playouts.
pub trait Simulator: Sync {
    type World: Sync;
    type Choice: Sync;
    /// What a playout needs of a world, kept for the whole evaluation when several playouts draw
    /// the world (fewer worlds than playouts: the usual case). Best small: the playouts walk the
    /// kept worlds in turn, again and again, and all of them should stay in a small cache.
    type Kept: Send + Sync;
    /// A world set out for one playout ([`Simulator::start`]): every choice of the playout
    /// starts from it.
    type Start: Send;

    /// The policies swept for this choice (1: nothing to sweep).
    fn policies(&self, choice: &Self::Choice) -> usize;

    /// What is kept of `world` for its playouts.
    fn keep(&self, world: &Self::World) -> Self::Kept;

    /// A kept world set out for one playout, in `last`: the world the thread's last playout
    /// set out (None at a chunk's first), so that what every world shares is not written again.
    fn start<'s>(&self, kept: &Self::Kept, last: &'s mut Option<Self::Start>) -> &'s Self::Start;

    /// Play a world (set out by [`Simulator::start`]) out after `choice`, with the randomness
    /// of `rng`, and write the outcome under every policy into `out` (`out.len() ==
    /// policies(choice)`; policies that share an outcome are best written as one range).
    fn playout(
        &self,
        start: &Self::Start,
        choice: &Self::Choice,
        rng: &mut Rng,
        out: &mut Outcomes<'_>,
    );

    /// The same under one policy only (the confirmation run). The default plays them all.
    fn playout_policy(
        &self,
        start: &Self::Start,
        choice: &Self::Choice,
        policy: usize,
        rng: &mut Rng,
    ) -> Outcome {
        let mut runs = Runs::new(self.policies(choice));
        self.playout(start, choice, rng, &mut runs.playout());
        runs.outcome_of(policy)
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

/// How far an evaluation goes.
#[derive(Clone, Copy, Debug)]
pub struct EvalSettings {
    /// Playouts per choice (and as many again to confirm a sweep's best).
    pub playouts: usize,
    pub seed: u64,
    /// When the sweep must stop (the confirmation then runs until the runner's own limit).
    pub sweep_deadline: Option<Instant>,
    /// Playouts (per choice, in the sweep and in the confirmation) that no time limit cuts:
    /// the least work an answer rests on. Only cancellation stops them.
    pub minimum: usize,
    /// Keep the policy with the highest mean value (rather than the highest proportion of
    /// successes, then the lowest cost).
    pub by_value: bool,
}

const PURPOSE_SWEEP: u64 = 0x5357_4545; // "SWEE"
const PURPOSE_CONFIRM: u64 = 0x434f_4e46; // "CONF"
const CHUNK: usize = 256;

/// Evaluate every choice over `settings.playouts` playouts (and as many again for the
/// confirmation of the choices that have a sweep).
pub fn evaluate<S: Simulator>(
    sim: &S,
    worlds: &[S::World],
    choices: &[S::Choice],
    settings: &EvalSettings,
    runner: &Runner,
) -> Evaluation {
    let mut eval = Evaluation::default();
    if worlds.is_empty() || choices.is_empty() {
        eval.choices = vec![ChoiceResult::default(); choices.len()];
        return eval;
    }
    let seed = settings.seed;
    // The sweep: every policy of every choice, the choices side by side in one tally vector.
    let sizes: Vec<usize> = choices.iter().map(|c| sim.policies(c).max(1)).collect();
    let offsets: Vec<usize> = sizes
        .iter()
        .scan(0, |acc, &k| {
            let o = *acc;
            *acc += k;
            Some(o)
        })
        .collect();
    let total: usize = sizes.iter().sum();
    let deadline = settings.sweep_deadline.or(runner.deadline());
    let limit = Limit {
        deadline,
        minimum: settings.minimum,
    };
    let starts = Starts::new(sim, worlds, settings.playouts, runner);
    let sweep_streams = Streams::new(seed, PURPOSE_SWEEP);
    let (sweep, stop) = run(runner, settings.playouts, total, limit, |i, last, out| {
        let start = starts.get(i, last);
        let stream = sweep_streams.stream(i as u64);
        for ((choice, &o), &k) in choices.iter().zip(&offsets).zip(&sizes) {
            let mut rng = stream.clone();
            sim.playout(start, choice, &mut rng, &mut out.part(o..o + k));
        }
    });
    eval.stopped = stop;
    let keep = if settings.by_value {
        best_by_value
    } else {
        best
    };
    let policies: Vec<usize> = (0..choices.len())
        .map(|c| keep(&sweep[offsets[c]..offsets[c] + sizes[c]]).unwrap_or(0))
        .collect();
    // The confirmation: the kept policy of every choice that had a sweep, on fresh playouts.
    let swept: Vec<usize> = (0..choices.len()).filter(|&c| sizes[c] > 1).collect();
    let confirm_streams = Streams::new(seed, PURPOSE_CONFIRM);
    let (confirmed, stop) = if swept.is_empty() {
        (Vec::new(), None)
    } else {
        run(
            runner,
            settings.playouts,
            swept.len(),
            Limit {
                deadline: runner.deadline(),
                minimum: settings.minimum,
            },
            |i, last, out| {
                let start = starts.get(i, last);
                let stream = confirm_streams.stream(i as u64);
                for (j, &c) in swept.iter().enumerate() {
                    let mut rng = stream.clone();
                    let o = sim.playout_policy(start, &choices[c], policies[c], &mut rng);
                    out.set(j..j + 1, o);
                }
            },
        )
    };
    eval.stopped = eval.stopped.or(stop);
    for c in 0..choices.len() {
        let tallies = sweep[offsets[c]..offsets[c] + sizes[c]].to_vec();
        eval.choices.push(match swept.iter().position(|&s| s == c) {
            // A confirmation cut to nothing by the time limit leaves the sweep's own figure.
            Some(j) if confirmed[j].n > 0 => ChoiceResult {
                sweep: tallies,
                policy: policies[c],
                result: confirmed[j],
            },
            Some(_) => ChoiceResult {
                result: tallies[policies[c]],
                sweep: tallies,
                policy: policies[c],
            },
            None => ChoiceResult {
                sweep: Vec::new(),
                policy: 0,
                result: tallies[0],
            },
        });
    }
    eval
}

/// The worlds kept for play (playout `i` draws world `i % worlds`). Worlds that several playouts
/// draw (fewer worlds than playouts: the usual case) are kept once, in parallel, before the runs;
/// worlds drawn once per run (as many as the playouts, as importance-weighted sampling returns
/// them) are kept as they are drawn, so that the memory they take stays that of the worlds
/// themselves. Each playout sets its world out anew ([`Simulator::start`]).
struct Starts<'a, S: Simulator> {
    sim: &'a S,
    worlds: &'a [S::World],
    kept: Vec<S::Kept>,
}

impl<'a, S: Simulator> Starts<'a, S> {
    fn new(sim: &'a S, worlds: &'a [S::World], playouts: usize, runner: &Runner) -> Self {
        let kept = if worlds.len() < playouts {
            runner.install(|| worlds.par_iter().map(|w| sim.keep(w)).collect())
        } else {
            Vec::new()
        };
        Starts { sim, worlds, kept }
    }

    /// World `i % worlds` set out for a playout, in `last` (see [`Simulator::start`]).
    #[inline]
    fn get<'s>(&self, i: usize, last: &'s mut Option<S::Start>) -> &'s S::Start {
        if self.kept.is_empty() {
            let kept = self.sim.keep(&self.worlds[i % self.worlds.len()]);
            self.sim.start(&kept, last)
        } else {
            self.sim.start(&self.kept[i % self.kept.len()], last)
        }
    }
}

/// When a run stops: at `deadline`, except its first `minimum` playouts.
#[derive(Clone, Copy)]
struct Limit {
    deadline: Option<Instant>,
    minimum: usize,
}

/// Run `n` playouts of `k` outcomes each; tally them per outcome. Each chunk adds its tallies
/// to the total as it ends, while they are still in the cache (the sums are of integers: the
/// total is the same in any order); kept until the chunks in flight were all done, they were
/// read back from memory, most of a small cache's misses once the worlds fitted in it.
/// `play` gets each playout's index, the chunk's last world set out (see
/// [`Simulator::start`]), and where to write.
fn run<T, F>(
    runner: &Runner,
    n: usize,
    k: usize,
    limit: Limit,
    play: F,
) -> (Vec<Tally>, Option<Stop>)
where
    F: Fn(usize, &mut Option<T>, &mut Outcomes<'_>) + Sync,
{
    let total = Mutex::new(vec![Tally::default(); k]);
    let mut stopped = false;
    runner.each_chunk(
        n,
        CHUNK,
        |start| (start >= limit.minimum).then_some(limit.deadline).flatten(),
        |range| {
            let mut runs = Runs::new(k);
            let mut last = None;
            for i in range {
                play(i, &mut last, &mut runs.playout());
            }
            let tallies = runs.into_tallies();
            let mut total = total.lock().unwrap_or_else(PoisonError::into_inner);
            total.iter_mut().zip(&tallies).for_each(|(a, b)| a.merge(b));
        },
        |c| stopped |= c.is_none(),
    );
    (
        total.into_inner().unwrap_or_else(PoisonError::into_inner),
        if stopped {
            runner.stop_by(limit.deadline)
        } else {
            None
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A coin game: policy j succeeds with probability (j + 1) / 10; the cost is 1 on failure.
    struct Coins;
    impl Simulator for Coins {
        type World = ();
        type Choice = usize;
        type Kept = ();
        type Start = ();
        fn policies(&self, c: &usize) -> usize {
            *c
        }
        fn keep(&self, _: &()) {}
        fn start<'s>(&self, _: &(), last: &'s mut Option<()>) -> &'s () {
            last.insert(())
        }
        fn playout(&self, _: &(), _: &usize, rng: &mut Rng, out: &mut Outcomes<'_>) {
            let u = rng.below(10) as usize;
            // Policy j succeeds when u <= j: the policies below u fail (cost 1).
            let failed = u.min(out.len());
            let fail = Outcome {
                success: false,
                cost: 1,
                value: 0,
            };
            out.set(0..failed, fail);
            let ok = Outcome {
                success: true,
                ..Outcome::default()
            };
            out.set(failed..out.len(), ok);
        }
    }

    fn settings(playouts: usize, seed: u64) -> EvalSettings {
        EvalSettings {
            playouts,
            seed,
            sweep_deadline: None,
            minimum: 0,
            by_value: false,
        }
    }

    #[test]
    fn a_run_cut_short_has_the_same_playouts_for_every_choice() {
        let past = Instant::now();
        let r = Runner::new(Some(2), Some(past), std::sync::Arc::default());
        let e = evaluate(&Coins, &[()], &[3, 1], &settings(10_000, 1), &r);
        assert_eq!(e.stopped, Some(Stop::Time));
        assert_eq!(e.choices[0].result.n, e.choices[1].result.n);
    }

    #[test]
    fn the_minimum_is_played_whatever_the_time_limit() {
        let past = Instant::now();
        let r = Runner::new(Some(2), Some(past), std::sync::Arc::default());
        let s = EvalSettings {
            minimum: 1_000,
            ..settings(100_000, 1)
        };
        let e = evaluate(&Coins, &[()], &[3, 1], &s, &r);
        assert_eq!(e.stopped, Some(Stop::Time));
        for c in &e.choices {
            // Whole chunks: the minimum rounded up to a chunk, and nothing past it.
            assert_eq!(c.result.n, 1_000u64.div_ceil(CHUNK as u64) * CHUNK as u64);
        }
        assert_eq!(e.choices[0].sweep[0].n, e.choices[0].result.n);
    }

    #[test]
    fn the_sweep_keeps_the_best_and_reports_the_confirmation() {
        let r = Runner::simple(Some(2));
        let e = evaluate(&Coins, &[()], &[5, 1], &settings(20_000, 3), &r);
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
        let a = evaluate(
            &Coins,
            &[()],
            &[3],
            &settings(5_000, 9),
            &Runner::simple(Some(1)),
        );
        let b = evaluate(
            &Coins,
            &[()],
            &[3],
            &settings(5_000, 9),
            &Runner::simple(Some(2)),
        );
        assert_eq!(a.choices[0].result, b.choices[0].result);
        assert_eq!(a.choices[0].sweep, b.choices[0].sweep);
    }
}
