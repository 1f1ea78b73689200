//! Benchmarks and the corpus harness for tdgen and regalloc.

#![deny(missing_docs)]

/// Tunes mimalloc for a short-lived process that grows and drops large
/// buffers (pest's token queue, record tables) over and over: freed memory
/// is kept for reuse instead of being handed back to the OS after 10 ms
/// (`mi_option_purge_delay` = -1), and arenas do not ask for transparent
/// huge pages (`mi_option_allow_thp` = 0), each of whose first touch zeroes
/// 2 MiB. Without this, page faults cost as much system time as the parse.
/// The option numbers are positions in mimalloc 3's `mi_option_e` (the
/// version libmimalloc-sys builds by default); mimalloc ignores an option
/// number it does not know.
///
/// The THP option alone comes too late: mimalloc reserves its first arena,
/// asking for huge pages, before `main` runs, and on a machine whose THP
/// `defrag` setting is `madvise` a fault in that arena may compact memory
/// synchronously (milliseconds, charged to whatever allocation touched the
/// page first: in `bench-run`, one function's allocation in a few hundred).
/// So THP is also turned off for the whole process, as mimalloc itself does
/// when the option is set at start-up (`PR_SET_THP_DISABLE`).
pub fn keep_freed_memory() {
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;
    // SAFETY: mi_option_set only stores an option value; any thread may call it at any time.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0);
    }
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of the calling process;
    // it takes no pointers. A failure (an old kernel) leaves THP as it was.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

pub mod alloc_bench;
pub mod corpus;
pub mod csv;
pub mod curve;
pub mod plot;
pub mod ra2;
