//! The `regalloc` command: read, allocate, check and write LLVM MIR.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

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

/// Targets the command knows by name.
#[derive(Copy, Clone, ValueEnum)]
enum Target {
    Bpf,
    X86,
    Aarch64,
    Hexagon,
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

/// The tables for `t`. Until tdgen's emitter generates real tables, BPF is
/// served by the hand-built fixture and the other targets are not available.
fn target_info(t: Target) -> Result<&'static regalloc::target::TargetInfo<'static>, String> {
    match t {
        Target::Bpf => Ok(regalloc::target::fixtures::bpf()),
        Target::X86 | Target::Aarch64 | Target::Hexagon => {
            Err("no tables for this target yet: only --target bpf is available until tdgen emits tables".into())
        }
    }
}

fn mir(args: &MirArgs) -> Result<bool, String> {
    let target = target_info(args.target)?;
    let text = std::fs::read_to_string(&args.input)
        .map_err(|e| format!("cannot read {}: {e}", args.input.display()))?;
    let file = regalloc::mir::read(target, &args.input.display().to_string(), &text);
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
    let text = std::fs::read_to_string(&args.input)
        .map_err(|e| format!("cannot read {}: {e}", args.input.display()))?;
    let file = regalloc::mir::read(target, &args.input.display().to_string(), &text);
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Mir(args) => mir(args),
        Command::Intervals(args) => intervals(args),
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
