//! Table-rule turns played, counted per thread: only in a counting build (the `count-turns`
//! feature, for the benchmark's turn rate); the shipped build counts nothing and pays nothing.

use std::cell::Cell;

thread_local! {
    static TURNS: Cell<u64> = const { Cell::new(0) };
}

#[inline]
pub(crate) fn add() {
    TURNS.with(|t| t.set(t.get() + 1));
}

/// This thread's count since it was last taken.
pub fn take() -> u64 {
    TURNS.with(|t| t.replace(0))
}
