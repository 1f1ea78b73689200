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
pub fn keep_freed_memory() {
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;
    // SAFETY: mi_option_set only stores an option value; any thread may call it at any time.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0);
    }
}

pub mod alloc_bench;
pub mod corpus;
pub mod csv;
pub mod plot;
pub mod ra2;
