//! Block frequencies agree with LLVM 19's `MachineBlockFrequencyInfo` (`llc-19 -run-pass=machine-block-freq -print-machine-bfi`) within 1% on every block of the -O2 corpus of the four targets.
//!
//! LLVM's integer frequencies are compared relative to the entry block's
//! (the unit spill weights use). The test prints how many blocks were
//! compared and the worst relative error. Without `llc-19` or the corpus it
//! prints a notice and checks nothing (under `CI` a missing llc fails).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use regalloc::inspect::FlowAnalyses;
use regalloc::mir;
use regalloc::target::TargetInfo;

fn corpus(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/corpus")
        .join(dir)
        .join("O2")
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "mir") {
            out.push(p);
        }
    }
}

/// Parses `-print-machine-bfi` output: function -> block number -> int frequency.
fn parse_bfi(text: &str) -> HashMap<String, HashMap<usize, u64>> {
    let mut out: HashMap<String, HashMap<usize, u64>> = HashMap::new();
    let mut cur = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("block-frequency-info: ") {
            cur = Some(name.trim().to_string());
            out.entry(name.trim().to_string()).or_default();
        } else if let (Some(f), Some(rest)) = (&cur, line.strip_prefix(" - BB")) {
            let num: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let int = rest
                .rsplit("int = ")
                .next()
                .and_then(|s| s.trim().parse::<u64>().ok());
            if let (Ok(b), Some(i)) = (num.parse::<usize>(), int) {
                out.get_mut(f).map(|m| m.insert(b, i));
            }
        }
    }
    out
}

#[test]
fn block_frequencies_match_llvm_within_one_percent_on_the_corpus() {
    let Some(llc) = regalloc_tests::require_llvm_tool("llc") else {
        return;
    };
    let targets: [(&str, &TargetInfo<'static>, &[&str]); 4] = [
        (
            "bpf",
            &regalloc_targets::bpf::TARGET,
            &["-mtriple=bpf", "-mcpu=v3"],
        ),
        (
            "x86_64",
            &regalloc_targets::x86::TARGET,
            &["-mtriple=x86_64-linux-gnu"],
        ),
        (
            "aarch64",
            &regalloc_targets::aarch64::TARGET,
            &["-mtriple=aarch64-linux-gnu"],
        ),
        (
            "hexagon",
            &regalloc_targets::hexagon::TARGET,
            &["-mtriple=hexagon"],
        ),
    ];
    for (dir, target, triple) in targets {
        compare(&llc, dir, target, triple);
    }
}

fn compare(llc: &Path, dir: &str, target: &TargetInfo<'_>, triple: &[&str]) {
    let mut files = Vec::new();
    mir_files(&corpus(dir), &mut files);
    if files.is_empty() {
        eprintln!("skipped: no {dir} corpus at {}", corpus(dir).display());
        return;
    }
    let (mut blocks, mut functions) = (0usize, 0usize);
    let mut worst = (0.0f64, String::new());
    let mut failures = Vec::new();
    for path in &files {
        let out = Command::new(llc)
            .args(triple)
            .args([
                "-run-pass=machine-block-freq",
                "-print-machine-bfi",
                "-o",
                "/dev/null",
            ])
            .arg(path)
            .output()
            .expect("run llc");
        assert!(out.status.success(), "llc failed on {}", path.display());
        let llvm = parse_bfi(&String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(path).unwrap();
        let file = mir::read(target, &path.display().to_string(), &text);
        for f in file.read_functions() {
            let Some(theirs) = llvm.get(&f.name) else {
                failures.push(format!("{}: llc printed no frequencies", f.name));
                continue;
            };
            functions += 1;
            let ours = FlowAnalyses::new(f).freq;
            let (Some(&te), oe) = (theirs.get(&0), ours.entry()) else {
                continue;
            };
            for b in 0..f.blocks.len() {
                let t = theirs.get(&b).copied().unwrap_or(0);
                let o = ours.int[b];
                let (tr, or) = (t as f64 / te as f64, o as f64 / oe as f64);
                let err = if tr == or {
                    0.0
                } else {
                    (tr - or).abs() / tr.abs().max(or.abs())
                };
                blocks += 1;
                if err > worst.0 {
                    worst = (err, format!("{} bb.{b}: llvm {tr} ours {or}", f.name));
                }
                if err > 0.01 {
                    failures.push(format!(
                        "{} bb.{b}: llvm {tr}, ours {or} ({:.3}%)",
                        f.name,
                        err * 100.0
                    ));
                }
            }
        }
    }
    println!(
        "{dir}: {functions} functions, {blocks} blocks compared; worst relative error {:.3e} ({})",
        worst.0, worst.1
    );
    assert!(
        failures.is_empty(),
        "{dir}: {} blocks differ by more than 1%:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(functions > 0, "no function was compared");
}
