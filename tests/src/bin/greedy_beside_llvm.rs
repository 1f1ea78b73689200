//! `greedy-beside-llvm`: Greedy's frequency-weighted spill code beside LLVM's greedy on whole MIR sets, fast enough to measure every change to the allocator on every set and target (no checker, no verifier: `alloc_greedy` and `alloc_heldout` do those).
//!
//! ```text
//! greedy-beside-llvm [--jobs N] [--per-function OUT.tsv] SET... [-- TARGET...]
//! ```
//!
//! A `SET` is a directory laid out as `bench/out/corpus`
//! (`SET/<target>/O2/<lib>/<module>.mir`), or the name of one under
//! `bench/out` (`corpus`, `heldout`, `extra`, `heldout2`). Targets are
//! `x86_64 aarch64 hexagon bpf` (all four by default). For each set and
//! target it prints one line: functions compared, and the weighted
//! spill + reload + folded reload of ours and of `llc-19 -regalloc=greedy`
//! on the same functions, counted as `alloc_greedy`'s comparison counts
//! them ([`regalloc_tests::corpus_alloc::count_llvm`]), with their
//! ratio. LLVM's outputs are cached in `target/tmp/llvm_greedy_<set>_<target>`,
//! the directory the tests cache them in. `--per-function` writes one line
//! per function (set, target, file, function, ours, LLVM's), for diffing
//! two builds.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;
use regalloc::{AllocContext, Allocator, Options, TargetContext, allocate_recorded_with_context};
use regalloc_tests::corpus_alloc::{count_llvm, flat_name, mir_files, targets};

/// One function's weighted spill + reload + folded reload, ours and LLVM's.
struct Row {
    file: String,
    function: String,
    ours: f64,
    llvm: f64,
}

fn usage() -> ! {
    eprintln!(
        "usage: greedy-beside-llvm [--jobs N] [--per-function OUT.tsv] SET... [-- TARGET...]"
    );
    std::process::exit(2)
}

fn main() {
    let mut jobs = 1usize;
    let mut per_function: Option<PathBuf> = None;
    let mut sets = Vec::new();
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    let mut after_dash = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            _ if after_dash => only.push(a),
            "--" => after_dash = true,
            "--jobs" => {
                jobs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "--per-function" => per_function = Some(args.next().unwrap_or_else(|| usage()).into()),
            _ if a.starts_with("--") => usage(),
            _ => sets.push(a),
        }
    }
    if sets.is_empty() {
        usage();
    }
    let Some(llc) = regalloc_tests::llvm_tool("llc") else {
        eprintln!("greedy-beside-llvm: llc-19 not found");
        std::process::exit(1)
    };
    let out_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/out");
    let cache_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/tmp");
    let mut tsv = per_function.map(|p| std::fs::File::create(p).expect("create the TSV"));
    println!("set target functions ours llvm ours/llvm");
    for set in &sets {
        let root = if Path::new(set).is_dir() && set.contains('/') {
            PathBuf::from(set)
        } else {
            out_root.join(set)
        };
        let set_name = root
            .file_name()
            .map_or_else(|| set.clone(), |n| n.to_string_lossy().into_owned());
        for (_, dir, t, flags, start_after) in targets() {
            if !only.is_empty() && !only.iter().any(|o| o == dir) {
                continue;
            }
            let level = root.join(dir).join("O2");
            let files = mir_files(&level);
            if files.is_empty() {
                continue;
            }
            let cache = cache_root.join(format!("llvm_greedy_{set_name}_{dir}"));
            std::fs::create_dir_all(&cache).expect("cache directory");
            let rows = compare_set(&llc, &level, &files, &cache, t, flags, start_after, jobs);
            let (ours, llvm): (f64, f64) = rows
                .iter()
                .fold((0.0, 0.0), |(a, b), r| (a + r.ours, b + r.llvm));
            println!(
                "{set_name} {dir} {} {ours:.1} {llvm:.1} {:.3}",
                rows.len(),
                ours / llvm.max(1e-9)
            );
            if let Some(w) = tsv.as_mut() {
                for r in &rows {
                    writeln!(
                        w,
                        "{set_name}\t{dir}\t{}\t{}\t{:.1}\t{:.1}",
                        r.file, r.function, r.ours, r.llvm
                    )
                    .expect("write the TSV");
                }
            }
        }
    }
}

/// Every function of `files` (under `level`) that both sides allocated.
#[allow(clippy::too_many_arguments)]
fn compare_set(
    llc: &Path,
    level: &Path,
    files: &[PathBuf],
    cache: &Path,
    t: &'static TargetInfo<'static>,
    flags: &[&str],
    start_after: &str,
    jobs: usize,
) -> Vec<Row> {
    let next = Mutex::new(0usize);
    let rows = Mutex::new(Vec::new());
    let target = TargetContext::new(t);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                let mut ctx = AllocContext::new();
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(path) = files.get(i) else { break };
                    let found = compare_file(
                        llc,
                        level,
                        path,
                        cache,
                        &target,
                        &mut ctx,
                        t,
                        flags,
                        start_after,
                    );
                    rows.lock().unwrap().extend(found);
                }
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by(|a, b| (&a.file, &a.function).cmp(&(&b.file, &b.function)));
    rows
}

/// One file: LLVM's output (cached) and ours, per function.
#[allow(clippy::too_many_arguments)]
fn compare_file(
    llc: &Path,
    level: &Path,
    path: &Path,
    cache: &Path,
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    t: &TargetInfo<'_>,
    flags: &[&str],
    start_after: &str,
) -> Vec<Row> {
    let name = flat_name(level, path);
    let out = cache.join(&name);
    if !out.exists() {
        let tmp = cache.join(format!("{name}.tmp"));
        let ok = Command::new(llc)
            .args(["-O2", "-regalloc=greedy", "-stop-after=virtregrewriter"])
            .arg(format!("-start-after={start_after}"))
            .args(flags)
            .arg(path)
            .arg("-o")
            .arg(&tmp)
            .status()
            .is_ok_and(|s| s.success());
        if !ok || std::fs::rename(&tmp, &out).is_err() {
            eprintln!("notice: llc -regalloc=greedy failed on {}", path.display());
            return Vec::new();
        }
    }
    let llvm_text = std::fs::read_to_string(&out).expect("LLVM's output");
    let llvm_file = mir::read(t, &name, &llvm_text);
    let llvm: BTreeMap<&str, f64> = llvm_file
        .read_functions()
        .map(|f| {
            let c = count_llvm(t, f);
            (
                f.name.as_str(),
                c.spill_cost + c.reload_cost + c.folded_reload_cost,
            )
        })
        .collect();
    let text = std::fs::read_to_string(path).expect("MIR file");
    let file = mir::read(t, &name, &text);
    let options = Options {
        allocator: Allocator::Greedy,
        check: false,
    };
    let mut rows = Vec::new();
    for doc in &file.functions {
        let FunctionDoc::Read(f) = doc else { continue };
        let Some(&theirs) = llvm.get(f.name.as_str()) else {
            continue;
        };
        let mut g = f.clone();
        let Ok((stats, _)) = allocate_recorded_with_context(target, ctx, &mut g, &options) else {
            eprintln!("notice: ours failed on {name}:{}", f.name);
            continue;
        };
        rows.push(Row {
            file: name.clone(),
            function: f.name.clone(),
            ours: stats.spill_cost + stats.reload_cost + stats.folded_reload_cost,
            llvm: theirs,
        });
    }
    rows
}
