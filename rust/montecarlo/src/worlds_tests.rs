//! The collection of worlds on small games whose consistent worlds are known.

use std::sync::atomic::AtomicU64;

use super::*;
use crate::explain::Unexplained;

/// Two parts, each a number 0..6 ("dice"); part 0 is consistent when even, part 1 when it is
/// at least 3; compatible when different. The consistent worlds are the pairs (a, b) with a
/// in {0, 2, 4}, b in {3, 4, 5}, a != b: 8 pairs, each to come up 1/8 of the time.
struct Dice;
impl Factored for Dice {
    type Part = u32;
    type World = (u32, u32);
    fn parts(&self) -> usize {
        2
    }
    fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<u32> {
        let x = rng.below(6);
        let ok = if i == 0 { x % 2 == 0 } else { x >= 3 };
        ok.then_some(x)
    }
    fn fallback_part(&self, _: usize, _: &[u32], rng: &mut Rng) -> u32 {
        rng.below(6)
    }
    fn combine(&self, p: &[u32]) -> Option<(u32, u32)> {
        (p[0] != p[1]).then_some((p[0], p[1]))
    }
}

#[test]
fn every_consistent_world_equally_likely() {
    let r = Runner::simple(Some(2));
    let s = CollectSettings {
        target: 40_000,
        seed: 11,
        ..CollectSettings::default()
    };
    let c = collect(&Dice, &s, &r);
    assert_eq!(c.worlds.len(), 40_000);
    assert!(c.fallback_parts.is_empty());
    let mut counts = std::collections::HashMap::new();
    for w in &c.worlds {
        assert!(w.0 % 2 == 0 && w.1 >= 3 && w.0 != w.1);
        *counts.entry(*w).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 8);
    let e = 40_000.0 / 8.0;
    let chi: f64 = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
    // 7 degrees of freedom: 24.3 is the 0.999 quantile.
    assert!(chi < 24.3, "chi-square {chi}");
}

#[test]
fn same_seed_same_worlds_whatever_the_threads() {
    let s = CollectSettings {
        target: 500,
        seed: 5,
        ..CollectSettings::default()
    };
    let a = collect(&Dice, &s, &Runner::simple(Some(1))).worlds;
    let b = collect(&Dice, &s, &Runner::simple(Some(2))).worlds;
    assert_eq!(a, b);
}

/// Parts that are always consistent and never compatible: every world is given up. Its
/// combinations are counted, and after `slow_after` of them each waits for `deadline` to pass.
struct Clash {
    combined: AtomicU64,
    slow_after: u64,
    deadline: Instant,
}
impl Factored for Clash {
    type Part = u32;
    type World = ();
    fn parts(&self) -> usize {
        3
    }
    fn sample_part(&self, _: usize, rng: &mut Rng) -> Option<u32> {
        Some(rng.below(6))
    }
    fn fallback_part(&self, _: usize, _: &[u32], rng: &mut Rng) -> u32 {
        rng.below(6)
    }
    fn combine(&self, _: &[u32]) -> Option<()> {
        if self.combined.fetch_add(1, Ordering::Relaxed) >= self.slow_after {
            while Instant::now() < self.deadline {
                std::hint::spin_loop();
            }
        }
        None
    }
    fn explainable(&self, _: usize) -> Option<bool> {
        Some(true)
    }
}

#[test]
fn the_time_limit_holds_while_parts_are_combined() {
    // The time is up after 10,000 combinations (each later one waits for it): every world in
    // progress must see it within its next look at the clock, though no world ends by itself.
    let deadline = Instant::now() + std::time::Duration::from_millis(20);
    let game = Clash {
        combined: AtomicU64::new(0),
        slow_after: 10_000,
        deadline,
    };
    let r = Runner::new(Some(2), Some(deadline), std::sync::Arc::default());
    let s = CollectSettings {
        target: 1_000,
        max_attempts_per_world: u64::MAX,
        ..CollectSettings::default()
    };
    let c = collect(&game, &s, &r);
    assert_eq!(c.stopped, Some(Stop::Time));
    assert!(c.worlds.is_empty());
    // Each of the two threads goes on for at most one look at the clock (a combination per
    // four attempts) past the time limit.
    let combined = game.combined.load(Ordering::Relaxed);
    assert!(combined <= 10_000 + 2 * CLOCK_EVERY, "{combined}");
}

/// Parts never compatible, whose combinations set `cancel` (Ctrl-C) after `after` of them.
struct Interrupted {
    combined: AtomicU64,
    after: u64,
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
}
impl Factored for Interrupted {
    type Part = u32;
    type World = ();
    fn parts(&self) -> usize {
        3
    }
    fn sample_part(&self, _: usize, rng: &mut Rng) -> Option<u32> {
        Some(rng.below(6))
    }
    fn fallback_part(&self, _: usize, _: &[u32], rng: &mut Rng) -> u32 {
        rng.below(6)
    }
    fn combine(&self, _: &[u32]) -> Option<()> {
        if self.combined.fetch_add(1, Ordering::Relaxed) + 1 >= self.after {
            self.cancel.store(true, Ordering::Relaxed);
        }
        None
    }
    fn explainable(&self, _: usize) -> Option<bool> {
        Some(true)
    }
}

#[test]
fn cancellation_stops_the_least_work() {
    // The least work goes on past the time limit, but not past Ctrl-C: within one look at the
    // flag of each world in progress, and no other try is begun.
    let game = Interrupted {
        combined: AtomicU64::new(0),
        after: 10_000,
        cancel: std::sync::Arc::default(),
    };
    let r = Runner::new(Some(2), Some(Instant::now()), game.cancel.clone());
    let s = CollectSettings {
        target: 1_000,
        minimum: 100,
        ..CollectSettings::default()
    };
    let c = collect(&game, &s, &r);
    assert_eq!(c.stopped, Some(Stop::Cancelled));
    assert!(c.worlds.is_empty() && c.fallback_parts.is_empty());
    let combined = game.combined.load(Ordering::Relaxed);
    assert!(combined <= 10_000 + 2 * CLOCK_EVERY, "{combined}");
}

#[test]
fn the_minimum_is_collected_whatever_the_time() {
    let past = Instant::now();
    let r = Runner::new(Some(2), Some(past), std::sync::Arc::default());
    let s = CollectSettings {
        target: 10_000,
        seed: 3,
        minimum: 100,
        ..CollectSettings::default()
    };
    let c = collect(&Dice, &s, &r);
    // The runner's time was up before the start: the minimum exactly was collected.
    assert_eq!(c.worlds.len(), 100);
    assert_eq!(c.stopped, Some(Stop::Time));
    // They are the first 100 worlds of the collection without a time limit.
    let all = collect(&Dice, &s, &Runner::simple(Some(2)));
    assert_eq!(c.worlds[..], all.worlds[..100]);
    let none = collect(&Dice, &CollectSettings { minimum: 0, ..s }, &r);
    assert!(none.worlds.is_empty());
}

/// Dice that take a millisecond an attempt: a slow machine.
struct SlowDice;
impl Factored for SlowDice {
    type Part = u32;
    type World = (u32, u32);
    fn parts(&self) -> usize {
        2
    }
    fn sample_part(&self, i: usize, rng: &mut Rng) -> Option<u32> {
        std::thread::sleep(std::time::Duration::from_millis(1));
        Dice.sample_part(i, rng)
    }
    fn fallback_part(&self, i: usize, others: &[u32], rng: &mut Rng) -> u32 {
        Dice.fallback_part(i, others, rng)
    }
    fn combine(&self, p: &[u32]) -> Option<(u32, u32)> {
        Dice.combine(p)
    }
    fn explainable(&self, _: usize) -> Option<bool> {
        Some(true)
    }
}

#[test]
fn the_least_work_is_bounded_by_attempts_not_by_time() {
    // However slow the machine, the minimum comes whole (more worlds than a few chunks of
    // them): its bound is in attempts.
    let r = Runner::new(Some(2), Some(Instant::now()), std::sync::Arc::default());
    let s = CollectSettings {
        target: 1_000,
        seed: 5,
        minimum: 200,
        ..CollectSettings::default()
    };
    let c = collect(&SlowDice, &s, &r);
    assert_eq!(c.worlds.len(), 200);
    assert!(c.attempts <= s.minimum_attempts);
}

/// Two parts, each always 1 (always consistent), compatible when different: no world at all,
/// though each part alone is explained. `tells`: whether the game can tell (`combinable`).
struct Twins {
    tells: bool,
}
impl Factored for Twins {
    type Part = u32;
    type World = (u32, u32);
    fn parts(&self) -> usize {
        2
    }
    fn sample_part(&self, _: usize, _: &mut Rng) -> Option<u32> {
        Some(1)
    }
    fn fallback_part(&self, _: usize, others: &[u32], rng: &mut Rng) -> u32 {
        loop {
            let x = rng.below(6);
            if !others.contains(&x) {
                return x;
            }
        }
    }
    fn combine(&self, p: &[u32]) -> Option<(u32, u32)> {
        (p[0] != p[1]).then_some((p[0], p[1]))
    }
    fn explainable(&self, _: usize) -> Option<bool> {
        Some(true)
    }
    fn combinable(&self, which: &[usize]) -> Option<bool> {
        self.tells.then_some(which.len() < 2)
    }
    fn explain_order(&self) -> Vec<usize> {
        vec![1, 0]
    }
}

#[test]
fn parts_that_never_combine_deal_the_last_tested_by_the_fallback() {
    let s = CollectSettings {
        target: 500,
        seed: 2,
        minimum: 100,
        ..CollectSettings::default()
    };
    let r = Runner::simple(Some(2));
    // Told: at once, no attempt wasted; part 0 is the later in the order.
    let told = collect(&Twins { tells: true }, &s, &r);
    assert_eq!(told.fallback_parts, vec![0]);
    assert_eq!(told.fallback_why, vec![Unexplained::Together]);
    assert_eq!(told.worlds.len(), 500);
    assert!(told.worlds.iter().all(|w| w.1 == 1 && w.0 != 1));
    assert_eq!(told.attempts, 500 * 2);
    // Not told: the least work finds nothing, and then the same part is dealt by the fallback.
    let found = collect(&Twins { tells: false }, &s, &r);
    assert_eq!(found.fallback_parts, vec![0]);
    assert_eq!(found.fallback_why, vec![Unexplained::Rare]);
    assert_eq!(found.worlds.len(), 500);
    assert!(found.attempts <= s.minimum_attempts + 500 * 2 + 512);
}

struct Impossible;
impl Factored for Impossible {
    type Part = u32;
    type World = u32;
    fn parts(&self) -> usize {
        1
    }
    fn sample_part(&self, _: usize, _: &mut Rng) -> Option<u32> {
        None
    }
    fn fallback_part(&self, _: usize, _: &[u32], rng: &mut Rng) -> u32 {
        rng.below(6)
    }
    fn combine(&self, p: &[u32]) -> Option<u32> {
        Some(p[0])
    }
}

#[test]
fn an_unexplainable_part_is_dealt_by_the_fallback() {
    let s = CollectSettings {
        target: 100,
        seed: 1,
        probe_attempts: 10_000,
        ..CollectSettings::default()
    };
    let c = collect(&Impossible, &s, &Runner::simple(Some(2)));
    assert_eq!(c.fallback_parts, vec![0]);
    assert_eq!(c.worlds.len(), 100);
}
