//! Jump tables: the blocks an indirect branch through `%jump-table.N` may reach, and how the table's entries are encoded.
//!
//! A table's entries are [`Block`]s, so they follow the blocks wherever
//! the blocks go: the MIR writer prints them in the same numbering as the
//! body, and the checker compares them block for block. Tables are
//! numbered by position, as LLVM numbers them (`MachineJumpTableInfo`
//! indices): the MIR reader maps the ids a file gives to positions, and a
//! `%jump-table.N` operand ([`Symbol::JumpTable`](super::Symbol)) names
//! position `N`.

use super::ids::Block;

/// How a table's entries are emitted (LLVM's `JTEntryKind`). The allocator
/// does not depend on it; it is kept so the output says what the input
/// said.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum JumpTableKind {
    /// `block-address`: each entry is the address of its block.
    BlockAddress,
    /// `gp-rel64-block-address`: 64-bit offsets from the global pointer.
    GpRel64BlockAddress,
    /// `gp-rel32-block-address`: 32-bit offsets from the global pointer.
    GpRel32BlockAddress,
    /// `label-difference32`: 32-bit offsets from the table's own address
    /// (position-independent code on x86-64, AArch64, Hexagon).
    LabelDifference32,
    /// `label-difference64`: 64-bit offsets from the table's own address.
    LabelDifference64,
    /// `inline`: the table is emitted inline by the target.
    Inline,
    /// `custom32`: a 32-bit encoding the target defines.
    Custom32,
}

impl JumpTableKind {
    /// Every kind, in LLVM's order.
    pub const ALL: [JumpTableKind; 7] = [
        JumpTableKind::BlockAddress,
        JumpTableKind::GpRel64BlockAddress,
        JumpTableKind::GpRel32BlockAddress,
        JumpTableKind::LabelDifference32,
        JumpTableKind::LabelDifference64,
        JumpTableKind::Inline,
        JumpTableKind::Custom32,
    ];

    /// The kind's MIR spelling (`label-difference32`).
    pub fn name(self) -> &'static str {
        match self {
            JumpTableKind::BlockAddress => "block-address",
            JumpTableKind::GpRel64BlockAddress => "gp-rel64-block-address",
            JumpTableKind::GpRel32BlockAddress => "gp-rel32-block-address",
            JumpTableKind::LabelDifference32 => "label-difference32",
            JumpTableKind::LabelDifference64 => "label-difference64",
            JumpTableKind::Inline => "inline",
            JumpTableKind::Custom32 => "custom32",
        }
    }

    /// The kind spelt `name` in MIR, if there is one.
    pub fn from_name(name: &str) -> Option<JumpTableKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One jump table: the block each index jumps to (a block may appear
/// several times; holes in a switch's range jump to its default block).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct JumpTable {
    /// The targets, by index.
    pub blocks: Vec<Block>,
}

/// A function's jump tables (its `jumpTable:` key): one encoding for all.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct JumpTables {
    /// How every table's entries are encoded.
    pub kind: JumpTableKind,
    /// The tables; `%jump-table.N` is `tables[N]`.
    pub tables: Vec<JumpTable>,
}
