//! What a whole round does to the seats of a table when every player plays the table's rule
//! (knocking at 27): the distribution of its results, simulated from fresh deals by the engine,
//! cached in memory and (when a folder is set) on disk. The game-value table
//! ([`crate::game::game_value`]) is built on it. A file on disk is checked before it is used; one
//! that fails is ignored, noted and made again ([`distribution_noting`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use montecarlo::{Rng, Runner};

use crate::hand::decision::TABLE_KNOCK_AT;
use crate::hand::Card;
use crate::round::Round;
use crate::rules::{RoundRules, MAX_SEATS};

/// Rounds simulated per table and seat count.
pub const ROUNDS: usize = 400_000;
/// The seed of the simulation (the same rules give the same distribution everywhere).
const SEED: u64 = 0x726f_756e_6473; // "rounds"
const PURPOSE: u64 = 0x4741_4d45; // "GAME"
const CHUNK: usize = 4_096;
/// The version of the file format (and of the simulation), in the file's name: a file of
/// another version is never read (it is simulated again under the new name). 2: the placing,
/// the rounds and a checksum are in the file, and every file read is checked ([`disk`]).
const FORMAT: u32 = 2;

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
    distribution_noting(rules, seats, keep_order, runner, &mut Vec::new())
}

/// [`distribution`], with a line added to `notes` for each file on disk that was there but
/// could not be used (see [`disk`]): it was ignored and its results made again (and written
/// over it when it is in the first folder). A distribution is read once per process, so each
/// such file is noted once.
pub fn distribution_noting(
    rules: &RoundRules,
    seats: u8,
    keep_order: bool,
    runner: &Runner,
    notes: &mut Vec<String>,
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
    let d = Arc::new(fetch(rules, &key, &folders, ROUNDS, runner, notes)?);
    MEMORY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, d.clone());
    Some(d)
}

/// The distribution from the first of `folders` that holds a sound file of it, else `rounds`
/// simulated; written to the first folder unless it was read from there (the others, such as
/// the package's, are only read). Each file there but unusable is noted.
fn fetch(
    rules: &RoundRules,
    key: &Key,
    folders: &[PathBuf],
    rounds: usize,
    runner: &Runner,
    notes: &mut Vec<String>,
) -> Option<Distribution> {
    let name = file_name(key);
    let expect = disk::Expect {
        rules: &key.0,
        seats: key.1,
        ranked: key.2,
        rounds: rounds as u64,
    };
    let mut found = None;
    // Whether the first folder's file is there but unusable (then it is written over).
    let mut first_bad = false;
    for (i, folder) in folders.iter().enumerate() {
        let path = folder.join(&name);
        match disk::load(&path, &expect) {
            Ok(d) => {
                found = Some((i, d));
                break;
            }
            Err(disk::Unusable::Missing) => {}
            Err(why) => {
                first_bad |= i == 0;
                notes.push(format!(
                    "the cached round results {} could not be used ({why}): ignored and made \
                     again",
                    path.display()
                ));
            }
        }
    }
    let (d, write) = match found {
        Some((i, d)) => (d, i > 0 && first_bad),
        None => (simulate(rules, key.1, key.2, rounds, runner)?, true),
    };
    if let (true, Some(first)) = (write, folders.first()) {
        disk::save(&first.join(&name), &expect, &d);
    }
    Some(d)
}

/// FNV-1a, 64 bits: the file names' hash and the files' checksum.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A file name for a key: FNV-1a of the rules' text.
fn file_name(key: &Key) -> String {
    let mut h = Fnv::new();
    h.add(key.0.as_bytes());
    let order = if key.2 { "-ranked" } else { "" };
    format!("round-results-v{FORMAT}-{:016x}-{}{order}.json", h.0, key.1)
}

mod disk;

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

    /// A folder of this test's own.
    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("thirtyone-results-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Three seats' results of 5,000 rounds, from `folders` or simulated.
    fn three_seats(folders: &[PathBuf], notes: &mut Vec<String>) -> Distribution {
        let rules = RoundRules::default();
        let key: Key = (format!("{rules:?}"), 3, false);
        fetch(
            &rules,
            &key,
            folders,
            5_000,
            &Runner::simple(Some(2)),
            notes,
        )
        .unwrap()
    }

    fn path_in(dir: &std::path::Path) -> PathBuf {
        dir.join(file_name(&(
            format!("{:?}", RoundRules::default()),
            3,
            false,
        )))
    }

    /// The file at `path` with its first count raised by one.
    fn damage(path: &std::path::Path) {
        let mut file: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let count = file["results"][0][2].as_u64().unwrap();
        file["results"][0][2] = serde_json::json!(count + 1);
        std::fs::write(path, serde_json::to_vec(&file).unwrap()).unwrap();
    }

    #[test]
    fn a_damaged_file_is_ignored_noted_and_made_again_over_it() {
        let dir = folder("remade");
        let mut notes = Vec::new();
        let made = three_seats(std::slice::from_ref(&dir), &mut notes);
        assert!(notes.is_empty());
        let path = path_in(&dir);
        let sound = std::fs::read(&path).unwrap();
        damage(&path);
        assert_eq!(three_seats(std::slice::from_ref(&dir), &mut notes), made);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains(&path.display().to_string()), "{notes:?}");
        assert!(
            notes[0].contains("add up to 5001, not its 5000 rounds"),
            "{notes:?}"
        );
        // Written over: read again, it is sound.
        assert_eq!(std::fs::read(&path).unwrap(), sound);
        notes.clear();
        assert_eq!(three_seats(std::slice::from_ref(&dir), &mut notes), made);
        assert!(notes.is_empty());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_damaged_file_in_the_first_folder_is_replaced_by_the_next_folders_sound_one() {
        let (first, shipped) = (folder("first"), folder("shipped"));
        let mut notes = Vec::new();
        let made = three_seats(std::slice::from_ref(&shipped), &mut notes);
        let sound = std::fs::read(path_in(&shipped)).unwrap();
        // Missing from the first folder: read from the next, nothing written.
        let both = [first.clone(), shipped.clone()];
        assert_eq!(three_seats(&both, &mut notes), made);
        assert!(notes.is_empty() && !path_in(&first).exists());
        // Damaged in the first: noted, and the sound one written over it.
        std::fs::write(path_in(&first), &sound[..sound.len() / 2]).unwrap();
        assert_eq!(three_seats(&both, &mut notes), made);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("not a results file"), "{notes:?}");
        assert_eq!(std::fs::read(path_in(&first)).unwrap(), sound);
        // Damaged only in the next folder (read only): made again into the first.
        std::fs::remove_file(path_in(&first)).unwrap();
        damage(&path_in(&shipped));
        notes.clear();
        assert_eq!(three_seats(&both, &mut notes), made);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(std::fs::read(path_in(&first)).unwrap(), sound);
        let _ = std::fs::remove_dir_all(first);
        let _ = std::fs::remove_dir_all(shipped);
    }

    #[test]
    fn a_huge_file_or_a_pipe_in_the_files_place_is_made_again_over_it() {
        let dir = folder("replaced");
        let mut notes = Vec::new();
        let made = three_seats(std::slice::from_ref(&dir), &mut notes);
        let path = path_in(&dir);
        let sound = std::fs::read(&path).unwrap();
        // Sparse: no disk used.
        std::fs::File::create(&path)
            .unwrap()
            .set_len(1 << 32)
            .unwrap();
        assert_eq!(three_seats(std::slice::from_ref(&dir), &mut notes), made);
        assert!(
            notes[0].contains("4294967296 bytes, more than"),
            "{notes:?}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), sound);
        #[cfg(unix)]
        {
            std::fs::remove_file(&path).unwrap();
            disk::tests::mkfifo(&path);
            assert_eq!(three_seats(std::slice::from_ref(&dir), &mut notes), made);
            assert!(notes[1].contains("not a regular file"), "{notes:?}");
            assert_eq!(std::fs::read(&path).unwrap(), sound);
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
