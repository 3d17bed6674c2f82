//! Distributions on disk: JSON, written to a temporary file and renamed into place, so that a
//! crash leaves either the old file or the new one.
//!
//! Nothing read is trusted. A file is used only when it is a regular file no larger than the
//! largest table's results can be (both looked at before it is opened, and again on the file
//! opened, which is opened without waiting: a pipe never blocks), reads as JSON of this format
//! for the same rules, seats and placing, holds results each well-formed for the seats (as
//! many losses and places as seats, no loss larger than a round can bring, the places a
//! permutation of the positions, kept only under ranked placing), in order without repeats,
//! each counted at least once, the counts adding up to the rounds simulated, and its checksum
//! matches. Anything else is [`Unusable`]: ignored, and the caller makes the results again.

use std::fmt;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use super::{Distribution, Fnv, RoundResult, FORMAT};
use crate::rules::MAX_SEATS;

/// What a file must hold to be used.
pub(super) struct Expect<'a> {
    /// The rules' text (the key).
    pub rules: &'a str,
    pub seats: u8,
    /// Whether the order of the hands is kept (ranked placing).
    pub ranked: bool,
    /// The rounds simulated: the counts add up to them.
    pub rounds: u64,
}

#[derive(Serialize, Deserialize)]
struct File {
    format: u32,
    rules: String,
    seats: u8,
    ranked: bool,
    rounds: u64,
    /// [`checksum`] of everything else, in hex.
    check: String,
    /// Each result: the losses, then the order, then the count.
    results: Vec<(Vec<u8>, Vec<u8>, u64)>,
}

/// Why a file is not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Unusable {
    /// Nothing there: the results are made and written (no warning).
    Missing,
    /// Not a regular file (a folder, a pipe, a device): never opened.
    NotAFile,
    /// Larger than any table's results can be: never read.
    TooLarge { len: u64, most: u64 },
    /// Read, and found wrong: why.
    Bad(String),
}

impl fmt::Display for Unusable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unusable::Missing => write!(f, "it is missing"),
            Unusable::NotAFile => write!(f, "it is not a regular file"),
            Unusable::TooLarge { len, most } => write!(
                f,
                "it is {len} bytes, more than the {most} any table's results take"
            ),
            Unusable::Bad(why) => f.write_str(why),
        }
    }
}

/// The most a round can cost one position at `seats`: two at the showdown (a caught knock, a
/// blind call) and one for each 31 the others show in the final turns.
pub(super) fn most_loss(seats: u8) -> u8 {
    seats.saturating_add(1)
}

/// The most results a table's file can list: each counted at least once, so no more than the
/// rounds simulated, nor than the results there are (each position's loss from 0 to
/// [`most_loss`], times each order of the positions when it is kept).
pub(super) fn most_results(seats: u8, ranked: bool, rounds: u64) -> u64 {
    let n = u64::from(seats);
    let mut kinds = (n + 2).saturating_pow(u32::from(seats));
    if ranked {
        kinds = kinds.saturating_mul((1..=n).product());
    }
    kinds.min(rounds)
}

/// The largest file a table's results make: the header (the rules' text escaped at worst, and
/// the fields) and [`most_results`] results at their longest, `[[l,…],[p,…],count],` with
/// losses of at most two digits and places of one.
pub(super) fn most_bytes(e: &Expect<'_>) -> u64 {
    let n = u64::from(e.seats);
    let count_digits = e.rounds.to_string().len() as u64;
    let per_result = 5 * n + 8 + count_digits;
    let header = 6 * e.rules.len() as u64 + 200;
    header.saturating_add(most_results(e.seats, e.ranked, e.rounds).saturating_mul(per_result))
}

/// The distribution in the file at `path` when it is what `e` asks for and sound; otherwise
/// why not.
pub(super) fn load(path: &Path, e: &Expect<'_>) -> Result<Distribution, Unusable> {
    let most = most_bytes(e);
    let Ok(meta) = fs::metadata(path) else {
        return Err(Unusable::Missing);
    };
    fits(&meta, most)?;
    let cannot = |err: std::io::Error| Unusable::Bad(format!("it cannot be read ({err})"));
    let file = open(path).map_err(cannot)?;
    // What was opened may have replaced what was looked at: the same checks on it.
    fits(&file.metadata().map_err(cannot)?, most)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(most + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > most {
        return Err(Unusable::TooLarge {
            len: bytes.len() as u64,
            most,
        });
    }
    let f: File = serde_json::from_slice(&bytes).map_err(|err| {
        Unusable::Bad(format!("it is not a results file of this version ({err})"))
    })?;
    check(f, e).map_err(Unusable::Bad)
}

/// A regular file no larger than `most`.
fn fits(meta: &fs::Metadata, most: u64) -> Result<(), Unusable> {
    if !meta.is_file() {
        return Err(Unusable::NotAFile);
    }
    if meta.len() > most {
        return Err(Unusable::TooLarge {
            len: meta.len(),
            most,
        });
    }
    Ok(())
}

/// Open for reading without waiting for a writer: a pipe that took the file's place since it
/// was looked at cannot block (a regular file reads the same).
#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<fs::File> {
    fs::File::open(path)
}

/// The file's distribution, or the first thing wrong with it.
fn check(f: File, e: &Expect<'_>) -> Result<Distribution, String> {
    if f.format != FORMAT {
        return Err(format!("it is of format {}, not {FORMAT}", f.format));
    }
    if f.rules != e.rules || f.seats != e.seats || f.ranked != e.ranked {
        return Err("it is for other rules, seats or placing".into());
    }
    if f.rounds != e.rounds {
        return Err(format!(
            "it holds {} rounds, not the {} simulated",
            f.rounds, e.rounds
        ));
    }
    let n = usize::from(e.seats);
    let mut results: Vec<(RoundResult, u64)> = Vec::with_capacity(f.results.len());
    let mut total: u64 = 0;
    for (i, (losses, order, count)) in f.results.iter().enumerate() {
        let r = result(losses, order, e).map_err(|why| format!("result {i}: {why}"))?;
        if *count == 0 {
            return Err(format!("result {i} is counted 0 times"));
        }
        if results.last().is_some_and(|(last, _)| *last >= r) {
            return Err(format!("result {i} is out of order or repeated"));
        }
        total = total
            .checked_add(*count)
            .ok_or_else(|| format!("its counts add up past {}", u64::MAX))?;
        results.push((r, *count));
    }
    if total != f.rounds {
        return Err(format!(
            "its counts add up to {total}, not its {} rounds",
            f.rounds
        ));
    }
    let results_n = results
        .iter()
        .map(|(r, c)| (&r.losses[..n], &r.order[..n], *c));
    if checksum(e, f.rounds, results_n) != f.check {
        return Err("its checksum does not match its contents".into());
    }
    Ok(Distribution {
        seats: e.seats,
        rounds: total,
        results,
    })
}

/// One result read: as many losses and places as seats, no loss past [`most_loss`], the
/// places each position once (in order unless the placing is ranked).
fn result(losses: &[u8], order: &[u8], e: &Expect<'_>) -> Result<RoundResult, String> {
    let n = usize::from(e.seats);
    if losses.len() != n || order.len() != n {
        return Err(format!(
            "{} losses and {} places at {n} seats",
            losses.len(),
            order.len()
        ));
    }
    let most = most_loss(e.seats);
    if let Some(l) = losses.iter().find(|&&l| l > most) {
        return Err(format!(
            "a loss of {l}, more than a round at {n} seats can cost ({most})"
        ));
    }
    let mut seen = [false; MAX_SEATS];
    for &p in order {
        let p = usize::from(p);
        if p >= n || seen[p] {
            return Err(format!("the places are not the {n} positions"));
        }
        seen[p] = true;
    }
    if !e.ranked && order.iter().enumerate().any(|(i, &p)| usize::from(p) != i) {
        return Err("an order of the hands where the placing keeps none".into());
    }
    let mut r = RoundResult {
        losses: [0; MAX_SEATS],
        order: [0; MAX_SEATS],
    };
    r.losses[..n].copy_from_slice(losses);
    r.order[..n].copy_from_slice(order);
    Ok(r)
}

/// FNV-1a (64 bits) of the format, the header's fields and every result, in hex: any change of
/// a count, a loss or a place (by a disk, a copy or a hand) shows.
fn checksum<'r>(
    e: &Expect<'_>,
    rounds: u64,
    results: impl ExactSizeIterator<Item = (&'r [u8], &'r [u8], u64)>,
) -> String {
    let mut h = Fnv::new();
    h.add(&FORMAT.to_le_bytes());
    h.add(&(e.rules.len() as u64).to_le_bytes());
    h.add(e.rules.as_bytes());
    h.add(&[e.seats, u8::from(e.ranked)]);
    h.add(&rounds.to_le_bytes());
    h.add(&(results.len() as u64).to_le_bytes());
    for (losses, order, count) in results {
        h.add(losses);
        h.add(order);
        h.add(&count.to_le_bytes());
    }
    format!("{:016x}", h.0)
}

/// Write `d` to `path` (a cache: a folder that cannot be written is no error).
pub(super) fn save(path: &Path, e: &Expect<'_>, d: &Distribution) {
    let n = usize::from(d.seats);
    let results_n = d
        .results
        .iter()
        .map(|(r, c)| (&r.losses[..n], &r.order[..n], *c));
    let file = File {
        format: FORMAT,
        rules: e.rules.to_string(),
        seats: d.seats,
        ranked: e.ranked,
        rounds: d.rounds,
        check: checksum(e, d.rounds, results_n),
        results: d
            .results
            .iter()
            .map(|(r, c)| (r.losses[..n].to_vec(), r.order[..n].to_vec(), *c))
            .collect(),
    };
    let Ok(text) = serde_json::to_vec(&file) else {
        return;
    };
    let Some(dir) = path.parent() else { return };
    let _ = fs::create_dir_all(dir);
    // A temporary name of this process and this write alone.
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}.{}-{}.tmp",
        path.file_name()
            .and_then(|s| s.to_str())
            .unwrap_or("results"),
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    if fs::write(&tmp, text).is_err() || fs::rename(&tmp, path).is_err() {
        let _ = fs::remove_file(&tmp);
    }
}

#[cfg(test)]
#[path = "disk_tests.rs"]
pub(super) mod tests;
