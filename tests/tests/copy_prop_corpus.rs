//! Machine copy propagation after allocation on the developers' corpus, beside LLVM's: every function of the four targets allocated by Greedy with and without `--post-ra-copy-prop`; the propagated result accepted by the symbolic checker (against the original input) and by `llc-19 -verify-machineinstrs`; and `llc-19 -run-pass=machine-cp` run on the unpropagated allocation (the same code), so that the COPYs each pass removes are counted on the same files.
//!
//! Prints, per target, `T machine-cp: N functions, copies before B,
//! removed by ours X, removed by llc's machine-cp Y (...)`; the ignored
//! test also asserts that ours removes at least as many as LLVM's.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use regalloc::ir::MachineFunction;
use regalloc::mir::{self, FunctionDoc};
use regalloc::{AllocContext, Allocator, Options, PostPasses, TargetContext};
use regalloc_tests::corpus_alloc::{corpus, flat_name, llc_bad_functions, mir_files, targets};

/// COPYs in the blocks of `f`.
fn copies(f: &MachineFunction) -> usize {
    f.inst_ids().filter(|&i| f.inst(i).op.is_copy()).count()
}

/// Scratch space for the written files.
fn scratch(target: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("copy_prop_{target}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What one target's corpus gave.
#[derive(Default, Debug)]
struct Counts {
    functions: usize,
    checked: usize,
    verified: usize,
    before: usize,
    ours_after: usize,
    llc_after: usize,
    /// Functions where LLVM's pass removed more than ours.
    llc_ahead: Vec<String>,
}

/// Every propagated function of the four corpora is accepted by the
/// checker and by llc's verifier; the counts beside llc's are printed.
#[test]
fn every_propagated_function_is_checked_and_verified() {
    compare_every_target(false);
}

/// Issue 32's acceptance: ours removes at least as many COPYs as llc's
/// `machine-cp` on every target. Not met yet (2026-11-28: BPF 321/283,
/// x86-64 464/448, Hexagon 398/397 meet it; AArch64 386 against 387, one
/// function, lz4hc's `LZ4MID_compress`, where a copy whose destination
/// only an identity copy allocation took out reads stays: the checker
/// reads such a copy as reading its source), so it does not run by
/// default: `cargo test --release -p regalloc-tests --test
/// copy_prop_corpus -- --ignored --nocapture`.
#[test]
#[ignore]
fn copy_propagation_removes_at_least_what_llc_machine_cp_does() {
    compare_every_target(true);
}

/// Allocates, propagates, checks and verifies every corpus function of
/// every target beside llc's `machine-cp`; with `at_least_llc`, also
/// asserts that ours removes at least as many COPYs as llc's.
fn compare_every_target(at_least_llc: bool) {
    let Some(llc) = regalloc_tests::require_llvm_tool("llc") else {
        return;
    };
    for (name, dir, t, flags, _) in targets() {
        let files = mir_files(&corpus(dir));
        if files.is_empty() {
            println!("notice: no {name} corpus at {}", corpus(dir).display());
            assert!(std::env::var_os("CI").is_none(), "{name}: no corpus on CI");
            continue;
        }
        let tmp = scratch(name);
        let target = TargetContext::new(t);
        let mut ctx = AllocContext::new();
        let options = Options {
            allocator: Allocator::Greedy,
            check: false,
        };
        let post = PostPasses {
            copy_propagation: true,
        };
        let mut c = Counts::default();
        let mut failures: Vec<String> = Vec::new();
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let file_name = flat_name(&corpus(dir), path);
            let mut plain = mir::read(t, &file_name, &text);
            let mut propagated = plain.clone();
            // Per function: copies left without and with propagation.
            let mut ours: BTreeMap<String, (usize, usize)> = BTreeMap::new();
            for (p, q) in plain.functions.iter_mut().zip(&mut propagated.functions) {
                let (FunctionDoc::Read(p), FunctionDoc::Read(q)) = (p, q) else {
                    continue;
                };
                let original = p.clone();
                c.functions += 1;
                let plain_result =
                    regalloc::allocate_recorded_with_context(&target, &mut ctx, p, &options);
                let result =
                    regalloc::allocate_recorded_with_post(&target, &mut ctx, q, &options, post);
                let (Ok(_), Ok((_, record))) = (plain_result, result) else {
                    failures.push(format!("{file_name}:{}: allocation failed", original.name));
                    continue;
                };
                match regalloc::check::check(t, &original, q, &record) {
                    Ok(()) => c.checked += 1,
                    Err(e) => failures.push(format!("{file_name}:{}: {}", original.name, e[0])),
                }
                ours.insert(original.name.clone(), (copies(p), copies(q)));
            }
            let plain_path = tmp.join(&file_name);
            let propagated_path = tmp.join(format!("ours_{file_name}"));
            let llc_path = tmp.join(format!("llc_{file_name}"));
            std::fs::write(&plain_path, mir::write(t, &plain)).unwrap();
            std::fs::write(&propagated_path, mir::write(t, &propagated)).unwrap();
            match llc_bad_functions(&llc, flags, &propagated_path) {
                Ok(bad) => {
                    c.verified += ours.keys().filter(|f| !bad.contains_key(*f)).count();
                    failures.extend(
                        bad.iter()
                            .map(|(f, (what, _))| format!("llc: {file_name}:{f}: {what}")),
                    );
                }
                Err(e) => failures.push(format!("llc: {file_name}: {e}")),
            }
            let st = Command::new(&llc)
                .args(["-run-pass=machine-cp", "-o"])
                .arg(&llc_path)
                .args(flags)
                .arg(&plain_path)
                .status()
                .unwrap();
            assert!(
                st.success(),
                "llc -run-pass=machine-cp failed on {}",
                plain_path.display()
            );
            let llc_text = std::fs::read_to_string(&llc_path).unwrap();
            let llc_file = mir::read(t, &file_name, &llc_text);
            for f in llc_file.read_functions() {
                let Some(&(before, after)) = ours.get(&f.name) else {
                    continue;
                };
                let theirs = copies(f);
                c.before += before;
                c.ours_after += after;
                c.llc_after += theirs;
                if after > theirs {
                    c.llc_ahead.push(format!(
                        "{file_name}:{} (before {before}, ours {after}, llc {theirs})",
                        f.name
                    ));
                }
            }
        }
        for f in failures.iter().take(20) {
            println!("{name} failure: {f}");
        }
        for f in c.llc_ahead.iter().take(10) {
            println!("{name} llc's machine-cp left fewer copies in {f}");
        }
        let (ours, theirs) = (c.before - c.ours_after, c.before - c.llc_after);
        println!(
            "{name} machine-cp: {} functions, {}/{} checked, {}/{} verified by llc; copies before {}, removed by ours {ours}, removed by llc's machine-cp {theirs} ({} functions where llc's left fewer)",
            c.functions,
            c.checked,
            c.functions,
            c.verified,
            c.functions,
            c.before,
            c.llc_ahead.len()
        );
        assert!(
            failures.is_empty(),
            "{name}: {} failures, first: {}",
            failures.len(),
            failures[0]
        );
        assert_eq!(
            c.checked, c.functions,
            "{name}: the checker accepts every result"
        );
        assert_eq!(c.verified, c.functions, "{name}: llc verifies every result");
        assert!(
            !at_least_llc || ours >= theirs,
            "{name}: ours removes {ours} copies, llc's machine-cp {theirs}"
        );
    }
}
