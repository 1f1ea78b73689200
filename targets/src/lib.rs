//! The four targets (BPF, AArch64, X86-64, Hexagon) described as `.td` files and compiled into regalloc tables.
//!
//! Each module is one `regalloc!` expansion: `TARGET` (a
//! `regalloc::target::TargetInfo<'static>`) and the typed constants
//! `regs::*`, `classes::*`, `sub_regs::*`, `callee_saved::*`, `opcodes::*`;
//! each `<t>.td` includes the register file, the instructions and the
//! spill/reload/copy templates of every allocatable class.
#![deny(missing_docs)]

pub mod aarch64;
pub mod bpf;
pub mod hexagon;
pub mod x86;
