//! The allocators on the developers' MIR corpus: allocate every function, check it with the symbolic checker and `llc-19 -verify-machineinstrs`, count spill code, and compare with LLVM's own allocator on the same files.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use regalloc::inspect::FlowAnalyses;
use regalloc::ir::{Op, Operand};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::{InstrFlags, TargetInfo};
use regalloc::{AllocContext, Allocator, Options, Stats, TargetContext, allocate_keeping_input};

/// The -O2 corpus directory of `target`.
pub fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/corpus")
        .join(target)
        .join("O2")
}

/// The `.mir` files under `dir`, sorted.
pub fn mir_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(mir_files(&p));
        } else if p.extension().is_some_and(|x| x == "mir") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The SSA files under `dir` (`bench/out/ssa/<target>`):
/// `<lib>/<name>.mir`, without the `<name>.<PASS>.mir` files of llc's
/// output after each pass beside them; sorted.
pub fn ssa_files(dir: &Path) -> Vec<PathBuf> {
    mir_files(dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().matches('.').count() == 1)
        })
        .collect()
}

/// The name of the set `root` (`<set>/<target>/<level>`) belongs to:
/// `corpus` or `heldout`.
fn set_name(root: &Path) -> String {
    root.parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// A flat name for a corpus file (`zlib_adler32.mir`).
pub fn flat_name(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('/', "_")
}

/// The functions `llc -verify-machineinstrs` complains about in `file`,
/// each with the verifier's first complaint about it (what, and the
/// instruction where there is one), or `Err` with llc's
/// first lines when llc failed without naming functions (parse errors), or
/// could not be run.
pub fn llc_bad_functions(
    llc: &Path,
    flags: &[&str],
    file: &Path,
) -> Result<BTreeMap<String, (String, Option<String>)>, String> {
    let out = Command::new(llc)
        .args(["-run-pass=none", "-verify-machineinstrs", "-o", "/dev/null"])
        .args(flags)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", llc.display()))?;
    let err = String::from_utf8_lossy(&out.stderr);
    let bad = verifier_complaints(&err);
    if out.status.success() || !bad.is_empty() {
        if !bad.is_empty() {
            let first: String = err.lines().take(12).collect::<Vec<_>>().join("\n");
            eprintln!("llc rejected {}:\n{first}", file.display());
        }
        Ok(bad)
    } else {
        let first = err.lines().take(5).collect::<Vec<_>>().join("\n");
        eprintln!("llc failed on {}: {first}", file.display());
        Err(first)
    }
}

/// The functions the machine verifier's report `stderr` names, each with
/// the first complaint about it: a report is `*** Bad machine code: WHAT
/// ***` followed by `- function: NAME` and, where there is one, `-
/// instruction: ...`.
fn verifier_complaints(stderr: &str) -> BTreeMap<String, (String, Option<String>)> {
    let mut bad: BTreeMap<String, (String, Option<String>)> = BTreeMap::new();
    let mut what = String::new();
    // The function of the report being read, when its complaint is the
    // first about that function.
    let mut first_of = None;
    for line in stderr.lines() {
        if let Some(w) = line.strip_prefix("*** Bad machine code: ") {
            what = w.trim_end_matches(" ***").to_string();
            first_of = None;
        } else if let Some(f) = line.strip_prefix("- function:") {
            let f = f.trim().to_string();
            if !bad.contains_key(&f) {
                bad.insert(f.clone(), (what.clone(), None));
                first_of = Some(f);
            }
        } else if let (Some(i), Some(f)) = (line.strip_prefix("- instruction: "), &first_of) {
            if let Some(entry) = bad.get_mut(f) {
                entry.1 = Some(i.trim().to_string());
            }
            first_of = None;
        }
    }
    bad
}

/// Spill code LLVM left in an allocated function, counted as MIR-NOTES
/// says (LLVM's own remark counts nothing on BPF): a store or load with
/// the opcode of some class's spill or reload template whose frame operand
/// is a `spill-slot` object is a spill or reload; any other instruction
/// naming a spill slot is folded (a folded reload if it may load, a folded
/// spill if it may store); weighted by block frequency. Also the COPYs left.
#[derive(Clone, Copy, Debug, Default)]
pub struct LlvmCounts {
    /// Spills.
    pub spills: u64,
    /// Reloads.
    pub reloads: u64,
    /// Folded reloads.
    pub folded_reloads: u64,
    /// Folded spills.
    pub folded_spills: u64,
    /// Weighted spills.
    pub spill_cost: f64,
    /// Weighted reloads.
    pub reload_cost: f64,
    /// Weighted folded reloads.
    pub folded_reload_cost: f64,
    /// Weighted folded spills.
    pub folded_spill_cost: f64,
    /// COPYs left.
    pub copies: u64,
}

/// Counts LLVM's spill code in `f` (see [`LlvmCounts`]).
pub fn count_llvm(t: &TargetInfo<'_>, f: &regalloc::ir::MachineFunction) -> LlvmCounts {
    // Every subtarget's and every slot alignment's form.
    let opcodes = |kind: usize| {
        t.classes
            .iter()
            .flat_map(|c| [&c.spill, &c.reload][kind].iter())
            .flat_map(|ch| std::iter::once(&ch.template).chain(&ch.unaligned))
            .map(|x| x.opcode)
            .collect::<HashSet<_>>()
    };
    let (stores, loads) = (opcodes(0), opcodes(1));
    let spill_ids: HashSet<u32> = f
        .stack
        .iter()
        .filter(|o| o.kind == regalloc::ir::StackObjectKind::SpillSlot)
        .map(|o| o.id)
        .collect();
    let flow = FlowAnalyses::new(f);
    let mut c = LlvmCounts {
        copies: f.inst_ids().filter(|&i| f.inst(i).op.is_copy()).count() as u64,
        ..Default::default()
    };
    for b in f.block_ids() {
        let w = f64::from(flow.freq.relative(b));
        for &i in &f.block(b).insts {
            let inst = f.inst(i);
            let Op::Target(o) = inst.op else { continue };
            let slot = inst.operands.iter().any(
                |op| matches!(op, Operand::Frame(fr, _) if !fr.fixed && spill_ids.contains(&fr.id)),
            );
            if !slot {
                continue;
            }
            if stores.contains(&o) {
                c.spills += 1;
                c.spill_cost += w;
            } else if loads.contains(&o) {
                c.reloads += 1;
                c.reload_cost += w;
            } else if let Some(d) = t.instrs.get(o.index()) {
                if d.is(InstrFlags::MAY_LOAD) {
                    c.folded_reloads += 1;
                    c.folded_reload_cost += w;
                }
                if d.is(InstrFlags::MAY_STORE) {
                    c.folded_spills += 1;
                    c.folded_spill_cost += w;
                }
            }
        }
    }
    c
}

/// Why one function failed at one stage.
#[derive(Clone, Debug)]
pub struct Failure {
    /// `file` or `file:function`.
    pub function: String,
    /// `reader`, `allocator`, `checker` or `llc`.
    pub stage: &'static str,
    /// What the stage said.
    pub message: String,
    /// The message without what names this instance (function,
    /// instruction, virtual and physical register numbers), so that
    /// failures of one cause can be counted together.
    pub cause: String,
}

impl Failure {
    fn new(function: String, stage: &'static str, message: String, cause: &str) -> Failure {
        Failure {
            function,
            stage,
            message,
            cause: format!("{stage}: {}", generic(cause)),
        }
    }
}

/// `text` with each number that names an instance written `N`: a number
/// after `%`, `.`, `:`, a space or `(` (virtual registers, blocks, stack
/// slots, positions), and the number ending a `$` register name (`$zmm4`,
/// `$r9b`), but not one inside a word (`VR256`, `s128`).
pub fn generic(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_phys = false;
    let mut prev = ' ';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() && (in_phys || matches!(prev, '%' | '.' | ':' | ' ' | '(')) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push('N');
            prev = 'N';
            continue;
        }
        in_phys = match c {
            '$' => true,
            c if c.is_ascii_alphanumeric() || c == '_' => in_phys,
            _ => false,
        };
        out.push(c);
        prev = c;
    }
    out
}

/// What one allocator did on one target's corpus.
pub struct Outcome {
    /// See the test output.
    pub total: usize,
    /// Functions the MIR reader rejected (not in `total`).
    pub rejected: usize,
    /// See the test output.
    pub allocated: usize,
    /// See the test output.
    pub checked: usize,
    /// See the test output.
    pub check_ran: bool,
    /// See the test output.
    pub verified: Option<usize>,
    /// See the test output.
    pub stats: Stats,
    /// See the test output.
    pub per_function: BTreeMap<String, Stats>,
    /// Each allocated function's spill code and COPYs counted by the rule
    /// LLVM's output is counted by ([`count_llvm`]), by `file:function`.
    pub counted: BTreeMap<String, LlvmCounts>,
    /// Time spent in the allocator, and instructions allocated.
    /// See the test output.
    pub time: std::time::Duration,
    /// See the test output.
    pub insts: usize,
    /// Every function that failed a stage, and why.
    pub failures: Vec<Failure>,
    /// Instructions read whose opcode the target description lacks
    /// (allocated by what their operands say), by opcode.
    pub unknown_opcodes: BTreeMap<&'static str, usize>,
}

/// Allocates every function of `target`'s corpus with `allocator`, checks
/// and verifies the results, and prints the `N/N` lines.
pub fn run_target(
    target: &str,
    t: &TargetInfo<'_>,
    llc_flags: &[&str],
    allocator: Allocator,
) -> Option<Outcome> {
    run_root(target, &corpus(target), t, llc_flags, allocator)
}

/// [`run_target`] on the MIR files under `root` (a corpus, or the held-out
/// set), printed as `target`'s.
pub fn run_root(
    target: &str,
    root: &Path,
    t: &TargetInfo<'_>,
    llc_flags: &[&str],
    allocator: Allocator,
) -> Option<Outcome> {
    run_files(
        &set_name(root),
        target,
        root,
        &mir_files(root),
        t,
        llc_flags,
        allocator,
    )
}

/// [`run_root`] on `files` under `root`, of the set `set` (which names
/// the scratch directory). SSA input goes through the pre-allocation
/// passes in the pipeline; the checker is given the function the
/// allocator started from (after them) as the original.
pub fn run_files(
    set: &str,
    target: &str,
    root: &Path,
    files: &[PathBuf],
    t: &TargetInfo<'_>,
    llc_flags: &[&str],
    allocator: Allocator,
) -> Option<Outcome> {
    let an = allocator.name();
    if files.is_empty() {
        println!("notice: no {target} MIR at {}", root.display());
        return None;
    }
    let tmp = tmp_dir().join(format!("alloc_{an}_{set}_{target}"));
    std::fs::create_dir_all(&tmp).unwrap();
    let llc = crate::llvm_tool("llc");
    if llc.is_none() {
        println!("notice: llc-19 not found; skipping the machine-verifier step");
    }
    let mut o = Outcome {
        total: 0,
        rejected: 0,
        allocated: 0,
        checked: 0,
        check_ran: false,
        verified: llc.as_ref().map(|_| 0),
        stats: Stats::default(),
        per_function: BTreeMap::new(),
        counted: BTreeMap::new(),
        time: std::time::Duration::ZERO,
        insts: 0,
        failures: Vec::new(),
        unknown_opcodes: BTreeMap::new(),
    };
    let mut errors = Vec::new();
    let mut unread = 0;
    let target_context = TargetContext::new(t);
    let mut ctx = AllocContext::new();
    for path in files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = flat_name(root, path);
        let mut file = mir::read(t, &name, &text);
        unread += file.errors().count();
        o.failures.extend(file.errors().map(|e| {
            let m = e.to_string();
            Failure::new(name.clone(), "reader", m.clone(), &m)
        }));
        let mut ok_here = Vec::new();
        for doc in &mut file.functions {
            let FunctionDoc::Read(f) = doc else { continue };
            o.total += 1;
            for i in f.inst_ids() {
                if let Op::Unknown(u) = f.inst(i).op {
                    *o.unknown_opcodes.entry(u.name).or_default() += 1;
                }
            }
            let mut g = f.clone();
            let opts = Options {
                allocator,
                check: false,
            };
            o.insts += g.inst_ids().count();
            let start = std::time::Instant::now();
            let result = allocate_keeping_input(
                &target_context,
                &mut ctx,
                &mut g,
                &opts,
                Default::default(),
            );
            o.time += start.elapsed();
            match result {
                Ok((stats, record, input)) => {
                    o.allocated += 1;
                    match regalloc::check::check(t, &input, &g, &record) {
                        Ok(()) => {
                            o.check_ran = true;
                            o.checked += 1;
                        }
                        Err(es)
                            if es
                                .iter()
                                .any(|e| format!("{e:?}").contains("being written")) => {}
                        Err(es) => {
                            o.check_ran = true;
                            errors.push(format!("{name} {}: checker: {}", g.name, es[0]));
                            let e = &es[0];
                            let cause = format!(
                                "{} at operand {}: expected {}, found {}",
                                e.kind.name(),
                                e.operand_text.as_deref().unwrap_or("-"),
                                e.expected,
                                e.found
                            );
                            o.failures.push(Failure::new(
                                format!("{name}:{}", g.name),
                                "checker",
                                e.to_string(),
                                &cause,
                            ));
                        }
                    }
                    o.stats.add(&stats);
                    o.per_function.insert(format!("{name}:{}", g.name), stats);
                    o.counted
                        .insert(format!("{name}:{}", g.name), count_llvm(t, &g));
                    ok_here.push(g.name.clone());
                    *f = g;
                }
                Err(e) => {
                    errors.push(format!("{name}: {e}"));
                    let cause = format!("{}: {}", e.kind.name(), e.message);
                    o.failures.push(Failure::new(
                        format!("{name}:{}", e.function),
                        "allocator",
                        e.to_string(),
                        &cause,
                    ));
                }
            }
        }
        let out = tmp.join(&name);
        std::fs::write(&out, mir::write(t, &file)).unwrap();
        if let (Some(llc), Some(v)) = (&llc, o.verified.as_mut()) {
            match llc_bad_functions(llc, llc_flags, &out) {
                Ok(bad) => {
                    *v += ok_here.iter().filter(|n| !bad.contains_key(*n)).count();
                    // Only what this run allocated: a function the
                    // allocator failed on is written back as it was read.
                    o.failures
                        .extend(bad.into_iter().filter(|(f, _)| ok_here.contains(f)).map(
                            |(f, (what, inst))| {
                                let message = match inst {
                                    Some(i) => format!("{what} ({i})"),
                                    None => what.clone(),
                                };
                                Failure::new(format!("{name}:{f}"), "llc", message, &what)
                            },
                        ));
                }
                Err(message) => {
                    let first = message.lines().next().unwrap_or("").to_string();
                    o.failures
                        .push(Failure::new(name.clone(), "llc", message, &first));
                }
            }
        }
    }
    o.rejected = unread;
    for e in errors.iter().take(20) {
        println!("error: {e}");
    }
    let checked = if o.check_ran {
        format!("{}/{} checked", o.checked, o.total)
    } else {
        "checker not available".to_string()
    };
    let verified = o.verified.map_or("llc not run".to_string(), |v| {
        format!("{v}/{} verified by llc", o.total)
    });
    println!(
        "{target} {an}: {}/{} allocated, {checked}, {verified} ({unread} functions the MIR reader rejected are not counted)",
        o.allocated, o.total
    );
    println!(
        "{target} {an}: spills {} reloads {} folded reloads {} remats {} copies left {} (weighted spill {:.1} reload {:.1} remat {:.1})",
        o.stats.spills,
        o.stats.reloads,
        o.stats.folded_reloads,
        o.stats.remats,
        o.stats.copies,
        o.stats.spill_cost,
        o.stats.reload_cost,
        o.stats.remat_cost
    );
    println!(
        "{target} {an}: {} instructions in {:.3} s ({:.0} instructions/s, this build's profile)",
        o.insts,
        o.time.as_secs_f64(),
        o.insts as f64 / o.time.as_secs_f64().max(1e-9)
    );
    Some(o)
}

/// Runs `allocator` and LLVM's allocator of the same name on `target`'s
/// corpus and prints the ratios; returns (ours, LLVM's) weighted
/// spill+reload cost.
pub fn compare(
    llc: &Path,
    target: &str,
    t: &TargetInfo<'_>,
    flags: &[&str],
    start_after: &str,
    allocator: Allocator,
) -> Option<(f64, f64)> {
    compare_root(
        llc,
        target,
        &corpus(target),
        t,
        flags,
        start_after,
        allocator,
    )
}

/// [`compare`] on the MIR files under `root` (a corpus, or the held-out
/// set).
pub fn compare_root(
    llc: &Path,
    target: &str,
    root: &Path,
    t: &TargetInfo<'_>,
    flags: &[&str],
    start_after: &str,
    allocator: Allocator,
) -> Option<(f64, f64)> {
    let an = allocator.name();
    let o = run_root(target, root, t, flags, allocator)?;
    let set = set_name(root);
    let llvm_args = [
        "-O2".to_string(),
        format!("-regalloc={an}"),
        "-stop-after=virtregrewriter".to_string(),
        format!("-start-after={start_after}"),
    ];
    let theirs = llvm_counts(
        llc,
        &set,
        target,
        an,
        root,
        &mir_files(root),
        t,
        flags,
        &llvm_args,
    );
    let (mut s, mut r, mut sc, mut rc) = (0u64, 0u64, 0f64, 0f64);
    let (mut os, mut or_, mut osc, mut orc) = (0u64, 0u64, 0f64, 0f64);
    let mut worse = Vec::new();
    let mut differ = 0;
    let mut compared = 0;
    let (mut copies, mut our_copies) = (0u64, 0u64);
    let (mut fr, mut fs, mut frc, mut ofr, mut ofrc) = (0u64, 0u64, 0f64, 0u64, 0f64);
    let (mut ofs, mut fsc, mut ofsc) = (0u64, 0f64, 0f64);
    for (key, l) in &theirs {
        let Some(ours) = o.per_function.get(key) else {
            continue;
        };
        compared += 1;
        let (a, b, c, d) = (l.spills, l.reloads, l.spill_cost, l.reload_cost);
        s += a;
        r += b;
        sc += c;
        rc += d;
        fr += l.folded_reloads;
        fs += l.folded_spills;
        frc += l.folded_reload_cost;
        fsc += l.folded_spill_cost;
        copies += l.copies;
        our_copies += ours.copies;
        os += ours.spills;
        or_ += ours.reloads;
        osc += ours.spill_cost;
        orc += ours.reload_cost;
        ofr += ours.folded_reloads;
        ofrc += ours.folded_reload_cost;
        ofs += ours.folded_spills;
        ofsc += ours.folded_spill_cost;
        if (a, b) != (ours.spills, ours.reloads) {
            differ += 1;
        }
        // Ranked by the cost to judge by: folded reloads are memory
        // accesses too (only x86-64 folds).
        let (mine, theirs) = (
            ours.spill_cost + ours.reload_cost + ours.folded_reload_cost,
            c + d + l.folded_reload_cost,
        );
        if mine != theirs {
            worse.push((
                    mine - theirs,
                    format!(
                        "{key} ours {}/{}/{} ({mine:.1}) llvm {a}/{b}/{} ({theirs:.1}) spills/reloads/folded reloads",
                        ours.spills, ours.reloads, ours.folded_reloads, l.folded_reloads
                    ),
                ));
        }
    }
    worse.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, w) in worse.iter().take(20) {
        println!("{target} most above llvm: {w}");
    }
    println!(
        "{target}: {compared} functions compared, {differ} with other spill or reload counts than LLVM {an}"
    );
    println!(
        "{target} llvm {an}: spills {s} reloads {r} copies left {copies} (weighted spill {sc:.1} reload {rc:.1})"
    );
    println!(
        "{target} ours/llvm {an}: spills {os}/{s} = {:.3}, reloads {or_}/{r} = {:.3}, copies {our_copies}/{copies} = {:.3}, weighted spill+reload {:.1}/{:.1} = {:.3}",
        os as f64 / s.max(1) as f64,
        or_ as f64 / r.max(1) as f64,
        our_copies as f64 / copies.max(1) as f64,
        osc + orc,
        sc + rc,
        (osc + orc) / (sc + rc).max(1e-9)
    );
    println!(
        "{target} ours/llvm {an}: folded reloads {ofr}/{fr} (weighted {ofrc:.1}/{frc:.1}; LLVM also folded {fs} spills), weighted spill+reload+folded reload {:.1}/{:.1} = {:.3}",
        osc + orc + ofrc,
        sc + rc + frc,
        (osc + orc + ofrc) / (sc + rc + frc).max(1e-9)
    );
    // Every access to a spill slot, folded stores included: a folded
    // spill (`MOV32ri` stored as `MOV32mi`) is a store as much as a
    // spill is, and the two sides fold different amounts.
    println!(
        "{target} ours/llvm {an}: folded spills {ofs}/{fs} (weighted {ofsc:.1}/{fsc:.1}), all spill-slot accesses weighted {:.1}/{:.1} = {:.3}",
        osc + orc + ofrc + ofsc,
        sc + rc + frc + fsc,
        (osc + orc + ofrc + ofsc) / (sc + rc + frc + fsc).max(1e-9)
    );
    Some((osc + orc, sc + rc))
}

/// LLVM's output for each of `files` under `root` (of the set `set`,
/// `target`'s), made by `llc-19 <llvm_args> <flags> FILE` and kept in a
/// scratch directory named by `label`, `set` and `target` (a file already
/// there is reused), each function's spill code and COPYs counted
/// ([`count_llvm`]); by `file:function` (the file's [`flat_name`]), in
/// file order. A file llc fails on is said and left out.
#[allow(clippy::too_many_arguments)]
pub fn llvm_counts(
    llc: &Path,
    set: &str,
    target: &str,
    label: &str,
    root: &Path,
    files: &[PathBuf],
    t: &TargetInfo<'_>,
    flags: &[&str],
    llvm_args: &[String],
) -> Vec<(String, LlvmCounts)> {
    let cache = tmp_dir().join(format!("llvm_{label}_{set}_{target}"));
    std::fs::create_dir_all(&cache).unwrap();
    let mut counts = Vec::new();
    for path in files {
        let name = flat_name(root, path);
        let out = cache.join(&name);
        if !out.exists() {
            let st = Command::new(llc)
                .args(llvm_args)
                .args(flags)
                .arg(path)
                .arg("-o")
                .arg(&out)
                .status()
                .unwrap();
            if !st.success() {
                println!(
                    "notice: llc {} failed on {}",
                    llvm_args.join(" "),
                    path.display()
                );
                let _ = std::fs::remove_file(&out);
                continue;
            }
        }
        let text = std::fs::read_to_string(&out).unwrap();
        let file = mir::read(t, &name, &text);
        counts.extend(
            file.read_functions()
                .map(|f| (format!("{name}:{}", f.name), count_llvm(t, f))),
        );
    }
    counts
}

/// Scratch space for written MIR and LLVM's cached outputs.
fn tmp_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("regalloc-tests"))
}

/// A target's name, corpus directory, tables, llc flags, and the pass
/// LLVM's allocators start after.
pub type TargetRow = (
    &'static str,
    &'static str,
    &'static TargetInfo<'static>,
    &'static [&'static str],
    &'static str,
);

/// The four targets ([`TargetRow`]), or those named in the
/// comma-separated `REGALLOC_TARGETS` (`bpf,x86`), for working on one.
pub fn targets() -> Vec<TargetRow> {
    let only = std::env::var("REGALLOC_TARGETS").ok();
    let rows: [TargetRow; 4] = [
        (
            "bpf",
            "bpf",
            &regalloc_targets::bpf::TARGET,
            &["-mtriple=bpf", "-mcpu=v3"],
            "machine-scheduler",
        ),
        (
            "x86",
            "x86_64",
            &regalloc_targets::x86::TARGET,
            &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"],
            "machine-scheduler",
        ),
        (
            "aarch64",
            "aarch64",
            &regalloc_targets::aarch64::TARGET,
            &["-mtriple=aarch64-linux-gnu", "-relocation-model=pic"],
            "aarch64-post-coalescer-pass",
        ),
        (
            "hexagon",
            "hexagon",
            &regalloc_targets::hexagon::TARGET,
            &[
                "-mtriple=hexagon-unknown-linux-musl",
                "-relocation-model=pic",
                "-machine-sink-split=0",
            ],
            "machine-scheduler",
        ),
    ];
    rows.into_iter()
        .filter(|r| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|n| n.trim() == r.0))
        })
        .collect()
}

/// A target's directory under `bench/out/ssa`, its tables and llc's flags
/// for it: the rows of the pre-allocation passes' tests, which start from
/// SSA (`-start-before=detect-dead-lanes`) and so need no start-after pass.
pub type SsaTarget = (
    &'static str,
    &'static TargetInfo<'static>,
    &'static [&'static str],
);

/// The four targets of the SSA corpus, in the order the pass tests print
/// them.
pub fn ssa_targets() -> [SsaTarget; 4] {
    [
        (
            "x86_64",
            &regalloc_targets::x86::TARGET,
            &["-mtriple=x86_64-linux-gnu", "-relocation-model=pic"],
        ),
        (
            "aarch64",
            &regalloc_targets::aarch64::TARGET,
            &["-mtriple=aarch64-linux-gnu", "-relocation-model=pic"],
        ),
        (
            "hexagon",
            &regalloc_targets::hexagon::TARGET,
            &[
                "-mtriple=hexagon-unknown-linux-musl",
                "-relocation-model=pic",
            ],
        ),
        (
            "bpf",
            &regalloc_targets::bpf::TARGET,
            &["-mtriple=bpf", "-mcpu=v3"],
        ),
    ]
}

/// Runs `allocator` on the corpus of every target and asserts that every
/// function is allocated, accepted by the checker and by the machine
/// verifier (outside CI, a missing corpus or llc-19 skips with a notice).
pub fn assert_every_function_allocates(allocator: Allocator) {
    // On CI a missing corpus or llc is a failure, not a skip (the
    // convention of `crate::require_llvm_tool`).
    let ci = std::env::var_os("CI").is_some();
    for (name, dir, t, flags, _) in targets() {
        let Some(o) = run_target(dir, t, flags, allocator) else {
            assert!(!ci, "{name}: no corpus on CI (bench/corpus/build makes it)");
            continue;
        };
        assert_all_allocated(name, &o, ci);
    }
}

/// Asserts that every function of `o` was allocated, accepted by the
/// checker and (unless llc-19 is missing outside CI) by the machine
/// verifier.
pub fn assert_all_allocated(name: &str, o: &Outcome, ci: bool) {
    assert_eq!(o.allocated, o.total, "{name}: every function allocates");
    match o.verified {
        Some(v) => assert_eq!(v, o.total, "{name}: llc verifies every allocated function"),
        None => assert!(!ci, "{name}: llc-19 missing on CI"),
    }
    assert_eq!(
        o.checked, o.total,
        "{name}: the checker accepts every allocation"
    );
}

/// [`compare`] on every target (skipped with a notice without llc-19).
pub fn compare_every_target(allocator: Allocator) {
    let Some(llc) = crate::llvm_tool("llc") else {
        println!("notice: llc-19 not found; skipping the comparison");
        return;
    };
    for (_, dir, t, flags, start_after) in targets() {
        compare(&llc, dir, t, flags, start_after, allocator);
    }
}
