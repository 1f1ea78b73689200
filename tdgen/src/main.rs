//! The `tdgen` command: check a `.td` file, print its records (as text or llvm-tblgen-style JSON).
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

// Evaluation allocates many small values; mimalloc is markedly faster at that than the system allocator.
#[global_allocator]
static GLOBAL: tdgen::alloc::Allocator = tdgen::alloc::Allocator;

/// Tunes mimalloc for a short-lived process that grows and drops large
/// buffers (pest's token queue, record tables) over and over: freed memory
/// is kept for reuse instead of being handed back to the OS after 10 ms
/// (`mi_option_purge_delay` = -1), and arenas do not ask for transparent
/// huge pages (`mi_option_allow_thp` = 0), each of whose first touch zeroes
/// 2 MiB. Without this, page faults cost as much system time as the parse.
/// The option numbers are positions in mimalloc 3's `mi_option_e` (the
/// version libmimalloc-sys builds by default); mimalloc ignores an option
/// number it does not know.
fn keep_freed_memory() {
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;
    // SAFETY: mi_option_set only stores an option value; any thread may call it at any time.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0);
    }
}

/// A TableGen-compatible target-description compiler.
#[derive(Parser)]
#[command(name = "tdgen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Input {
    /// The .td file.
    file: PathBuf,
    /// Include directories, searched after the including file's directory and before tdgen's prelude.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Preprocessor macros to define.
    #[arg(short = 'D', value_name = "NAME")]
    define: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Print the evaluated records.
    Records {
        #[command(flatten)]
        input: Input,
        /// Print JSON in the shape of `llvm-tblgen -dump-json`.
        #[arg(long)]
        json: bool,
    },
    /// Print the register facts: registers, units, sub-register indices, classes, callee-saved sets.
    Regs {
        #[command(flatten)]
        input: Input,
        /// Print the facts document of shared/oracle/README.md (the shape of facts.py's output).
        #[arg(long)]
        json: bool,
    },
    /// Write the Rust tables (`TargetInfo` statics and typed constants) the `regalloc!` macro would generate.
    Emit {
        #[command(flatten)]
        input: Input,
        /// Output file (default: standard output).
        #[arg(short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// The path generated code uses for the table types.
        #[arg(long = "crate", value_name = "PATH", default_value = "::regalloc")]
        krate: String,
    },
    /// Check a file (its records and, when it describes registers, the target model): print diagnostics only, exit non-zero on error.
    Check {
        #[command(flatten)]
        input: Input,
    },
}

fn load(
    input: &Input,
) -> (
    tdgen::Loader,
    Result<tdgen::RecordKeeper, Vec<tdgen::Diagnostic>>,
) {
    let mut loader = tdgen::Loader::new();
    for d in &input.include {
        loader.include_dir(d);
    }
    // tdgen's prelude (`include "regalloc.td"`) is found without -I, after
    // the directories given, as the macro and the build-script API find it.
    loader.include_dir(tdgen::emit::prelude_dir());
    for d in &input.define {
        loader.define(d);
    }
    let r = loader.records(&input.file);
    (loader, r)
}

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
    let (input, json, print) = match &cli.command {
        Command::Records { input, json } => (input, *json, true),
        Command::Regs { input, json } => return regs(input, *json),
        Command::Check { input } => (input, false, false),
        Command::Emit {
            input,
            output,
            krate,
        } => return emit(input, output.as_deref(), krate),
    };
    let (loader, mut result) = load(input);
    // `check` also checks what the records describe: a file with registers
    // gets the whole target model (classes, callee-saved sets, reserved
    // registers, instructions and their constraints, spill templates) built
    // and its diagnostics reported.
    if !print
        && let Ok(rk) = &result
        && !rk.derived_defs("Register").is_empty()
        && let Err(diags) = tdgen::target::TargetModel::build(rk)
    {
        result = Err(diags);
    }
    match result {
        Ok(rk) => {
            let notes = loader.render(&rk.diags);
            eprint!("{notes}");
            if print {
                if json {
                    let v = tdgen::records::to_json(&rk);
                    out(&format!(
                        "{}\n",
                        serde_json::to_string_pretty(&v).expect("JSON values always serialize")
                    ));
                } else {
                    out(&tdgen::records::print::records_text(&rk));
                }
            }
            ExitCode::SUCCESS
        }
        Err(diags) => {
            eprint!("{}", loader.render(&diags));
            let n = diags.iter().filter(|d| d.is_error()).count();
            eprintln!(
                "error: {} found {n} error{}",
                input.file.display(),
                if n == 1 { "" } else { "s" }
            );
            ExitCode::FAILURE
        }
    }
}

fn regs(input: &Input, json: bool) -> ExitCode {
    let (loader, result) = load(input);
    let model = result.and_then(|rk| tdgen::target::TargetModel::build(&rk));
    match model {
        Ok(m) => {
            if json {
                let v = tdgen::target::facts::to_json(&m);
                out(&format!(
                    "{}\n",
                    serde_json::to_string_pretty(&v).expect("JSON values always serialize")
                ));
            } else {
                out(&tdgen::target::summary(&m));
            }
            ExitCode::SUCCESS
        }
        Err(diags) => {
            eprint!("{}", loader.render(&diags));
            let n = diags.iter().filter(|d| d.is_error()).count();
            eprintln!(
                "error: {} found {n} error{}",
                input.file.display(),
                if n == 1 { "" } else { "s" }
            );
            ExitCode::FAILURE
        }
    }
}

/// Writes to stdout; a closed pipe (`tdgen ... | head`) ends the output quietly.
fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: writing the output failed: {e}");
        std::process::exit(1);
    }
}

fn emit(input: &Input, output: Option<&std::path::Path>, krate: &str) -> ExitCode {
    // Comments name files relative to the directory tdgen runs in.
    let base = std::env::current_dir().ok();
    let compiled = match tdgen::emit::compile(&input.file, &input.include, base.as_deref()) {
        Ok(c) => c,
        Err(f) => {
            eprint!("{}", f.rendered);
            let n = f.diagnostics.iter().filter(|d| d.is_error()).count();
            eprintln!(
                "error: {} found {n} error{}",
                input.file.display(),
                if n == 1 { "" } else { "s" }
            );
            return ExitCode::FAILURE;
        }
    };
    let opts = tdgen::emit::Options {
        crate_path: krate.to_string(),
        base_dir: base,
    };
    let text = match tdgen::emit::to_source(&compiled.tables, &opts) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let written = match output {
        Some(p) => {
            std::fs::write(p, &text).map_err(|e| format!("could not write '{}': {e}", p.display()))
        }
        None => {
            use std::io::Write as _;
            std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(|e| e.to_string())
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
