//! `regalloc rdf`: the register data-flow graph of each allocated function, printed as LLVM's `-hexagon-rdf-dump` prints it before copy propagation.

use std::path::PathBuf;

use crate::{Failure, TargetArg, print_functions};

#[derive(clap::Args)]
pub(crate) struct RdfArgs {
    #[command(flatten)]
    target: TargetArg,
    /// The allocated .mir file to read.
    input: PathBuf,
    /// Only this function (all functions when absent).
    #[arg(long)]
    function: Option<String>,
}

/// Prints `Starting copy propagation on: NAME` and the graph of each
/// function (or LLVM's notice for a function with more blocks than
/// `rdf-bb-limit`).
pub(crate) fn rdf(args: &RdfArgs) -> Result<bool, Failure> {
    let function = args.function.as_deref();
    print_functions(args.target.target, &args.input, function, function_text)
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
