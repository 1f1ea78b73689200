//! The `tdgen` command: check a `.td` file, print its records (as text or llvm-tblgen-style JSON), format `.td` files.
//!
//! Output that cannot be written never panics. Exit statuses:
//! 0 success; 1 errors in the input, or output that cannot be written
//! (`> /dev/full`: the error is said on standard error); 2 a usage error;
//! 141 a reader closed standard output or standard error before tdgen was
//! done (`tdgen records big.td | head -1`), the status a shell reports for a
//! command that SIGPIPE ended, said on no stream since none is listening.
use clap::{Parser, Subcommand};
use std::io::{ErrorKind, Write};
use std::path::PathBuf;
use std::process::ExitCode;

mod fmt_command;

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

/// The exit status when a reader closed one of our output streams early:
/// 128 + SIGPIPE, what a shell reports for a command that signal ended.
const EXIT_CLOSED_PIPE: i32 = 141;

/// A TableGen-compatible target-description compiler.
#[derive(Parser)]
#[command(
    name = "tdgen",
    version,
    about,
    after_help = "Exit status: 0 success; 1 errors in the input, or output that cannot be \
                  written; 2 a usage error; 141 a reader closed standard output or standard \
                  error early (as for a command ended by SIGPIPE)."
)]
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
        /// With --json: print it as llvm-tblgen does, on one line with every
        /// object's keys sorted, so that the two outputs compare byte for byte.
        #[arg(long, requires = "json")]
        canonical: bool,
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
    /// Format .td files (the style: `tdgen::fmt`'s docs). In place by default, each file written whole or not at all.
    Fmt {
        /// Files, or directories (every `.td` file under them); `-` reads standard input and writes standard output.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Write nothing: list the files that would change, exit 1 if any would.
        #[arg(long, conflicts_with = "output")]
        check: bool,
        /// Write the formatted text here instead (one input file only; `-` is standard output).
        #[arg(short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
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
    let cli = parse_arguments();
    let (input, json, print) = match &cli.command {
        Command::Records {
            input,
            json,
            canonical,
        } => (input, json.then_some(*canonical), true),
        Command::Regs { input, json } => return regs(input, *json),
        Command::Check { input } => (input, None, false),
        Command::Emit {
            input,
            output,
            krate,
        } => return emit(input, output.as_deref(), krate),
        Command::Fmt {
            paths,
            check,
            output,
        } => return fmt_command::run(paths, *check, output.as_deref()),
    };
    let (loader, mut result) = load(input);
    // `check` also checks what the records describe: a file with registers
    // gets the whole target model (classes, callee-saved sets, reserved
    // registers, instructions and their constraints, spill templates) built
    // and its diagnostics reported, and the tables laid out, which checks
    // the AltOrderSelect fragments (the language, the features they name,
    // the orders they can pick) and what must fit the tables.
    if !print
        && let Ok(rk) = &result
        && !rk.derived_defs("Register").is_empty()
    {
        let checked = tdgen::target::TargetModel::build(rk)
            .and_then(|m| tdgen::emit::Tables::from_model(rk, &m, None).map(|_| ()));
        if let Err(diags) = checked {
            result = Err(diags);
        }
    }
    match result {
        Ok(rk) => {
            // Notes and warnings: worth showing, not worth failing for.
            say_if_possible(&loader.render(&rk.diags));
            if print {
                if let Some(canonical) = json {
                    out(&records_json_text(&rk, canonical));
                } else {
                    out(&tdgen::records::print::records_text(&rk));
                }
            }
            ExitCode::SUCCESS
        }
        Err(diags) => failed(&loader, &input.file, &diags),
    }
}

/// The records as JSON: pretty, or (`canonical`) in llvm-tblgen's own layout:
/// compact, keys sorted byte-wise (llvm::json prints objects sorted).
fn records_json_text(rk: &tdgen::RecordKeeper, canonical: bool) -> String {
    let mut v = tdgen::records::to_json(rk);
    let mut text = if canonical {
        sort_keys(&mut v);
        serde_json::to_string(&v)
    } else {
        serde_json::to_string_pretty(&v)
    }
    .expect("JSON values always serialize");
    text.push('\n');
    text
}

/// Sorts every object's keys, recursively.
fn sort_keys(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_keys);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

/// The command line, or the exit clap's usage error or `--help` asks for;
/// help and version text go through [`out`], so that `--help > /dev/full`
/// fails as any other output would.
fn parse_arguments() -> Cli {
    match Cli::try_parse() {
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

/// Reports a file's diagnostics and how many errors there were; exit status 1.
fn failed(loader: &tdgen::Loader, file: &std::path::Path, diags: &[tdgen::Diagnostic]) -> ExitCode {
    say(&loader.render(diags));
    say(&summary(
        file,
        diags,
        loader.errors_not_shown(),
        loader.errors_beyond_limit(),
    ));
    ExitCode::FAILURE
}

/// `error: FILE found N errors`, how many more followed from them
/// (`; 3 more follow from it and are not shown`), and whether only the
/// first ones are shown.
fn summary(
    file: &std::path::Path,
    diags: &[tdgen::Diagnostic],
    not_shown: usize,
    beyond_limit: usize,
) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count() + beyond_limit;
    tdgen::diag::summary_line_with_limit(file, errors, not_shown, beyond_limit)
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
        Err(diags) => failed(&loader, &input.file, &diags),
    }
}

/// Writes to standard output. A closed pipe ends the process quietly with
/// status 141; any other failure (a full disk) is said on standard error,
/// status 1.
fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(EXIT_CLOSED_PIPE);
        }
        say(&format!("error: cannot write to standard output: {e}\n"));
        std::process::exit(1);
    }
}

/// Writes diagnostics to standard error. A closed pipe ends the process
/// with status 141; a standard error that cannot be written at all (closed
/// with `2>&-`) leaves nowhere to say anything: status 1.
fn say(text: &str) {
    if let Err(e) = write_stderr(text) {
        std::process::exit(if e.kind() == ErrorKind::BrokenPipe {
            EXIT_CLOSED_PIPE
        } else {
            1
        });
    }
}

/// Like [`say`], for text whose loss does not change the outcome (notes
/// and warnings of a successful run): only a closed pipe ends the process.
fn say_if_possible(text: &str) {
    if let Err(e) = write_stderr(text)
        && e.kind() == ErrorKind::BrokenPipe
    {
        std::process::exit(EXIT_CLOSED_PIPE);
    }
}

fn write_stderr(text: &str) -> std::io::Result<()> {
    if text.is_empty() {
        return Ok(());
    }
    let mut stderr = std::io::stderr().lock();
    stderr
        .write_all(text.as_bytes())
        .and_then(|()| stderr.flush())
}

fn emit(input: &Input, output: Option<&std::path::Path>, krate: &str) -> ExitCode {
    // Comments name files relative to the directory tdgen runs in.
    let base = std::env::current_dir().ok();
    let compiled = match tdgen::emit::compile(&input.file, &input.include, base.as_deref()) {
        Ok(c) => c,
        Err(f) => {
            say(&f.rendered);
            // emit's failure does not carry the count past the limit.
            say(&summary(&input.file, &f.diagnostics, f.not_shown, 0));
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
            say(&format!("error: {e}\n"));
            return ExitCode::FAILURE;
        }
    };
    match output {
        Some(p) => {
            if let Err(e) = std::fs::write(p, &text) {
                say(&format!("error: cannot write '{}': {e}\n", p.display()));
                return ExitCode::FAILURE;
            }
        }
        None => out(&text),
    }
    ExitCode::SUCCESS
}
