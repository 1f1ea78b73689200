//! The `regalloc` command: read, allocate, check and write LLVM MIR.
//!
//! Exit statuses: 0 success; 1 a function could not be read, allocated or
//! checked, or output could not be written (`> /dev/full`, said on standard
//! error); 2 the command could not run (a usage error, an input or a
//! description that cannot be read, a failed `cc` step); 141 a reader
//! closed standard output or standard error early (`regalloc alloc big.mir
//! | head`), quietly, as a command SIGPIPE ended. Output files are written
//! only by runs that succeed (see `output.rs`).
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cc;
mod output;
mod passes;
mod progress;
mod rdf;
mod view;

use output::{out, say, say_line, write_file};
use progress::Progress;

/// What `--help` says of the exit statuses (the module documentation's list).
const EXIT_STATUS_HELP: &str = "Exit status: 0 success; 1 a function could not be read, \
     allocated or checked, or output could not be written (no -o file is left behind); \
     2 the command could not run (usage, an unreadable input or description, a failed cc \
     step); 141 a reader closed standard output or standard error early.";

/// Read, allocate, check and write LLVM machine IR.
#[derive(Parser)]
#[command(name = "regalloc", version, about, after_help = EXIT_STATUS_HELP)]
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
    /// result: prints `ok` or the checker's errors per function (and writes
    /// no MIR: `alloc --check -o OUT.mir` keeps the allocated MIR).
    Check(CheckArgs),
    /// Compile a C file to an object with clang-19 and llc-19, allocating
    /// every function with our allocator in between (and checking it).
    Cc(cc::CcArgs),
    /// Run LLVM's pre-allocation passes on SSA MIR up to one of them and
    /// write the intermediate MIR (to diff with llc's -stop-after).
    Passes(passes::PassesArgs),
    /// Print the register data-flow graph of each allocated function, as
    /// llc's `-hexagon-rdf-dump` prints it before copy propagation.
    Rdf(rdf::RdfArgs),
    /// Allocate one function and write a self-contained HTML page that
    /// shows it: the CFG, every live interval coloured by its register,
    /// the spill code, the pressure per block and the allocator's
    /// decisions.
    View(view::ViewArgs),
}

/// `--target`, shared by every subcommand that reads MIR.
#[derive(clap::Args)]
struct TargetArg {
    /// The target whose tables to use: `bpf`, `x86` (or `x86-64`,
    /// `x86_64`), `aarch64` (or `arm64`), `hexagon`, or the path of a `.td`
    /// description (`--target mytarget.td`), compiled at run time.
    #[arg(long, alias = "td", value_name = "NAME|FILE.td")]
    target: Target,
}

#[derive(clap::Args)]
struct IntervalsArgs {
    #[command(flatten)]
    target: TargetArg,
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
    #[command(flatten)]
    target: TargetArg,
    /// The .mir file to read.
    input: PathBuf,
    /// Where to write the result (standard output when absent); written
    /// only when every function was read.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Why a command stopped: the text to say on standard error (ending in a
/// line end) and the exit status.
pub(crate) struct Failure {
    text: String,
    status: u8,
}

impl Failure {
    /// Output that could not be written: status 1.
    fn output(message: String) -> Failure {
        Failure {
            text: format!("error: {message}\n"),
            status: 1,
        }
    }

    /// Diagnostics already rendered (`error: ...`, location, snippet),
    /// said as they are: status 2.
    fn rendered(text: String) -> Failure {
        Failure { text, status: 2 }
    }
}

impl From<String> for Failure {
    /// A message of one line, said after `error: `: status 2.
    fn from(message: String) -> Failure {
        Failure {
            text: format!("error: {message}\n"),
            status: 2,
        }
    }
}

/// The tables for `t`: the `regalloc!`-generated ones of the targets crate,
/// or, for a `.td` file, tables built at run time (`regalloc_td`).
fn target_info(t: Target) -> Result<&'static regalloc::target::TargetInfo<'static>, Failure> {
    Ok(match t {
        Target::Bpf => &regalloc_targets::bpf::TARGET,
        Target::X86 => &regalloc_targets::x86::TARGET,
        Target::Aarch64 => &regalloc_targets::aarch64::TARGET,
        Target::Hexagon => &regalloc_targets::hexagon::TARGET,
        Target::Td(path) => Box::leak(Box::new(description(path)?)),
    })
}

/// Compiles the `.td` description at `path` into tables. Its diagnostics
/// are said once, as tdgen says them (each rendered with its location and
/// source line, then `error: FILE found N errors`).
fn description(path: &Path) -> Result<regalloc::target::TargetInfo<'static>, Failure> {
    let base = std::env::current_dir().ok();
    let compiled = tdgen::emit::compile(path, &[], base.as_deref()).map_err(|f| {
        let errors = f.diagnostics.iter().filter(|d| d.is_error()).count();
        Failure::rendered(format!(
            "{}{}",
            f.rendered,
            tdgen::diag::summary_line(path, errors, f.not_shown)
        ))
    })?;
    let info = regalloc_td::from_tables(&compiled.tables)?;
    info.validate()
        .map_err(|e| format!("{}: inconsistent tables: {e}", path.display()))?;
    Ok(info)
}

fn mir(args: &MirArgs) -> Result<bool, Failure> {
    let target = target_info(args.target.target)?;
    let file = read_input(target, &args.input)?;
    let written = regalloc::mir::write(target, &file);
    let mut failed = 0;
    for e in file.errors() {
        say_line(&e.to_string());
        failed += 1;
    }
    match &args.output {
        Some(p) if failed == 0 => write_file(p, written.as_bytes()).map_err(Failure::output)?,
        Some(_) => {}
        None => out(&written),
    }
    let total = file.functions.len();
    say_line(&format!("{}/{total} functions read", total - failed));
    Ok(failed == 0)
}

fn intervals(args: &IntervalsArgs) -> Result<bool, Failure> {
    use regalloc::inspect::{Analyses, freqs_to_string, intervals_to_string};
    let function = args.function.as_deref();
    print_functions(args.target.target, &args.input, function, |target, f| {
        let a = Analyses::new(target, f);
        format!(
            "# Machine code for function {}\n{}{}\n",
            f.name,
            intervals_to_string(target, &a.intervals),
            freqs_to_string(f, &a.flow)
        )
    })
}

/// What the commands that print something of each function share
/// (`intervals`, `rdf`): reads the .mir file `input` for `target` and
/// says `text` of each function read (only the one named `function`, when
/// given), then the reader's errors. False when the reader met one; a
/// failure when no function named `function` was read.
fn print_functions(
    target: Target,
    input: &Path,
    function: Option<&str>,
    text: impl Fn(&regalloc::target::TargetInfo<'_>, &regalloc::ir::MachineFunction) -> String,
) -> Result<bool, Failure> {
    let target = target_info(target)?;
    let file = read_input(target, input)?;
    let mut found = false;
    for f in file.read_functions() {
        if function.is_some_and(|n| n != f.name) {
            continue;
        }
        found = true;
        out(&text(target, f));
    }
    let mut ok = true;
    for e in file.errors() {
        say_line(&e.to_string());
        ok = false;
    }
    if let Some(n) = function
        && !found
    {
        return Err(format!("no function named '{n}' was read").into());
    }
    Ok(ok)
}

/// The allocators, by their command-line names (every one that allocates
/// the corpus and held-out sets, checked and verified; nothing else is
/// offered).
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum AllocatorName {
    /// One pass over each block, as LLVM's `regallocfast` (for -O0 code).
    Fast,
    /// Whole live ranges by spill weight, as LLVM's `basic`.
    Basic,
    /// Eviction and live-range splitting, as LLVM's `greedy` (LLVM's default).
    Greedy,
    /// Partitioned boolean quadratic programming, as LLVM's `pbqp`.
    Pbqp,
    /// Poletto-Sarkar linear scan: spill the interval ending furthest (a baseline; LLVM has none).
    #[value(name = "linearscan")]
    LinearScan,
}

impl AllocatorName {
    fn allocator(self) -> regalloc::Allocator {
        use regalloc::Allocator;
        match self {
            AllocatorName::Fast => Allocator::Fast,
            AllocatorName::Basic => Allocator::Basic,
            AllocatorName::Greedy => Allocator::Greedy,
            AllocatorName::Pbqp => Allocator::Pbqp,
            AllocatorName::LinearScan => Allocator::LinearScan,
        }
    }
}

/// How `alloc` prints per-function statistics.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum StatsFormat {
    /// An aligned table, one row per function (a failed one says so) and a
    /// total.
    Text,
    /// One JSON object per line: one per function (`"failed":true` and its
    /// `"errors"` for one that failed), then `{"total":true,...}`.
    Json,
}

/// What `alloc` and `check` share: the target, the allocator, the input
/// and how to run.
#[derive(clap::Args)]
struct AllocationArgs {
    #[command(flatten)]
    target: TargetArg,
    /// Which allocator to run.
    #[arg(long, value_enum, default_value = "greedy")]
    allocator: AllocatorName,
    /// With `--allocator pbqp`: solve each round's problem to the optimum
    /// of the PBQP cost model (branch and bound over what the reductions
    /// R0, R1, R2 leave). A round whose search reaches `--exact-limit`
    /// keeps the heuristic's solution; standard error says which
    /// functions were solved exactly in every round.
    #[arg(long)]
    exact: bool,
    /// With `--exact`: the search nodes (options tried) each round may
    /// explore. A count, not a time, so that the output never depends on
    /// the machine's speed.
    #[arg(long, value_name = "N", requires = "exact")]
    exact_limit: Option<u64>,
    /// The .mir file to read.
    input: PathBuf,
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
    /// Subtarget features to turn on (`+c`) or off (`-m`), applied in
    /// order after each function's IR `"target-features"` (later entries
    /// win), as `llc -mattr=` does.
    #[arg(long)]
    mattr: Option<String>,
    /// Run machine copy propagation after allocation, as LLVM's
    /// `machine-cp` does (uses read copies' sources, redundant and dead
    /// copies go); the checker, with `--check`, reads the result.
    #[arg(long)]
    post_ra_copy_prop: bool,
}

impl AllocationArgs {
    /// The allocator the arguments ask for.
    fn allocator(&self) -> regalloc::Allocator {
        match (self.allocator, self.exact) {
            (AllocatorName::Pbqp, true) => regalloc::Allocator::PbqpExact {
                node_limit: self
                    .exact_limit
                    .unwrap_or(regalloc::DEFAULT_PBQP_EXACT_LIMIT),
            },
            (name, _) => name.allocator(),
        }
    }

    /// `--exact` with another allocator than PBQP: the usage error.
    fn usage_error(&self) -> Option<clap::Error> {
        use clap::CommandFactory;
        match self.allocator {
            AllocatorName::Pbqp => None,
            other if self.exact => Some(Cli::command().error(
                clap::error::ErrorKind::ArgumentConflict,
                format!(
                    "`--exact` solves PBQP problems exactly: it needs `--allocator pbqp` (the allocator is {})",
                    other.allocator().name()
                ),
            )),
            _ => None,
        }
    }
}

#[derive(clap::Args)]
struct AllocArgs {
    #[command(flatten)]
    run: AllocationArgs,
    /// Where to write the allocated MIR (standard output when absent). The
    /// file is written only when every function was read, allocated (and
    /// checked, with `--check`); a failing run leaves no file.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Statistics format. Statistics go to standard output when the MIR goes
    /// to a file (`-o`), else to standard error, so that they never mix
    /// with the MIR text.
    #[arg(long, value_enum, default_value = "text")]
    stats: StatsFormat,
    /// Also run the symbolic checker on every allocated function (and say
    /// `checked: N functions` on standard error).
    #[arg(long)]
    check: bool,
}

#[derive(clap::Args)]
struct CheckArgs {
    #[command(flatten)]
    run: AllocationArgs,
    /// Not taken: `check` writes no MIR (refused with the command that does).
    #[arg(short, long, hide = true, value_parser = refuse_check_output)]
    output: Option<String>,
    /// Not taken: `check` prints no statistics (refused with the command
    /// that does).
    #[arg(long, hide = true, value_parser = refuse_check_stats)]
    stats: Option<String>,
}

/// `check -o`: refused at parse time, saying which command writes MIR.
fn refuse_check_output(_: &str) -> Result<String, String> {
    Err("`regalloc check` writes no MIR; `regalloc alloc --check -o OUT.mir` allocates, checks and writes it".into())
}

/// `check --stats`: refused at parse time, saying which command prints them.
fn refuse_check_stats(_: &str) -> Result<String, String> {
    Err(
        "`regalloc check` prints no statistics; `regalloc alloc --check --stats FORMAT` does"
            .into(),
    )
}

/// One allocated function's outcome.
struct Outcome {
    name: String,
    stats: Option<regalloc::Stats>,
    /// With `--exact`: whether every round of the function was solved to
    /// its optimum within the limit.
    exact: Option<bool>,
    /// Allocation or checker errors (or the reader's), as lines for a person.
    errors: Vec<String>,
    /// The reader rejected the function: it was neither allocated nor checked.
    unread: bool,
}

/// Allocates every read function of the file in place on `jobs` threads;
/// a function that fails is put back as it was read. Checks each result
/// when `check`. Returns the outcomes in file order and, when
/// `time_passes`, the pass times summed over the threads. `progress`
/// counts each function's instructions as it is done.
#[allow(clippy::too_many_arguments)]
fn allocate_file(
    target: &regalloc::target::TargetInfo<'_>,
    file: &mut regalloc::mir::MirFile,
    allocator: regalloc::Allocator,
    post: regalloc::PostPasses,
    check: bool,
    time_passes: bool,
    jobs: usize,
    progress: &Progress,
) -> (Vec<Outcome>, regalloc::timing::PassTimes) {
    use regalloc::mir::FunctionDoc;
    use regalloc::{AllocContext, Options, TargetContext};
    let options = Options {
        allocator,
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
            let instructions = instruction_count(f);
            done.push((
                k,
                allocate_function(&target, &mut ctx, f, &options, post, check),
            ));
            progress.advance(instructions);
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

/// How many instructions `f` has: the measure of the progress bar.
fn instruction_count(f: &regalloc::ir::MachineFunction) -> u64 {
    f.inst_ids().count() as u64
}

/// Allocates one function in place (put back as it was read when it
/// fails), checking the result when `check`.
fn allocate_function(
    target: &regalloc::TargetContext<'_, '_>,
    ctx: &mut regalloc::AllocContext,
    f: &mut regalloc::ir::MachineFunction,
    options: &regalloc::Options,
    post: regalloc::PostPasses,
    check: bool,
) -> Outcome {
    let original = f.clone();
    let mut outcome = Outcome {
        name: f.name.clone(),
        stats: None,
        exact: None,
        errors: Vec::new(),
        unread: false,
    };
    // The checker's original is the function the allocator started from:
    // SSA input after the pre-allocation passes, other input as read.
    let allocated = if check {
        regalloc::allocate_keeping_input(target, ctx, f, options, post)
            .map(|(stats, record, input)| (stats, record, Some(input)))
    } else {
        regalloc::allocate_recorded_with_post(target, ctx, f, options, post)
            .map(|(stats, record)| (stats, record, None))
    };
    match allocated {
        Ok((stats, record, input)) => {
            outcome.stats = Some(stats);
            if let regalloc::Allocator::PbqpExact { .. } = options.allocator {
                let rounds = ctx.take_pbqp_exact_rounds();
                outcome.exact = Some(rounds.iter().all(|r| r.optimum.is_some()));
            }
            if let Some(input) = input
                && let Err(errors) = regalloc::check::check(target.target(), &input, f, &record)
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

/// The statistics of `outcomes`, in file order: a row or JSON record per
/// function (a function that failed says so, with its errors in JSON) and
/// a total over the functions allocated.
fn stats_text(outcomes: &[Outcome], format: StatsFormat) -> String {
    let mut s = String::new();
    let mut total = regalloc::Stats::default();
    if let StatsFormat::Text = format {
        s.push_str(&stats_header());
    }
    for o in outcomes {
        if let Some(st) = &o.stats {
            total.add(st);
        }
        s.push_str(&match format {
            StatsFormat::Text => stats_row(o),
            StatsFormat::Json => stats_record(o),
        });
    }
    let failed = outcomes.iter().filter(|o| !o.errors.is_empty()).count();
    s.push_str(&match format {
        StatsFormat::Text => stats_columns("total", &total),
        StatsFormat::Json => format!(
            "{{\"total\":true,\"functions\":{},\"failed\":{failed},{}}}\n",
            outcomes.len(),
            stats_fields(&total)
        ),
    });
    s
}

/// The text table's column titles.
fn stats_header() -> String {
    format!(
        "{:<32} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>11} {:>11} {:>11} {:>10} {:>10}\n",
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
    )
}

/// One function's text row: its figures, or that it failed.
fn stats_row(o: &Outcome) -> String {
    match (&o.stats, o.errors.len()) {
        (Some(st), 0) => stats_columns(&o.name, st),
        (_, n) => format!(
            "{:<32} failed ({n} error{})\n",
            o.name,
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// A text row of figures under `label`.
fn stats_columns(label: &str, st: &regalloc::Stats) -> String {
    format!(
        "{:<32} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9} {:>11.2} {:>11.2} {:>11.2} {:>10.2} {:>10.2}\n",
        label,
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
    )
}

/// One function's JSON record: its figures when it was allocated, and
/// `"failed":true` with its errors when it failed.
fn stats_record(o: &Outcome) -> String {
    let mut fields = vec![format!("\"function\":{}", json_string(&o.name))];
    if !o.errors.is_empty() {
        let errors: Vec<String> = o.errors.iter().map(|e| json_string(e)).collect();
        fields.push(format!("\"failed\":true,\"errors\":[{}]", errors.join(",")));
    }
    if let Some(st) = &o.stats {
        fields.push(stats_fields(st));
    }
    if let Some(solved) = o.exact {
        fields.push(format!("\"exact\":{solved}"));
    }
    format!("{{{}}}\n", fields.join(","))
}

/// The figures of `st` as JSON fields (without braces).
fn stats_fields(st: &regalloc::Stats) -> String {
    format!(
        "\"spills\":{},\"reloads\":{},\"folded_reloads\":{},\"remats\":{},\"copies\":{},\"inserted_copies\":{},\"spill_cost\":{},\"reload_cost\":{},\"folded_reload_cost\":{},\"remat_cost\":{},\"copy_cost\":{}",
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
    )
}

/// Reads the .mir file `input` for `target`. A file that is not MIR for
/// `target` as a whole (not MIR at all, not UTF-8, another target's) is a
/// failure with status 1, said once.
fn read_input(
    target: &regalloc::target::TargetInfo<'_>,
    input: &Path,
) -> Result<regalloc::mir::MirFile, Failure> {
    let bytes =
        std::fs::read(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    regalloc::mir::read_bytes(target, &input.display().to_string(), &bytes).map_err(|e| Failure {
        text: format!("{e}\n"),
        status: 1,
    })
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
        say_line(&format!(
            "warning: {}: opcode '{op}' (first in function '{f}') is not in the target's description; allocated by what its operands say",
            input.display()
        ));
    }
}

/// What `alloc` and `check` have done before they report: the file as
/// allocated, an outcome per function in file order (those the reader
/// rejected included), and whether every function was read.
struct Allocated {
    file: regalloc::mir::MirFile,
    outcomes: Vec<Outcome>,
    all_read: bool,
}

/// Applies `--mattr` to every read function's features.
fn apply_mattr(
    args: &AllocationArgs,
    target: &regalloc::target::TargetInfo<'_>,
    file: &mut regalloc::mir::MirFile,
) -> Result<(), String> {
    let Some(mattr) = &args.mattr else {
        return Ok(());
    };
    for doc in &mut file.functions {
        if let regalloc::mir::FunctionDoc::Read(f) = doc {
            f.features = target
                .apply_feature_string(f.features, mattr)
                .map_err(|e| format!("--mattr: {e}"))?;
        }
    }
    Ok(())
}

/// Reads, warns of, and allocates (checking each result when `check`)
/// the file of `args`, saying the reader's errors and, with
/// `--time-passes`, the pass table on standard error.
fn allocate_input(
    target: &regalloc::target::TargetInfo<'_>,
    args: &AllocationArgs,
    check: bool,
) -> Result<Allocated, Failure> {
    let mut file = read_input(target, &args.input)?;
    apply_mattr(args, target, &mut file)?;
    warn_unknown_opcodes(&args.input, &file);
    let mut all_read = true;
    for e in file.errors() {
        say_line(&e.to_string());
        all_read = false;
    }
    let instructions: u64 = file.read_functions().map(instruction_count).sum();
    let progress = Progress::for_file(file.read_functions().count(), instructions);
    let (allocated, times) = allocate_file(
        target,
        &mut file,
        args.allocator(),
        regalloc::PostPasses {
            copy_propagation: args.post_ra_copy_prop,
        },
        check,
        args.time_passes,
        args.jobs as usize,
        &progress,
    );
    progress.finish();
    if args.time_passes {
        say_line(&times.to_string());
    }
    let outcomes = with_read_failures(&file, allocated);
    Ok(Allocated {
        file,
        outcomes,
        all_read,
    })
}

/// The outcomes of the read functions (`allocated`, in file order) with
/// one for each function the reader rejected, in its place in the file.
fn with_read_failures(file: &regalloc::mir::MirFile, allocated: Vec<Outcome>) -> Vec<Outcome> {
    use regalloc::mir::FunctionDoc;
    let mut allocated = allocated.into_iter();
    file.functions
        .iter()
        .filter_map(|doc| match doc {
            FunctionDoc::Read(_) => allocated.next(),
            FunctionDoc::Failed { name, error, .. } => Some(Outcome {
                name: name.clone().unwrap_or_default(),
                stats: None,
                exact: None,
                errors: vec![error.to_string()],
                unread: true,
            }),
        })
        .collect()
}

/// `checked: N functions` (`, M rejected` when the checker rejected some):
/// the functions allocated and given to the checker.
fn checked_line(outcomes: &[Outcome]) -> String {
    let allocated = outcomes.iter().filter(|o| o.stats.is_some());
    let checked = allocated.clone().count();
    let rejected = allocated.filter(|o| !o.errors.is_empty()).count();
    let mut s = format!(
        "checked: {checked} function{}",
        if checked == 1 { "" } else { "s" }
    );
    if rejected > 0 {
        s.push_str(&format!(", {rejected} rejected"));
    }
    s
}

/// With `--exact`: how many allocated functions were solved to the
/// optimum in every round, and which were not (their rounds that reached
/// the limit kept the heuristic's solution).
fn exact_line(outcomes: &[Outcome], allocator: regalloc::Allocator) -> Option<String> {
    let regalloc::Allocator::PbqpExact { node_limit } = allocator else {
        return None;
    };
    let solved: Vec<bool> = outcomes.iter().filter_map(|o| o.exact).collect();
    let exact = solved.iter().filter(|&&s| s).count();
    let mut line = format!(
        "pbqp --exact: {exact}/{} functions solved exactly (every round within {node_limit} search nodes)",
        solved.len()
    );
    let limited: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.exact == Some(false))
        .map(|o| o.name.as_str())
        .collect();
    if !limited.is_empty() {
        line.push_str(&format!(
            "; the limit was reached, and the heuristic's solution kept, in: {}",
            limited.join(", ")
        ));
    }
    Some(line)
}

fn alloc(args: &AllocArgs) -> Result<bool, Failure> {
    let target = target_info(args.run.target.target)?;
    let Allocated {
        file,
        outcomes,
        all_read,
    } = allocate_input(target, &args.run, args.check)?;
    let mut ok = all_read;
    // The reader's errors were said as it found them.
    for o in outcomes.iter().filter(|o| !o.unread) {
        for e in &o.errors {
            // The error names the function (and its place in the file).
            say_line(e);
            ok = false;
        }
    }
    let written = regalloc::mir::write(target, &file);
    let stats = stats_text(&outcomes, args.stats);
    match &args.output {
        Some(p) => {
            if ok {
                write_file(p, written.as_bytes()).map_err(Failure::output)?;
            }
            out(&stats);
        }
        None => {
            out(&written);
            say(&stats);
        }
    }
    if args.check {
        say_line(&checked_line(&outcomes));
    }
    if let Some(line) = exact_line(&outcomes, args.run.allocator()) {
        say_line(&line);
    }
    Ok(ok)
}

fn check(args: &CheckArgs) -> Result<bool, Failure> {
    let target = target_info(args.run.target.target)?;
    let Allocated {
        outcomes, all_read, ..
    } = allocate_input(target, &args.run, true)?;
    let mut ok = all_read;
    let mut passed = 0;
    let mut verdicts = String::new();
    let allocated: Vec<&Outcome> = outcomes.iter().filter(|o| !o.unread).collect();
    for o in &allocated {
        if o.errors.is_empty() {
            verdicts.push_str(&format!("{}: ok\n", o.name));
            passed += 1;
        } else {
            verdicts.push_str(&format!("{}: {} error(s)\n", o.name, o.errors.len()));
            for e in &o.errors {
                verdicts.push_str(&format!("  {e}\n"));
            }
            ok = false;
        }
    }
    verdicts.push_str(&format!(
        "{passed}/{} functions allocated and checked\n",
        allocated.len()
    ));
    out(&verdicts);
    if let Some(line) = exact_line(&outcomes, args.run.allocator()) {
        say_line(&line);
    }
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
    let cli = parse_arguments();
    let result = match &cli.command {
        Command::Mir(args) => mir(args),
        Command::Intervals(args) => intervals(args),
        Command::Alloc(args) => alloc(args),
        Command::Check(args) => check(args),
        Command::Cc(args) => cc::cc(args).map_err(Failure::from),
        Command::Passes(args) => passes::passes(args),
        Command::Rdf(args) => rdf::rdf(args),
        Command::View(args) => view::view(args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(failure) => {
            say(&failure.text);
            ExitCode::from(failure.status)
        }
    }
}

/// A usage error clap's declarations cannot express: an option that only
/// one allocator takes, given with another.
fn usage_error(cli: &Cli) -> Option<clap::Error> {
    match &cli.command {
        Command::Alloc(args) => args.run.usage_error(),
        Command::Check(args) => args.run.usage_error(),
        _ => None,
    }
}

/// The command line, or the exit clap's usage error or `--help` asks for;
/// help and version text go through [`out`], so that `--help > /dev/full`
/// fails as any other output would.
fn parse_arguments() -> Cli {
    match Cli::try_parse().and_then(|cli| match usage_error(&cli) {
        Some(e) => Err(e),
        None => Ok(cli),
    }) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            say(&e.render().to_string());
            std::process::exit(e.exit_code());
        }
        Err(e) => {
            out(&e.render().to_string());
            std::process::exit(e.exit_code());
        }
    }
}
