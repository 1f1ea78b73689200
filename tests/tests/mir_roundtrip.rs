//! Round trip of real BPF MIR: read -> write -> `llc-19 -verify-machineinstrs` accepts it, and read -> write -> read gives equal functions.
//!
//! Runs over the fixtures in `tests/mir/bpf/` and, when it exists, the
//! developers' corpus `bench/out/corpus/bpf/O2`. Without `llc-19` the
//! verifier step is skipped with a notice; the in-process checks still run.

use std::path::{Path, PathBuf};
use std::process::Command;

use regalloc::mir::{self, FunctionDoc};
use regalloc::target::fixtures;

/// `llc-19`, if it runs here.
fn llc() -> Option<&'static str> {
    let ok = Command::new("llc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("notice: llc-19 not found; skipping the machine-verifier step");
    }
    ok.then_some("llc-19")
}

/// Counts for a set of files.
#[derive(Default)]
struct Tally {
    files: usize,
    functions: usize,
    ok: usize,
    /// Files whose llc output equals the input (canonical inputs only).
    identical: usize,
    failures: Vec<String>,
}

/// The text after the `; ModuleID = ...` line, which names the file llc read.
fn without_module_id(s: &str) -> String {
    s.lines()
        .filter(|l| !l.trim_start().starts_with("; ModuleID"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn round_trip(path: &Path, llc: Option<&str>, tmp: &Path, t: &mut Tally) {
    let target = fixtures::bpf();
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let first = mir::read(target, &name, &text);
    let out = mir::write(target, &first);
    let second = mir::read(target, "written", &out);
    t.files += 1;
    let mut good = vec![true; first.functions.len()];
    for (k, (a, b)) in first.functions.iter().zip(&second.functions).enumerate() {
        match (a, b) {
            (FunctionDoc::Read(a), FunctionDoc::Read(b)) if a == b => {}
            (FunctionDoc::Failed { error, .. }, _) => {
                t.failures.push(error.to_string());
                good[k] = false;
            }
            (FunctionDoc::Read(a), _) => {
                t.failures.push(format!(
                    "{name}: function '{}' differs after write and re-read",
                    a.name
                ));
                good[k] = false;
            }
        }
    }
    if first.functions.len() != second.functions.len() {
        t.failures
            .push(format!("{name}: function count changed on re-read"));
        good.iter_mut().for_each(|g| *g = false);
    }
    if let Some(llc) = llc {
        let written = tmp.join(format!(
            "{}.{}.mir",
            t.files,
            path.file_stem().unwrap().to_string_lossy()
        ));
        std::fs::write(&written, &out).unwrap();
        let res = Command::new(llc)
            .args([
                "-mtriple=bpf",
                "-mcpu=v3",
                "-run-pass=none",
                "-verify-machineinstrs",
                "-o",
                "-",
            ])
            .arg(&written)
            .output()
            .unwrap();
        if !res.status.success() {
            let err = String::from_utf8_lossy(&res.stderr);
            t.failures.push(format!(
                "{name}: llc rejects the written file:\n{}",
                err.lines().take(5).collect::<Vec<_>>().join("\n")
            ));
            good.iter_mut().for_each(|g| *g = false);
        } else if without_module_id(&String::from_utf8_lossy(&res.stdout))
            == without_module_id(&text)
        {
            t.identical += 1;
        }
    }
    t.functions += good.len();
    t.ok += good.iter().filter(|&&g| g).count();
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "mir") {
            out.push(p);
        }
    }
}

fn run(label: &str, dir: &Path) -> Tally {
    let mut files = Vec::new();
    mir_files(dir, &mut files);
    let llc = llc();
    let tmp = std::env::temp_dir().join(format!(
        "regalloc-mir-roundtrip-{label}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut t = Tally::default();
    for f in &files {
        round_trip(f, llc, &tmp, &mut t);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for f in t.failures.iter().take(20) {
        println!("FAIL {f}");
    }
    println!(
        "bpf ({label}): {}/{} functions round-trip ({} files; {} byte-identical after llc)",
        t.ok, t.functions, t.files, t.identical
    );
    t
}

#[test]
fn bpf_fixtures_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mir/bpf");
    let t = run("fixtures", &dir);
    assert!(
        t.functions >= 60,
        "expected the committed fixtures, found {} functions",
        t.functions
    );
    assert_eq!(t.ok, t.functions, "{:#?}", t.failures);
}

#[test]
fn bpf_corpus_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out/corpus/bpf/O2");
    if !dir.is_dir() {
        println!(
            "notice: no corpus at {}; skipping (build it with the bench harness)",
            dir.display()
        );
        return;
    }
    let t = run("corpus O2", &dir);
    assert_eq!(t.ok, t.functions, "{:#?}", t.failures);
}
