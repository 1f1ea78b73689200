//! `regalloc cc`: compile one C file with clang-19 and llc-19, our allocator in the middle.
//!
//! LLVM cannot hand a function to an outside allocator inside one process,
//! but its pass pipeline can be stopped and resumed around allocation
//! through MIR files. This is that split pipeline:
//!
//! 1. `clang-19 -S -emit-llvm` turns the C file into an IR module;
//! 2. `llc-19 -stop-before=<LLVM's allocator>` lowers it to the MIR the
//!    allocator would see (`greedy` from -O1 up, `regallocfast` at -O0);
//! 3. we read that MIR, allocate every function with the chosen allocator,
//!    run the symbolic checker on each result and write the allocated MIR;
//! 4. `llc-19 -start-after=<LLVM's rewriter>` resumes from the allocated
//!    MIR (`virtregrewriter`, or `regallocfast` at -O0) and emits the object.
//!
//! The flags that make LLVM 19's own MIR round trip sound are applied
//! (they break LLVM's own allocation on this path too):
//! `-no-x86-call-frame-opt` when stopping (x86's "has push sequences" flag
//! is not serialised and the program would crash), and
//! `-disable-postra-machine-licm` when resuming (MIR has no `isSSA` key, so
//! post-RA MachineLICM would run in its pre-RA mode). At AArch64 -O0,
//! jump-table entry information is not serialised (`-fno-jump-tables`) and
//! GlobalISel prints `SCVTFUWDri` without its `implicit $fpcr`
//! (`-global-isel=0`). One limitation has no flag: AArch64 -O2 frames that
//! use a local stack block (LocalStackSlotAllocation) get wrong offsets
//! after the round trip, with LLVM's own allocator too. Two things llc
//! prints but its parser refuses are rewritten in the files llc writes
//! (`repair_round_trip`): zero constant vectors, and accesses wider than
//! 65,535 bits (Lua's `luaL_loadfilex` copies an 8 KiB buffer at AArch64
//! -O0), which our own writer prints as a byte count.
//!
//! Every step that fails stops the command with the step's command line
//! and output; intermediate files are kept when a step fails (or always,
//! with `--save-temps`), and the object is written to a temporary name
//! and renamed, so no half-written output is left behind.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::output::{say, say_line};
use crate::progress::Progress;
use crate::{AllocatorName, Outcome, Target, allocate_file, stats_text, target_info};

/// Arguments of `regalloc cc`.
#[derive(clap::Args)]
pub(crate) struct CcArgs {
    /// The target to compile for: `x86` (x86_64-linux-gnu) or `aarch64`
    /// (aarch64-linux-gnu).
    #[arg(long)]
    target: Target,
    /// Which of our allocators allocates every function.
    #[arg(long, value_enum, default_value = "greedy")]
    allocator: AllocatorName,
    /// Optimisation level for clang and llc (`-O0` stops before LLVM's
    /// fast allocator, any other level before its greedy allocator).
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2", value_parser = ["0", "1", "2", "3"])]
    opt_level: String,
    /// Emit assembly instead of an object file.
    #[arg(short = 'S')]
    assembly: bool,
    /// The C file to compile (or an LLVM IR module, `.ll` or `.bc`, which
    /// then goes straight to llc).
    input: PathBuf,
    /// The object (or, with -S, assembly) file to write; the input's name
    /// with `.o` (`.s`) in the current directory when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Keep the intermediate files (`.ll`, the allocator's input and output
    /// MIR) in this directory.
    #[arg(long, value_name = "DIR")]
    save_temps: Option<PathBuf>,
    /// Allocate with LLVM's own allocator of the same name instead of ours
    /// (llc -regalloc=..., on the same MIR, through the same stop and
    /// resume): the control that tells artifacts of the split pipeline
    /// from our allocator's bugs. At -O0 LLVM allows only its fast
    /// allocator.
    #[arg(long)]
    control: bool,
    /// Skip the symbolic checker (it runs on every function by default).
    #[arg(long)]
    no_check: bool,
    /// Also print the per-function statistics table (as `regalloc alloc`).
    #[arg(long)]
    stats: bool,
    /// The clang to run.
    #[arg(long, default_value = "clang-19")]
    clang: PathBuf,
    /// The llc to run.
    #[arg(long, default_value = "llc-19")]
    llc: PathBuf,
    /// Flags for clang (defines, include directories, `-march=...`), after `--`.
    #[arg(last = true)]
    clang_args: Vec<String>,
}

/// What differs between the targets `cc` compiles for.
struct Triple {
    /// The triple for clang's `--target` and llc's `-mtriple`.
    name: &'static str,
    /// Extra clang flags at -O0.
    clang_o0: &'static [&'static str],
    /// Extra llc flags when stopping before allocation.
    llc_stop: &'static [&'static str],
    /// Extra llc flags when stopping at -O0.
    llc_stop_o0: &'static [&'static str],
    /// The last pass before LLVM's allocator at -O1 and up, where the
    /// control resumes (`-start-before=` does not know every allocator).
    last_before_allocation: &'static str,
}

fn triple(t: Target) -> Result<Triple, String> {
    match t {
        Target::X86 => Ok(Triple {
            name: "x86_64-linux-gnu",
            clang_o0: &[],
            llc_stop: &["-no-x86-call-frame-opt"],
            llc_stop_o0: &[],
            last_before_allocation: "machine-scheduler",
        }),
        Target::Aarch64 => Ok(Triple {
            name: "aarch64-linux-gnu",
            clang_o0: &["-fno-jump-tables"],
            llc_stop: &[],
            llc_stop_o0: &["-global-isel=0"],
            last_before_allocation: "aarch64-post-coalescer-pass",
        }),
        other => Err(format!(
            "regalloc cc compiles for x86 and aarch64, not {}: those are the targets whose \
             split pipeline has been checked against LLVM's own allocation",
            target_label(other)
        )),
    }
}

fn target_label(t: Target) -> String {
    match t {
        Target::Bpf => "bpf".into(),
        Target::X86 => "x86".into(),
        Target::Aarch64 => "aarch64".into(),
        Target::Hexagon => "hexagon".into(),
        Target::Td(p) => p.display().to_string(),
    }
}

/// Where the intermediate files go: a fresh temporary directory, removed
/// on success unless the user asked to keep it.
struct Workdir {
    path: PathBuf,
    keep: bool,
    /// Owns the directory when it is temporary.
    _temp: Option<tempfile::TempDir>,
}

impl Workdir {
    fn new(save: Option<&Path>) -> Result<Workdir, String> {
        match save {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                Ok(Workdir {
                    path: dir.to_path_buf(),
                    keep: true,
                    _temp: None,
                })
            }
            None => {
                let t = tempfile::Builder::new()
                    .prefix("regalloc-cc.")
                    .tempdir()
                    .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
                Ok(Workdir {
                    path: t.path().to_path_buf(),
                    keep: false,
                    _temp: Some(t),
                })
            }
        }
    }

    /// Keeps the directory past the end of the command (a step failed and
    /// its files explain why).
    fn keep(&mut self) -> &Path {
        if let Some(t) = self._temp.take() {
            self.path = t.keep();
        }
        self.keep = true;
        &self.path
    }
}

/// How much of a failing tool's output is repeated: its first errors say
/// what went wrong; hundreds more of the same kind bury them.
const MAX_TOOL_LINES: usize = 40;

/// One external step: runs `cmd`, returns how long it took, or an error
/// naming the command line and everything it printed.
fn run_step(what: &str, cmd: &mut Command) -> Result<Duration, String> {
    let line = command_line(cmd);
    let start = Instant::now();
    let out = cmd.output().map_err(|e| {
        let tool = cmd.get_program().to_string_lossy().into_owned();
        format!("{what}: cannot run {tool}: {e} (regalloc cc needs LLVM 19: apt-get install clang-19 llvm-19)")
    })?;
    let took = start.elapsed();
    if out.status.success() {
        return Ok(took);
    }
    let mut msg = format!("{what} failed ({}): {line}", out.status);
    for stream in [&out.stdout, &out.stderr] {
        let text = String::from_utf8_lossy(stream);
        let lines: Vec<&str> = text.trim_end().lines().collect();
        for l in lines.iter().take(MAX_TOOL_LINES) {
            msg.push('\n');
            msg.push_str(l);
        }
        if lines.len() > MAX_TOOL_LINES {
            let more = lines.len() - MAX_TOOL_LINES;
            msg.push_str(&format!("\n... ({more} more lines)"));
        }
    }
    Err(msg)
}

fn command_line(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// LLVM's allocator pass the pipeline stops before, and the pass it
/// resumes after, at this optimisation level.
fn split_points(o0: bool) -> (&'static str, &'static str) {
    if o0 {
        ("regallocfast", "regallocfast")
    } else {
        ("greedy", "virtregrewriter")
    }
}

/// Step 3: read, allocate, check and write one MIR file; returns each
/// function's outcome (errors included) after writing the allocated MIR.
fn allocate_mir(
    args: &CcArgs,
    input: &Path,
    output: &Path,
) -> Result<(Vec<Outcome>, Duration), String> {
    let target = target_info(args.target)
        .map_err(|f| f.text.trim_end().trim_start_matches("error: ").to_string())?;
    let text = std::fs::read_to_string(input)
        .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    let start = Instant::now();
    let mut file = regalloc::mir::read(target, &input.display().to_string(), &text);
    if let Some(e) = file.errors().next() {
        return Err(format!("reading llc's MIR: {e}"));
    }
    let (outcomes, _) = allocate_file(
        target,
        &mut file,
        args.allocator.allocator(),
        regalloc::PostPasses::default(),
        !args.no_check,
        false,
        1,
        &Progress::none(),
    );
    let out = regalloc::mir::write(target, &file);
    let took = start.elapsed();
    std::fs::write(output, out).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    Ok((outcomes, took))
}

fn default_output(input: &Path, assembly: bool) -> PathBuf {
    let stem = input.file_stem().unwrap_or(input.as_os_str());
    PathBuf::from(stem).with_extension(if assembly { "s" } else { "o" })
}

/// Runs the whole split pipeline; `Ok(false)` when our allocator or its
/// checker failed on some function (the object is then not written).
pub(crate) fn cc(args: &CcArgs) -> Result<bool, String> {
    let tr = triple(args.target)?;
    if args.control && args.opt_level != "0" && matches!(args.allocator, AllocatorName::LinearScan)
    {
        // LLVM removed its linear scan in LLVM 3.0: there is no control.
        return Err(
            "--control: LLVM 19 has no linear-scan allocator (its -regalloc offers fast, basic, greedy and pbqp)"
                .into(),
        );
    }
    if !args.input.is_file() {
        return Err(format!(
            "cannot read {}: no such file",
            args.input.display()
        ));
    }
    let mut work = Workdir::new(args.save_temps.as_deref())?;
    let result = pipeline(args, tr, &work.path);
    match result {
        Ok(ok) => {
            if work.keep {
                say_line(&format!(
                    "intermediate files kept in {}",
                    work.path.display()
                ));
            }
            Ok(ok)
        }
        Err(e) => {
            let dir = work.keep().display().to_string();
            Err(format!("{e}\nintermediate files kept in {dir}"))
        }
    }
}

/// The files and flags of one run, shared by its steps.
struct Plan<'a> {
    args: &'a CcArgs,
    triple: Triple,
    /// `-O<level>` for clang and llc.
    opt: String,
    o0: bool,
    ll: PathBuf,
    in_mir: PathBuf,
    out_mir: PathBuf,
    output: PathBuf,
}

impl Plan<'_> {
    /// An llc command for this target and level, with the flags every
    /// step shares.
    fn llc(&self) -> Command {
        let mut c = Command::new(&self.args.llc);
        c.args([
            &self.opt,
            &format!("-mtriple={}", self.triple.name),
            "-relocation-model=pic",
        ]);
        c
    }
}

fn pipeline(args: &CcArgs, triple: Triple, dir: &Path) -> Result<bool, String> {
    let stem = args
        .input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    let plan = Plan {
        args,
        triple,
        opt: format!("-O{}", args.opt_level),
        o0: args.opt_level == "0",
        ll: if is_ir(&args.input) {
            args.input.clone()
        } else {
            dir.join(format!("{stem}.ll"))
        },
        in_mir: dir.join(format!("{stem}.in.mir")),
        out_mir: dir.join(format!("{stem}.out.mir")),
        output: args
            .output
            .clone()
            .unwrap_or_else(|| default_output(&args.input, args.assembly)),
    };
    let t_clang = compile_to_ir(&plan)?;
    let t_lower = lower_to_mir(&plan)?;
    let (outcomes, t_alloc) = if args.control {
        (Vec::new(), allocate_with_llvm(&plan)?)
    } else {
        allocate_with_ours(&plan)?
    };
    let t_emit = emit(&plan)?;
    report(&plan, &outcomes, [t_clang, t_lower, t_alloc, t_emit]);
    Ok(true)
}

/// Whether the input is already an LLVM IR module (`.ll` or `.bc`): then
/// clang does not run and the clang flags are not used.
fn is_ir(input: &Path) -> bool {
    matches!(
        input.extension().and_then(|e| e.to_str()),
        Some("ll" | "bc")
    )
}

/// Step 1: C to an IR module.
fn compile_to_ir(plan: &Plan<'_>) -> Result<Duration, String> {
    let args = plan.args;
    if is_ir(&args.input) {
        return Ok(Duration::ZERO);
    }
    let mut clang = Command::new(&args.clang);
    clang.args([&plan.opt, "-S", "-emit-llvm", "-w", "-g0", "-fno-common"]);
    clang.arg(format!("--target={}", plan.triple.name));
    if plan.o0 {
        clang.args(plan.triple.clang_o0);
    }
    clang.args(&args.clang_args).arg(&args.input);
    clang.arg("-o").arg(&plan.ll);
    run_step("clang", &mut clang)
}

/// Step 2: the IR module to the MIR LLVM's allocator would see.
fn lower_to_mir(plan: &Plan<'_>) -> Result<Duration, String> {
    let (stop, _) = split_points(plan.o0);
    let mut lower = plan.llc();
    lower.args(plan.triple.llc_stop);
    if plan.o0 {
        lower.args(plan.triple.llc_stop_o0);
    }
    lower.arg(format!("-stop-before={stop}"));
    lower.arg(&plan.ll).arg("-o").arg(&plan.in_mir);
    let took = run_step("llc (to the allocator's input)", &mut lower)?;
    repair_round_trip(&plan.in_mir)?;
    Ok(took)
}

/// Step 3, ours: allocate and check every function; any failure stops the
/// run with every failing function named.
fn allocate_with_ours(plan: &Plan<'_>) -> Result<(Vec<Outcome>, Duration), String> {
    let (outcomes, took) = allocate_mir(plan.args, &plan.in_mir, &plan.out_mir)?;
    let failures: Vec<String> = outcomes
        .iter()
        .flat_map(|o| o.errors.iter().map(move |e| format!("{}: {e}", o.name)))
        .collect();
    if !failures.is_empty() {
        return Err(format!(
            "{} of {} functions failed allocation or the checker:\n{}",
            outcomes.iter().filter(|o| !o.errors.is_empty()).count(),
            outcomes.len(),
            failures.join("\n")
        ));
    }
    Ok((outcomes, took))
}

/// Step 3, the control: LLVM's own allocator of the same name on the same
/// MIR file, through the same stop and resume. At -O0 LLVM accepts only its
/// fast allocator, so the control there is always fast.
fn allocate_with_llvm(plan: &Plan<'_>) -> Result<Duration, String> {
    let mut alloc = plan.llc();
    if plan.o0 {
        alloc.args(["-start-before=regallocfast", "-stop-after=regallocfast"]);
    } else {
        alloc.arg(format!(
            "-regalloc={}",
            plan.args.allocator.allocator().name()
        ));
        alloc.arg(format!(
            "-start-after={}",
            plan.triple.last_before_allocation
        ));
        let stop = match plan.args.allocator {
            AllocatorName::Fast => "regallocfast",
            _ => "virtregrewriter",
        };
        alloc.arg(format!("-stop-after={stop}"));
    }
    alloc.arg(&plan.in_mir).arg("-o").arg(&plan.out_mir);
    let took = run_step("llc (LLVM's own allocation, the control)", &mut alloc)?;
    repair_round_trip(&plan.out_mir)?;
    Ok(took)
}

/// Rewrites what LLVM 19 prints into MIR but its own parser refuses, in a
/// file llc wrote, into spellings the parser reads as the same thing:
/// - LLVM's greedy and basic allocators can add a constant-pool entry
///   whose value prints as `<4 x i32> zeroinitializer` ("expected a
///   constant value"): the vector is spelled out element by element;
/// - an access wider than 65,535 bits (an 8 KiB aggregate copied through
///   the stack) prints as `(s65664)` ("invalid size for scalar type"):
///   it is written as its byte count, `8208`, the form our own writer uses.
fn repair_round_trip(mir: &Path) -> Result<(), String> {
    let text =
        std::fs::read_to_string(mir).map_err(|e| format!("cannot read {}: {e}", mir.display()))?;
    if !text.contains("zeroinitializer'") && !has_wide_access(&text) {
        return Ok(());
    }
    let fixed: Vec<String> = text
        .lines()
        .map(|line| {
            let line = spell_out_line(line).unwrap_or_else(|| line.to_string());
            wide_accesses_in_bytes(&line).unwrap_or(line)
        })
        .collect();
    let mut out = fixed.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    std::fs::write(mir, out).map_err(|e| format!("cannot write {}: {e}", mir.display()))
}

/// The widest scalar `(sN)` LLVM 19's MIR parser accepts.
const WIDEST_PARSED_SCALAR: u64 = 65_535;

/// The memory-operand sizes `(sN)` in `text`, as (start, end, bits) of
/// each `(sN)` token.
fn scalar_sizes(text: &str) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
    text.match_indices("(s").filter_map(move |(at, _)| {
        let digits = &text[at + 2..];
        let len = digits.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 || !digits[len..].starts_with(')') {
            return None;
        }
        let bits = digits[..len].parse().ok()?;
        Some((at, at + 2 + len + 1, bits))
    })
}

fn has_wide_access(text: &str) -> bool {
    scalar_sizes(text).any(|(_, _, bits)| bits > WIDEST_PARSED_SCALAR && bits % 8 == 0)
}

/// `line` with each memory operand's `(sN)` wider than the parser accepts
/// written as its byte count, or `None` when there is none.
fn wide_accesses_in_bytes(line: &str) -> Option<String> {
    let operands = line.find(" :: ")?;
    let mut out = String::with_capacity(line.len());
    let mut copied = 0;
    for (start, end, bits) in scalar_sizes(&line[operands..]) {
        if bits <= WIDEST_PARSED_SCALAR || bits % 8 != 0 {
            continue;
        }
        out.push_str(&line[copied..operands + start]);
        out.push_str(&(bits / 8).to_string());
        copied = operands + end;
    }
    (copied > 0).then(|| out + &line[copied..])
}

/// `    value: '<4 x i32> zeroinitializer'` with the vector spelled out, or
/// `None` when the line is not a zero vector of a scalar element type.
fn spell_out_line(line: &str) -> Option<String> {
    let (head, rest) = line.split_once("value:")?;
    let quoted = rest.trim();
    let inner = quoted
        .strip_prefix("'<")?
        .strip_suffix("> zeroinitializer'")?;
    let (count, element) = inner.split_once(" x ")?;
    let count: usize = count.trim().parse().ok()?;
    let zero = match element {
        "i1" | "i8" | "i16" | "i32" | "i64" => "0",
        "half" | "bfloat" | "float" | "double" => "0.000000e+00",
        _ => return None,
    };
    let elements = vec![format!("{element} {zero}"); count].join(", ");
    let pad = &rest[..rest.len() - rest.trim_start().len()];
    Some(format!(
        "{head}value:{pad}'<{count} x {element}> <{elements}>'"
    ))
}

/// Step 4: the allocated MIR to the object (or assembly), written under a
/// temporary name and renamed.
fn emit(plan: &Plan<'_>) -> Result<Duration, String> {
    let (_, resume) = split_points(plan.o0);
    let output = &plan.output;
    let partial = output.with_file_name(format!(
        ".{}.partial",
        output
            .file_name()
            .map_or("out".into(), |n| n.to_string_lossy())
    ));
    let mut emit = plan.llc();
    emit.arg("-disable-postra-machine-licm");
    emit.arg(format!("-start-after={resume}"));
    emit.arg(format!(
        "-filetype={}",
        if plan.args.assembly { "asm" } else { "obj" }
    ));
    emit.arg(&plan.out_mir).arg("-o").arg(&partial);
    let took = match run_step("llc (from the allocated MIR)", &mut emit) {
        Ok(t) => t,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, output).map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        format!("cannot write {}: {e}", output.display())
    })?;
    Ok(took)
}

/// What the allocator did, on standard error: one summary line, the
/// per-function table, and the time of each step.
fn report(plan: &Plan<'_>, outcomes: &[Outcome], times: [Duration; 4]) {
    let (args, output) = (plan.args, &plan.output);
    let [c, l, a, e] = times.map(|t| t.as_secs_f64());
    let target_kind = if args.assembly { "assembly" } else { "object" };
    if args.control {
        say_line(&format!(
            "{}: allocated by LLVM's {} (the control) -> {}",
            args.input.display(),
            if plan.o0 {
                "fast"
            } else {
                args.allocator.allocator().name()
            },
            output.display()
        ));
        say_line(&format!(
            "time: clang {c:.3} s, llc to MIR {l:.3} s, llc allocation {a:.3} s (read, allocate, write), llc to {target_kind} {e:.3} s"
        ));
        return;
    }
    let mut total = regalloc::Stats::default();
    for st in outcomes.iter().filter_map(|o| o.stats.as_ref()) {
        total.add(st);
    }
    say_line(&format!(
        "{}: {} functions allocated by {}{}; {} spills, {} reloads, {} folded reloads, {} remats, {} copies left -> {}",
        args.input.display(),
        outcomes.len(),
        args.allocator.allocator().name(),
        if args.no_check { "" } else { " and checked" },
        total.spills,
        total.reloads,
        total.folded_reloads,
        total.remats,
        total.copies,
        output.display()
    ));
    if args.stats {
        say(&stats_text(outcomes, crate::StatsFormat::Text));
    }
    say_line(&format!(
        "time: clang {c:.3} s, llc to MIR {l:.3} s, regalloc {a:.3} s (read, allocate, check, write), llc to {target_kind} {e:.3} s"
    ));
}

#[cfg(test)]
mod tests {
    use super::{spell_out_line, wide_accesses_in_bytes};

    #[test]
    fn wide_accesses_are_written_in_bytes() {
        assert_eq!(
            wide_accesses_in_bytes(
                "    STRXui %41, %stack.4, 1 :: (store (s65664) into %stack.4 + 1, align 1, basealign 8)"
            )
            .as_deref(),
            Some("    STRXui %41, %stack.4, 1 :: (store 8208 into %stack.4 + 1, align 1, basealign 8)")
        );
        assert_eq!(
            wide_accesses_in_bytes("    %1:gpr64 = LDRXui %0, 0 :: (load (s64) from %ir.p)"),
            None
        );
        assert_eq!(
            wide_accesses_in_bytes(
                "    MEMCPY :: (store (s70000) into %ir.a), (load (s65536) from %ir.b)"
            )
            .as_deref(),
            Some("    MEMCPY :: (store 8750 into %ir.a), (load 8192 from %ir.b)")
        );
        assert_eq!(wide_accesses_in_bytes("    %0:gr64 = COPY $rdi"), None);
    }

    #[test]
    fn zero_vectors_are_spelled_out() {
        assert_eq!(
            spell_out_line("    value:           '<4 x i32> zeroinitializer'").as_deref(),
            Some("    value:           '<4 x i32> <i32 0, i32 0, i32 0, i32 0>'")
        );
        assert_eq!(
            spell_out_line("    value: '<2 x double> zeroinitializer'").as_deref(),
            Some("    value: '<2 x double> <double 0.000000e+00, double 0.000000e+00>'")
        );
        assert_eq!(spell_out_line("    value: 'double 1.0'"), None);
        assert_eq!(
            spell_out_line("    value: '<2 x ptr> zeroinitializer'"),
            None
        );
    }
}
