//! RDF: the register data-flow graph of an allocated function, as LLVM's `DataFlowGraph` builds it for Hexagon's RDF optimiser (`-hexagon-rdf-opt`), generic over targets.
//!
//! Code nodes (the function, its blocks, their statements and phis) own
//! reference nodes (definitions and uses of physical registers). Each
//! reference is linked to the definitions reaching it; each definition to
//! the first definition and use it reaches, and these to their siblings.
//! Registers meet on register units, so `D0` is reached by definitions of
//! `R0` and `R1` (the second link on a shadow copy of the reference). Phis
//! stand for the function's live-ins and sit at the iterated dominance
//! frontiers of the blocks defining a register. Which registers are
//! tracked (all but the reserved ones), which operands are fixed (calls,
//! returns, the description's implicit registers), preserving (predicated
//! definitions) or clobbering (register masks, dead call definitions) comes
//! from the target tables. Node ids are allocation order, as LLVM's, and
//! [`DataFlowGraph::dump`] prints the graph as `-hexagon-rdf-dump` does.
//!
//! [`optimize`] runs LLVM's Hexagon RDF optimiser on the graph: copy
//! propagation (`copy_prop.rs`), dead-code elimination (`dead_code.rs`),
//! then the live-ins and kill flags recomputed.
//!
//! [`Liveness`] computes each block's live-in registers from the graph
//! alone (LLVM's `Liveness::computeLiveIns`: real uses followed up their
//! reaching definitions and through phis) and the kill flags that follow.

mod build;
pub mod copy_prop;
pub mod dead_code;
mod dom;
pub mod graph;
mod liveness;
mod optimize;
mod print;
mod regs;
mod reserved;

pub use build::DataFlowGraph;
pub use liveness::{LiveInDifference, Liveness};
pub use optimize::{RdfOptimization, optimize};
pub use regs::{RegId, RegisterRef};
pub use reserved::reserved_regs;

/// LLVM's `rdf-bb-limit`: Hexagon's RDF optimiser skips functions with more
/// blocks than this.
pub const BLOCK_LIMIT: usize = 1000;
