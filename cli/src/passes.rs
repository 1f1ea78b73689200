//! `regalloc passes`: LLVM's pre-allocation passes on SSA MIR, stopped after one of them, the intermediate MIR written out.
//!
//! The output is meant to be diffed with
//! `llc-19 -O2 <flags> -start-before=detect-dead-lanes -stop-after=NAME`
//! on the same input (both sides canonicalized with `llc-19
//! -run-pass=none`, which numbers blocks in layout order). Each function
//! runs the passes it still needs, decided from its code
//! (`regalloc::passes::first_needed`); one a pass refuses is reported with
//! its error and written back as it was read.

use std::path::PathBuf;

use regalloc::mir::FunctionDoc;
use regalloc::passes::Pass;

use crate::output::{out, say_line, write_file};
use crate::{Failure, Target, target_info};

#[derive(clap::Args)]
pub(crate) struct PassesArgs {
    /// The target whose register and instruction names the file uses.
    #[arg(long)]
    target: Target,
    /// The last pass to run, by LLVM's name (`detect-dead-lanes`,
    /// `processimpdefs`, `unreachable-mbb-elimination`, `livevars`, `phi-node-elimination`, `twoaddressinstruction`,
    /// `register-coalescer`).
    #[arg(long = "stop-after", value_parser = parse_pass)]
    stop_after: Pass,
    /// The SSA .mir file to read.
    input: PathBuf,
    /// Where to write the result (standard output when absent).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// A pass by its LLVM name, or the list of those that exist.
fn parse_pass(name: &str) -> Result<Pass, String> {
    Pass::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
        format!(
            "unknown pass '{name}': expected one of {}",
            names.join(", ")
        )
    })
}

/// Runs the passes on every function of the file; false when some
/// function could not be read or was refused by a pass, and then nothing
/// is written (as `alloc` does, no `-o` file is left behind).
pub(crate) fn passes(args: &PassesArgs) -> Result<bool, Failure> {
    let target = target_info(args.target)?;
    let mut file = crate::read_input(target, &args.input)?;
    let mut ok = true;
    for e in file.errors() {
        say_line(&e.to_string());
        ok = false;
    }
    for doc in &mut file.functions {
        let FunctionDoc::Read(func) = doc else {
            continue;
        };
        let mut done = func.clone();
        match regalloc::pipeline::prepare(target, &mut done, args.stop_after) {
            Ok(_) => *func = done,
            Err(e) => {
                say_line(&e.to_string());
                ok = false;
            }
        }
    }
    if !ok {
        return Ok(false);
    }
    let text = regalloc::mir::write(target, &file);
    match &args.output {
        Some(path) => write_file(path, text.as_bytes())?,
        None => out(&text),
    }
    Ok(true)
}
