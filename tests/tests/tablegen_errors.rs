//! Error conformance: every `tablegen/err/*.td` file holds exactly one error.
//!
//! For each file:
//! 1. `llvm-tblgen-19 -I tablegen/ok/inc FILE` must reject it cleanly (exit
//!    status 1, no crash): this keeps the corpus honest;
//! 2. tdgen (`tdgen::Loader` with the same include directory) must reject it;
//! 3. `loader.render(&diags)` must equal the snapshot `tablegen/err/NAME.stderr`
//!    byte for byte (plain text, no colour).
//!
//! With `TDGEN_BLESS=1` step 3 writes the snapshots instead of comparing (and
//! removes snapshots whose `.td` file is gone); a missing snapshot is otherwise
//! a failure. Paths are relative to the tests crate, the working directory of
//! `cargo test`, so rendered diagnostics read `tablegen/err/foo.td:3:5`.
//!
//! Output: `N/N error cases rejected by both`, `N/N snapshots match`, then each
//! mismatch. Without LLVM 19 (or with `TDGEN_NO_LLVM=1`, which hides
//! llvm-tblgen-19 from these tests as if it were not installed) the oracle step
//! is skipped with the notice `skipped: LLVM 19 not found` (tdgen is still
//! checked), unless `CI` is set, in which case the test fails.
//!
//! Nothing of llvm-tblgen's is checked in here, unlike the ok cases'
//! `NAME.json`: its only verdict on an error case is "rejected cleanly", which
//! is what being in this directory says, and its wording is not tdgen's, so the
//! snapshots are tdgen's own rendering.

use std::path::{Path, PathBuf};

use regalloc_tests::{
    catch_quietly, enter_tests_dir, first_lines, llvm_tool, run_tool, shorten, skip_or_fail,
    td_files,
};

const ERR_DIR: &str = "tablegen/err";
const INC_DIR: &str = "tablegen/ok/inc";

fn blessing() -> bool {
    std::env::var_os("TDGEN_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// llvm-tblgen-19, unless absent or hidden by `TDGEN_NO_LLVM` (set to anything
/// but empty or `0`), which simulates a machine without LLVM; prints the skip
/// notice (or fails under `CI`) when there is none.
fn llvm_tblgen() -> Option<PathBuf> {
    let hidden = std::env::var_os("TDGEN_NO_LLVM").is_some_and(|v| !v.is_empty() && v != "0");
    let found = if hidden {
        None
    } else {
        llvm_tool("llvm-tblgen")
    };
    if found.is_none() {
        skip_or_fail("llvm-tblgen-19");
    }
    found
}

fn snapshot_path(file: &str) -> PathBuf {
    Path::new(file).with_extension("stderr")
}

/// What tdgen made of an error case.
enum TdgenOutcome {
    Rejected(String),
    Accepted,
    Panicked(String),
}

fn run_tdgen(file: &str) -> TdgenOutcome {
    let outcome = catch_quietly(|| {
        let mut loader = tdgen::Loader::new();
        loader.include_dir(INC_DIR);
        match loader.records(file) {
            Ok(_) => TdgenOutcome::Accepted,
            Err(diags) => TdgenOutcome::Rejected(loader.render(&diags)),
        }
    });
    outcome.unwrap_or_else(TdgenOutcome::Panicked)
}

/// The first line that differs between two texts, for a short report.
fn first_difference(expected: &str, actual: &str) -> String {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    for line in 1.. {
        match (e.next(), a.next()) {
            (None, None) => {
                return "texts differ only in line endings or a trailing newline".to_string();
            }
            (x, y) if x == y => continue,
            (x, y) => {
                let show = |l: Option<&str>| {
                    l.map_or("<end of text>".to_string(), |l| {
                        format!("{:?}", shorten(l, 200))
                    })
                };
                return format!("line {line}: snapshot {}, tdgen {}", show(x), show(y));
            }
        }
    }
    unreachable!()
}

#[test]
fn err_corpus_rejected_by_both_with_snapshots() {
    enter_tests_dir();
    let files = td_files(ERR_DIR);
    assert!(!files.is_empty(), "no .td files in {ERR_DIR}");
    let tblgen = llvm_tblgen();
    let bless = blessing();

    let mut both_rejected = 0;
    let mut snapshots_ok = 0;
    let mut failures = Vec::new();

    for file in &files {
        // 1. The oracle must reject it cleanly.
        let mut oracle_ok = true;
        if let Some(tblgen) = &tblgen {
            let run = run_tool(tblgen, ["-I", INC_DIR, file.as_str()]);
            if !run.rejected_cleanly() {
                oracle_ok = false;
                let what = if run.crashed() {
                    "crashed".to_string()
                } else if run.succeeded() {
                    "accepted it".to_string()
                } else {
                    format!("exited with {:?}", run.code)
                };
                failures.push(format!(
                    "{file}: corpus error, llvm-tblgen {what}\n    {}",
                    first_lines(&run.stderr, 4)
                ));
            }
        }

        // 2. tdgen must reject it; 3. its rendering must match the snapshot.
        let rendered = match run_tdgen(file) {
            TdgenOutcome::Rejected(text) => text,
            TdgenOutcome::Accepted => {
                failures.push(format!("{file}: tdgen accepted it"));
                continue;
            }
            TdgenOutcome::Panicked(msg) => {
                failures.push(format!("{file}: tdgen panicked: {msg}"));
                continue;
            }
        };
        if oracle_ok {
            both_rejected += 1;
        }

        let snapshot = snapshot_path(file);
        if bless {
            std::fs::write(&snapshot, &rendered)
                .unwrap_or_else(|e| panic!("{}: {e}", snapshot.display()));
            snapshots_ok += 1;
            continue;
        }
        match std::fs::read_to_string(&snapshot) {
            Ok(expected) if expected == rendered => snapshots_ok += 1,
            Ok(expected) => failures.push(format!(
                "{file}: rendering differs from {} ({}); rerun with TDGEN_BLESS=1 if the new text is right",
                snapshot.display(),
                first_difference(&expected, &rendered)
            )),
            Err(_) => failures.push(format!(
                "{file}: snapshot {} is missing (run with TDGEN_BLESS=1 to write it)",
                snapshot.display()
            )),
        }
    }

    // Snapshots whose case is gone.
    let stale: Vec<PathBuf> = std::fs::read_dir(ERR_DIR)
        .expect("cannot read the err corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "stderr") && !p.with_extension("td").exists()
        })
        .collect();
    for path in stale {
        if bless {
            let _ = std::fs::remove_file(&path);
        } else {
            failures.push(format!(
                "{}: stale snapshot without a .td case",
                path.display()
            ));
        }
    }

    let n = files.len();
    if tblgen.is_some() {
        println!("{both_rejected}/{n} error cases rejected by both");
    } else {
        println!("llvm-tblgen not run; tdgen checked alone");
    }
    println!(
        "{snapshots_ok}/{n} snapshots {}",
        if bless { "written" } else { "match" }
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} error-case failures (see above)",
        failures.len()
    );
}

/// The corpus itself is well formed: enough cases, each opening with a `//`
/// comment saying what is wrong. Runs without LLVM.
#[test]
fn err_corpus_is_well_formed() {
    enter_tests_dir();
    let files = td_files(ERR_DIR);
    assert!(
        files.len() >= 45,
        "expected at least 45 err cases, found {}",
        files.len()
    );
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            text.starts_with("//"),
            "{file}: the first line must be a // comment saying what is wrong"
        );
    }
}
