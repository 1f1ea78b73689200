//! `regalloc rdf`: the register data-flow graph of each allocated function, printed as LLVM's `-hexagon-rdf-dump` prints it before copy propagation, and with `-o` the functions after RDF copy propagation and dead-code elimination.

use std::path::PathBuf;

use regalloc::mir::FunctionDoc;

use crate::output::{say_line, write_file};
use crate::{Failure, TargetArg, print_functions, read_input, target_info};

#[derive(clap::Args)]
pub(crate) struct RdfArgs {
    #[command(flatten)]
    target: TargetArg,
    /// The allocated .mir file to read.
    input: PathBuf,
    /// Only this function (all functions when absent; `-o` writes all).
    #[arg(long)]
    function: Option<String>,
    /// Write every function after RDF copy propagation and dead-code
    /// elimination (LLVM's `hexagon-rdf-opt`) to this file; it is written
    /// only when every function was read.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

/// Prints `Starting copy propagation on: NAME` and the graph of each
/// function (or LLVM's notice for a function with more blocks than
/// `rdf-bb-limit`); with `-o`, writes the optimised file and says what
/// the optimiser did on standard error.
pub(crate) fn rdf(args: &RdfArgs) -> Result<bool, Failure> {
    let function = args.function.as_deref();
    let ok = print_functions(args.target.target, &args.input, function, function_text)?;
    let Some(path) = &args.output else {
        return Ok(ok);
    };
    if !ok {
        // The reader's errors were said (with their locations); a file
        // missing functions is not written.
        return Ok(false);
    }
    let target = target_info(args.target.target)?;
    let mut file = read_input(target, &args.input)?;
    let (mut rewritten, mut removed, mut functions) = (0, 0, 0);
    for doc in &mut file.functions {
        if let FunctionDoc::Read(f) = doc {
            let r = regalloc::rdf::optimize(target, f);
            rewritten += r.rewritten;
            removed += r.removed;
            functions += 1;
        }
    }
    let written = regalloc::mir::write(target, &file);
    write_file(path, written.as_bytes()).map_err(Failure::output)?;
    say_line(&format!(
        "{functions} functions: {rewritten} uses propagated, {removed} instructions removed"
    ));
    Ok(true)
}

/// One function's part of the dump.
fn function_text(
    target: &regalloc::target::TargetInfo<'_>,
    f: &regalloc::ir::MachineFunction,
) -> String {
    if f.blocks.len() > regalloc::rdf::BLOCK_LIMIT {
        return "Skipping Hexagon RDF optimizations: too many basic blocks\n".to_string();
    }
    let reserved = regalloc::rdf::reserved_regs(target, f);
    let g = regalloc::rdf::DataFlowGraph::build(target, f, &reserved);
    format!("Starting copy propagation on: {}\n{}\n", f.name, g.dump())
}
