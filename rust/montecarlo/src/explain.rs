//! Which parts of a world are dealt by the game's fallback, without the consistency test.
//!
//! - **Alone**: a part with no consistent sample at all. The game may know it
//!   ([`Factored::explainable`]); otherwise the part is probed, at most
//!   [`CollectSettings::probe_attempts`] attempts, and none consistent means none.
//! - **Together**: a part whose consistent samples combine with none of those of the parts
//!   before it. Where the game can tell ([`Factored::combinable`], exact and bounded), the
//!   tested parts are taken in its [`Factored::explain_order`]: each is kept when it combines
//!   with those kept before it, and dealt by the fallback otherwise.
//! - **Rare**: where the least work finds no world at all although no part is known to be
//!   unexplainable, the last tested part in that order is dealt by the fallback, and the
//!   collection tried again (`worlds::collect`), one part at a time.
//!
//! All of it is bounded in work and stops only when cancelled: the time limit holds after it.

use crate::rng::Rng;
use crate::runner::{Runner, Stop};
use crate::worlds::{CollectSettings, Factored};

/// Why a part is dealt by the fallback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unexplained {
    /// No consistent sample of it alone.
    Alone,
    /// Its consistent samples combine with none of those of the parts kept before it.
    Together,
    /// The least work found no world with it tested (and those after it in the order dealt by
    /// the fallback).
    Rare,
}

const PURPOSE_PROBE: u64 = 0x5052_4f42; // "PROB"

/// The parts no attempt explains alone, found by asking the game or probing each part (the
/// probes counted in `attempts`). Stops only when cancelled.
pub(crate) fn alone<F: Factored>(
    game: &F,
    settings: &CollectSettings,
    runner: &Runner,
    attempts: &mut u64,
) -> Result<Vec<Option<Unexplained>>, Stop> {
    let probe_chunk = 4096usize;
    let mut why = vec![None; game.parts()];
    for (i, w) in why.iter_mut().enumerate() {
        if let Some(known) = game.explainable(i) {
            *w = (!known).then_some(Unexplained::Alone);
            continue;
        }
        let probes = settings.probe_attempts as usize;
        let mut found = false;
        // Grow the probe geometrically so that an easy part costs little.
        let mut done = 0usize;
        let mut size = probe_chunk.min(probes.max(1));
        while done < probes && !found {
            let n = size.min(probes - done);
            let (mut cut, mut any) = (false, false);
            runner.each_chunk(
                n,
                probe_chunk / 4,
                |_| None,
                |range| {
                    range.into_iter().any(|a| {
                        let mut rng = Rng::stream(
                            settings.seed,
                            PURPOSE_PROBE ^ ((i as u64) << 40),
                            (done + a) as u64,
                        );
                        game.sample_part(i, &mut rng).is_some()
                    })
                },
                |r| match r {
                    Some(x) => any |= x,
                    None => cut = true,
                },
            );
            if cut {
                return Err(Stop::Cancelled);
            }
            found = any;
            *attempts += n as u64;
            done += n;
            size *= 4;
        }
        *w = (!found).then_some(Unexplained::Alone);
    }
    Ok(why)
}

/// The tested parts that combine with none of the parts kept before them, where the game can
/// tell: dealt by the fallback (`why`). Nothing changes where every tested part combines, or the
/// game cannot tell.
pub(crate) fn together<F: Factored>(game: &F, why: &mut [Option<Unexplained>]) {
    let tested: Vec<usize> = tested_in_order(game, why);
    if tested.len() < 2 || game.combinable(&tested) != Some(false) {
        return;
    }
    let mut kept = Vec::with_capacity(tested.len());
    for i in tested {
        kept.push(i);
        if game.combinable(&kept) == Some(false) {
            kept.pop();
            why[i] = Some(Unexplained::Together);
        }
    }
}

/// The last tested part in the game's order (None: every part is dealt by the fallback).
pub(crate) fn last_tested<F: Factored>(game: &F, why: &[Option<Unexplained>]) -> Option<usize> {
    tested_in_order(game, why).pop()
}

fn tested_in_order<F: Factored>(game: &F, why: &[Option<Unexplained>]) -> Vec<usize> {
    game.explain_order()
        .into_iter()
        .filter(|&i| why[i].is_none())
        .collect()
}
