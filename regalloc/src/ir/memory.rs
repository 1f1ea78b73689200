//! Memory operands (`:: (load (s64) from %ir.p, !tbaa !5)`) as typed values: what LLVM's `MachineMemOperand` says about one access of an instruction, and whether every access of an instruction is a load of memory that does not change (LLVM's `isDereferenceableInvariantLoad`), so that the load may be re-executed anywhere.
//!
//! `crate::mir` reads them from MIR text and prints them back as LLVM 19
//! prints them; nothing after the reader looks at text. Parts the
//! allocators never ask about are still typed (metadata by id, a constant
//! expression's IR text as one opaque value), so that printing is exact.

use super::operand::FrameRef;

/// A reference to a numbered metadata node of the file's IR module (`!5`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MetadataId(pub u32);

/// What kind of access a memory operand describes, and its flags, as
/// MIR spells them before the access's type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MemFlags(pub u8);

impl MemFlags {
    /// `load`: the instruction reads the memory.
    pub const LOAD: MemFlags = MemFlags(1);
    /// `store`: the instruction writes the memory.
    pub const STORE: MemFlags = MemFlags(1 << 1);
    /// `volatile`.
    pub const VOLATILE: MemFlags = MemFlags(1 << 2);
    /// `non-temporal`.
    pub const NON_TEMPORAL: MemFlags = MemFlags(1 << 3);
    /// `dereferenceable`: the address may be read anywhere without faulting.
    pub const DEREFERENCEABLE: MemFlags = MemFlags(1 << 4);
    /// `invariant`: the memory does not change while the function runs.
    pub const INVARIANT: MemFlags = MemFlags(1 << 5);

    /// Whether every flag of `f` is set.
    #[inline]
    pub const fn has(self, f: MemFlags) -> bool {
        self.0 & f.0 == f.0
    }
}

impl std::ops::BitOr for MemFlags {
    type Output = MemFlags;
    fn bitor(self, o: MemFlags) -> MemFlags {
        MemFlags(self.0 | o.0)
    }
}

/// The ordering of an atomic access (LLVM's `AtomicOrdering`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum AtomicOrdering {
    /// Not atomic (nothing printed).
    #[default]
    NotAtomic,
    /// `unordered`.
    Unordered,
    /// `monotonic`.
    Monotonic,
    /// `acquire`.
    Acquire,
    /// `release`.
    Release,
    /// `acq_rel`.
    AcquireRelease,
    /// `seq_cst`.
    SequentiallyConsistent,
}

impl AtomicOrdering {
    /// The orderings MIR spells, in LLVM's order.
    pub const ATOMIC: [AtomicOrdering; 6] = [
        AtomicOrdering::Unordered,
        AtomicOrdering::Monotonic,
        AtomicOrdering::Acquire,
        AtomicOrdering::Release,
        AtomicOrdering::AcquireRelease,
        AtomicOrdering::SequentiallyConsistent,
    ];

    /// Its MIR keyword; empty for [`AtomicOrdering::NotAtomic`].
    pub fn name(self) -> &'static str {
        match self {
            AtomicOrdering::NotAtomic => "",
            AtomicOrdering::Unordered => "unordered",
            AtomicOrdering::Monotonic => "monotonic",
            AtomicOrdering::Acquire => "acquire",
            AtomicOrdering::Release => "release",
            AtomicOrdering::AcquireRelease => "acq_rel",
            AtomicOrdering::SequentiallyConsistent => "seq_cst",
        }
    }

    /// The ordering spelled `name`, if it is one.
    pub fn from_name(name: &str) -> Option<AtomicOrdering> {
        Self::ATOMIC.into_iter().find(|o| o.name() == name)
    }

    /// Whether the access is ordered with others (more than a plain or
    /// `unordered` access, as LLVM's `isUnordered` sees it).
    pub fn is_ordered(self) -> bool {
        !matches!(self, AtomicOrdering::NotAtomic | AtomicOrdering::Unordered)
    }
}

/// One lane of a vector [`LowLevelType`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LaneType {
    /// `sN`: an N-bit scalar.
    Scalar(u32),
    /// `pA`: a pointer in address space A.
    Pointer(u32),
}

/// The type of the memory accessed, as GlobalISel's `LLT` (`s64`, `p0`,
/// `<4 x s32>`, `<vscale x 2 x s64>`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LowLevelType {
    /// `sN`: an N-bit scalar.
    Scalar(u32),
    /// `pA`: a pointer in address space A (its width is the data
    /// layout's).
    Pointer(u32),
    /// `<N x T>` or, when scalable, `<vscale x N x T>`.
    Vector {
        /// The number of lanes (the minimum, when scalable).
        lanes: u32,
        /// Whether the lane count is a multiple of the hardware's `vscale`.
        scalable: bool,
        /// The type of a lane.
        lane: LaneType,
    },
}

/// The IR value the address is based on (LLVM's `MachinePointerInfo`:
/// an IR value or a pseudo source value).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MemValue {
    /// `%ir.NAME`: a named IR value of the function, as spelled after
    /// `%ir.` (quotes included when quoted).
    IrNamed(Box<str>),
    /// `%ir.N`: an unnamed IR value of the function, by slot number.
    IrNumbered(u32),
    /// `@NAME`: a global value, as spelled after `@`.
    Global(Box<str>),
    /// `` `ptr getelementptr (...)` ``: an IR constant, its text between
    /// the backquotes (never looked into).
    Constant(Box<str>),
    /// `%stack.N` or `%fixed-stack.N`: a frame object (the name a named
    /// stack object prints with is the object's).
    Frame(FrameRef),
    /// `stack`: the stack, addressed from the stack pointer (outgoing
    /// call arguments).
    Stack,
    /// `got`: the global offset table.
    Got,
    /// `jump-table`: the function's jump tables.
    JumpTable,
    /// `constant-pool`: the function's constant pool.
    ConstantPool,
    /// `call-entry @NAME`: the call entry of a global.
    GlobalCallEntry(Box<str>),
    /// `call-entry &NAME`: the call entry of an external symbol.
    ExternalCallEntry(Box<str>),
    /// `custom "TEXT"`: a target's own pseudo value, its text between the
    /// quotes.
    Custom(Box<str>),
}

impl MemValue {
    /// Whether no instruction of the function writes this memory (LLVM's
    /// `PseudoSourceValue::isConstant` for the constant pool, the GOT and
    /// jump tables).
    pub fn is_constant(&self) -> bool {
        matches!(
            self,
            MemValue::ConstantPool | MemValue::Got | MemValue::JumpTable
        )
    }
}

/// One memory access of an instruction (LLVM's `MachineMemOperand`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MemOperand {
    /// Load, store (both: an atomic read-modify-write), and the flags.
    pub flags: MemFlags,
    /// A target's own flags (`"aarch64-suppress-pair"`), by name, in the
    /// order written (printed after the common flags).
    pub target_flags: Box<[Box<str>]>,
    /// The synchronization scope of an atomic access, as written between
    /// the quotes of `syncscope("...")`; `None` for the whole system.
    pub sync_scope: Option<Box<str>>,
    /// The ordering of an atomic access (the success ordering of a
    /// compare-exchange).
    pub ordering: AtomicOrdering,
    /// The failure ordering of a compare-exchange.
    pub failure_ordering: AtomicOrdering,
    /// The type accessed; `None` for `unknown-size`.
    pub ty: Option<LowLevelType>,
    /// The value the address is based on; `None` when unknown (MIR prints
    /// `unknown-address` when the offset is not 0, else nothing).
    pub value: Option<MemValue>,
    /// The byte offset from the value.
    pub offset: i64,
    /// `align N` as the text gives it. LLVM's printer writes it only when
    /// the alignment differs from the access size, which needs the data
    /// layout's pointer width to know; the text already says it.
    pub align: Option<u64>,
    /// `basealign N` as the text gives it (printed by LLVM when it differs
    /// from the alignment).
    pub base_align: Option<u64>,
    /// The address space, 0 for the default one (not printed).
    pub address_space: u32,
    /// `!tbaa`: type-based alias information.
    pub tbaa: Option<MetadataId>,
    /// `!alias.scope`.
    pub alias_scope: Option<MetadataId>,
    /// `!noalias`.
    pub noalias: Option<MetadataId>,
    /// `!range`: the range of values a load gives.
    pub range: Option<MetadataId>,
}

impl MemOperand {
    /// A plain access of `bits` bits to frame object `slot` (a spill
    /// slot's store or reload): `access` is [`MemFlags::LOAD`] or
    /// [`MemFlags::STORE`].
    pub fn frame_access(access: MemFlags, bits: u32, slot: FrameRef) -> MemOperand {
        MemOperand {
            flags: access,
            ty: Some(LowLevelType::Scalar(bits)),
            value: Some(MemValue::Frame(slot)),
            ..MemOperand::default()
        }
    }

    /// Whether this is a load of memory that does not change: not
    /// volatile, not ordered, not a store, and either marked
    /// `dereferenceable invariant` or read from a constant pseudo value
    /// (constant pool, GOT, jump table).
    pub fn is_invariant_load(&self) -> bool {
        let f = self.flags;
        if !f.has(MemFlags::LOAD)
            || f.has(MemFlags::STORE)
            || f.has(MemFlags::VOLATILE)
            || self.ordering.is_ordered()
            || self.failure_ordering.is_ordered()
        {
            return false;
        }
        f.has(MemFlags::INVARIANT | MemFlags::DEREFERENCEABLE)
            || self.value.as_ref().is_some_and(MemValue::is_constant)
    }
}

impl super::InstData {
    /// Whether the instruction's memory accesses are all loads of memory
    /// that does not change (see [`MemOperand::is_invariant_load`]);
    /// `false` when it has no memory operand, since nothing then says what
    /// it reads.
    pub fn is_invariant_load(&self) -> bool {
        !self.mem.is_empty() && self.mem.iter().all(MemOperand::is_invariant_load)
    }
}

#[cfg(test)]
mod tests {
    use super::{AtomicOrdering, LowLevelType, MemFlags, MemOperand, MemValue};
    use crate::ir::FrameRef;

    fn load(value: MemValue) -> MemOperand {
        MemOperand {
            flags: MemFlags::LOAD,
            ty: Some(LowLevelType::Scalar(64)),
            value: Some(value),
            ..MemOperand::default()
        }
    }

    #[test]
    fn constant_sources_and_invariant_dereferenceable_loads_are_invariant() {
        for v in [MemValue::ConstantPool, MemValue::Got, MemValue::JumpTable] {
            assert!(load(v).is_invariant_load());
        }
        let mut m = load(MemValue::IrNamed("p".into()));
        m.flags = m.flags | MemFlags::INVARIANT | MemFlags::DEREFERENCEABLE;
        assert!(m.is_invariant_load());
        let mut m = load(MemValue::ConstantPool);
        m.ordering = AtomicOrdering::Unordered;
        m.offset = 16;
        assert!(m.is_invariant_load());
    }

    #[test]
    fn other_loads_and_stores_are_not() {
        let ir = || MemValue::IrNamed("p".into());
        assert!(!load(ir()).is_invariant_load());
        let mut m = load(ir());
        m.flags = m.flags | MemFlags::INVARIANT;
        assert!(!m.is_invariant_load(), "invariant alone");
        let mut m = load(ir());
        m.flags = m.flags | MemFlags::DEREFERENCEABLE;
        assert!(!m.is_invariant_load(), "dereferenceable alone");
        let mut m = load(MemValue::ConstantPool);
        m.flags = m.flags | MemFlags::VOLATILE;
        assert!(!m.is_invariant_load(), "volatile");
        let mut m = load(MemValue::Got);
        m.ordering = AtomicOrdering::Acquire;
        assert!(!m.is_invariant_load(), "ordered");
        let mut m = load(MemValue::Got);
        m.failure_ordering = AtomicOrdering::Monotonic;
        assert!(!m.is_invariant_load(), "ordered on failure");
        let mut m = load(MemValue::ConstantPool);
        m.flags = MemFlags::STORE;
        assert!(!m.is_invariant_load(), "store");
        let mut m = load(ir());
        m.flags = MemFlags::LOAD | MemFlags::STORE;
        assert!(!m.is_invariant_load(), "load store");
        let frame = |fixed| FrameRef { fixed, id: 0 };
        assert!(!load(MemValue::Frame(frame(false))).is_invariant_load());
        assert!(!load(MemValue::Frame(frame(true))).is_invariant_load());
        let mut m = load(MemValue::ConstantPool);
        m.value = None;
        assert!(!m.is_invariant_load(), "unknown address");
    }

    #[test]
    fn a_frame_access_is_a_plain_scalar_access_of_the_slot() {
        let slot = FrameRef {
            fixed: false,
            id: 3,
        };
        let m = MemOperand::frame_access(MemFlags::STORE, 64, slot);
        assert_eq!(m.flags, MemFlags::STORE);
        assert_eq!(m.ty, Some(LowLevelType::Scalar(64)));
        assert_eq!(m.value, Some(MemValue::Frame(slot)));
        assert_eq!((m.offset, m.align, m.base_align), (0, None, None));
    }
}
