//! The parallel runner: work split in chunks over a rayon pool of a chosen size, with a time
//! limit and a cancellation flag checked between chunks.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use rayon::prelude::*;

/// Why a run stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time limit was reached.
    Time,
    /// The caller cancelled (Ctrl-C).
    Cancelled,
}

/// Thread pools kept at once: a query should not pay for starting threads, but a caller trying
/// many sizes must not pile up pools either (an evicted pool ends when its last user is done).
const POOLS_KEPT: usize = 4;

static POOLS: OnceLock<Mutex<Vec<Arc<rayon::ThreadPool>>>> = OnceLock::new();

fn kept_pools() -> std::sync::MutexGuard<'static, Vec<Arc<rayon::ThreadPool>>> {
    POOLS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// A thread pool of `threads` threads, kept for later queries (the most recently used few).
fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    let mut pools = kept_pools();
    if let Some(i) = pools
        .iter()
        .position(|p| p.current_num_threads() == threads)
    {
        let p = pools.remove(i);
        pools.push(p.clone());
        return p;
    }
    let cpus = affinity::allowed();
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("montecarlo-{i}"))
            .start_handler(move |i| affinity::keep_on(&cpus, i, threads))
            .build()
            .expect("a thread pool can be built"),
    );
    if pools.len() >= POOLS_KEPT {
        pools.remove(0);
    }
    pools.push(p.clone());
    p
}

/// Each worker of a pool that spans the machine on a CPU of its own (Linux). A query wakes its
/// pool's workers, and the system wakes a thread on a CPU it last ran on or on its waker's: two
/// workers that had ended a query on one CPU were woken there together, and shared it, the other
/// CPU idle, for the 10 to 40 ms the system took to move one (on a two-core virtual machine, in
/// 2 to 6 of 9 two-thread queries: as slow as one thread). A worker kept on a CPU of its own is
/// never woken beside another. Only a pool with one worker for each CPU the process may use
/// (`taskset`, a container's set; the default, one thread per core) is so kept: each CPU then
/// has one worker whatever the numbering, where a smaller pool kept on the first CPUs would
/// crowd them with other processes' pools; any other pool is left to the system.
mod affinity {
    /// The CPUs this process may run on (empty: unknown, or not Linux).
    #[cfg(target_os = "linux")]
    pub(super) fn allowed() -> Vec<usize> {
        // SAFETY: a zeroed cpu_set_t is a valid empty set, which sched_getaffinity fills for
        // the calling thread; CPU_ISSET reads it within its size.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect()
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn allowed() -> Vec<usize> {
        Vec::new()
    }

    /// Keep the calling thread, worker `i` of `threads`, on the `i`-th of `cpus` when there are
    /// as many CPUs as workers, two or more (a failure leaves it where the system puts it).
    #[cfg(target_os = "linux")]
    pub(super) fn keep_on(cpus: &[usize], i: usize, threads: usize) {
        if threads < 2 || cpus.len() != threads {
            return;
        }
        // SAFETY: as above; CPU_SET writes within the set's size (the CPU came from it).
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpus[i], &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn keep_on(_: &[usize], _: usize, _: usize) {}
}

/// Chunks run side by side before their results are handed over: what a run holds at once
/// does not grow with the number of items.
const BATCH: usize = 1024;

pub struct Runner {
    pool: Arc<rayon::ThreadPool>,
    deadline: Option<Instant>,
    cancel: Arc<AtomicBool>,
}

impl Runner {
    /// A runner on `threads` threads (None: one per core), stopping at `deadline` or when
    /// `cancel` is set.
    pub fn new(
        threads: Option<usize>,
        deadline: Option<Instant>,
        cancel: Arc<AtomicBool>,
    ) -> Runner {
        let threads = threads
            .filter(|&t| t > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let pool = pool(threads);
        Runner {
            pool,
            deadline,
            cancel,
        }
    }

    /// A runner with no time limit that cannot be cancelled.
    pub fn simple(threads: Option<usize>) -> Runner {
        Runner::new(threads, None, Arc::new(AtomicBool::new(false)))
    }

    /// Change the time limit (None: none).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Run `f` inside this runner's thread pool (so that any rayon work in it uses the pool).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The time limit, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the work should stop now, and why.
    pub fn stop(&self) -> Option<Stop> {
        self.stop_by(self.deadline)
    }

    /// Whether the work should stop now, with `deadline` in place of the runner's own.
    pub fn stop_by(&self, deadline: Option<Instant>) -> Option<Stop> {
        if self.cancel.load(Ordering::Relaxed) {
            Some(Stop::Cancelled)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::Time)
        } else {
            None
        }
    }

    /// Run `f` over `0..n` split in chunks of `chunk` items, in parallel, with the runner's
    /// time limit. Results come back in chunk order, so they do not depend on the number of
    /// threads; a chunk that was not run because the run stopped is `None`. (For small `n`: the
    /// results are all kept; see [`Runner::each_chunk`].)
    pub fn chunks<T, F>(&self, n: usize, chunk: usize, f: F) -> Vec<Option<T>>
    where
        T: Send,
        F: Fn(Range<usize>) -> T + Sync,
    {
        let mut out = Vec::new();
        self.each_chunk(n, chunk, |_| self.deadline, f, |r| out.push(r));
        out
    }

    /// Run `f` over `0..n` split in chunks of `chunk` items, in parallel, and hand each chunk's
    /// result to `consume` in chunk order (`None`: the chunk was not run because the run had
    /// stopped). The chunk starting at item `start` is not begun after `deadline(start)` (None:
    /// no limit for it; cancellation stops every chunk). At most [`BATCH`] chunks are in flight,
    /// so memory does not grow with `n`.
    pub fn each_chunk<T, D, F, C>(&self, n: usize, chunk: usize, deadline: D, f: F, mut consume: C)
    where
        T: Send,
        D: Fn(usize) -> Option<Instant> + Sync,
        F: Fn(Range<usize>) -> T + Sync,
        C: FnMut(Option<T>),
    {
        let chunk = chunk.max(1);
        let count = n.div_ceil(chunk);
        let mut first = 0;
        while first < count {
            let last = count.min(first + BATCH);
            let results: Vec<Option<T>> = self.pool.install(|| {
                (first..last)
                    .into_par_iter()
                    .map(|c| {
                        let start = c * chunk;
                        if self.stop_by(deadline(start)).is_some() {
                            return None;
                        }
                        Some(f(start..(start + chunk).min(n)))
                    })
                    .collect()
            });
            results.into_iter().for_each(&mut consume);
            first = last;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_come_back_in_order_whatever_the_threads() {
        for threads in [1, 2, 3] {
            let r = Runner::simple(Some(threads));
            let out: Vec<usize> = r
                .chunks(1000, 7, |range| range.sum::<usize>())
                .into_iter()
                .map(Option::unwrap)
                .collect();
            assert_eq!(out.len(), 143);
            assert_eq!(out.iter().sum::<usize>(), 999 * 1000 / 2);
            assert_eq!(out[0], 21);
        }
    }

    #[test]
    fn many_chunks_are_handed_over_in_order_batch_by_batch() {
        let r = Runner::simple(Some(2));
        let mut seen = Vec::new();
        r.each_chunk(
            10 * BATCH + 5,
            1,
            |_| None,
            |range| range.start,
            |x| seen.push(x.unwrap()),
        );
        assert_eq!(seen, (0..10 * BATCH + 5).collect::<Vec<_>>());
    }

    #[test]
    fn chunks_past_their_deadline_are_skipped_and_the_others_run() {
        let past = Some(Instant::now());
        let r = Runner::simple(Some(2));
        let mut ran = Vec::new();
        r.each_chunk(
            100,
            10,
            |start| if start < 30 { None } else { past },
            |range| range.start,
            |x| ran.push(x),
        );
        let done: Vec<usize> = ran.iter().flatten().copied().collect();
        assert_eq!(done, vec![0, 10, 20]);
        assert_eq!(ran.len(), 10);
    }

    #[test]
    fn only_a_few_pools_are_kept() {
        for threads in 1..=POOLS_KEPT + 3 {
            assert_eq!(Runner::simple(Some(threads)).threads(), threads);
            assert!(kept_pools().len() <= POOLS_KEPT);
        }
        // A size asked for again after it was evicted is served by a fresh pool.
        assert_eq!(Runner::simple(Some(1)).threads(), 1);
    }

    #[test]
    fn a_cancelled_run_skips_its_chunks() {
        let cancel = Arc::new(AtomicBool::new(true));
        let r = Runner::new(Some(2), None, cancel);
        assert!(r.chunks(100, 10, |_| 1).iter().all(Option::is_none));
        assert_eq!(r.stop(), Some(Stop::Cancelled));
    }

    /// A pool with one worker for each CPU the process may use keeps each worker on a CPU of
    /// its own, all different; a smaller pool is left to the system (its workers may run on
    /// every CPU).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_pool_as_wide_as_the_machine_keeps_a_worker_on_each_cpu() {
        let cpus = affinity::allowed();
        if cpus.len() < 2 {
            return; // (one CPU: nothing to keep apart)
        }
        let full = Runner::simple(Some(cpus.len()));
        let mut seen: Vec<Vec<usize>> = full.pool.broadcast(|_| affinity::allowed());
        seen.sort();
        let each: Vec<Vec<usize>> = cpus.iter().map(|&c| vec![c]).collect();
        assert_eq!(seen, each);
        let one = Runner::simple(Some(1));
        assert_eq!(
            one.pool.broadcast(|_| affinity::allowed()),
            vec![cpus.clone()]
        );
        if cpus.len() > 2 {
            let two = Runner::simple(Some(2));
            assert_eq!(
                two.pool.broadcast(|_| affinity::allowed()),
                vec![cpus.clone(); 2]
            );
        }
    }
}
