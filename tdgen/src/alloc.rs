//! The global allocator of the `tdgen` binary (and of the benchmark that times it in process): mimalloc, entered by its fastest door.
//!
//! Evaluation allocates and frees millions of small values. The `mimalloc`
//! crate's allocator passes every request to `mi_malloc_aligned`, whose fast
//! path needs a free block in the size's page that happens to sit at the
//! alignment asked for, and which otherwise takes a slower generic path (a
//! third of the requests, in a profile of `tdgen regs`). But every mimalloc
//! block is word-aligned (block sizes are whole words, and a free block holds
//! the free-list link), so requests for at most word alignment, nearly all of
//! them, can go to plain `mi_malloc` and friends.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment of every mimalloc block (`MI_INTPTR_SIZE`).
const WORD: usize = std::mem::size_of::<usize>();

/// Whether a plain (unaligned) mimalloc call returns a block aligned as `align` asks.
#[inline]
fn natural(align: usize) -> bool {
    align <= WORD
}

/// mimalloc, called through its unaligned entry points whenever they give the alignment asked for.
pub struct Allocator;

// SAFETY: every block comes from mimalloc, aligned as the layout asks (by
// `natural`, or by mimalloc's aligned entry points otherwise), and is freed
// or resized by mimalloc, which accepts blocks from any of its entry points.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions accept any size and a power-of-two alignment.
        unsafe {
            if natural(layout.align()) {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        unsafe {
            if natural(layout.align()) {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator, hence by mimalloc.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by mimalloc; the block returned is
        // aligned as `layout` asks by the same rule as in `alloc`.
        unsafe {
            if natural(layout.align()) {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}
