//! Regression tests: real functions on which an allocator once produced wrong code, kept whole in `tests/data/`, each allocated by every allocator that takes its form, accepted by the symbolic checker, and verified by `llc-19 -verify-machineinstrs`.
//!
//! The checker is the oracle that matters here: llc's verifier accepted
//! the wrong code these files once produced (it checks liveness flags,
//! not which value a register holds).

use std::path::{Path, PathBuf};
use std::process::Command;

use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, allocate_recorded};

/// A file of `tests/data/`.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// Where allocated files go for llc.
fn scratch() -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("regalloc-tests"))
        .join("regressions");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Allocates every function of `file` (expected: `functions`, by name)
/// with `allocator`, requires the checker to accept each result, and
/// `llc-19 -run-pass=none -verify-machineinstrs` (with `llc_flags`) to
/// accept the written file.
fn allocate_check_verify(
    t: &TargetInfo<'_>,
    file: &str,
    functions: &[&str],
    llc_flags: &[&str],
    allocator: Allocator,
) {
    let an = allocator.name();
    let text = std::fs::read_to_string(data(file)).unwrap();
    let mut doc = mir::read(t, file, &text);
    let unread: Vec<String> = doc.errors().map(|e| e.to_string()).collect();
    assert!(unread.is_empty(), "{file}: the reader rejected {unread:?}");
    let mut names = Vec::new();
    for f in &mut doc.functions {
        let FunctionDoc::Read(f) = f else { continue };
        names.push(f.name.clone());
        let mut g = f.clone();
        let opts = Options {
            allocator,
            check: false,
        };
        let (_, record) = allocate_recorded(t, &mut g, &opts)
            .unwrap_or_else(|e| panic!("{file} {an}: {} not allocated: {e}", f.name));
        if let Err(es) = regalloc::check::check(t, f, &g, &record) {
            let shown: Vec<String> = es.iter().take(5).map(|e| e.to_string()).collect();
            panic!(
                "{file} {an}: the checker rejects {} ({} errors):\n{}",
                f.name,
                es.len(),
                shown.join("\n")
            );
        }
        *f = g;
    }
    assert_eq!(names, functions, "{file}: the functions read");
    let Some(llc) = regalloc_tests::require_llvm_tool("llc") else {
        return;
    };
    let out = scratch().join(format!("{an}-{file}"));
    std::fs::write(&out, mir::write(t, &doc)).unwrap();
    let run = Command::new(&llc)
        .args(["-run-pass=none", "-verify-machineinstrs", "-o", "/dev/null"])
        .args(llc_flags)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{file} {an}: llc rejects {}:\n{}",
        out.display(),
        String::from_utf8_lossy(&run.stderr)
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
    );
    println!("{file} {an}: {} checked and verified by llc", names.len());
}

const X86_FLAGS: &[&str] = &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"];

/// SQLite's `exprAnalyze` (x86-64, -O2, `llc-19 -stop-before=greedy`).
/// Greedy hoisted a store of a split piece of `%862` to the end of a block
/// whose last instruction reloaded that piece from the slot; the store was
/// redundant, and removing it took the reload with it, so the two
/// `CMP8rr` reading the piece compared a stale register (issue 25).
const EXPR_ANALYZE: &str = "greedy-x86-exprAnalyze.mir";

#[test]
fn greedy_on_sqlite_expr_analyze() {
    allocate_check_verify(
        &regalloc_targets::x86::TARGET,
        EXPR_ANALYZE,
        &["exprAnalyze"],
        X86_FLAGS,
        Allocator::Greedy,
    );
}

#[test]
fn basic_on_sqlite_expr_analyze() {
    allocate_check_verify(
        &regalloc_targets::x86::TARGET,
        EXPR_ANALYZE,
        &["exprAnalyze"],
        X86_FLAGS,
        Allocator::Basic,
    );
}

/// Fast takes the same post-two-address form (no PHIs are left).
#[test]
fn fast_on_sqlite_expr_analyze() {
    allocate_check_verify(
        &regalloc_targets::x86::TARGET,
        EXPR_ANALYZE,
        &["exprAnalyze"],
        X86_FLAGS,
        Allocator::Fast,
    );
}
