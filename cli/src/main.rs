//! The `regalloc` command: read, allocate, check and write LLVM MIR.
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cc;

/// Read, allocate, check and write LLVM machine IR.
#[derive(Parser)]
#[command(name = "regalloc", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a whole .mir file and write it back (the round trip), reporting
    /// each function that cannot be read.
    Mir(MirArgs),
    /// Print live intervals and block frequencies in LLVM's debug format.
    Intervals(IntervalsArgs),
    /// Allocate every function of a .mir file and write the allocated MIR,
    /// with per-function spill statistics.
    Alloc(AllocArgs),
    /// Allocate every function, then run the symbolic checker on each
    /// result: prints `ok` or the checker's errors per function.
    Check(AllocArgs),
    /// Compile a C file to an object with clang-19 and llc-19, allocating
    /// every function with our allocator in between (and checking it).
    Cc(cc::CcArgs),
}

#[derive(clap::Args)]
struct IntervalsArgs {
    /// The target whose register and instruction names the file uses.
    #[arg(long)]
    target: Target,
    /// The .mir file to read.
    input: PathBuf,
    /// Only this function (all functions when absent).
    #[arg(long)]
    function: Option<String>,
}

/// Targets the command knows by name (`bpf`, `x86`, `aarch64`, `hexagon`),
/// or a `.td` file (`--target path/to/mytarget.td`) compiled at run time.
#[derive(Copy, Clone, Debug)]
enum Target {
    Bpf,
    X86,
    Aarch64,
    Hexagon,
    /// A description read at run time (the path lives for the whole run).
    Td(&'static std::path::Path),
}

impl std::str::FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "bpf" => Target::Bpf,
            "x86" | "x86_64" | "x86-64" => Target::X86,
            "aarch64" | "arm64" => Target::Aarch64,
            "hexagon" => Target::Hexagon,
            _ if s.ends_with(".td") => Target::Td(Box::leak(PathBuf::from(s).into_boxed_path())),
            _ => {
                return Err(format!(
                    "unknown target '{s}': expected bpf, x86, aarch64, hexagon or a .td file"
                ));
            }
        })
    }
}

#[derive(clap::Args)]
struct MirArgs {
    /// The target whose register and instruction names the file uses.
    #[arg(long)]
    target: Target,
    /// The .mir file to read.
    input: PathBuf,
    /// Where to write the result (standard output when absent).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// The tables for `t`: the `regalloc!`-generated ones of the targets crate,
/// or, for a `.td` file, tables built at run time by `regalloc_td::load`.
fn target_info(t: Target) -> Result<&'static regalloc::target::TargetInfo<'static>, String> {
    Ok(match t {
        Target::Bpf => &regalloc_targets::bpf::TARGET,
        Target::X86 => &regalloc_targets::x86::TARGET,
        Target::Aarch64 => &regalloc_targets::aarch64::TARGET,
        Target::Hexagon => &regalloc_targets::hexagon::TARGET,
        Target::Td(path) => {
            let info = regalloc_td::load(path, &[])?;
            info.validate()
                .map_err(|e| format!("{}: inconsistent tables: {e}", path.display()))?;
            Box::leak(Box::new(info))
        }
    })
}

fn mir(args: &MirArgs) -> Result<bool, String> {
    let target = target_info(args.target)?;
    let Some(file) = read_input(target, &args.input)? else {
        return Ok(false);
    };
    let out = regalloc::mir::write(target, &file);
    match &args.output {
        Some(p) => {
            std::fs::write(p, out).map_err(|e| format!("cannot write {}: {e}", p.display()))?
        }
        None => print!("{out}"),
    }
    let mut failed = 0;
    for e in file.errors() {
        eprintln!("{e}");
        failed += 1;
    }
    let total = file.functions.len();
    eprintln!("{}/{total} functions read", total - failed);
    Ok(failed == 0)
}

fn intervals(args: &IntervalsArgs) -> Result<bool, String> {
    use regalloc::analysis::{Analyses, print};
    let target = target_info(args.target)?;
    let Some(file) = read_input(target, &args.input)? else {
        return Ok(false);
    };
    let mut found = false;
    for f in file.read_functions() {
        if args.function.as_ref().is_some_and(|n| *n != f.name) {
            continue;
        }
        found = true;
        let a = Analyses::new(target, f);
        println!("# Machine code for function {}", f.name);
        print!("{}", print::intervals_to_string(target, &a.intervals));
        print!("{}", print::freqs_to_string(f, &a.flow));
        println!();
    }
    let mut ok = true;
    for e in file.errors() {
        eprintln!("{e}");
        ok = false;
    }
    if let Some(n) = &args.function
        && !found
    {
        return Err(format!("no function named '{n}' was read"));
    }
    Ok(ok)
}

/// The allocators, by their command-line names.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum AllocatorName {
    Fast,
    Basic,
    Greedy,
}

impl AllocatorName {
    fn allocator(self) -> regalloc::Allocator {
        use regalloc::Allocator;
        match self {
            AllocatorName::Fast => Allocator::Fast,
            AllocatorName::Basic => Allocator::Basic,
            AllocatorName::Greedy => Allocator::Greedy,
        }
    }
}

/// How `alloc` prints per-function statistics.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum StatsFormat {
    /// An aligned table, one row per function and a total.
    Text,
    /// One JSON object per function per line.
    Json,
}

#[derive(clap::Args)]
struct AllocArgs {
    /// The target whose tables to allocate with.
    #[arg(long)]
    target: Target,
    /// Build the tables from this .td file at run time instead.
    #[arg(long)]
    td: Option<PathBuf>,
    /// Which allocator to run.
    #[arg(long, value_enum, default_value = "greedy")]
    allocator: AllocatorName,
    /// The .mir file to read.
    input: PathBuf,
    /// Where to write the allocated MIR (standard output when absent).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Statistics format. Statistics go to standard output when the MIR goes
    /// to a file (`-o`), else to standard error, so that they never mix
    /// with the MIR text.
    #[arg(long, value_enum, default_value = "text")]
    stats: StatsFormat,
    /// Also run the symbolic checker on every allocated function.
    #[arg(long)]
    check: bool,
    /// Print the wall time of each allocation pass, summed over the
    /// file's functions (and over the threads, with `-j`), to standard
    /// error (as `llc -time-passes` does).
    #[arg(long)]
    time_passes: bool,
    /// Allocate the file's functions on this many threads, each with its
    /// own allocation context, all sharing the target's. The output is the
    /// same for every N: functions are written, and their statistics and
    /// errors reported, in file order.
    #[arg(short = 'j', long = "jobs", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: u32,
}

/// One allocated function's outcome.
struct Outcome {
    name: String,
    stats: Option<regalloc::Stats>,
    /// Allocation or checker errors, as lines for a person.
    errors: Vec<String>,
}

/// Allocates every read function of the file in place on `jobs` threads;
/// a function that fails is put back as it was read. Checks each result
/// when `check`. Returns the outcomes in file order and, when
/// `time_passes`, the pass times summed over the threads.
fn allocate_file(
    target: &regalloc::target::TargetInfo<'_>,
    file: &mut regalloc::mir::MirFile,
    allocator: AllocatorName,
    check: bool,
    time_passes: bool,
    jobs: usize,
) -> (Vec<Outcome>, regalloc::timing::PassTimes) {
    use regalloc::mir::FunctionDoc;
    use regalloc::{AllocContext, Options, TargetContext};
    let options = Options {
        allocator: allocator.allocator(),
        check: false,
    };
    let target = TargetContext::new(target);
    let functions: Vec<&mut regalloc::ir::MachineFunction> = file
        .functions
        .iter_mut()
        .filter_map(|doc| match doc {
            FunctionDoc::Read(f) => Some(f),
            FunctionDoc::Failed { .. } => None,
        })
        .collect();
    let count = functions.len();
    // Each thread takes the next function in file order when it is free,
    // so that a few large functions do not leave the others idle.
    let queue = std::sync::Mutex::new(functions.into_iter().enumerate());
    let next = || queue.lock().unwrap_or_else(|e| e.into_inner()).next();
    let work = || {
        let mut ctx = AllocContext::new();
        ctx.set_time_passes(time_passes);
        let mut done = Vec::new();
        while let Some((k, f)) = next() {
            done.push((k, allocate_function(&target, &mut ctx, f, &options, check)));
        }
        (done, ctx.take_pass_times())
    };
    let per_thread = if jobs <= 1 || count <= 1 {
        vec![work()]
    } else {
        std::thread::scope(|s| {
            let threads: Vec<_> = (0..jobs.min(count)).map(|_| s.spawn(work)).collect();
            threads
                .into_iter()
                .map(|t| {
                    t.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        })
    };
    let mut times = regalloc::timing::PassTimes::default();
    let mut outcomes: Vec<Option<Outcome>> = (0..count).map(|_| None).collect();
    for (done, thread_times) in per_thread {
        times.add(&thread_times);
        for (k, outcome) in done {
            outcomes[k] = Some(outcome);
        }
    }
    (outcomes.into_iter().flatten().collect(), times)
}

/// Allocates one function in place (put back as it was read when it
/// fails), checking the result when `check`.
fn allocate_function(
    target: &regalloc::TargetContext<'_, '_>,
    ctx: &mut regalloc::AllocContext,
    f: &mut regalloc::ir::MachineFunction,
    options: &regalloc::Options,
    check: bool,
) -> Outcome {
    let original = f.clone();
    let mut outcome = Outcome {
        name: f.name.clone(),
        stats: None,
        errors: Vec::new(),
    };
    match regalloc::allocate_recorded_with_context(target, ctx, f, options) {
        Ok((stats, record)) => {
            outcome.stats = Some(stats);
            if check
                && let Err(errors) = regalloc::check::check(target.target(), &original, f, &record)
            {
                outcome.errors = errors.iter().map(|e| e.to_string()).collect();
            }
        }
        Err(e) => {
            outcome.errors.push(e.to_string());
            *f = original;
        }
    }
    outcome
}

fn json_string(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn stats_text(outcomes: &[Outcome], format: StatsFormat) -> String {
    use std::fmt::Write as _;
    let row = |s: &mut String, name: &str, st: &regalloc::Stats| {
        let _ = writeln!(
            s,
            "{:<32} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>11.2} {:>11.2} {:>11.2} {:>10.2} {:>10.2}",
            name,
            st.spills,
            st.reloads,
            st.folded_reloads,
            st.remats,
            st.copies,
            st.inserted_copies,
            st.spill_cost,
            st.reload_cost,
            st.folded_reload_cost,
            st.remat_cost,
            st.copy_cost
        );
    };
    let mut s = String::new();
    let mut total = regalloc::Stats::default();
    if let StatsFormat::Text = format {
        let _ = writeln!(
            s,
            "{:<32} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>11} {:>11} {:>11} {:>10} {:>10}",
            "function",
            "spills",
            "reloads",
            "folded",
            "remats",
            "copies",
            "inserted",
            "spill-cost",
            "reload-cost",
            "folded-cost",
            "remat-cost",
            "copy-cost"
        );
    }
    for o in outcomes {
        let Some(st) = &o.stats else { continue };
        total.add(st);
        match format {
            StatsFormat::Text => row(&mut s, &o.name, st),
            StatsFormat::Json => {
                let _ = writeln!(
                    s,
                    "{{\"function\":{},\"spills\":{},\"reloads\":{},\"folded_reloads\":{},\"remats\":{},\"copies\":{},\"inserted_copies\":{},\"spill_cost\":{},\"reload_cost\":{},\"folded_reload_cost\":{},\"remat_cost\":{},\"copy_cost\":{}}}",
                    json_string(&o.name),
                    st.spills,
                    st.reloads,
                    st.folded_reloads,
                    st.remats,
                    st.copies,
                    st.inserted_copies,
                    st.spill_cost,
                    st.reload_cost,
                    st.folded_reload_cost,
                    st.remat_cost,
                    st.copy_cost
                );
            }
        }
    }
    if let StatsFormat::Text = format {
        row(&mut s, "total", &total);
    }
    s
}

/// The tables for an `alloc`/`check` run: `--td` wins over `--target`.
fn alloc_target(
    args: &AllocArgs,
) -> Result<&'static regalloc::target::TargetInfo<'static>, String> {
    match &args.td {
        Some(p) => target_info(Target::Td(Box::leak(p.clone().into_boxed_path()))),
        None => target_info(args.target),
    }
}

/// Reads the input file; `None` (after printing why) when it is not MIR
/// for `target` as a whole.
fn read_input(
    target: &regalloc::target::TargetInfo<'_>,
    input: &std::path::Path,
) -> Result<Option<regalloc::mir::MirFile>, String> {
    let bytes =
        std::fs::read(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    match regalloc::mir::read_bytes(target, &input.display().to_string(), &bytes) {
        Ok(file) => Ok(Some(file)),
        Err(e) => {
            eprintln!("{e}");
            Ok(None)
        }
    }
}

/// Warns, once per opcode and file, of opcodes the target's description
/// does not have: they are allocated by what their operands say, which is
/// right for code LLVM wrote, but a misspelt opcode in hand-written MIR is
/// caught only here (and by llc).
fn warn_unknown_opcodes(input: &Path, file: &regalloc::mir::MirFile) {
    let mut seen = std::collections::BTreeMap::new();
    for f in file.read_functions() {
        for i in f.inst_ids() {
            if let regalloc::ir::Op::Unknown(u) = f.inst(i).op {
                seen.entry(u.name).or_insert_with(|| f.name.clone());
            }
        }
    }
    for (op, f) in seen {
        eprintln!(
            "warning: {}: opcode '{op}' (first in function '{f}') is not in the target's description; allocated by what its operands say",
            input.display()
        );
    }
}

/// With `--time-passes`, the pass timing table of the functions just
/// allocated, on standard error.
fn print_pass_times(args: &AllocArgs, times: &regalloc::timing::PassTimes) {
    if args.time_passes {
        eprintln!("{times}");
    }
}

fn alloc(args: &AllocArgs) -> Result<bool, String> {
    let target = alloc_target(args)?;
    let Some(mut file) = read_input(target, &args.input)? else {
        return Ok(false);
    };
    warn_unknown_opcodes(&args.input, &file);
    let mut ok = true;
    for e in file.errors() {
        eprintln!("{e}");
        ok = false;
    }
    let (outcomes, times) = allocate_file(
        target,
        &mut file,
        args.allocator,
        args.check,
        args.time_passes,
        args.jobs as usize,
    );
    print_pass_times(args, &times);
    for o in &outcomes {
        for e in &o.errors {
            eprintln!("{e}");
            ok = false;
        }
    }
    let out = regalloc::mir::write(target, &file);
    let stats = stats_text(&outcomes, args.stats);
    match &args.output {
        Some(p) => {
            std::fs::write(p, out).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            print!("{stats}");
        }
        None => {
            print!("{out}");
            eprint!("{stats}");
        }
    }
    Ok(ok)
}

fn check(args: &AllocArgs) -> Result<bool, String> {
    let target = alloc_target(args)?;
    let Some(mut file) = read_input(target, &args.input)? else {
        return Ok(false);
    };
    warn_unknown_opcodes(&args.input, &file);
    let mut ok = true;
    for e in file.errors() {
        eprintln!("{e}");
        ok = false;
    }
    let (outcomes, times) = allocate_file(
        target,
        &mut file,
        args.allocator,
        true,
        args.time_passes,
        args.jobs as usize,
    );
    print_pass_times(args, &times);
    let mut passed = 0;
    for o in &outcomes {
        if o.errors.is_empty() {
            println!("{}: ok", o.name);
            passed += 1;
        } else {
            println!("{}: {} error(s)", o.name, o.errors.len());
            for e in &o.errors {
                println!("  {e}");
            }
            ok = false;
        }
    }
    println!(
        "{passed}/{} functions allocated and checked",
        outcomes.len()
    );
    Ok(ok)
}

fn main() -> ExitCode {
    // The allocators' trace (the greedy allocator's evictions and splits,
    // in the spirit of llc's -debug-only=regalloc): REGALLOC_LOG=debug.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("REGALLOC_LOG") {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .without_time()
            .init();
    }
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Mir(args) => mir(args),
        Command::Intervals(args) => intervals(args),
        Command::Alloc(args) => alloc(args),
        Command::Check(args) => check(args),
        Command::Cc(args) => cc::cc(args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
