//! RDF graphs against LLVM's: for every function of LLVM's greedy allocation of the Hexagon corpus, our data-flow graph printed as `llc-19 -run-pass=hexagon-rdf-opt -hexagon-rdf-dump` prints its first dump (before copy propagation).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use regalloc::mir;
use regalloc::rdf::{BLOCK_LIMIT, DataFlowGraph, reserved_regs};
use regalloc_tests::corpus_alloc::{corpus, flat_name, mir_files};
use regalloc_tests::require_llvm_tool;

const FLAGS: &[&str] = &[
    "-mtriple=hexagon-unknown-linux-musl",
    "-relocation-model=pic",
    "-machine-sink-split=0",
];

fn cache_dir() -> PathBuf {
    let d = std::env::var_os("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("regalloc-tests"))
        .join("rdf_dump");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// LLVM's greedy allocation of `input`, cached.
fn llvm_greedy(llc: &Path, input: &Path, name: &str) -> Option<PathBuf> {
    let out = cache_dir().join(name);
    if out.exists() {
        return Some(out);
    }
    let tmp = cache_dir().join(format!("{name}.tmp"));
    let st = Command::new(llc)
        .args(["-O2", "-regalloc=greedy", "-start-after=machine-scheduler"])
        .arg("-stop-after=virtregrewriter")
        .args(FLAGS)
        .arg(input)
        .arg("-o")
        .arg(&tmp)
        .status()
        .ok()?;
    if !st.success() {
        return None;
    }
    std::fs::rename(&tmp, &out).ok()?;
    Some(out)
}

/// llc's first dump of each function of `allocated` (from the
/// `Starting copy propagation on: NAME` line to the closing `]`).
fn llvm_dumps(llc: &Path, allocated: &Path) -> BTreeMap<String, String> {
    let out = Command::new(llc)
        .args(FLAGS)
        .args([
            "-run-pass=hexagon-rdf-opt",
            "-hexagon-rdf-dump",
            "-o",
            "/dev/null",
        ])
        .arg(allocated)
        .output()
        .expect("llc runs");
    let text = String::from_utf8_lossy(&out.stderr);
    let mut dumps = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let Some(name) = l.strip_prefix("Starting copy propagation on: ") else {
            continue;
        };
        let mut body = String::new();
        for b in lines.by_ref() {
            body.push_str(b);
            body.push('\n');
            if b == "]" {
                break;
            }
        }
        dumps.insert(name.to_string(), body);
    }
    dumps
}

/// The first line where the two texts differ, as `llvm: ...` / `ours: ...`.
fn first_difference(llvm: &str, ours: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (llvm.lines().collect(), ours.lines().collect());
    for k in 0..a.len().max(b.len()) {
        if a.get(k) != b.get(k) {
            return format!(
                "llvm: {}\n    ours: {}",
                a.get(k).unwrap_or(&"<end>"),
                b.get(k).unwrap_or(&"<end>")
            );
        }
    }
    String::new()
}

#[test]
fn graphs_equal_llvm_dumps_on_llvm_greedy_output() {
    let Some(llc) = require_llvm_tool("llc") else {
        return;
    };
    let root = corpus("hexagon");
    let files = mir_files(&root);
    if files.is_empty() {
        eprintln!("notice: no Hexagon corpus at {}: skipped", root.display());
        return;
    }
    let t = &regalloc_targets::hexagon::TARGET;
    let (mut total, mut same) = (0usize, 0usize);
    let mut differences = Vec::new();
    for path in files {
        let name = flat_name(&root, &path);
        let Some(allocated) = llvm_greedy(&llc, &path, &name) else {
            println!("notice: llc -regalloc=greedy failed on {}", path.display());
            continue;
        };
        let dumps = llvm_dumps(&llc, &allocated);
        let text = std::fs::read_to_string(&allocated).unwrap();
        let file = mir::read(t, &name, &text);
        for f in file.read_functions() {
            if f.blocks.len() > BLOCK_LIMIT {
                continue;
            }
            let Some(llvm) = dumps.get(&f.name) else {
                continue;
            };
            total += 1;
            let ours = DataFlowGraph::build(t, f, &reserved_regs(t, f)).dump();
            if *llvm == ours {
                same += 1;
            } else {
                differences.push(format!(
                    "{name}:{}\n    {}",
                    f.name,
                    first_difference(llvm, &ours)
                ));
            }
        }
    }
    for d in differences.iter().take(30) {
        println!("differs: {d}");
    }
    println!("rdf graphs identical to llc-19's dump: {same}/{total} functions");
    assert!(total > 0, "no function compared");
    assert_eq!(same, total, "graphs differ from LLVM's (listed above)");
}
