//! Benchmark: tdgen's front end on LLVM 19's Target.td set against `llvm-tblgen-19 -print-records`, measured in the same run.
//!
//! `cargo run --release -p regalloc-bench --bin bench-tdgen [-- RUNS]` parses and
//! evaluates `include "llvm/Target/Target.td"` plus a stub target (23,696
//! records) RUNS times (default 7), times llvm-tblgen on the same file in
//! alternation, and prints the medians and their ratio. A ratio at or below
//! 1.0 means tdgen is at least as fast.
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

// The same allocator as the tdgen binary, so the in-process measurement matches it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Tunes mimalloc for a short-lived process that grows and drops large
/// buffers (pest's token queue, record tables) over and over: freed memory
/// is kept for reuse instead of being handed back to the OS after 10 ms
/// (`mi_option_purge_delay` = -1), and arenas do not ask for transparent
/// huge pages (`mi_option_allow_thp` = 0), each of whose first touch zeroes
/// 2 MiB. Without this, page faults cost as much system time as the parse.
/// The option numbers are positions in mimalloc 3's `mi_option_e` (the
/// version libmimalloc-sys builds by default); mimalloc ignores an option
/// number it does not know.
fn keep_freed_memory() {
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;
    // SAFETY: mi_option_set only stores an option value; any thread may call it at any time.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0);
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    keep_freed_memory();
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let include = Path::new("/usr/lib/llvm-19/include");
    if !include.join("llvm/Target/Target.td").is_file() {
        eprintln!(
            "LLVM 19's Target.td not found under {}: apt-get install llvm-19-dev",
            include.display()
        );
        std::process::exit(2);
    }
    let dir = std::env::temp_dir().join("tdgen-bench");
    std::fs::create_dir_all(&dir).expect("temporary directory is writable");
    let top = dir.join("stub.td");
    std::fs::write(
        &top,
        "include \"llvm/Target/Target.td\"\ndef Stub : Target;\n",
    )
    .expect("temporary file is writable");
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let mut records = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let mut loader = tdgen::Loader::new();
        loader.include_dir(include);
        let rk = loader
            .records(&top)
            .unwrap_or_else(|d| panic!("tdgen rejected Target.td:\n{}", loader.render(&d)));
        records = rk.def_order.len();
        drop(rk);
        ours.push(t.elapsed());
        let t = Instant::now();
        let out = Command::new("llvm-tblgen-19")
            .arg("-print-records")
            .arg("-I")
            .arg(include)
            .arg(&top)
            .output()
            .expect("llvm-tblgen-19 runs");
        assert!(out.status.success(), "llvm-tblgen-19 failed");
        theirs.push(t.elapsed());
    }
    let (o, l) = (median(ours), median(theirs));
    println!("Target.td set: {records} defs, {runs} runs each");
    println!(
        "tdgen parse+evaluate: {:>8.1} ms (median)",
        o.as_secs_f64() * 1e3
    );
    println!(
        "llvm-tblgen-19 -print-records: {:>8.1} ms (median, whole process)",
        l.as_secs_f64() * 1e3
    );
    println!(
        "ratio tdgen / llvm-tblgen: {:.2}",
        o.as_secs_f64() / l.as_secs_f64()
    );
}
