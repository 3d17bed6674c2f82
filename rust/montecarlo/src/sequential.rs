//! Importance-weighted worlds, for positions where consistent combinations are rare.
//!
//! When the parts of a world are each easy to sample but rarely compatible (many opponents
//! sharing few unseen cards), rejecting whole combinations starves. If the game can draw a part
//! from its own distribution restricted to the parts compatible with those drawn before it
//! ([`Factored::sample_after`]), a world is drawn one part after another instead (sequential
//! importance sampling). Its weight is the product of the shares those restrictions kept:
//!
//! - the wanted distribution of a world is proportional to the product of its parts'
//!   probabilities, over compatible worlds;
//! - the chance of drawing it part by part is that product divided by the product of the shares;
//! - so their ratio, the weight, is proportional to the product of the shares, and the weighted
//!   worlds estimate any mean over consistent worlds without bias as their number grows (the
//!   self-normalised estimate; its bias is of order 1 / proposals).
//!
//! `n` worlds asked for, `k` returned ([`slots`]: five times `n`, so that the playouts of a query
//! — five per world asked, by default — each have their own): proposals are drawn until their
//! effective sample size (Kish: `ESS = (Σw)² / Σw²`) reaches `n k / (k - n)` (1.25 `n`), then `k`
//! worlds are resampled from them in proportion to their weights (stratified: one uniform draw in
//! each of `k` equal strata of the total weight), in a random order, so that any of them, and any
//! number of them, are a fair sample. A mean over `used` of them then rests on an effective number
//! of worlds `1 / (1 / ESS + 1 / min(used, k))` ([`Collected::effective`]): `n` when every world
//! returned is used.
//!
//! Whether to weight at all is decided by a pilot of fixed size on its own random stream: plain
//! rejection (exact and independent) is kept while it takes at most [`WEIGHTED_AFTER`] attempts
//! per world. Proposal `k` has its own random stream, so the worlds are the same whatever the
//! number of threads.

use std::sync::atomic::Ordering;

use crate::rng::Rng;
use crate::runner::Stop;
use crate::worlds::{in_index_order, tested_first, Collected, Each, Factored};

const PURPOSE_PILOT: u64 = 0x5049_4c4f; // "PILO"
const PURPOSE_PROPOSAL: u64 = 0x5052_4f50; // "PROP"
const PURPOSE_RESAMPLE: u64 = 0x5245_5341; // "RESA"

/// Attempts a world by rejection may take on average before worlds are weighted instead.
pub const WEIGHTED_AFTER: usize = 16;
/// Compatible combinations after which the pilot has seen enough ...
const PILOT_FOUND: usize = 32;
/// ... and the most attempts it makes.
pub const PILOT_ATTEMPTS: usize = PILOT_FOUND * WEIGHTED_AFTER;
/// Attempts per chunk of the pilot.
const PILOT_CHUNK: usize = 256;
/// Worlds returned per world asked for, and the most returned (beyond, two per world asked).
const SLOTS: usize = 5;
const MOST_SLOTS: usize = 1 << 20;
/// Proposals per chunk.
const CHUNK: usize = 64;
/// The most proposals kept (with a positive weight) in all, and per world returned.
const MAX_KEPT: usize = 1 << 21;
const MAX_PER_SLOT: usize = 32;

/// Whether compatible combinations are rare: more than [`WEIGHTED_AFTER`] attempts per world by
/// rejection, in a pilot of at most [`PILOT_ATTEMPTS`] attempts (bounded in work: it
/// stops only when cancelled).
pub(crate) fn rare<F: Factored>(each: &Each<'_, F>, attempts: &mut u64) -> Result<bool, Stop> {
    let most = PILOT_ATTEMPTS;
    let (mut done, mut found) = (0usize, 0usize);
    while done < most && found < PILOT_FOUND {
        let n = PILOT_CHUNK.min(most - done);
        let mut cut = false;
        each.runner.each_chunk(
            n,
            PILOT_CHUNK / 4,
            |_| None,
            |range| {
                let (mut drawn, mut parts) = (Vec::new(), Vec::new());
                range
                    .filter(|&a| {
                        let seed = each.settings.seed;
                        let mut rng = Rng::stream(seed, PURPOSE_PILOT, (done + a) as u64);
                        each.once(&mut rng, &mut drawn, &mut parts)
                    })
                    .count()
            },
            |r| match r {
                Some(k) => found += k,
                None => cut = true,
            },
        );
        if cut {
            return Err(Stop::Cancelled);
        }
        *attempts += n as u64;
        done += n;
    }
    Ok(found < PILOT_FOUND)
}

/// The worlds returned for `target` asked for: five times as many (two times beyond a million).
pub fn slots(target: usize) -> usize {
    (SLOTS * target).min(MOST_SLOTS).max(2 * target).max(1)
}

/// The effective sample size wanted so that `slots` worlds resampled are worth `target`.
fn wanted(target: usize, slots: usize) -> f64 {
    let (n, k) = (target.max(1) as f64, slots as f64);
    n * k / (k - n)
}

/// One proposal: the parts drawn in `sequence`, each tested part given those before it, the parts
/// dealt by the fallback (last in `sequence`) given all before them (`drawn` and `parts` are
/// room to work in). Its world and weight, or None when a part had nothing compatible left
/// (weight 0).
fn propose<F: Factored>(
    game: &F,
    fallback: &[bool],
    sequence: &[usize],
    rng: &mut Rng,
    drawn: &mut Vec<F::Part>,
    parts: &mut Vec<F::Part>,
) -> Option<(F::World, f64)> {
    drawn.clear();
    let mut weight = 1.0;
    for &i in sequence {
        if fallback[i] {
            let part = game.fallback_part(i, drawn, rng);
            drawn.push(part);
            continue;
        }
        let (part, share) = game.sample_after(i, drawn, rng)?;
        weight *= share;
        drawn.push(part);
    }
    // Back in the parts' own order.
    in_index_order(sequence, drawn, parts);
    // Each part was compatible with those before it: the game combines them.
    Some((game.combine(parts)?, weight))
}

/// `n` proposals from streams `first..first + n` of `seed`, with their weights (None: weight 0),
/// on one thread: for checks of the proposals themselves.
pub fn proposals<F: Factored>(
    game: &F,
    seed: u64,
    first: u64,
    n: usize,
) -> Vec<Option<(F::World, f64)>> {
    let sequence = game.sequence();
    let fallback = vec![false; game.parts()];
    let (mut drawn, mut parts) = (Vec::new(), Vec::new());
    (first..first + n as u64)
        .map(|k| {
            let mut rng = Rng::stream(seed, PURPOSE_PROPOSAL, k);
            propose(game, &fallback, &sequence, &mut rng, &mut drawn, &mut parts)
        })
        .collect()
}

/// Proposals kept so far: their worlds and weights, in the proposals' order.
struct Kept<W> {
    worlds: Vec<W>,
    weights: Vec<f64>,
    /// Proposals made (with a weight of 0 or not), the sum of weights and of their squares.
    made: usize,
    sum: f64,
    sum_sq: f64,
}

impl<W> Kept<W> {
    fn ess(&self) -> f64 {
        if self.sum_sq > 0.0 {
            self.sum * self.sum / self.sum_sq
        } else {
            0.0
        }
    }
}

/// Collect [`slots`] worlds resampled from weighted proposals (see the module's text).
pub(crate) fn collect_weighted<F: Factored>(each: &Each<'_, F>, out: &mut Collected<F::World>) {
    let slots = slots(each.settings.target);
    let kept = propose_until(each, wanted(each.settings.target, slots), out);
    out.ess = Some(kept.ess());
    if kept.worlds.is_empty() {
        return;
    }
    let mut rng = Rng::stream(each.settings.seed, PURPOSE_RESAMPLE, 0);
    let picks = stratified(&kept.weights, kept.sum, slots, &mut rng);
    out.worlds = picks.into_iter().map(|k| kept.worlds[k].clone()).collect();
    // A random order: any part of the worlds, and the worlds cycled, are unbiased.
    rng.shuffle(&mut out.worlds);
}

/// Proposals until their effective sample size reaches `wanted`, the time is up, the most allowed
/// are kept or the most allowed are made ([`crate::worlds::CollectSettings::max_attempts_per_world`] per world
/// asked). The least work ([`crate::worlds::CollectSettings::minimum`] kept, at most
/// [`crate::worlds::CollectSettings::minimum_attempts`] proposals) is done whatever the time; if it keeps none,
/// the proposals stop there.
fn propose_until<F: Factored>(
    each: &Each<'_, F>,
    wanted: f64,
    out: &mut Collected<F::World>,
) -> Kept<F::World> {
    let s = each.settings;
    let sequence = tested_first(each.fallback, each.game.sequence().into_iter());
    let most = MAX_KEPT.min(MAX_PER_SLOT * wanted.ceil() as usize);
    let most_made = usize::try_from(s.max_attempts_per_world.saturating_mul(s.target as u64))
        .unwrap_or(usize::MAX)
        .max(1);
    let least = usize::try_from(s.minimum_attempts).unwrap_or(usize::MAX);
    let mut kept = Kept {
        worlds: Vec::new(),
        weights: Vec::new(),
        made: 0,
        sum: 0.0,
        sum_sq: 0.0,
    };
    let mut next = wanted.ceil() as usize;
    while out.stopped.is_none() && kept.worlds.len() < most && kept.made < most_made {
        if s.minimum > 0 && kept.worlds.is_empty() {
            // Nothing kept yet: the least work's proposals are all there is to it.
            if kept.made >= least {
                break;
            }
            next = next.min(least - kept.made);
        }
        next = next.min(most_made - kept.made);
        let first = kept.made;
        each.runner.each_chunk(
            next,
            CHUNK,
            // (A chunk of the least work is begun only while it fits in its proposals.)
            |start| each.deadline((first + start + CHUNK) as u64),
            |range| {
                let mut got = Vec::new();
                let (mut drawn, mut parts) = (Vec::new(), Vec::new());
                let made = range.len();
                for k in range {
                    let mut rng = Rng::stream(s.seed, PURPOSE_PROPOSAL, (first + k) as u64);
                    let fallback = each.fallback;
                    let game = each.game;
                    if let Some(p) =
                        propose(game, fallback, &sequence, &mut rng, &mut drawn, &mut parts)
                    {
                        each.found.fetch_add(1, Ordering::Relaxed);
                        got.push(p);
                    }
                }
                (got, made)
            },
            |r| match r {
                Some((got, made)) => {
                    out.attempts += made as u64;
                    for (w, weight) in got {
                        kept.worlds.push(w);
                        kept.weights.push(weight);
                        kept.sum += weight;
                        kept.sum_sq += weight * weight;
                    }
                }
                None => {
                    out.stopped = out
                        .stopped
                        .or(each.runner.stop_by(None).or(Some(Stop::Time)))
                }
            },
        );
        kept.made += next;
        let ess = kept.ess();
        if ess >= wanted {
            break;
        }
        // More at the rate so far (at least a quarter of those made, at most four times them).
        let rate = ess / kept.made as f64;
        let more = if rate > 0.0 {
            ((wanted - ess) / rate * 1.05).ceil() as usize
        } else {
            4 * kept.made
        };
        next = more.max(kept.made / 4 + CHUNK).min(4 * kept.made + CHUNK);
    }
    kept
}

/// Stratified resampling: `slots` indices into `weights` (summing to `total`), one from each of
/// `slots` equal strata of the total weight, so that index `k` comes up `slots * w_k / total`
/// times on average.
fn stratified(weights: &[f64], total: f64, slots: usize, rng: &mut Rng) -> Vec<usize> {
    let mut picks = Vec::with_capacity(slots);
    let mut k = 0usize;
    let mut upto = weights[0];
    for j in 0..slots {
        let u = (j as f64 + unit(rng)) / slots as f64 * total;
        while upto <= u && k + 1 < weights.len() {
            k += 1;
            upto += weights[k];
        }
        picks.push(k);
    }
    picks
}

/// A uniform number in `[0, 1)`.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
#[path = "sequential_tests.rs"]
mod tests;
