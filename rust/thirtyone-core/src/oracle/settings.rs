//! How hard the Oracle works, and the bounds of every setting: the one place they are written
//! and checked. Python's `thirtyone.advise`, the `_core` functions and every command-line option
//! come through [`Settings::checked`] (or [`count`]), so they all refuse the same values with the
//! same message.
//!
//! The bounds are what a player could want, with room to spare, and keep every piece of work
//! and every allocation within a fixed size whatever number is typed:
//! - `deals` 1 to 1,000,000: a million deals give a margin of ±0.001 at most, and they fit in
//!   about 40 MB;
//! - `playouts` 1 to 10,000,000 per option: about a minute of work on two cores;
//! - `threads` 1 to 64: the work is all computation, so threads beyond the cores only share
//!   them (the numbers do not depend on the threads); 64 covers the machines a player has, and
//!   the same limit holds on every machine, so a script that runs on one runs on another;
//! - `seed` 0 to 2^64 - 1 (every seed of the random streams);
//! - `max_time` above 0 and at most 3,600 seconds (an hour), or none;
//! - `target_margin` from 0.001 (the margin 1,000,000 deals reach at p = 0.5) to 0.5.

use std::fmt::Display;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::error::{Error, Result};

pub const MAX_DEALS: usize = 1_000_000;
pub const MAX_PLAYOUTS: usize = 10_000_000;
/// The Oracle's default deals and playouts per option (`oracle.md`'s 10,000 and 50,000).
pub const DEFAULT_DEALS: usize = 10_000;
pub const DEFAULT_PLAYOUTS: usize = 50_000;
pub const MAX_THREADS: usize = 64;
/// The longest time limit, in seconds.
pub const MAX_TIME: f64 = 3_600.0;
pub const MIN_TARGET_MARGIN: f64 = 0.001;
pub const MAX_TARGET_MARGIN: f64 = 0.5;

/// The least work an answer rests on, done even when the time limit leaves none, and bounded in
/// work, not time, so that it is the same on a slow or busy machine: this many consistent deals
/// (or as many as asked, if fewer) ...
pub const MIN_DEALS: usize = 100;
/// ... and this many playouts per option (or as many as asked, if fewer). The deals take at most
/// [`LEAST_ATTEMPTS`] attempts (with the work every collection of deals begins with: counting
/// each opponent's hands, at most `inference::COUNT_BUDGET` steps each, testing the counted
/// hands together, at most `joint::JOINT_BUDGET` steps, [`PROBE_ATTEMPTS`] for each opponent not
/// counted, and a pilot of 512 attempts).
pub const MIN_PLAYOUTS: usize = 1_000;
/// The attempts (an opponent's hand tried, a combination of hands tried, or a weighted proposal)
/// the least work's deals may take. Should they find no deal at all, the opponent who played last
/// among those tested is dealt without the consistency test, and the least work is tried again
/// (at most once per opponent).
pub const LEAST_ATTEMPTS: u64 = 1_000_000;
/// The attempts one consistent deal may take before it is given up (and the weighted proposals
/// per deal asked): the deals of an answer take at most this many per deal asked.
pub const ATTEMPTS_PER_DEAL: u64 = 10_000;
/// The attempts at an opponent who is not counted exactly before their play is taken as one no
/// deal explains.
pub const PROBE_ATTEMPTS: u64 = 200_000;

/// How hard the Oracle works.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Consistent deals to collect (at most).
    pub deals: usize,
    /// Playouts per option (and as many again to confirm a sweep's best).
    pub playouts: usize,
    pub seed: u64,
    /// Threads (None: one per core).
    pub threads: Option<usize>,
    /// Time allowed for the whole answer (None: no limit).
    pub max_time: Option<Duration>,
    /// Add deals until every option's margin is at most this.
    pub target_margin: Option<f64>,
    /// Set from another thread to stop the work (Ctrl-C).
    pub cancel: Arc<AtomicBool>,
    /// With the lives known, keep each swept option's knock score that gives the highest
    /// chance of winning the game (the game objective) rather than the highest p_safe.
    pub sweep_for_game: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            deals: DEFAULT_DEALS,
            playouts: DEFAULT_PLAYOUTS,
            seed: 0,
            threads: None,
            max_time: Some(Duration::from_secs(5)),
            target_margin: None,
            cancel: Arc::new(AtomicBool::new(false)),
            sweep_for_game: false,
        }
    }
}

/// Settings as asked, before they are checked: whole numbers as wide as a caller may give them
/// (a binding gives a number too large even for this as `i128::MAX` or `i128::MIN`), seconds
/// and margins as any float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Asked {
    pub deals: i128,
    pub playouts: i128,
    pub seed: i128,
    pub threads: Option<i128>,
    pub max_time: Option<f64>,
    pub target_margin: Option<f64>,
}

impl Settings {
    /// The settings asked, checked against their bounds (a [`Error::BadSetting`] naming the
    /// first one out of them).
    pub fn checked(asked: &Asked) -> Result<Settings> {
        let max_time = match asked.max_time {
            None => None,
            // (At least a nanosecond: a positive time stays positive.)
            Some(t) if t > 0.0 && t <= MAX_TIME => {
                Some(Duration::from_secs_f64(t).max(Duration::from_nanos(1)))
            }
            Some(t) => {
                return Err(Error::BadSetting(format!(
                    "max_time must be a number of seconds above 0 and at most {}, not {}",
                    grouped(MAX_TIME as u64),
                    float(t)
                )))
            }
        };
        let target_margin = match asked.target_margin {
            None => None,
            Some(m) if (MIN_TARGET_MARGIN..=MAX_TARGET_MARGIN).contains(&m) => Some(m),
            Some(m) => {
                return Err(Error::BadSetting(format!(
                    "target_margin must be from {MIN_TARGET_MARGIN} to {MAX_TARGET_MARGIN}, not {}",
                    float(m)
                )))
            }
        };
        Ok(Settings {
            deals: count("deals", asked.deals)?,
            playouts: whole("playouts", asked.playouts, 1, MAX_PLAYOUTS as u64)? as usize,
            seed: whole("seed", asked.seed, 0, u64::MAX)?,
            threads: match asked.threads {
                None => None,
                Some(t) => Some(whole("threads", t, 1, MAX_THREADS as u64)? as usize),
            },
            max_time,
            target_margin,
            cancel: Arc::new(AtomicBool::new(false)),
            sweep_for_game: false,
        })
    }

    /// These settings as asked (to check settings built field by field).
    pub fn asked(&self) -> Asked {
        Asked {
            deals: self.deals as i128,
            playouts: self.playouts as i128,
            seed: i128::from(self.seed),
            threads: self.threads.map(|t| t as i128),
            max_time: self.max_time.map(|d| d.as_secs_f64()),
            target_margin: self.target_margin,
        }
    }

    /// Whether every setting is within its bounds.
    pub fn validate(&self) -> Result<()> {
        Settings::checked(&self.asked()).map(drop)
    }
}

/// A number of consistent deals (`deals`, or a function's `n`), checked against its bounds.
pub fn count(name: &str, value: i128) -> Result<usize> {
    Ok(whole(name, value, 1, MAX_DEALS as u64)? as usize)
}

/// A whole-number setting within `low..=high`.
fn whole(name: &str, value: i128, low: u64, high: u64) -> Result<u64> {
    match u64::try_from(value) {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(Error::BadSetting(format!(
            "{name} must be a whole number from {} to {}, not {}",
            grouped(low),
            grouped(high),
            shown(value)
        ))),
    }
}

/// A whole-number setting that is not a whole number at all (`what`: how it was given).
pub fn not_whole(name: &str, what: impl Display) -> Error {
    Error::BadSetting(format!("{name} must be a whole number, not {what}"))
}

/// A number setting that is not a number at all.
pub fn not_number(name: &str, what: impl Display) -> Error {
    Error::BadSetting(format!("{name} must be a number, not {what}"))
}

/// A whole number as a person reads it, the saturated ends of `i128` as what they stand for.
fn shown(value: i128) -> String {
    match value {
        i128::MAX => "a number over 10^38".into(),
        i128::MIN => "a number under -10^38".into(),
        v if v.unsigned_abs() >= 1_000_000_000_000 => format!("{v} (about {:.1e})", v as f64),
        v => v.to_string(),
    }
}

/// A float as a person reads it: `1e20`, not twenty digits.
fn float(x: f64) -> String {
    if x.is_finite() && x != 0.0 && !(1e-4..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// 1000000 as 1,000,000.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked() -> Asked {
        Asked {
            deals: 10,
            playouts: 10,
            seed: 0,
            threads: None,
            max_time: None,
            target_margin: None,
        }
    }

    fn refused(a: Asked) -> String {
        match Settings::checked(&a) {
            Err(Error::BadSetting(m)) => m,
            other => panic!("{a:?} gave {other:?}"),
        }
    }

    #[test]
    fn the_bounds_themselves_are_accepted() {
        let s = Settings::checked(&Asked {
            deals: MAX_DEALS as i128,
            playouts: MAX_PLAYOUTS as i128,
            seed: i128::from(u64::MAX),
            threads: Some(MAX_THREADS as i128),
            max_time: Some(MAX_TIME),
            target_margin: Some(MIN_TARGET_MARGIN),
        })
        .unwrap();
        assert_eq!(s.max_time, Some(Duration::from_secs(3_600)));
        assert!(s.validate().is_ok());
        let low = Asked {
            deals: 1,
            playouts: 1,
            threads: Some(1),
            max_time: Some(1e-300),
            target_margin: Some(MAX_TARGET_MARGIN),
            ..asked()
        };
        let s = Settings::checked(&low).unwrap();
        assert!(s.max_time.unwrap() > Duration::ZERO);
        assert!(s.validate().is_ok());
    }

    #[test]
    fn every_setting_past_its_bounds_is_named() {
        let cases = [
            (Asked { deals: 0, ..asked() }, "deals must be a whole number from 1 to 1,000,000, not 0"),
            (
                Asked { deals: 1_000_000_000_000, ..asked() },
                "deals must be a whole number from 1 to 1,000,000, not 1000000000000 (about 1.0e12)",
            ),
            (Asked { deals: i128::MAX, ..asked() }, "not a number over 10^38"),
            (Asked { playouts: -5, ..asked() }, "playouts must be a whole number from 1 to 10,000,000, not -5"),
            (Asked { threads: Some(1_000_000), ..asked() }, "threads must be a whole number from 1 to 64, not 1000000"),
            (Asked { threads: Some(0), ..asked() }, "threads must be"),
            (Asked { seed: -1, ..asked() }, "seed must be a whole number from 0 to 18,446,744,073,709,551,615, not -1"),
            (Asked { seed: i128::MIN, ..asked() }, "not a number under -10^38"),
            (Asked { max_time: Some(1e20), ..asked() }, "max_time must be a number of seconds above 0 and at most 3,600, not 1e20"),
            (Asked { max_time: Some(0.0), ..asked() }, "max_time"),
            (Asked { max_time: Some(f64::NAN), ..asked() }, "not NaN"),
            (Asked { max_time: Some(f64::INFINITY), ..asked() }, "not inf"),
            (Asked { target_margin: Some(0.0), ..asked() }, "target_margin must be from 0.001 to 0.5, not 0"),
            (Asked { target_margin: Some(0.6), ..asked() }, "target_margin"),
            (Asked { target_margin: Some(f64::NAN), ..asked() }, "target_margin"),
        ];
        for (a, words) in cases {
            let m = refused(a);
            assert!(m.contains(words), "{m:?} lacks {words:?}");
        }
    }

    #[test]
    fn settings_built_by_hand_are_checked_too() {
        let s = Settings {
            deals: usize::MAX,
            ..Settings::default()
        };
        assert!(matches!(s.validate(), Err(Error::BadSetting(_))));
        assert!(Settings::default().validate().is_ok());
        assert_eq!(
            count("n", 0).unwrap_err().to_string(),
            "n must be a whole number from 1 to 1,000,000, not 0"
        );
    }
}
