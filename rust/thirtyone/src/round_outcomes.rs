//! What a whole round does to the seats of a table when every player plays the table's rule
//! (knocking at 27): the distribution of its results, simulated from fresh deals by the engine,
//! cached in memory and (when a folder is set) on disk. The game-value table
//! ([`crate::game_value`]) is built on it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use montecarlo::{Rng, Runner};

use crate::cards::Card;
use crate::decision::TABLE_KNOCK_AT;
use crate::round::{Round, MAX_SEATS};
use crate::rules::RoundRules;

/// Rounds simulated per table and seat count.
pub const ROUNDS: usize = 400_000;
/// The seed of the simulation (the same rules give the same distribution everywhere).
const SEED: u64 = 0x726f_756e_6473; // "rounds"
const PURPOSE: u64 = 0x4741_4d45; // "GAME"
const CHUNK: usize = 4_096;
/// The version of the file format (and of the simulation): a file of another version is
/// simulated again.
const FORMAT: u32 = 1;

/// One round's result, by position from the first to play (position 0 is the dealer's left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoundResult {
    /// Lives (or letters) each position lost.
    pub losses: [u8; MAX_SEATS],
    /// The positions from the lowest counted hand to the highest, equal hands in position
    /// order: the order in which players going out together are placed. Only kept when
    /// placing counts it (ranked placing); otherwise the positions in order.
    pub order: [u8; MAX_SEATS],
}

impl RoundResult {
    /// The result of a finished round, by position from its first player.
    pub fn of(round: &Round, keep_order: bool) -> RoundResult {
        RoundResult::with_losses(round, &round.losses(), keep_order)
    }

    /// [`RoundResult::of`] given the round's losses by seat (`Round::losses`).
    #[inline]
    pub fn with_losses(round: &Round, all: &[u8; MAX_SEATS], keep_order: bool) -> RoundResult {
        let n = round.seats() as usize;
        let first = round.first() as usize;
        let seat = |p: usize| ((first + p) % n) as u8;
        // Positions from the first player: the seats from `first` on, then those before it.
        let mut losses = [0u8; MAX_SEATS];
        losses[..n - first].copy_from_slice(&all[first..n]);
        losses[n - first..n].copy_from_slice(&all[..first]);
        // (Positions past the table's seats stay 0, as the results kept on disk have them.)
        let mut order: [u8; MAX_SEATS] = std::array::from_fn(|p| if p < n { p as u8 } else { 0 });
        if keep_order {
            order[..n].sort_by_key(|&p| (round.counted_score(seat(p as usize)), p));
        }
        RoundResult { losses, order }
    }
}

/// The distribution of a round's results at a table of `seats` players.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub seats: u8,
    pub rounds: u64,
    /// Each result seen, with how often, in a fixed order.
    pub results: Vec<(RoundResult, u64)>,
}

/// Play `rounds` rounds from fresh deals, every seat by the table's rule (None: the runner was
/// stopped before the end).
pub fn simulate(
    rules: &RoundRules,
    seats: u8,
    keep_order: bool,
    rounds: usize,
    runner: &Runner,
) -> Option<Distribution> {
    let parts = runner.chunks(rounds, CHUNK, |range| {
        let mut seen: HashMap<RoundResult, u64> = HashMap::new();
        let mut deck: Vec<Card> = Card::all().collect();
        for i in range {
            let mut rng = Rng::stream(SEED, PURPOSE + u64::from(seats), i as u64);
            deck.sort_unstable();
            rng.shuffle(&mut deck);
            let Ok(mut round) = Round::deal(*rules, seats, 0, &deck) else {
                continue;
            };
            while !round.is_over() {
                round.play_rule_turn(TABLE_KNOCK_AT);
            }
            *seen.entry(RoundResult::of(&round, keep_order)).or_default() += 1;
        }
        seen
    });
    let mut all: HashMap<RoundResult, u64> = HashMap::new();
    for part in parts {
        for (r, c) in part? {
            *all.entry(r).or_default() += c;
        }
    }
    let mut results: Vec<(RoundResult, u64)> = all.into_iter().collect();
    results.sort_unstable();
    Some(Distribution {
        seats,
        rounds: results.iter().map(|(_, c)| c).sum(),
        results,
    })
}

/// Where distributions are kept on disk: read from every folder, written to the first (none: in
/// memory only).
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
type Key = (String, u8, bool);
static MEMORY: Mutex<Option<HashMap<Key, Arc<Distribution>>>> = Mutex::new(None);

/// Read distributions from `folders` from now on, and write new ones to the first (none: in
/// memory only). The package ships the presets' distributions in a folder of its own.
pub fn set_folders(folders: Vec<PathBuf>) {
    *FOLDERS.lock().unwrap_or_else(|e| e.into_inner()) = folders;
}

/// The distribution for these rules and seats: from memory, else from the folder, else
/// simulated (and then kept in both). None when the runner was stopped (nothing is kept).
pub fn distribution(
    rules: &RoundRules,
    seats: u8,
    keep_order: bool,
    runner: &Runner,
) -> Option<Arc<Distribution>> {
    let key: Key = (format!("{rules:?}"), seats, keep_order);
    if let Some(d) = MEMORY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return Some(d.clone());
    }
    let folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let name = file_name(&key);
    let loaded = folders
        .iter()
        .find_map(|f| disk::load(&f.join(&name), &key.0, seats));
    let d = Arc::new(match loaded {
        Some(d) => d,
        None => {
            let d = simulate(rules, seats, keep_order, ROUNDS, runner)?;
            if let Some(f) = folders.first() {
                // A cache: a folder that cannot be written is no error.
                disk::save(&f.join(&name), &key.0, &d);
            }
            d
        }
    });
    MEMORY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, d.clone());
    Some(d)
}

/// A file name for a key: FNV-1a of the rules' text.
fn file_name(key: &Key) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.0.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let order = if key.2 { "-ranked" } else { "" };
    format!("round-results-v{FORMAT}-{h:016x}-{}{order}.json", key.1)
}

mod disk {
    //! Distributions on disk: JSON, written to a temporary file and renamed into place, so that
    //! a crash leaves either the old file or the new one; a file that does not read back as
    //! the same rules, seats and format is ignored (and simulated again).

    use std::path::Path;

    use serde::{Deserialize, Serialize};

    use super::{Distribution, RoundResult, FORMAT};
    use crate::round::MAX_SEATS;

    #[derive(Serialize, Deserialize)]
    struct File {
        format: u32,
        rules: String,
        seats: u8,
        /// Each result: the losses, then the order, then the count.
        results: Vec<(Vec<u8>, Vec<u8>, u64)>,
    }

    pub(super) fn load(path: &Path, rules: &str, seats: u8) -> Option<Distribution> {
        let meta = std::fs::metadata(path).ok()?;
        if meta.len() > 64 << 20 {
            return None;
        }
        let f: File = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        if f.format != FORMAT || f.rules != rules || f.seats != seats {
            return None;
        }
        let n = usize::from(seats);
        let mut results = Vec::with_capacity(f.results.len());
        for (losses, order, count) in f.results {
            if losses.len() != n || order.len() != n {
                return None;
            }
            let mut r = RoundResult {
                losses: [0; MAX_SEATS],
                order: [0; MAX_SEATS],
            };
            r.losses[..n].copy_from_slice(&losses);
            r.order[..n].copy_from_slice(&order);
            if r.order[..n].iter().any(|&p| usize::from(p) >= n) {
                return None;
            }
            results.push((r, count));
        }
        Some(Distribution {
            seats,
            rounds: results.iter().map(|(_, c)| c).sum(),
            results,
        })
    }

    pub(super) fn save(path: &Path, rules: &str, d: &Distribution) {
        let n = usize::from(d.seats);
        let file = File {
            format: FORMAT,
            rules: rules.to_string(),
            seats: d.seats,
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
        let _ = std::fs::create_dir_all(dir);
        let tmp = dir.join(format!(
            ".{}.{}.tmp",
            path.file_name()
                .and_then(|s| s.to_str())
                .unwrap_or("results"),
            std::process::id()
        ));
        if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_round_costs_someone_and_the_counts_add_up() {
        let runner = Runner::simple(Some(2));
        let d = simulate(&RoundRules::default(), 4, false, 20_000, &runner).unwrap();
        assert_eq!(d.rounds, 20_000);
        let nobody = d
            .results
            .iter()
            .filter(|(r, _)| r.losses.iter().all(|&l| l == 0))
            .map(|(_, c)| c)
            .sum::<u64>();
        // Two players dealt 31 together are the only way nobody pays: very rare.
        assert!(nobody < 20, "{nobody}");
        // Positions beyond the table lose nothing.
        assert!(d
            .results
            .iter()
            .all(|(r, _)| r.losses[4..].iter().all(|&l| l == 0)));
        // The knock penalty shows: some position loses 2.
        assert!(d.results.iter().any(|(r, _)| r.losses.contains(&2)));
    }

    #[test]
    fn the_same_rules_give_the_same_distribution_whatever_the_threads() {
        let a = simulate(
            &RoundRules::default(),
            3,
            true,
            10_000,
            &Runner::simple(Some(1)),
        );
        let b = simulate(
            &RoundRules::default(),
            3,
            true,
            10_000,
            &Runner::simple(Some(2)),
        );
        assert_eq!(a, b);
    }

    #[test]
    fn a_distribution_survives_the_disk_and_a_bad_file_is_ignored() {
        let dir = std::env::temp_dir().join(format!("thirtyone-results-{}", std::process::id()));
        let path = dir.join("d.json");
        let d = simulate(
            &RoundRules::default(),
            2,
            false,
            5_000,
            &Runner::simple(Some(2)),
        )
        .unwrap();
        disk::save(&path, "rules", &d);
        assert_eq!(disk::load(&path, "rules", 2), Some(d));
        assert_eq!(disk::load(&path, "other rules", 2), None);
        std::fs::write(&path, b"{not json").unwrap();
        assert_eq!(disk::load(&path, "rules", 2), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
