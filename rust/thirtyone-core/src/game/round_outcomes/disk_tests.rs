//! Every file read is checked: each kind of damage found (and named), a file that is not a
//! regular file or is larger than any table's results never opened.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::*;

const RULES: &str = "some rules";

fn expect(seats: u8, ranked: bool) -> Expect<'static> {
    Expect {
        rules: RULES,
        seats,
        ranked,
        rounds: 100,
    }
}

fn result(losses: &[u8], order: &[u8]) -> RoundResult {
    let mut r = RoundResult {
        losses: [0; MAX_SEATS],
        order: [0; MAX_SEATS],
    };
    r.losses[..losses.len()].copy_from_slice(losses);
    r.order[..order.len()].copy_from_slice(order);
    r
}

/// A three-seat distribution of 100 rounds, in order (as the simulation leaves it).
fn three_seats(ranked: bool) -> Distribution {
    let (a, b) = if ranked {
        ([2, 0, 1], [1, 0, 2])
    } else {
        ([0, 1, 2], [0, 1, 2])
    };
    Distribution {
        seats: 3,
        rounds: 100,
        results: vec![
            (result(&[0, 0, 1], &a), 30),
            (result(&[0, 1, 0], &b), 25),
            (result(&[1, 0, 0], &a), 40),
            (result(&[2, 0, 0], &b), 5),
        ],
    }
}

/// A folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thirtyone-disk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file `save` writes, as JSON, for a test to damage.
fn saved(path: &Path, e: &Expect<'_>, d: &Distribution) -> Value {
    save(path, e, d);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `file` written with its checksum made right again (a careful hand edit), then read.
fn resealed(path: &Path, e: &Expect<'_>, mut file: Value) -> Result<Distribution, Unusable> {
    let results: Vec<(Vec<u8>, Vec<u8>, u64)> =
        serde_json::from_value(file["results"].clone()).unwrap();
    let rounds = file["rounds"].as_u64().unwrap();
    let rows = results.iter().map(|(l, o, c)| (&l[..], &o[..], *c));
    file["check"] = json!(checksum(e, rounds, rows));
    std::fs::write(path, serde_json::to_vec(&file).unwrap()).unwrap();
    load(path, e)
}

fn bad(got: Result<Distribution, Unusable>, says: &str) {
    match got {
        Err(Unusable::Bad(why)) => assert!(why.contains(says), "{why:?} should say {says:?}"),
        other => panic!("{other:?} should be refused as saying {says:?}"),
    }
}

#[test]
fn a_sound_file_reads_back_as_it_was_written() {
    let dir = folder("sound");
    for ranked in [false, true] {
        let (e, d) = (expect(3, ranked), three_seats(ranked));
        let path = dir.join(format!("d-{ranked}.json"));
        save(&path, &e, &d);
        assert_eq!(load(&path, &e), Ok(d));
        // Nothing at all is no damage.
        assert_eq!(load(&dir.join("none.json"), &e), Err(Unusable::Missing));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_empty_result_list_is_refused() {
    let dir = folder("empty");
    let (e, path) = (expect(3, false), dir.join("d.json"));
    let mut file = saved(&path, &e, &three_seats(false));
    file["results"] = json!([]);
    bad(resealed(&path, &e, file), "add up to 0, not its 100 rounds");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn one_count_changed_is_refused() {
    let dir = folder("count");
    let (e, path) = (expect(3, false), dir.join("d.json"));
    let file = saved(&path, &e, &three_seats(false));
    // The total no longer adds up.
    let mut more = file.clone();
    more["results"][1][2] = json!(26);
    bad(
        resealed(&path, &e, more),
        "add up to 101, not its 100 rounds",
    );
    // Two counts changed so that it does: the checksum shows it.
    let mut moved = file.clone();
    moved["results"][1][2] = json!(26);
    moved["results"][2][2] = json!(39);
    std::fs::write(&path, serde_json::to_vec(&moved).unwrap()).unwrap();
    bad(load(&path, &e), "checksum does not match");
    // A count of 0.
    let mut zero = file;
    zero["results"][0][2] = json!(0);
    zero["results"][2][2] = json!(70);
    bad(resealed(&path, &e, zero), "result 0 is counted 0 times");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_count_of_the_largest_number_is_refused() {
    let dir = folder("max");
    let (e, path) = (expect(3, false), dir.join("d.json"));
    let mut file = saved(&path, &e, &three_seats(false));
    file["results"][0][2] = json!(u64::MAX);
    bad(resealed(&path, &e, file), "add up past");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_truncated_file_is_refused() {
    let dir = folder("truncated");
    let (e, path) = (expect(3, false), dir.join("d.json"));
    save(&path, &e, &three_seats(false));
    let bytes = std::fs::read(&path).unwrap();
    for keep in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        std::fs::write(&path, &bytes[..keep]).unwrap();
        bad(load(&path, &e), "not a results file");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_for_other_seats_rules_placing_or_rounds_is_refused() {
    let dir = folder("other");
    let path = dir.join("d.json");
    save(&path, &expect(3, false), &three_seats(false));
    bad(
        load(&path, &expect(2, false)),
        "other rules, seats or placing",
    );
    bad(
        load(&path, &expect(3, true)),
        "other rules, seats or placing",
    );
    let other_rules = Expect {
        rules: "other rules",
        ..expect(3, false)
    };
    bad(load(&path, &other_rules), "other rules, seats or placing");
    let more_rounds = Expect {
        rounds: 400_000,
        ..expect(3, false)
    };
    bad(
        load(&path, &more_rounds),
        "100 rounds, not the 400000 simulated",
    );
    // The old format (no placing, rounds or checksum) under the new name.
    std::fs::write(
        &path,
        br#"{"format":1,"rules":"some rules","seats":3,"results":[[[1,0,0],[0,1,2],100]]}"#,
    )
    .unwrap();
    bad(load(&path, &expect(3, false)), "not a results file");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_result_not_well_formed_for_the_seats_is_refused() {
    let dir = folder("shape");
    let path = dir.join("d.json");
    let e = expect(3, false);
    let file = saved(&path, &e, &three_seats(false));
    let with = |row: Value| {
        let mut f = file.clone();
        f["results"][3] = row;
        f
    };
    // A two-seat result at three seats.
    bad(
        resealed(&path, &e, with(json!([[2, 0], [0, 1], 5]))),
        "2 losses and 2 places at 3 seats",
    );
    // A loss no round at three seats can bring (two, and one for each of two 31s shown).
    bad(
        resealed(&path, &e, with(json!([[5, 0, 0], [0, 1, 2], 5]))),
        "a loss of 5, more than a round at 3 seats can cost (4)",
    );
    // Places that are not the positions.
    for order in [json!([0, 1, 3]), json!([0, 0, 2])] {
        bad(
            resealed(&path, &e, with(json!([[2, 0, 0], order, 5]))),
            "the places are not the 3 positions",
        );
    }
    // An order of the hands where the placing keeps none.
    bad(
        resealed(&path, &e, with(json!([[2, 0, 0], [1, 0, 2], 5]))),
        "the placing keeps none",
    );
    // Out of order, or a result twice.
    bad(
        resealed(&path, &e, with(json!([[0, 0, 1], [0, 1, 2], 5]))),
        "result 3 is out of order or repeated",
    );
    // The largest loss is still a result.
    assert!(resealed(&path, &e, with(json!([[4, 0, 0], [0, 1, 2], 5]))).is_ok());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_folder_in_the_files_place_is_not_opened() {
    let dir = folder("dir");
    let path = dir.join("d.json");
    std::fs::create_dir_all(&path).unwrap();
    assert_eq!(load(&path, &expect(3, false)), Err(Unusable::NotAFile));
    let _ = std::fs::remove_dir_all(dir);
}

/// A named pipe at `path` (by the system's `mkfifo`, so that the tests need no `unsafe`).
#[cfg(unix)]
pub(in crate::game::round_outcomes) fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_pipe_in_the_files_place_never_blocks() {
    let dir = folder("fifo");
    let path = dir.join("d.json");
    mkfifo(&path);
    // In a thread of its own, so that a read that blocks fails the test rather than hangs it.
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.clone();
    std::thread::spawn(move || tx.send(load(&p, &expect(3, false))));
    let got = rx.recv_timeout(std::time::Duration::from_secs(60));
    assert_eq!(got, Ok(Err(Unusable::NotAFile)));
    // Opened as the reader does, the pipe does not wait for a writer either.
    assert!(open(&path).is_ok());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_larger_than_any_tables_results_is_not_read() {
    let dir = folder("huge");
    let path = dir.join("d.json");
    let e = expect(3, false);
    let most = most_bytes(&e);
    // The bound holds the largest table there can be: every result, each at its longest.
    let n = usize::from(e.seats);
    let mut every = Vec::new();
    for index in 0..(most_loss(e.seats) as u32 + 1).pow(n as u32) {
        let losses: Vec<u8> = (0..n)
            .map(|p| {
                (index / (most_loss(e.seats) as u32 + 1).pow(p as u32)) as u8
                    % (most_loss(e.seats) + 1)
            })
            .collect();
        every.push((result(&losses, &[0, 1, 2]), 1));
    }
    every.sort_unstable();
    let largest = Distribution {
        seats: 3,
        rounds: every.len() as u64,
        results: every,
    };
    let e_all = Expect {
        rounds: largest.rounds,
        ..expect(3, false)
    };
    save(&path, &e_all, &largest);
    assert!(std::fs::metadata(&path).unwrap().len() <= most_bytes(&e_all));
    assert_eq!(load(&path, &e_all), Ok(largest));
    // Sparse files (no disk used) just past the bound and far past it: refused from their
    // size alone (a read would stop at the bound and give most + 1).
    for len in [most + 1, most + 1_000_000, 1 << 32] {
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(len).unwrap();
        drop(f);
        assert_eq!(load(&path, &e), Err(Unusable::TooLarge { len, most }));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_bound_on_a_files_results_is_the_fewer_of_the_rounds_and_the_results_there_are() {
    // Two seats: losses 0 to 3 each, 16 results (32 with both orders).
    assert_eq!(most_results(2, false, 400_000), 16);
    assert_eq!(most_results(2, true, 400_000), 32);
    // Nine seats: more results than rounds.
    assert_eq!(most_results(9, false, 400_000), 400_000);
    assert_eq!(most_results(9, true, 400_000), 400_000);
}
