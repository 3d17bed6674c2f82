//! How the process's allocator treats the memory a query frees: kept for the next query.
//!
//! A modelled read allocates and frees tens of megabytes a query (particles, their sums, the
//! posteriors). glibc's malloc gives freed memory back to the system once a little is free at
//! the top of a heap (and serves blocks above 128 KiB by fresh mappings until one is freed),
//! so the next query touches new pages again: a page fault every 4 KiB, which on a two-core
//! virtual machine was a fifth of a late position's modelled query. At import the binding sets
//! the two thresholds to what glibc's own adjustment reaches after freeing a 32 MiB block
//! (blocks up to 32 MiB from the heap, up to 128 MiB kept free at its top); the process keeps
//! at most that much more memory. `THIRTYONE_SYSTEM_MALLOC` set (to anything) leaves malloc
//! as it was; other C libraries than glibc are left as they are.

/// Blocks up to this size come from the heap, not a fresh mapping of their own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;
/// Free memory at a heap's top is given back only past this much.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 128 << 20;

/// Keep freed memory for the next query (see the module's description). Returns whether the
/// thresholds were set.
pub(crate) fn keep_freed_memory() -> bool {
    if std::env::var_os("THIRTYONE_SYSTEM_MALLOC").is_some() {
        return false;
    }
    set_thresholds()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_thresholds() -> bool {
    // SAFETY: mallopt only changes the allocator's thresholds; it takes the allocator's own
    // lock, and blocks allocated before keep their place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
            && libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_thresholds() -> bool {
    false
}
