//! Machine IR: functions, blocks, instructions and operands, with index newtypes instead of pointers.
//!
//! A [`MachineFunction`] owns flat tables: blocks in layout order, an
//! instruction arena (blocks list which instructions they hold), virtual
//! registers and stack objects. Opcodes are a target's ([`Op::Target`]) or
//! LLVM's generic pseudos ([`Op::Generic`]). [`Builder`] builds functions;
//! `crate::mir` reads and writes them as LLVM MIR text.

mod builder;
mod function;
mod ids;
mod index_vec;
mod jump_table;
mod memory;
mod opcode;
mod operand;

pub use builder::{Builder, InstBuilder};
pub use function::{
    BlockData, BlockLiveIn, DebugLocation, FnLiveIn, FrameInfo, FrameObject, FramePointerKind,
    InstAttrs, InstData, IrBlockRef, MachineFunction, MiFlags, SourceKey, SourceLocation,
    SourcePositions, StackObjectKind, Succ, VRegData, VRegNumbers,
};
pub use ids::{Block, Inst, VReg};
pub(crate) use index_vec::IndexVec;
pub use jump_table::{JumpTable, JumpTableKind, JumpTables};
pub use memory::{
    AtomicOrdering, LaneType, LowLevelType, MemFlags, MemOperand, MemValue, MetadataId,
};
pub use opcode::{Generic, Op, UnknownOp};
pub use operand::{
    FrameRef, Operand, RegFlags, RegMask, RegOperand, RegRef, Symbol, SymbolOperand,
};
