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

/// One thread pool per number of threads, kept for the life of the process: a query should not
/// pay for starting threads.
fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<Mutex<Vec<Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.iter().find(|p| p.current_num_threads() == threads) {
        return p.clone();
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("montecarlo-{i}"))
            .build()
            .expect("a thread pool can be built"),
    );
    pools.push(p.clone());
    p
}

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

    /// Run `f` over `0..n` split in chunks of `chunk` items, in parallel. Results come back in
    /// chunk order, so they do not depend on the number of threads; a chunk that was not run
    /// because the run stopped is `None`.
    pub fn chunks<T, F>(&self, n: usize, chunk: usize, f: F) -> Vec<Option<T>>
    where
        T: Send,
        F: Fn(Range<usize>) -> T + Sync,
    {
        self.chunks_until(n, chunk, self.deadline, f)
    }

    /// [`Runner::chunks`] with its own time limit (earlier than the runner's, for a phase).
    pub fn chunks_until<T, F>(
        &self,
        n: usize,
        chunk: usize,
        deadline: Option<Instant>,
        f: F,
    ) -> Vec<Option<T>>
    where
        T: Send,
        F: Fn(Range<usize>) -> T + Sync,
    {
        let chunk = chunk.max(1);
        let count = n.div_ceil(chunk);
        self.pool.install(|| {
            (0..count)
                .into_par_iter()
                .map(|c| {
                    if self.stop_by(deadline).is_some() {
                        return None;
                    }
                    let start = c * chunk;
                    Some(f(start..(start + chunk).min(n)))
                })
                .collect()
        })
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
    fn a_cancelled_run_skips_its_chunks() {
        let cancel = Arc::new(AtomicBool::new(true));
        let r = Runner::new(Some(2), None, cancel);
        assert!(r.chunks(100, 10, |_| 1).iter().all(Option::is_none));
        assert_eq!(r.stop(), Some(Stop::Cancelled));
    }
}
