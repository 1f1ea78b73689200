//! The fast allocator on the developers' -O0 corpus: every function allocated, the result accepted by `llc-19 -verify-machineinstrs` and by the checker, spill code counted beside LLVM's own RegAllocFast on the same files.
//!
//! Corpora: BPF, x86-64, AArch64 and Hexagon (`bench/out/corpus/<t>/O0`),
//! each with the tables `regalloc_targets` generates from
//! `targets/<t>/<t>.td`. Without `llc-19` the verifier and the LLVM comparison are
//! skipped with a notice. Prints, per target:
//!
//! ```text
//! bpf fast: N/N allocated, N/N checked, N/N verified by llc
//! bpf fast: spills S reloads R (inserted copies C), I instructions in T ms (M per second)
//! bpf llvm fast: spills S reloads R; ratio ours/llvm spills x reloads y
//! ```
//!
//! Spill code is counted the same way on both sides, from the written MIR
//! text: an instruction that names a `spill-slot` stack object is a spill
//! if its memory operand stores or its opcode is a BPF store, a reload if
//! it loads.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use regalloc::ir::MachineFunction;
use regalloc::mir::{self, FunctionDoc, MirFile};
use regalloc::target::TargetInfo;
use regalloc::{
    AllocContext, AllocRecord, Allocator, Options, Stats, TargetContext,
    allocate_recorded_with_context, allocate_without_stats_with_context,
};

/// A target to run: its name, corpus directory, table and llc flags.
struct Run {
    name: &'static str,
    dir: &'static str,
    target: &'static TargetInfo<'static>,
    flags: &'static [&'static str],
}

fn runs() -> Vec<Run> {
    let mut v = vec![Run {
        name: "bpf",
        dir: "bpf",
        target: &regalloc_targets::bpf::TARGET,
        flags: &["-mtriple=bpf", "-mcpu=v3"],
    }];
    let others: [(
        &str,
        &str,
        &'static TargetInfo<'static>,
        &'static [&'static str],
    ); 3] = [
        (
            "x86",
            "x86_64",
            &regalloc_targets::x86::TARGET,
            &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"],
        ),
        (
            "aarch64",
            "aarch64",
            &regalloc_targets::aarch64::TARGET,
            &["-mtriple=aarch64-linux-gnu", "-relocation-model=pic"],
        ),
        (
            "hexagon",
            "hexagon",
            &regalloc_targets::hexagon::TARGET,
            &[
                "-mtriple=hexagon-unknown-linux-musl",
                "-relocation-model=pic",
            ],
        ),
    ];
    for (name, dir, target, flags) in others {
        let templates = target.classes.iter().any(|c| !c.spill.is_empty());
        if target.instrs.is_empty() || !templates {
            println!(
                "notice: {name}: regalloc_targets has no instructions or spill templates yet; skipping its corpus"
            );
            continue;
        }
        v.push(Run {
            name,
            dir,
            target,
            flags,
        });
    }
    v
}

fn corpus(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/corpus")
        .join(dir)
        .join("O0")
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "mir") {
            out.push(p);
        }
    }
}

/// `llc-19`, if it runs here.
fn llc() -> Option<&'static str> {
    let ok = Command::new("llc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("notice: llc-19 not found; skipping the verifier and the LLVM comparison");
    }
    ok.then_some("llc-19")
}

/// Runs the machine verifier on `file`: `Ok` when it accepts it, else the
/// first lines of what it said.
fn verify(llc: &str, flags: &[&str], file: &Path) -> Result<(), String> {
    let out = Command::new(llc)
        .args([
            "-O0",
            "-run-pass=none",
            "-verify-machineinstrs",
            "-o",
            "/dev/null",
        ])
        .args(flags)
        .arg(file)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err.lines().take(14).collect::<Vec<_>>().join("\n"))
    }
}

/// Spills and reloads in MIR text, per function name, counted on spill-slot
/// stack objects.
fn count_text(text: &str) -> HashMap<String, (u64, u64)> {
    let mut out = HashMap::new();
    for doc in text.split("\n---\n").skip(1) {
        let Some(name) = doc
            .lines()
            .find_map(|l| l.strip_prefix("name:"))
            .map(|n| n.trim().trim_matches('\'').to_string())
        else {
            continue;
        };
        let mut slots: HashSet<String> = HashSet::new();
        let mut in_stack = false;
        for l in doc.lines() {
            if l.starts_with("stack:") {
                in_stack = true;
                continue;
            }
            if in_stack && !l.starts_with(' ') {
                in_stack = false;
            }
            if in_stack
                && l.contains("type: spill-slot")
                && let Some(id) = l.split("id:").nth(1)
            {
                let id = id.split(',').next().unwrap_or("").trim();
                slots.insert(format!("%stack.{id}"));
            }
        }
        let (mut s, mut r) = (0, 0);
        let body = doc.split_once("body:").map_or("", |(_, b)| b);
        for l in body.lines() {
            let names_slot = l.split([',', ' ']).any(|w| slots.contains(w));
            if !names_slot {
                continue;
            }
            let code = l.split(" :: ").next().unwrap_or(l);
            let opcode = code
                .split('=')
                .next_back()
                .unwrap_or("")
                .split_whitespace()
                .find(|w| w.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
                .unwrap_or("");
            let mem = l.split_once(" :: ").map_or("", |(_, m)| m);
            if mem.starts_with("(store") || matches!(opcode, "STD" | "STW32") {
                s += 1;
            } else if mem.starts_with("(load") || matches!(opcode, "LDD" | "LDW32") {
                r += 1;
            }
        }
        out.insert(name, (s, r));
    }
    out
}

#[derive(Default)]
struct Tally {
    functions: usize,
    unread: usize,
    unread_example: Option<String>,
    allocated: usize,
    checked: usize,
    check_run: bool,
    verified: usize,
    verify_run: usize,
    stats: Stats,
    instructions: usize,
    time: Duration,
    ours_text: (u64, u64),
    llvm: (u64, u64),
    llvm_files: usize,
    failures: Vec<String>,
}

/// Whether the checker has been written (its stub refuses everything).
fn checker_ready(
    t: &TargetInfo<'_>,
    f: &MachineFunction,
    a: &MachineFunction,
    r: &AllocRecord,
) -> bool {
    match regalloc::check::check(t, f, a, r) {
        Ok(()) => true,
        Err(errors) => !errors
            .iter()
            .any(|e| e.to_string().contains("being written")),
    }
}

/// Allocates the functions of one file with the target's shared context
/// `target` and this thread's `ctx`, and tallies the outcome.
fn run_file(
    run: &Run,
    target: &TargetContext<'_, '_>,
    ctx: &mut AllocContext,
    path: &Path,
    tmp: &Path,
    llc: Option<&str>,
    tally: &Mutex<Tally>,
) {
    let t = run.target;
    let text = std::fs::read_to_string(path).expect("corpus file");
    let file = mir::read(t, &path.to_string_lossy(), &text);
    let mut out = MirFile {
        header: file.header.clone(),
        functions: Vec::new(),
    };
    let mut local = Tally::default();
    let mut allocated_names: Vec<String> = Vec::new();
    for doc in &file.functions {
        let f = match doc {
            FunctionDoc::Read(f) => f,
            FunctionDoc::Failed { name, error, .. } => {
                // The reader (or the target's tables) could not take it:
                // not the allocator's doing, counted apart.
                local.unread += 1;
                if local.unread_example.is_none() {
                    local.unread_example = Some(format!(
                        "{} in {}: {error}",
                        name.as_deref().unwrap_or("?"),
                        path.display()
                    ));
                }
                out.functions.push(doc.clone());
                continue;
            }
        };
        local.functions += 1;
        let mut a = f.clone();
        let n = f.blocks.iter().map(|b| b.insts.len()).sum::<usize>();
        // The allocation is timed without the statistics, on a copy
        // (`allocate_recorded` also counts them, which builds block
        // frequencies).
        let mut timed = f.clone();
        let start = Instant::now();
        let _ = allocate_without_stats_with_context(
            target,
            ctx,
            &mut timed,
            &Options {
                allocator: Allocator::Fast,
                check: false,
            },
        );
        local.time += start.elapsed();
        let res = allocate_recorded_with_context(
            target,
            ctx,
            &mut a,
            &Options {
                allocator: Allocator::Fast,
                check: false,
            },
        );
        match res {
            Ok((stats, record)) => {
                local.allocated += 1;
                local.instructions += n;
                local.stats.add(&stats);
                if checker_ready(t, f, &a, &record) {
                    local.check_run = true;
                    match regalloc::check::check(t, f, &a, &record) {
                        Ok(()) => local.checked += 1,
                        Err(e) => local.failures.push(format!(
                            "{}: checker: {}",
                            f.name,
                            e.first().map(|e| e.to_string()).unwrap_or_default()
                        )),
                    }
                }
                allocated_names.push(f.name.clone());
                out.functions.push(FunctionDoc::Read(a));
            }
            Err(e) => {
                local.failures.push(format!("{}: {e}", path.display()));
                out.functions.push(doc.clone());
            }
        }
    }
    let stem = path
        .strip_prefix(corpus(run.dir))
        .unwrap_or(path)
        .to_string_lossy()
        .replace('/', "_");
    let ours_path = tmp.join(format!("ours_{stem}"));
    let written = mir::write(t, &out);
    std::fs::write(&ours_path, &written).expect("write allocated MIR");
    let ours_counts = count_text(&written);
    for n in &allocated_names {
        let (s, r) = ours_counts.get(n).copied().unwrap_or_default();
        local.ours_text.0 += s;
        local.ours_text.1 += r;
    }
    if let Some(llc) = llc {
        local.verify_run += allocated_names.len();
        match verify(llc, run.flags, &ours_path) {
            Ok(()) => local.verified += allocated_names.len(),
            Err(first) => {
                // One bad function stops llc: verify each on its own.
                local.failures.push(format!(
                    "{}: llc rejects the file:\n{first}",
                    path.display()
                ));
                for (k, doc) in out.functions.iter().enumerate() {
                    let FunctionDoc::Read(f) = doc else { continue };
                    if !allocated_names.contains(&f.name) {
                        continue;
                    }
                    let one = MirFile {
                        header: out.header.clone(),
                        functions: vec![doc.clone()],
                    };
                    let p = tmp.join(format!("one_{k}_{stem}"));
                    std::fs::write(&p, mir::write(t, &one)).expect("write one function");
                    match verify(llc, run.flags, &p) {
                        Ok(()) => local.verified += 1,
                        Err(e) => local.failures.push(format!("{}: {}", f.name, e)),
                    }
                }
            }
        }
        // LLVM's own fast allocator on the same file.
        let llvm_path = tmp.join(format!("llvm_{stem}"));
        let res = Command::new(llc)
            .args([
                "-O0",
                "-start-before=regallocfast",
                "-stop-after=regallocfast",
            ])
            .args(run.flags)
            .arg(path)
            .arg("-o")
            .arg(&llvm_path)
            .output();
        if let Ok(o) = res
            && o.status.success()
            && let Ok(text) = std::fs::read_to_string(&llvm_path)
        {
            local.llvm_files += 1;
            let counts = count_text(&text);
            for n in &allocated_names {
                let (s, r) = counts.get(n).copied().unwrap_or_default();
                local.llvm.0 += s;
                local.llvm.1 += r;
            }
        }
    }
    let mut g = tally.lock().unwrap();
    g.functions += local.functions;
    g.unread += local.unread;
    if g.unread_example.is_none() {
        g.unread_example = local.unread_example;
    }
    g.allocated += local.allocated;
    g.checked += local.checked;
    g.check_run |= local.check_run;
    g.verified += local.verified;
    g.verify_run += local.verify_run;
    g.stats.add(&local.stats);
    g.instructions += local.instructions;
    g.time += local.time;
    g.ours_text.0 += local.ours_text.0;
    g.ours_text.1 += local.ours_text.1;
    g.llvm.0 += local.llvm.0;
    g.llvm.1 += local.llvm.1;
    g.llvm_files += local.llvm_files;
    g.failures.extend(local.failures);
}

fn ratio(a: u64, b: u64) -> String {
    if b == 0 {
        "n/a".into()
    } else {
        format!("{:.3}", a as f64 / b as f64)
    }
}

#[test]
fn fast_allocates_the_o0_corpus() {
    let llc = llc();
    let mut bad = Vec::new();
    for run in runs() {
        let mut files = Vec::new();
        mir_files(&corpus(run.dir), &mut files);
        files.sort();
        if files.is_empty() {
            println!(
                "notice: no corpus at {}; skipping {}",
                corpus(run.dir).display(),
                run.name
            );
            continue;
        }
        let tmp =
            std::env::temp_dir().join(format!("alloc_fast_{}_{}", run.name, std::process::id()));
        std::fs::create_dir_all(&tmp).expect("temp dir");
        let tally = Mutex::new(Tally::default());
        let next = Mutex::new(0usize);
        let threads = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(4);
        let target = TargetContext::new(run.target);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut ctx = AllocContext::new();
                    loop {
                        let k = {
                            let mut n = next.lock().unwrap();
                            *n += 1;
                            *n - 1
                        };
                        let Some(p) = files.get(k) else { break };
                        run_file(&run, &target, &mut ctx, p, &tmp, llc, &tally);
                    }
                });
            }
        });
        let t = tally.into_inner().unwrap();
        let _ = std::fs::remove_dir_all(&tmp);
        let checked = if t.check_run {
            format!("{}/{} checked", t.checked, t.allocated)
        } else {
            "checker not available".into()
        };
        let verified = if llc.is_some() {
            format!("{}/{} verified by llc", t.verified, t.verify_run)
        } else {
            "llc not available".into()
        };
        println!(
            "{} fast: {}/{} allocated, {checked}, {verified}",
            run.name, t.allocated, t.functions
        );
        if let Some(e) = &t.unread_example {
            println!(
                "notice: {}: {} functions not read by the MIR reader (not counted above), e.g. {}",
                run.name,
                t.unread,
                e.lines().next().unwrap_or("")
            );
        }
        let secs = t.time.as_secs_f64();
        println!(
            "{} fast: spills {} reloads {} (inserted copies {}), {} instructions in {:.1} ms ({:.2}M per second, test profile)",
            run.name,
            t.stats.spills,
            t.stats.reloads,
            t.stats.inserted_copies,
            t.instructions,
            secs * 1e3,
            t.instructions as f64 / secs.max(1e-9) / 1e6
        );
        if llc.is_some() {
            println!(
                "{} llvm fast: spills {} reloads {} ({} files); ours counted the same way: spills {} reloads {}; ratio ours/llvm spills {} reloads {}",
                run.name,
                t.llvm.0,
                t.llvm.1,
                t.llvm_files,
                t.ours_text.0,
                t.ours_text.1,
                ratio(t.ours_text.0, t.llvm.0),
                ratio(t.ours_text.1, t.llvm.1)
            );
        }
        for f in t.failures.iter().take(8) {
            println!(
                "  {}",
                f.lines().take(14).collect::<Vec<_>>().join("\n    ")
            );
        }
        if t.allocated < t.functions
            || (llc.is_some() && t.verified < t.verify_run)
            || (t.check_run && t.checked < t.allocated)
        {
            bad.push(run.name);
        }
    }
    assert!(
        bad.is_empty(),
        "fast allocation failed on {bad:?} (see above)"
    );
}
