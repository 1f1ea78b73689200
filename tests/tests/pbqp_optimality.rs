//! How far our Greedy and LLVM's greedy allocator are from exact PBQP on every corpus function where the exact solver proves every round optimal (the optimality report of `bench/RESULTS.md`).
//!
//! Run: `cargo test --release -p regalloc-tests --test pbqp_optimality --
//! --ignored --nocapture` (`REGALLOC_TARGETS=bpf,x86` for some targets,
//! `PBQP_EXACT_LIMIT=N` for another limit than the default's search
//! nodes per round).
//!
//! Definitions, per target:
//!
//! - a function is *solved exactly* when `Allocator::PbqpExact` allocates
//!   it and every one of its rounds (each solve of a PBQP problem,
//!   between spill rounds) finished its search within the limit, so
//!   that every round's solution is the optimum of that round's PBQP
//!   cost model; the share is over the functions the MIR reader read;
//! - the functions *compared* are those solved exactly that LLVM's
//!   `llc-19 -regalloc=greedy` also allocated from the same file;
//! - *traffic* is frequency-weighted spill code as `Stats` and
//!   `../shared/MIR-NOTES.md` count it (each instruction weighted by its
//!   block's frequency relative to the entry): spills + reloads, and
//!   separately every spill-slot access (folded reloads and folded spills
//!   too; only x86-64 folds);
//! - *cost over the optimum* of an allocator is the sum of its traffic
//!   over the compared functions divided by exact PBQP's sum over the
//!   same functions (1.000: as exact PBQP; below 1: cheaper, possible
//!   because the optimum is the PBQP model's, which spills whole live
//!   ranges and knows no splitting, not the optimum of traffic), with the
//!   number of functions where it is below, equal to and above exact
//!   PBQP's;
//! - the *model gap* compares the heuristic and the optimum on the PBQP
//!   objective itself (node costs plus edge entries) of each compared
//!   function's first round, the one problem both solve alike: in how
//!   many functions the heuristic's objective is above the optimum, and
//!   the sum of the differences.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;
use regalloc::{
    AllocContext, Allocator, Options, Stats, TargetContext, allocate_recorded_with_context,
};
use regalloc_tests::corpus_alloc::{LlvmCounts, corpus, count_llvm, flat_name, mir_files, targets};

/// Weighted spill traffic: (spills + reloads, every spill-slot access).
#[derive(Copy, Clone, Default, Debug)]
struct Traffic {
    spill_reload: f64,
    all: f64,
}

impl Traffic {
    fn of_stats(s: &Stats) -> Traffic {
        let spill_reload = s.spill_cost + s.reload_cost;
        Traffic {
            spill_reload,
            all: spill_reload + s.folded_reload_cost + s.folded_spill_cost,
        }
    }

    fn of_llvm(c: &LlvmCounts) -> Traffic {
        let spill_reload = c.spill_cost + c.reload_cost;
        Traffic {
            spill_reload,
            all: spill_reload + c.folded_reload_cost + c.folded_spill_cost,
        }
    }

    fn add(&mut self, o: Traffic) {
        self.spill_reload += o.spill_reload;
        self.all += o.all;
    }
}

/// One allocator's traffic over the compared functions, and how it stands
/// to exact PBQP's function by function (on spills + reloads).
#[derive(Default, Debug)]
struct Column {
    traffic: Traffic,
    below: usize,
    equal: usize,
    above: usize,
}

impl Column {
    fn add(&mut self, t: Traffic, exact: Traffic) {
        self.traffic.add(t);
        let (a, b) = (t.spill_reload, exact.spill_reload);
        if (a - b).abs() <= 1e-9 * b.abs().max(1.0) {
            self.equal += 1;
        } else if a < b {
            self.below += 1;
        } else {
            self.above += 1;
        }
    }
}

/// What one solved function gave before LLVM's side is known.
struct Solved {
    exact: Traffic,
    heuristic: Traffic,
    greedy: Traffic,
    /// The first round's (heuristic objective, optimum).
    first_round: (f64, f64),
    /// Whether some round needed the search (a core was left).
    searched: bool,
}

/// One target's report.
#[derive(Default)]
struct Report {
    functions: usize,
    allocated: usize,
    solved: usize,
    searched: usize,
    compared: usize,
    exact: Column,
    heuristic: Column,
    greedy: Column,
    llvm: Column,
    model_worse: usize,
    model_gap: f64,
}

fn tmp_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("regalloc-tests"))
}

fn allocate(
    tc: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    f: &regalloc::ir::MachineFunction,
    allocator: Allocator,
) -> Option<Stats> {
    let mut g = f.clone();
    let options = Options {
        allocator,
        check: false,
    };
    allocate_recorded_with_context(tc, ctx, &mut g, &options)
        .ok()
        .map(|(stats, _)| stats)
}

/// Exact PBQP, heuristic PBQP and Greedy on every function of one target's
/// corpus file: the functions solved exactly, by name.
fn solve_file(
    t: &TargetInfo<'_>,
    name: &str,
    text: &str,
    limit: u64,
    report: &mut Report,
) -> BTreeMap<String, Solved> {
    let tc = TargetContext::new(t);
    let mut ctx = AllocContext::new();
    let file = mir::read(t, name, text);
    let mut solved = BTreeMap::new();
    for doc in &file.functions {
        let FunctionDoc::Read(f) = doc else { continue };
        report.functions += 1;
        let exact = allocate(&tc, &mut ctx, f, Allocator::PbqpExact { node_limit: limit });
        let rounds = ctx.take_pbqp_exact_rounds();
        let Some(exact) = exact else { continue };
        report.allocated += 1;
        if rounds.iter().any(|r| r.optimum.is_none()) {
            continue;
        }
        report.solved += 1;
        let heuristic = allocate(&tc, &mut ctx, f, Allocator::Pbqp).expect("PBQP allocates");
        let greedy = allocate(&tc, &mut ctx, f, Allocator::Greedy).expect("Greedy allocates");
        let first_round = rounds
            .first()
            .map_or((0.0, 0.0), |r| (r.heuristic_cost, r.optimum.unwrap_or(0.0)));
        solved.insert(
            f.name.clone(),
            Solved {
                exact: Traffic::of_stats(&exact),
                heuristic: Traffic::of_stats(&heuristic),
                greedy: Traffic::of_stats(&greedy),
                first_round,
                searched: rounds.iter().any(|r| r.core_nodes > 0),
            },
        );
    }
    solved
}

/// LLVM's greedy allocator on `path`, cached; `None` when llc fails.
fn llvm_greedy(
    llc: &std::path::Path,
    path: &std::path::Path,
    out: &std::path::Path,
    flags: &[&str],
    start_after: &str,
) -> Option<String> {
    if !out.exists() {
        let status = Command::new(llc)
            .args(["-O2", "-regalloc=greedy", "-stop-after=virtregrewriter"])
            .arg(format!("-start-after={start_after}"))
            .args(flags)
            .arg(path)
            .arg("-o")
            .arg(out)
            .status()
            .ok()?;
        if !status.success() {
            let _ = std::fs::remove_file(out);
            return None;
        }
    }
    std::fs::read_to_string(out).ok()
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.3}", a / b)
    } else if a == 0.0 {
        "1.000".into()
    } else {
        "inf".into()
    }
}

#[test]
#[ignore]
fn greedy_and_llvm_greedy_beside_the_pbqp_optimum() {
    let Some(llc) = regalloc_tests::llvm_tool("llc") else {
        println!("{}", regalloc_tests::SKIP_NOTICE);
        return;
    };
    let limit = std::env::var("PBQP_EXACT_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(regalloc::DEFAULT_PBQP_EXACT_LIMIT);
    let mut rows = Vec::new();
    for (name, dir, t, flags, start_after) in targets() {
        let root = corpus(dir);
        let files = mir_files(&root);
        if files.is_empty() {
            println!("notice: no {name} corpus at {}", root.display());
            continue;
        }
        let cache = tmp_dir().join(format!("llvm_greedy_corpus_{dir}"));
        std::fs::create_dir_all(&cache).unwrap();
        let mut r = Report::default();
        let start = std::time::Instant::now();
        for path in &files {
            let file_name = flat_name(&root, path);
            let text = std::fs::read_to_string(path).unwrap();
            let solved = solve_file(t, &file_name, &text, limit, &mut r);
            let Some(theirs) = llvm_greedy(&llc, path, &cache.join(&file_name), flags, start_after)
            else {
                println!("notice: llc -regalloc=greedy failed on {}", path.display());
                continue;
            };
            let llvm_file = mir::read(t, &file_name, &theirs);
            for f in llvm_file.read_functions() {
                let Some(s) = solved.get(&f.name) else {
                    continue;
                };
                r.compared += 1;
                r.searched += usize::from(s.searched);
                r.exact.add(s.exact, s.exact);
                r.heuristic.add(s.heuristic, s.exact);
                r.greedy.add(s.greedy, s.exact);
                r.llvm.add(Traffic::of_llvm(&count_llvm(t, f)), s.exact);
                let (h, o) = s.first_round;
                if h.is_finite() && o.is_finite() && h - o > 1e-6 * o.abs().max(1.0) {
                    r.model_worse += 1;
                    r.model_gap += h - o;
                }
            }
        }
        println!(
            "{name}: {} functions, {} allocated by exact PBQP, {} solved exactly, {} compared, {} of them searched, in {:.1} s",
            r.functions,
            r.allocated,
            r.solved,
            r.compared,
            r.searched,
            start.elapsed().as_secs_f64()
        );
        rows.push((name, r));
    }
    println!();
    println!("Search limit: {limit} search nodes per round.");
    println!();
    println!(
        "| target | functions | solved exactly | compared | exact PBQP | PBQP heuristic | Greedy | LLVM greedy | heuristic / exact | Greedy / exact | LLVM greedy / exact |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, r) in &rows {
        let e = r.exact.traffic.spill_reload;
        println!(
            "| {name} | {} | {} ({:.1}%) | {} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {} |",
            r.functions,
            r.solved,
            100.0 * r.solved as f64 / r.functions.max(1) as f64,
            r.compared,
            e,
            r.heuristic.traffic.spill_reload,
            r.greedy.traffic.spill_reload,
            r.llvm.traffic.spill_reload,
            ratio(r.heuristic.traffic.spill_reload, e),
            ratio(r.greedy.traffic.spill_reload, e),
            ratio(r.llvm.traffic.spill_reload, e),
        );
    }
    println!();
    println!(
        "| target | every spill-slot access: exact PBQP | PBQP heuristic | Greedy | LLVM greedy | Greedy / exact | LLVM greedy / exact | per function (spills+reloads) heuristic <,=,> exact | Greedy <,=,> exact | LLVM greedy <,=,> exact | model: heuristic above optimum (functions, sum of gaps) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, r) in &rows {
        let e = r.exact.traffic.all;
        let counts = |c: &Column| format!("{}, {}, {}", c.below, c.equal, c.above);
        println!(
            "| {name} | {e:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {} | {} | {} | {}, {:.1} |",
            r.heuristic.traffic.all,
            r.greedy.traffic.all,
            r.llvm.traffic.all,
            ratio(r.greedy.traffic.all, e),
            ratio(r.llvm.traffic.all, e),
            counts(&r.heuristic),
            counts(&r.greedy),
            counts(&r.llvm),
            r.model_worse,
            r.model_gap,
        );
    }
}
