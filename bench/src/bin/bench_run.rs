//! `bench-run`: one allocator on one target's corpus, ours beside LLVM's (from `bench/llvm/baseline`) and regalloc2's (through the adapter), per function, with a CSV, a summary table and an SVG plot.
//!
//! `bench/run --allocator A --target T [--jobs N] [--no-verify] [--no-ra2] [--limit N]`
//! (the wrapper builds this binary and runs it). Fast reads the -O0
//! corpus, the others the -O2 corpus. For every function: our allocator
//! (`regalloc::allocate_without_stats_with_context`, timed, then `Stats::count` and
//! the symbolic checker as `Options { check: true }` would run it, both
//! untimed), optionally `llc-19
//! -run-pass=none -verify-machineinstrs` on the written file, regalloc2's
//! ion and fastalloc on the SSA form of the same function when the adapter
//! can express it, and LLVM's numbers from `bench/out/llvm/<t>-<a>.csv`
//! (running `bench/llvm/baseline` first when it is missing). Writes
//! `bench/out/run/<t>-<a>.csv` and `<t>-<a>.svg` and prints the summary.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use regalloc::inspect::FlowAnalyses;
use regalloc::ir::{MachineFunction, Op, Operand};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::TargetInfo;
use regalloc::{
    AllocContext, Allocator, Options, Stats, TargetContext, allocate_without_stats_with_context,
};
use regalloc_bench::corpus::{self, CorpusFile, CorpusTarget};
use regalloc_bench::csv::{self, Table};
use regalloc_bench::plot;
use regalloc_bench::ra2::{self, Ra2Algorithm, Ra2Counts};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Our allocator beside LLVM's and regalloc2's on the MIR corpus")]
struct Args {
    /// fast, basic or greedy.
    #[arg(long)]
    allocator: String,
    /// bpf, x86_64 (or x86), aarch64, hexagon; repeatable.
    #[arg(long, required = true)]
    target: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Skip llc-19 -verify-machineinstrs.
    #[arg(long)]
    no_verify: bool,
    /// Skip regalloc2.
    #[arg(long)]
    no_ra2: bool,
    /// Only the first N files of the corpus.
    #[arg(long)]
    limit: Option<usize>,
    /// Time LLVM's allocator again in this run, file by file beside ours
    /// (llc-19 as `bench/llvm/baseline` runs it, with `-time-trace`; the
    /// allocator pass's time per function), instead of taking `alloc_us`
    /// from the baseline CSV, which may come from another moment's load.
    /// Counts and costs still come from the CSV and its output MIR.
    #[arg(long)]
    llvm_retime: bool,
}

/// LLVM's numbers for one function.
#[derive(Clone, Debug, Default)]
struct Llvm {
    spills: u64,
    reloads: u64,
    remats: u64,
    copies: u64,
    /// The allocator pass's time (`Greedy Register Allocator` and the like).
    alloc_us: f64,
    /// The time of every pass llc runs from after the machine scheduler to
    /// the rewriter (analyses, allocator, rewriter; not the MIR printer),
    /// when known.
    passes_us: Option<f64>,
    /// Weighted spills and reloads, counted in LLVM's output MIR with our
    /// block frequencies (None when that file could not be read).
    cost: Option<(f64, f64)>,
}

/// One regalloc2 algorithm's outcome.
type Ra2Result = Result<Ra2Counts, String>;

/// One function's row.
#[derive(Debug, Default)]
struct Row {
    lib: String,
    module: String,
    function: String,
    instructions: usize,
    ours: Option<Result<Stats, String>>,
    /// The whole allocation.
    time_us: f64,
    /// The passes of it that LLVM runs inside its allocator pass
    /// ([`regalloc::timing::PassTimes::allocator_line`]).
    line_us: f64,
    checker: Option<Result<(), String>>,
    verifier: Option<bool>,
    llvm: Option<Llvm>,
    /// `Err` when the adapter cannot express the function (or no SSA form).
    ra2: Option<Result<(usize, Ra2Result, Ra2Result), String>>,
}

fn fmt_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

fn find_llc() -> Option<PathBuf> {
    let ok = |p: &Path| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let direct = PathBuf::from("llc-19");
    if ok(&direct) {
        return Some(direct);
    }
    let bin = Command::new("llvm-config-19")
        .arg("--bindir")
        .output()
        .ok()?;
    let p = PathBuf::from(String::from_utf8_lossy(&bin.stdout).trim()).join("llc");
    ok(&p).then_some(p)
}

/// The functions llc's verifier names in `file`; `None` if llc failed
/// without naming any (a parse error).
fn llc_bad_functions(llc: &Path, flags: &[&str], file: &Path) -> Option<HashSet<String>> {
    let out = Command::new(llc)
        .args(["-run-pass=none", "-verify-machineinstrs", "-o", "/dev/null"])
        .args(flags)
        .arg(file)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let bad: HashSet<String> = err
        .lines()
        .filter_map(|l| l.strip_prefix("- function:"))
        .map(|s| s.trim().to_string())
        .collect();
    (out.status.success() || !bad.is_empty()).then_some(bad)
}

/// The functions' allocator-pass times and all-pass times (microseconds)
/// in an llc `-time-trace` file, as `bench/llvm/baseline` reads them: the
/// `RunPass` events inside each function's `OptFunction` event, those
/// whose detail ends with "Register Allocator" (greedy's, basic's, fast's,
/// pbqp's pass names) for the first, all but the MIR printer and the
/// freeing of the function for the second.
fn trace_alloc_us(path: &Path) -> Option<HashMap<String, (f64, f64)>> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let ev = v.get("traceEvents")?.as_array()?;
    let num = |e: &serde_json::Value, k: &str| e.get(k).and_then(|x| x.as_f64());
    let detail = |e: &serde_json::Value| {
        e.get("args")
            .and_then(|a| a.get("detail"))
            .and_then(|d| d.as_str())
            .unwrap_or("")
            .to_string()
    };
    let is_x = |e: &serde_json::Value, name: &str| {
        e.get("name").and_then(|n| n.as_str()) == Some(name)
            && e.get("ph").and_then(|p| p.as_str()) == Some("X")
    };
    let mut funcs: Vec<(f64, f64, String)> = ev
        .iter()
        .filter(|e| is_x(e, "OptFunction"))
        .filter_map(|e| {
            let ts = num(e, "ts")?;
            Some((ts, ts + num(e, "dur")?, detail(e)))
        })
        .collect();
    funcs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: HashMap<String, (f64, f64)> =
        funcs.iter().map(|f| (f.2.clone(), (0.0, 0.0))).collect();
    for e in ev.iter().filter(|e| is_x(e, "RunPass")) {
        let (Some(ts), Some(dur)) = (num(e, "ts"), num(e, "dur")) else {
            continue;
        };
        let i = funcs.partition_point(|f| f.0 <= ts);
        if i == 0 || ts + dur > funcs[i - 1].1 {
            continue;
        }
        let d = detail(e);
        if d == "MIR Printing Pass" || d == "Free MachineFunction" {
            continue;
        }
        let t = out.entry(funcs[i - 1].2.clone()).or_default();
        t.1 += dur;
        if d.ends_with("Register Allocator") {
            t.0 += dur;
        }
    }
    Some(out)
}

/// Runs LLVM's `alloc` on `file` as `bench/llvm/baseline` does (output
/// discarded) with a time trace in `work`, and returns the allocator
/// pass's and all passes' time per function.
fn llvm_retime(
    llc: &Path,
    ct: &CorpusTarget,
    alloc: Allocator,
    f: &CorpusFile,
    work: &Path,
) -> Option<HashMap<String, (f64, f64)>> {
    let trace = work.join(format!("{}_{}.trace.json", f.lib, f.module));
    let mut cmd = Command::new(llc);
    if alloc == Allocator::Fast {
        cmd.args(["-O0"])
            .args(ct.llc_flags)
            .args(["-start-before=regallocfast", "-stop-after=regallocfast"]);
    } else {
        let start = if ct.dir == "aarch64" {
            "aarch64-post-coalescer-pass"
        } else {
            "machine-scheduler"
        };
        cmd.args(["-O2"])
            .args(ct.llc_flags)
            .arg(format!("-regalloc={}", alloc.name()))
            .arg(format!("-start-after={start}"))
            .arg("-stop-after=virtregrewriter");
    }
    let out = cmd
        .arg(&f.path)
        .args([
            "-o",
            "/dev/null",
            "-time-trace",
            "-time-trace-granularity=0",
        ])
        .arg(format!("-time-trace-file={}", trace.display()))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    trace_alloc_us(&trace)
}

/// Spills and reloads in an allocated function, weighted by our block
/// frequencies: stores and loads with a class's spill or reload template
/// opcode on a `spill-slot` object (MIR-NOTES.md's rule for LLVM's output).
fn spill_cost(t: &TargetInfo<'_>, f: &MachineFunction) -> (f64, f64) {
    let stores: HashSet<_> = t
        .classes
        .iter()
        .flat_map(|c| c.spill.iter())
        .flat_map(|x| {
            std::iter::once(x.template.opcode).chain(x.unaligned.as_ref().map(|u| u.opcode))
        })
        .collect();
    let loads: HashSet<_> = t
        .classes
        .iter()
        .flat_map(|c| c.reload.iter())
        .flat_map(|x| {
            std::iter::once(x.template.opcode).chain(x.unaligned.as_ref().map(|u| u.opcode))
        })
        .collect();
    let slots: HashSet<u32> = f
        .stack
        .iter()
        .filter(|o| o.kind == regalloc::ir::StackObjectKind::SpillSlot)
        .map(|o| o.id)
        .collect();
    let flow = FlowAnalyses::new(f);
    let (mut s, mut r) = (0.0, 0.0);
    for b in f.block_ids() {
        let w = f64::from(flow.freq.relative(b));
        for &i in &f.block(b).insts {
            let inst = f.inst(i);
            let Op::Target(o) = inst.op else { continue };
            let on_slot = inst.operands.iter().any(
                |op| matches!(op, Operand::Frame(fr, _) if !fr.fixed && slots.contains(&fr.id)),
            );
            if on_slot && stores.contains(&o) {
                s += w;
            } else if on_slot && loads.contains(&o) {
                r += w;
            }
        }
    }
    (s, r)
}

/// LLVM's CSV for `target`/`alloc`, by (lib, module, function).
fn read_llvm(target: &str, alloc: &str) -> Result<HashMap<(String, String, String), Llvm>, String> {
    let path = corpus::out_dir()
        .join("llvm")
        .join(format!("{target}-{alloc}.csv"));
    if !path.exists() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("llvm/baseline");
        eprintln!(
            "{} is missing: running {} --target {target} --allocator {alloc}",
            path.display(),
            script.display()
        );
        let st = Command::new("python3")
            .arg(&script)
            .args(["--target", target, "--allocator", alloc])
            .status()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !st.success() {
            return Err(format!("{} failed ({st})", script.display()));
        }
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let t = Table::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let col = |n: &str| {
        t.col(n)
            .ok_or_else(|| format!("{}: no column `{n}`", path.display()))
    };
    let (lib, module, function) = (col("lib")?, col("module")?, col("function")?);
    let (sp, rl, rm, cp, us) = (
        col("spills")?,
        col("reloads")?,
        col("remats_est")?,
        col("copies_left")?,
        col("alloc_us")?,
    );
    // Older baselines have no all-passes column.
    let passes = t.col("passes_us");
    let num =
        |r: &Vec<String>, k: usize| r.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    let mut out = HashMap::new();
    for r in &t.rows {
        if r.len() < t.header.len() {
            continue;
        }
        out.insert(
            (r[lib].clone(), r[module].clone(), r[function].clone()),
            Llvm {
                spills: num(r, sp) as u64,
                reloads: num(r, rl) as u64,
                remats: num(r, rm).max(0.0) as u64,
                copies: num(r, cp) as u64,
                alloc_us: num(r, us),
                passes_us: passes.map(|k| num(r, k)),
                cost: None,
            },
        );
    }
    Ok(out)
}

/// Everything for one corpus file (allocated with the target's shared
/// context `target` and this worker's `ctx`).
#[allow(clippy::too_many_arguments)]
fn run_file(
    ct: &CorpusTarget,
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    alloc: Allocator,
    f: &CorpusFile,
    llvm: &HashMap<(String, String, String), Llvm>,
    llc: Option<&Path>,
    work: &Path,
    with_ra2: bool,
    retime: Option<&Path>,
) -> Vec<Row> {
    let t = ct.info;
    let text = match std::fs::read_to_string(&f.path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", f.path.display());
            return Vec::new();
        }
    };
    let mut file = mir::read(t, &f.path.to_string_lossy(), &text);
    let opts = Options {
        allocator: alloc,
        check: false,
    };
    let mut rows = Vec::new();
    for doc in &mut file.functions {
        let FunctionDoc::Read(func) = doc else {
            continue;
        };
        let mut g = func.clone();
        // The clock holds the allocation (the function rewritten in place,
        // spill code inserted, flags and live-ins recomputed, the record);
        // the statistics are counted after it stops, as regalloc2's edits
        // are.
        ctx.set_time_passes(true);
        let _ = ctx.take_pass_times();
        let start = Instant::now();
        let result = allocate_without_stats_with_context(target, ctx, &mut g, &opts);
        let time_us = start.elapsed().as_secs_f64() * 1e6;
        let line_us = ctx.take_pass_times().allocator_line().as_secs_f64() * 1e6;
        let result = result.map(|record| (Stats::count(t, &g, &record), record));
        let mut row = Row {
            lib: f.lib.clone(),
            module: f.module.clone(),
            function: func.name.clone(),
            instructions: func.inst_ids().count(),
            time_us,
            line_us,
            ..Default::default()
        };
        match result {
            Ok((stats, record)) => {
                // What `Options { check: true }` runs, kept out of the time.
                row.checker =
                    Some(regalloc::check::check(t, func, &g, &record).map_err(|es| {
                        es.first().map_or("rejected".to_string(), |e| e.to_string())
                    }));
                row.ours = Some(Ok(stats));
                *func = g;
            }
            Err(e) => row.ours = Some(Err(format!("{}: {}", e.kind.name(), e.message))),
        }
        rows.push(row);
    }
    if let Some(llc) = llc {
        let out = work.join(format!("{}_{}.mir", f.lib, f.module));
        let written = std::fs::write(&out, mir::write(t, &file));
        let bad = written
            .ok()
            .and_then(|_| llc_bad_functions(llc, ct.llc_flags, &out));
        for r in &mut rows {
            if matches!(r.ours, Some(Ok(_))) {
                r.verifier = bad.as_ref().map(|b| !b.contains(&r.function));
            }
        }
    }
    // LLVM: the CSV row and the weighted cost from its output file.
    let llvm_out = corpus::out_dir()
        .join("llvm/work")
        .join(ct.dir)
        .join(alloc.name())
        .join(&f.lib)
        .join(format!("{}.mir", f.module));
    let llvm_funcs = read_functions(t, &llvm_out);
    let times = retime.and_then(|llc| {
        let t = llvm_retime(llc, ct, alloc, f, work);
        if t.is_none() {
            eprintln!(
                "warning: {}: timing LLVM again failed; its CSV time is kept",
                f.path.display()
            );
        }
        t
    });
    for r in &mut rows {
        if let Some(l) = llvm.get(&(r.lib.clone(), r.module.clone(), r.function.clone())) {
            let mut l = l.clone();
            l.cost = llvm_funcs.get(&r.function).map(|m| spill_cost(t, m));
            if let Some(&(us, all)) = times.as_ref().and_then(|m| m.get(&r.function)) {
                l.alloc_us = us;
                l.passes_us = Some(all);
            }
            r.llvm = Some(l);
        }
    }
    if with_ra2 {
        let ssa = corpus::out_dir()
            .join("corpus")
            .join(ct.dir)
            .join("ssa")
            .join(&f.lib)
            .join(format!("{}.mir", f.module));
        let ssa_funcs = read_functions(t, &ssa);
        for r in &mut rows {
            r.ra2 = Some(match ssa_funcs.get(&r.function) {
                None => Err("no SSA form of this function in the corpus".into()),
                Some(m) => match ra2::prepare(t, m) {
                    Err(e) => Err(format!("inexpressible: {e}")),
                    Ok(p) => Ok((
                        p.func.mir_insts,
                        ra2::allocate(&p, Ra2Algorithm::Ion, true),
                        ra2::allocate(&p, Ra2Algorithm::Fastalloc, true),
                    )),
                },
            });
        }
    }
    rows
}

const COLUMNS: &[&str] = &[
    "target",
    "allocator",
    "lib",
    "module",
    "function",
    "instructions",
    "ours_status",
    "ours_spills",
    "ours_reloads",
    "ours_remats",
    "ours_spill_cost",
    "ours_reload_cost",
    "ours_remat_cost",
    "ours_copies",
    "ours_copy_cost",
    "ours_time_us",
    "ours_alloc_line_us",
    "ours_checker_ok",
    "ours_verifier_ok",
    "ours_error",
    "llvm_spills",
    "llvm_reloads",
    "llvm_remats_est",
    "llvm_spill_cost",
    "llvm_reload_cost",
    "llvm_copies",
    "llvm_alloc_us",
    "llvm_passes_us",
    "ra2_status",
    "ra2_instructions",
    "ion_spills",
    "ion_reloads",
    "ion_moves",
    "ion_cost",
    "ion_time_us",
    "ion_checker_ok",
    "fastalloc_spills",
    "fastalloc_reloads",
    "fastalloc_moves",
    "fastalloc_cost",
    "fastalloc_time_us",
    "fastalloc_checker_ok",
    "ra2_error",
];

fn row_fields(target: &str, alloc: &str, r: &Row) -> Vec<String> {
    let mut v = vec![
        target.to_string(),
        alloc.to_string(),
        r.lib.clone(),
        r.module.clone(),
        r.function.clone(),
        r.instructions.to_string(),
    ];
    match &r.ours {
        Some(Ok(s)) => {
            v.push("ok".into());
            v.extend([
                s.spills.to_string(),
                s.reloads.to_string(),
                s.remats.to_string(),
                format!("{:.3}", s.spill_cost),
                format!("{:.3}", s.reload_cost),
                format!("{:.3}", s.remat_cost),
                s.copies.to_string(),
                format!("{:.3}", s.copy_cost),
                format!("{:.1}", r.time_us),
                format!("{:.1}", r.line_us),
                fmt_opt(r.checker.as_ref().map(|c| c.is_ok())),
                fmt_opt(r.verifier),
            ]);
            v.push(match &r.checker {
                Some(Err(e)) => e.clone(),
                _ => String::new(),
            });
        }
        Some(Err(e)) => {
            v.push("failed".into());
            v.extend(std::iter::repeat_n(String::new(), 12));
            v.push(e.clone());
        }
        None => {
            v.push("not run".into());
            v.extend(std::iter::repeat_n(String::new(), 13));
        }
    }
    match &r.llvm {
        Some(l) => v.extend([
            l.spills.to_string(),
            l.reloads.to_string(),
            l.remats.to_string(),
            fmt_opt(l.cost.map(|c| format!("{:.3}", c.0))),
            fmt_opt(l.cost.map(|c| format!("{:.3}", c.1))),
            l.copies.to_string(),
            format!("{:.1}", l.alloc_us),
            fmt_opt(l.passes_us.map(|us| format!("{us:.1}"))),
        ]),
        None => v.extend(std::iter::repeat_n(String::new(), 8)),
    }
    let algo = |x: &Ra2Result, v: &mut Vec<String>| match x {
        Ok(c) => v.extend([
            c.spills.to_string(),
            c.reloads.to_string(),
            (c.moves + c.copies_left).to_string(),
            format!("{:.3}", c.spill_cost + c.reload_cost),
            format!("{:.1}", c.time.as_secs_f64() * 1e6),
            fmt_opt(c.checked.as_ref().map(|c| c.is_ok())),
        ]),
        Err(_) => v.extend(std::iter::repeat_n(String::new(), 6)),
    };
    match &r.ra2 {
        Some(Ok((n, ion, fa))) => {
            v.push("ok".into());
            v.push(n.to_string());
            algo(ion, &mut v);
            algo(fa, &mut v);
            let errs: Vec<&str> = [ion, fa]
                .iter()
                .filter_map(|x| x.as_ref().err().map(|s| s.as_str()))
                .collect();
            v.push(errs.join("; "));
        }
        Some(Err(e)) => {
            v.push("inexpressible".into());
            v.extend(std::iter::repeat_n(String::new(), 13));
            v.push(e.clone());
        }
        None => {
            v.push("not run".into());
            v.extend(std::iter::repeat_n(String::new(), 14));
        }
    }
    v
}

/// Totals over a set of functions, for one side.
#[derive(Default, Clone, Copy)]
struct Totals {
    n: usize,
    spills: f64,
    reloads: f64,
    remats: Option<f64>,
    cost: Option<f64>,
    copies: f64,
    /// The allocator pass (ours: [`Row::line_us`]; regalloc2: its run).
    time_us: f64,
    /// The whole allocation (ours: [`Row::time_us`]; LLVM: every pass
    /// from the scheduler to the rewriter, when known; regalloc2: its run).
    whole_us: Option<f64>,
    insts: f64,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.n += o.n;
        self.spills += o.spills;
        self.reloads += o.reloads;
        self.remats = match (self.remats, o.remats) {
            (Some(a), Some(b)) => Some(a + b),
            (None, b) if self.n == o.n => b,
            _ => None,
        };
        self.cost = match (self.cost, o.cost) {
            (Some(a), Some(b)) => Some(a + b),
            (None, b) if self.n == o.n => b,
            _ => None,
        };
        self.copies += o.copies;
        self.time_us += o.time_us;
        self.whole_us = match (self.whole_us, o.whole_us) {
            (Some(a), Some(b)) => Some(a + b),
            (None, b) if self.n == o.n => b,
            _ => None,
        };
        self.insts += o.insts;
    }
}

fn ours_totals(r: &Row) -> Option<Totals> {
    let Some(Ok(s)) = &r.ours else { return None };
    Some(Totals {
        n: 1,
        spills: s.spills as f64,
        reloads: s.reloads as f64,
        remats: Some(s.remats as f64),
        cost: Some(s.spill_cost + s.reload_cost),
        copies: s.copies as f64,
        time_us: r.line_us,
        whole_us: Some(r.time_us),
        insts: r.instructions as f64,
    })
}

fn llvm_totals(r: &Row) -> Option<Totals> {
    let l = r.llvm.as_ref()?;
    Some(Totals {
        n: 1,
        spills: l.spills as f64,
        reloads: l.reloads as f64,
        remats: Some(l.remats as f64),
        cost: l.cost.map(|c| c.0 + c.1),
        copies: l.copies as f64,
        time_us: l.alloc_us,
        whole_us: l.passes_us,
        insts: r.instructions as f64,
    })
}

fn ra2_totals(r: &Row, algo: Ra2Algorithm) -> Option<Totals> {
    let Some(Ok((n, ion, fa))) = &r.ra2 else {
        return None;
    };
    let c = match algo {
        Ra2Algorithm::Ion => ion,
        Ra2Algorithm::Fastalloc => fa,
    }
    .as_ref()
    .ok()?;
    Some(Totals {
        n: 1,
        spills: c.spills as f64,
        reloads: c.reloads as f64,
        remats: None,
        cost: Some(c.spill_cost + c.reload_cost),
        copies: (c.moves + c.copies_left) as f64,
        time_us: c.time.as_secs_f64() * 1e6,
        whole_us: Some(c.time.as_secs_f64() * 1e6),
        insts: *n as f64,
    })
}

/// Sums of `a` and `b` over the rows where both have results, and how
/// many of those rows lack a weighted cost on one side (LLVM's output MIR
/// can hold an instruction our reader does not know, e.g. a reload folded
/// into x86 `SHUFPDrmi`): the weighted costs are summed over the other rows
/// only, on both sides.
fn paired(
    rows: &[Row],
    a: impl Fn(&Row) -> Option<Totals>,
    b: impl Fn(&Row) -> Option<Totals>,
) -> (Totals, Totals, usize) {
    let (mut ta, mut tb) = (Totals::default(), Totals::default());
    let mut no_cost = 0;
    for r in rows {
        if let (Some(mut x), Some(mut y)) = (a(r), b(r)) {
            if x.cost.is_some() != y.cost.is_some() {
                no_cost += 1;
                x.cost = Some(0.0);
                y.cost = Some(0.0);
            }
            ta.add(&x);
            tb.add(&y);
        }
    }
    (ta, tb, no_cost)
}

fn ratio(a: f64, b: f64) -> String {
    if b == 0.0 {
        if a == 0.0 {
            "1.000".into()
        } else {
            "inf".into()
        }
    } else {
        format!("{:.3}", a / b)
    }
}

fn print_comparison(other: &str, ours: &Totals, theirs: &Totals, no_cost: usize) {
    println!(
        "  ours beside {other}, over the {} functions both allocated:",
        ours.n
    );
    println!(
        "    {:<22} {:>14} {:>14} {:>10}",
        "", "ours", other, "ratio"
    );
    let line = |name: &str, a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => println!("    {name:<22} {a:>14.1} {b:>14.1} {:>10}", ratio(a, b)),
        (Some(a), None) => println!("    {name:<22} {a:>14.1} {:>14} {:>10}", "-", "-"),
        _ => {}
    };
    line("spills", Some(ours.spills), Some(theirs.spills));
    line("reloads", Some(ours.reloads), Some(theirs.reloads));
    line("remats", ours.remats, theirs.remats);
    line("weighted spill+reload", ours.cost, theirs.cost);
    if no_cost > 0 {
        println!(
            "      (weighted over {} functions: {no_cost} without a weighted cost on one side)",
            ours.n - no_cost
        );
    }
    line("copies (moves)", Some(ours.copies), Some(theirs.copies));
    let per_k = |us: f64, t: &Totals| us / (t.insts / 1000.0).max(1e-9);
    line(
        "us/1k insts, allocator",
        Some(per_k(ours.time_us, ours)),
        Some(per_k(theirs.time_us, theirs)),
    );
    line(
        "us/1k insts, whole",
        ours.whole_us.map(|us| per_k(us, ours)),
        theirs.whole_us.map(|us| per_k(us, theirs)),
    );
}

fn main() {
    let args = Args::parse();
    std::panic::set_hook(Box::new(|_| {}));
    // As in the other benchmarks: without it, ours and regalloc2 alike pay
    // page faults (and the zeroing of huge pages) for memory mimalloc gave
    // back between two functions.
    regalloc_bench::keep_freed_memory();
    let alloc = match args.allocator.as_str() {
        "fast" => Allocator::Fast,
        "basic" => Allocator::Basic,
        "greedy" => Allocator::Greedy,
        other => {
            eprintln!("error: unknown allocator `{other}` (fast, basic, greedy)");
            std::process::exit(2);
        }
    };
    if let Some(j) = args.jobs
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(j)
            .build_global()
    {
        eprintln!("warning: --jobs {j}: {e}");
    }
    let level = if alloc == Allocator::Fast { "O0" } else { "O2" };
    let llc_found = find_llc();
    let llc = if args.no_verify {
        None
    } else {
        llc_found.clone()
    };
    if llc_found.is_none() && (!args.no_verify || args.llvm_retime) {
        eprintln!(
            "notice: llc-19 not found; the verifier column stays empty and LLVM is not timed again"
        );
    }
    let retime = if args.llvm_retime {
        llc_found.clone()
    } else {
        None
    };
    let run_dir = corpus::out_dir().join("run");
    let mut failed = false;
    for name in &args.target {
        let Some(ct) = corpus::target(name) else {
            eprintln!("error: unknown target `{name}` (bpf, x86_64, aarch64, hexagon)");
            std::process::exit(2);
        };
        let mut files = corpus::files(ct.dir, level);
        if let Some(n) = args.limit {
            files.truncate(n);
        }
        if files.is_empty() {
            eprintln!(
                "error: no {level} corpus for {} under {} (run bench/corpus/build)",
                ct.dir,
                corpus::out_dir().display()
            );
            failed = true;
            continue;
        }
        let llvm = match read_llvm(ct.dir, alloc.name()) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("warning: LLVM's numbers are unavailable: {e}");
                HashMap::new()
            }
        };
        let work = run_dir
            .join("work")
            .join(format!("{}-{}", ct.dir, alloc.name()));
        if let Err(e) = std::fs::create_dir_all(&work) {
            eprintln!("error: {}: {e}", work.display());
            std::process::exit(1);
        }
        let pb = ProgressBar::new(files.len() as u64);
        pb.set_style(
            ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} files {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        pb.set_prefix(format!("{} {}", ct.dir, alloc.name()));
        let wall = Instant::now();
        // One target context for every worker; an allocation context per
        // rayon job (a handful per thread), reused over its files.
        let target = TargetContext::new(ct.info);
        let mut rows: Vec<Row> = files
            .par_iter()
            .map_init(AllocContext::new, |ctx, f| {
                let r = run_file(
                    &ct,
                    &target,
                    ctx,
                    alloc,
                    f,
                    &llvm,
                    llc.as_deref(),
                    &work,
                    !args.no_ra2,
                    retime.as_deref(),
                );
                pb.inc(1);
                r
            })
            .flatten_iter()
            .collect();
        pb.finish_and_clear();
        rows.sort_by(|a, b| {
            (&a.lib, &a.module, &a.function).cmp(&(&b.lib, &b.module, &b.function))
        });
        let csv_path = run_dir.join(format!("{}-{}.csv", ct.dir, alloc.name()));
        let mut text = csv::line(COLUMNS);
        for r in &rows {
            text.push_str(&csv::line(&row_fields(ct.dir, alloc.name(), r)));
        }
        if let Err(e) = std::fs::write(&csv_path, text) {
            eprintln!("error: {}: {e}", csv_path.display());
            failed = true;
        }

        // Summary.
        let n = rows.len();
        let ok = rows
            .iter()
            .filter(|r| matches!(r.ours, Some(Ok(_))))
            .count();
        let checked = rows
            .iter()
            .filter(|r| matches!(r.checker, Some(Ok(()))))
            .count();
        let ver_run = rows.iter().filter(|r| r.verifier.is_some()).count();
        let verified = rows.iter().filter(|r| r.verifier == Some(true)).count();
        let llvm_n = rows.iter().filter(|r| r.llvm.is_some()).count();
        let expressible = rows.iter().filter(|r| matches!(r.ra2, Some(Ok(_)))).count();
        let ra2_ok = |a: Ra2Algorithm| rows.iter().filter(|r| ra2_totals(r, a).is_some()).count();
        let ra2_checked = |a: Ra2Algorithm| {
            rows.iter()
                .filter(|r| match &r.ra2 {
                    Some(Ok((_, ion, fa))) => {
                        let c = if a == Ra2Algorithm::Ion { ion } else { fa };
                        matches!(c, Ok(c) if c.checked == Some(Ok(())))
                    }
                    _ => false,
                })
                .count()
        };
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * a as f64 / b as f64)
            }
        };
        println!(
            "\n{} {} ({level} corpus, {n} functions, {:.1} s wall on {} threads)",
            ct.dir,
            alloc.name(),
            wall.elapsed().as_secs_f64(),
            rayon::current_num_threads()
        );
        println!(
            "  ours: {ok}/{n} allocated ({}), checker {checked}/{ok} ({}), verifier {verified}/{ver_run} ({})",
            pct(ok, n),
            pct(checked, ok),
            pct(verified, ver_run)
        );
        let mut errs: HashMap<String, (usize, String)> = HashMap::new();
        for r in &rows {
            if let Some(Err(e)) = &r.ours {
                let key: String = e.chars().take(60).collect();
                errs.entry(key)
                    .or_insert((0, format!("{}: {e}", r.function)))
                    .0 += 1;
            }
        }
        let mut errs: Vec<_> = errs.into_values().collect();
        errs.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (c, e) in errs.iter().take(3) {
            println!("    failed x{c}: e.g. {e}");
        }
        println!(
            "  LLVM: {llvm_n}/{n} functions in bench/out/llvm/{}-{}.csv; allocator time {}",
            ct.dir,
            alloc.name(),
            if retime.is_some() {
                "measured again in this run (--llvm-retime)"
            } else {
                "from the CSV's alloc_us"
            }
        );
        if !args.no_ra2 {
            println!(
                "  regalloc2 (SSA form): {expressible}/{n} expressible; ion {}/{expressible} allocated, checker {}; fastalloc {}/{expressible} allocated, checker {}",
                ra2_ok(Ra2Algorithm::Ion),
                ra2_checked(Ra2Algorithm::Ion),
                ra2_ok(Ra2Algorithm::Fastalloc),
                ra2_checked(Ra2Algorithm::Fastalloc)
            );
        }
        // Each side alone, over every function it has numbers for.
        let alone = |name: &str, f: &dyn Fn(&Row) -> Option<Totals>| {
            let mut t = Totals::default();
            let mut first = true;
            // The weighted cost over the functions that have one.
            let (mut cost, mut no_cost) = (0.0, 0);
            for x in rows.iter().filter_map(f) {
                match x.cost {
                    Some(c) => cost += c,
                    None => no_cost += 1,
                }
                if first {
                    t = x;
                    first = false;
                } else {
                    t.add(&x);
                }
            }
            if t.n > 0 {
                let cost = match no_cost {
                    0 => format!("{cost:.1}"),
                    n if n == t.n => "-".into(),
                    n => format!("{cost:.1} (without {n} functions)"),
                };
                let per_k = |us: f64| us / (t.insts / 1000.0).max(1e-9);
                println!(
                    "  {name:<20} {:>5} functions: spills {:.0}, reloads {:.0}, remats {}, weighted spill+reload {cost}, copies {:.0}, us per 1k instructions {:.1} allocator, {} whole",
                    t.n,
                    t.spills,
                    t.reloads,
                    t.remats.map_or("-".into(), |v| format!("{v:.0}")),
                    t.copies,
                    per_k(t.time_us),
                    t.whole_us
                        .map_or("-".into(), |us| format!("{:.1}", per_k(us)))
                );
            }
        };
        alone("ours alone:", &ours_totals);
        alone("LLVM alone:", &llvm_totals);
        if !args.no_ra2 {
            alone("ra2 ion alone:", &|r| ra2_totals(r, Ra2Algorithm::Ion));
            alone("ra2 fastalloc alone:", &|r| {
                ra2_totals(r, Ra2Algorithm::Fastalloc)
            });
        }
        let (o, l, nc) = paired(&rows, ours_totals, llvm_totals);
        if o.n > 0 {
            print_comparison("LLVM", &o, &l, nc);
        }
        if !args.no_ra2 {
            let main_algo = if alloc == Allocator::Fast {
                Ra2Algorithm::Fastalloc
            } else {
                Ra2Algorithm::Ion
            };
            for a in [
                main_algo,
                if main_algo == Ra2Algorithm::Ion {
                    Ra2Algorithm::Fastalloc
                } else {
                    Ra2Algorithm::Ion
                },
            ] {
                let (o, x, nc) = paired(&rows, ours_totals, |r| ra2_totals(r, a));
                if o.n > 0 {
                    print_comparison(&format!("ra2 {}", a.name()), &o, &x, nc);
                }
            }
        }
        // The plot.
        let series = |label: &str, f: &dyn Fn(&Row) -> Option<Totals>| plot::TimeSeries {
            label: label.to_string(),
            points: rows
                .iter()
                .filter_map(f)
                .map(|t| (t.insts, t.time_us))
                .collect(),
        };
        let mut times = vec![series("ours", &ours_totals), series("LLVM", &llvm_totals)];
        if !args.no_ra2 {
            times.push(series("regalloc2 ion", &|r| {
                ra2_totals(r, Ra2Algorithm::Ion)
            }));
            times.push(series("regalloc2 fastalloc", &|r| {
                ra2_totals(r, Ra2Algorithm::Fastalloc)
            }));
        }
        let ratios: Vec<f64> = rows
            .iter()
            .filter_map(|r| Some((ours_totals(r)?.cost?, llvm_totals(r)?.cost?)))
            .filter(|&(a, b)| a > 0.0 && b > 0.0)
            .map(|(a, b)| (a / b).log2())
            .collect();
        let svg = run_dir.join(format!("{}-{}.svg", ct.dir, alloc.name()));
        match plot::draw(
            &svg,
            &format!("{} {}: ours, LLVM and regalloc2", ct.dir, alloc.name()),
            &times,
            "weighted spill+reload cost, ours / LLVM",
            &ratios,
        ) {
            Ok(()) => println!("  wrote {} and {}", csv_path.display(), svg.display()),
            Err(e) => {
                println!("  wrote {}; {e}", csv_path.display());
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}

/// The functions of the MIR file at `path` that read without error, by
/// name (none when the file is missing).
fn read_functions(t: &TargetInfo<'_>, path: &Path) -> HashMap<String, MachineFunction> {
    std::fs::read_to_string(path)
        .map(|s| {
            mir::read(t, &path.to_string_lossy(), &s)
                .functions
                .into_iter()
                .filter_map(|d| match d {
                    FunctionDoc::Read(m) => Some((m.name.clone(), m)),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}
