//! The four targets (BPF, AArch64, X86-64, Hexagon) described as `.td` files and compiled into regalloc tables.
#![deny(missing_docs)]
