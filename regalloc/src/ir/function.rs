//! `MachineFunction` and what it owns: blocks, instructions, virtual registers, frame objects, live-ins.

use crate::target::{LaneMask, MemoryFoldDesc, Reg, RegClass, TargetInfo, TemplateOperand};

use std::num::NonZeroU32;

use super::ids::{Block, Inst, VReg};
use super::jump_table::JumpTables;
use super::memory::{MemOperand, MetadataId};
use super::opcode::Op;
use super::operand::{Operand, RegOperand, RegRef};

/// Instruction-level flags printed before the opcode (`frame-setup`, `nsw`...).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MiFlags(pub u32);

impl MiFlags {
    /// The MIR keywords, bit `i` of the mask being `NAMES[i]`, in the order
    /// LLVM prints them.
    pub const NAMES: &'static [&'static str] = &[
        "frame-setup",
        "frame-destroy",
        "nnan",
        "ninf",
        "nsz",
        "arcp",
        "contract",
        "afn",
        "reassoc",
        "nuw",
        "nsw",
        "exact",
        "nofpexcept",
        "nomerge",
        "unpredictable",
        "noconvergent",
        "nneg",
        "disjoint",
        "samesign",
    ];

    /// The flag spelled `name`, if it is one.
    pub fn from_name(name: &str) -> Option<MiFlags> {
        Self::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| MiFlags(1 << i))
    }

    /// The names of the set flags, in printing order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::NAMES
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
    }
}

/// Where an instruction comes from in the source (`debug-location`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DebugLocation {
    /// `!N`: a `DILocation` node of the IR module.
    Node(MetadataId),
    /// `!DILocation(...)`: a location written in place, its text from
    /// `!DILocation` to the closing parenthesis (never looked into).
    Inline(Box<str>),
}

/// What an instruction carries after its operands, each at most once,
/// printed in this order (LLVM's `MachineInstr` extra information).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct InstAttrs {
    /// `pre-instr-symbol <mcsymbol NAME>`: a label placed before the
    /// instruction, by its symbol name.
    pub pre_instr_symbol: Option<Box<str>>,
    /// `post-instr-symbol <mcsymbol NAME>`: a label placed after it.
    pub post_instr_symbol: Option<Box<str>>,
    /// `heap-alloc-marker !N`: the call allocates on the heap.
    pub heap_alloc_marker: Option<MetadataId>,
    /// `pcsections !N`: the sections the instruction's address is
    /// recorded in.
    pub pc_sections: Option<MetadataId>,
    /// `cfi-type N`: the control-flow-integrity type id of an indirect
    /// call (LLVM reads 0 as none).
    pub cfi_type: Option<NonZeroU32>,
    /// `debug-instr-number N`: the number debug instructions refer to the
    /// instruction's values by (LLVM reads 0 as none).
    pub debug_instr_number: Option<NonZeroU32>,
    /// `debug-location`: the source location.
    pub debug_location: Option<DebugLocation>,
}

impl InstAttrs {
    /// Whether it carries nothing.
    pub fn is_empty(&self) -> bool {
        *self == InstAttrs::default()
    }
}

/// One machine instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstData {
    /// What it does.
    pub op: Op,
    /// Operands: explicit definitions, explicit uses, then implicit ones.
    pub operands: Vec<Operand>,
    /// Flags printed before the opcode.
    pub flags: MiFlags,
    /// What follows the operands (symbols, markers, the debug-instruction
    /// number, the location); `None` when nothing does, never an empty
    /// set (boxed: few instructions carry any).
    pub attrs: Option<Box<InstAttrs>>,
    /// Memory operands (`(load (s64) from %ir.p, !tbaa !5)`).
    pub mem: Vec<MemOperand>,
}

impl InstData {
    /// An instruction with no operands or flags.
    pub fn new(op: Op) -> InstData {
        InstData {
            op,
            operands: Vec::new(),
            flags: MiFlags::default(),
            attrs: None,
            mem: Vec::new(),
        }
    }

    /// Drops the instruction's `debug-instr-number`: a copy of an
    /// instruction defines other values, and a number names one
    /// instruction's.
    pub fn forget_debug_instr_number(&mut self) {
        if let Some(a) = self.attrs.as_deref_mut() {
            a.debug_instr_number = None;
            if a.is_empty() {
                self.attrs = None;
            }
        }
    }

    /// Whether every implicit definition of `fold`'s register form (this
    /// instruction's opcode) that its memory form lacks is `dead` here:
    /// x86's `MOV32r0` clobbers the flags, the `MOV32mi` it folds into does
    /// not, so a live flags value would be lost. The operand stays on the
    /// folded instruction, a dead definition of a register it leaves alone.
    pub fn fold_loses_no_live_def(&self, t: &TargetInfo<'_>, fold: &MemoryFoldDesc<'_>) -> bool {
        let (Some(reg), Some(mem)) = (
            t.instrs.get(fold.reg_form.index()),
            t.instrs.get(fold.mem_form.index()),
        ) else {
            return false;
        };
        reg.implicit_defs
            .iter()
            .filter(|d| !mem.implicit_defs.contains(d))
            .all(|&d| {
                self.operands.iter().any(|o| {
                    o.as_reg().is_some_and(|r| {
                        r.is_implicit()
                            && r.is_def()
                            && r.reg == RegRef::Phys(d)
                            && r.flags.has(super::operand::RegFlags::DEAD)
                    })
                })
            })
    }

    /// Rewrites this instruction (of `fold`'s register form) into `fold`'s
    /// memory form accessing frame object `%stack.slot` in place of
    /// explicit operand `operand` (and the use tied to it, for a folded
    /// read-modify-write); ties between the other operands follow their
    /// operands. Returns the position of the frame-index operand.
    pub fn fold_memory_operand(
        &mut self,
        fold: &MemoryFoldDesc<'_>,
        operand: usize,
        slot: u32,
    ) -> usize {
        // The target validated the address: no register placeholders.
        let address = fold.address.iter().map(|&a| {
            Operand::from_template(a, slot)
                .unwrap_or(Operand::Reg(RegOperand::use_of(RegRef::NoReg)))
        });
        if let Some(u) = fold.also {
            self.operands.remove(usize::from(u));
        }
        self.operands.splice(operand..=operand, address);
        for o in &mut self.operands {
            if let Operand::Reg(r) = o
                && let Some(tie) = r.tied_to
            {
                r.tied_to = Some(fold.shifted(usize::from(tie)) as u16);
            }
        }
        self.op = Op::Target(fold.mem_form);
        let at = fold
            .address
            .iter()
            .position(|&a| a == TemplateOperand::Slot);
        operand + at.unwrap_or(0)
    }
}

/// How a block header names its IR basic block.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum IrBlockRef {
    /// `bb.3.if.then`: the IR block has a name.
    Named(Box<str>),
    /// `bb.3 (%ir-block.13)`: an unnamed IR block, by slot number.
    Numbered(u32),
}

/// A successor edge.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Succ {
    /// The successor block.
    pub block: Block,
    /// Branch probability as a numerator over 2^31 (`0x40000000` is 50%),
    /// or `None` when unknown.
    pub prob: Option<u32>,
}

/// A register live into a block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockLiveIn {
    /// The physical register.
    pub reg: Reg,
    /// The live lanes, when not all of them (`$r1:0x1`).
    pub lanes: Option<LaneMask>,
}

/// One basic block.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BlockData {
    /// The IR block it came from, if any.
    pub ir_block: Option<IrBlockRef>,
    /// Other header attributes (`align 16`, `address-taken`,
    /// `machine-block-address-taken` ...), kept verbatim in order.
    pub attrs: Vec<Box<str>>,
    /// Successor edges, in order.
    pub succs: Vec<Succ>,
    /// Predecessors, derived from all blocks' successors by
    /// [`MachineFunction::compute_preds`].
    pub preds: Vec<Block>,
    /// Physical registers live on entry.
    pub live_ins: Vec<BlockLiveIn>,
    /// The instructions, in order.
    pub insts: Vec<Inst>,
}

/// One virtual register.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct VRegData {
    /// Its class; `None` for a generic register without one (`_`).
    pub class: Option<RegClass>,
    /// Its name, for named registers (`%foo` rather than `%N`).
    pub name: Option<Box<str>>,
    /// Allocation hint (`preferred-register`), kept as MIR text
    /// (`$r1`, `%3`); empty when there is none.
    pub preferred: Box<str>,
    /// Further keys of its `registers:` entry, kept as (key, raw value).
    pub extra: Vec<(Box<str>, Box<str>)>,
}

/// The numbers a function's virtual registers are written with (`%N`).
///
/// A [`VReg`] indexes [`MachineFunction::vregs`] densely, so that the
/// tables of every stage follow the registers a function uses, not the
/// largest number written in its file. The MIR reader gives the indices in
/// increasing order of the written numbers, so that every order by
/// register (tie-breaks included) is the written one; this table gives
/// the written numbers back for output and messages. Registers added
/// later (splits, spills) and named registers (`%foo`) are numbered after
/// the highest written number, as LLVM numbers the registers it creates.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct VRegNumbers {
    /// The written number of register `i`, increasing, for the first
    /// `written.len()` registers; empty when every register's number is
    /// its index.
    written: Vec<u32>,
}

impl VRegNumbers {
    /// The table for registers `0..written.len()` written as `written`,
    /// which must be strictly increasing.
    pub fn new(written: Vec<u32>) -> VRegNumbers {
        debug_assert!(written.windows(2).all(|w| w[0] < w[1]));
        let identity = written.iter().enumerate().all(|(i, &n)| n as usize == i);
        VRegNumbers {
            written: if identity { Vec::new() } else { written },
        }
    }

    /// The largest number LLVM's MIR parser takes for a virtual register.
    pub const LARGEST: u64 = u32::MAX as u64 - 1;

    /// The number `v` is written with. Registers made after reading are
    /// numbered after the highest written number, as LLVM numbers them;
    /// past [`VRegNumbers::LARGEST`], in the unused numbers below it.
    pub fn number(&self, v: VReg) -> u64 {
        if let Some(&n) = self.written.get(v.index()) {
            return u64::from(n);
        }
        let next = self.written.last().map_or(0, |&n| u64::from(n) + 1);
        let made = (v.index() - self.written.len()) as u64;
        let above = Self::LARGEST + 1 - next.min(Self::LARGEST + 1);
        if made < above {
            next + made
        } else {
            self.unused_below_highest(made - above)
        }
    }

    /// The `k`-th (from 0) number below the highest written one that no
    /// written register has.
    fn unused_below_highest(&self, mut k: u64) -> u64 {
        let mut from = 0u64;
        for &n in &self.written {
            let gap = u64::from(n) - from;
            if k < gap {
                return from + k;
            }
            k -= gap;
            from = u64::from(n) + 1;
        }
        from + k
    }
}

/// Where the instructions read from a `.mir` file stand in it: the file
/// name and, by instruction ([`Inst`]), the 1-based line and column of
/// its first token. Instructions added later have no position.
///
/// Positions are about the text, not the function: two functions that
/// differ only in where they were read from are equal.
#[derive(Clone, Debug, Default)]
pub struct SourcePositions {
    /// The file name given to the reader.
    pub file: std::sync::Arc<str>,
    /// (line, column) by instruction index.
    pub insts: Vec<(u32, u32)>,
}

impl SourcePositions {
    /// Where instruction `i` stands in the file, when it was read from one.
    pub fn location(&self, i: Inst) -> Option<SourceLocation> {
        let &(line, col) = self.insts.get(i.index())?;
        Some(SourceLocation {
            file: self.file.clone(),
            line,
            col,
        })
    }
}

/// A place in a `.mir` file, printed `file:line:col` as compilers print
/// places, so that editors can jump to it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SourceLocation {
    /// The file name given to the reader.
    pub file: std::sync::Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

impl PartialEq for SourcePositions {
    fn eq(&self, _: &SourcePositions) -> bool {
        true
    }
}

impl Eq for SourcePositions {}

/// A register live into the function, and the virtual register its value
/// is copied to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FnLiveIn {
    /// The physical (argument) register.
    pub reg: Reg,
    /// The virtual register linked to it (`virtual-reg: '%13'`).
    pub vreg: Option<VReg>,
}

/// What a stack object holds (its `type:`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum StackObjectKind {
    /// `default`: a local variable or an argument.
    #[default]
    Default,
    /// `spill-slot`: a register's value while it is spilled.
    SpillSlot,
    /// `variable-sized`: an `alloca` whose size is known only when it runs.
    VariableSized,
}

impl StackObjectKind {
    /// Every kind, in LLVM's order.
    pub const ALL: [StackObjectKind; 3] = [
        StackObjectKind::Default,
        StackObjectKind::SpillSlot,
        StackObjectKind::VariableSized,
    ];

    /// Its MIR spelling.
    pub fn name(self) -> &'static str {
        match self {
            StackObjectKind::Default => "default",
            StackObjectKind::SpillSlot => "spill-slot",
            StackObjectKind::VariableSized => "variable-sized",
        }
    }

    /// The kind spelled `name`, if it is one.
    pub fn from_name(name: &str) -> Option<StackObjectKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One stack object (`stack:` or `fixedStack:` entry).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FrameObject {
    /// Its id, the `N` of `%stack.N`.
    pub id: u32,
    /// Its IR name (`%stack.0.buf`), for `stack:` objects that have one.
    pub name: Option<Box<str>>,
    /// What it holds.
    pub kind: StackObjectKind,
    /// Offset from the frame base, in bytes.
    pub offset: i64,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub alignment: u32,
    /// Stack id (`default`, or a target's special stack).
    pub stack_id: Box<str>,
    /// Further keys, kept as (key, raw value) in source order.
    pub extra: Vec<(Box<str>, Box<str>)>,
}

impl FrameObject {
    /// A spill slot of `size` bytes aligned to `alignment`.
    pub fn spill_slot(id: u32, size: u64, alignment: u32) -> FrameObject {
        FrameObject {
            id,
            name: None,
            kind: StackObjectKind::SpillSlot,
            offset: 0,
            size,
            alignment,
            stack_id: "default".into(),
            extra: Vec::new(),
        }
    }
}

/// A top-level key of the function's MIR document, in source order: either
/// one the IR models (regenerated on output) or one kept verbatim.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SourceKey {
    /// A key whose content lives in the IR (`name`, `registers`, `liveins`,
    /// `fixedStack`, `stack`, `jumpTable`, `body`).
    Modelled(&'static str),
    /// Any other key, with its full source text (key, value and trailing
    /// newline), printed back unchanged.
    Verbatim {
        /// The key.
        key: Box<str>,
        /// The source lines.
        text: Box<str>,
    },
}

/// One machine function.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MachineFunction {
    /// Its (IR) name.
    pub name: String,
    /// Blocks in layout order; block `i` is `bb.i`.
    pub blocks: Vec<BlockData>,
    /// Every instruction ever created; a block's `insts` gives which are
    /// in the function and where.
    pub insts: Vec<InstData>,
    /// Virtual registers, numbered densely (see [`VRegNumbers`]).
    pub vregs: Vec<VRegData>,
    /// The numbers the virtual registers were written with in MIR.
    pub vreg_numbers: VRegNumbers,
    /// Where each instruction read from a `.mir` file stands in it, for
    /// messages; empty for built functions.
    pub source: SourcePositions,
    /// Function live-ins (argument registers).
    pub live_ins: Vec<FnLiveIn>,
    /// Fixed stack objects (`fixedStack:`).
    pub fixed_stack: Vec<FrameObject>,
    /// Ordinary stack objects (`stack:`).
    pub stack: Vec<FrameObject>,
    /// The jump tables (`jumpTable:`), `None` when there are none. Their
    /// entries are blocks of this function.
    pub jump_tables: Option<JumpTables>,
    /// What the function's `frameInfo:` says about its frame (the key is
    /// also kept verbatim in `source_keys`, for output).
    pub frame_info: FrameInfo,
    /// The MIR document's top-level keys in source order, so that output
    /// keeps what the IR does not model. Empty for built functions.
    pub source_keys: Vec<SourceKey>,
    /// The IR function's `"frame-pointer"` attribute, read from the file's
    /// IR module; `None` when there is none (the target's default applies).
    pub frame_pointer: Option<FramePointerKind>,
    /// The function's subtarget features, from its IR `"target-features"`
    /// attribute (none when the file has no IR module): they pick the
    /// spill instructions and the HW mode's register sizes.
    pub features: crate::target::FeatureSet,
}

/// When a function keeps a frame pointer, by its IR attribute
/// `"frame-pointer"` (LLVM's `FramePointerKind`). A kept frame pointer's
/// register is reserved for the whole function.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FramePointerKind {
    /// `"none"`: only when the frame demands one (variable-sized objects,
    /// a taken frame address, an opaque stack-pointer adjustment, a
    /// realigned stack).
    None,
    /// `"non-leaf"`: in every function that calls, too.
    NonLeaf,
    /// `"all"` (or `"reserved"`): in every function.
    All,
}

/// What a function's `frameInfo:` says that decides whether it keeps a
/// frame pointer or a base pointer (and so reserves them). All false and 0
/// when the key is absent, as in a function built in code.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FrameInfo {
    /// `hasCalls`: the function calls.
    pub has_calls: bool,
    /// `isFrameAddressTaken`: the function reads its frame address.
    pub frame_address_taken: bool,
    /// `hasOpaqueSPAdjustment`: something (inline assembly, a call
    /// sequence) moves the stack pointer by an amount the compiler does not
    /// know.
    pub opaque_sp_adjustment: bool,
    /// `maxAlignment`: the largest alignment a stack object asks for, in
    /// bytes.
    pub max_alignment: u64,
    /// `localFrameSize`: the bytes of the function's local objects.
    pub local_frame_size: u64,
}

impl MachineFunction {
    /// An empty function.
    pub fn new(name: &str) -> MachineFunction {
        MachineFunction {
            name: name.to_string(),
            ..Default::default()
        }
    }

    /// The instruction `i`.
    #[inline]
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i.index()]
    }

    /// The instruction `i`, mutably.
    #[inline]
    pub fn inst_mut(&mut self, i: Inst) -> &mut InstData {
        &mut self.insts[i.index()]
    }

    /// The block `b`.
    #[inline]
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }

    /// The blocks with their indices, in layout order.
    pub fn block_ids(&self) -> impl Iterator<Item = Block> + use<> {
        (0..self.blocks.len()).map(Block::new)
    }

    /// The class of `v`.
    #[inline]
    pub fn vreg_class(&self, v: VReg) -> Option<RegClass> {
        self.vregs[v.index()].class
    }

    /// The number `v` is written with in MIR (`%N`).
    pub fn vreg_number(&self, v: VReg) -> u64 {
        self.vreg_numbers.number(v)
    }

    /// How `v` is written in MIR: `%N`, or `%name` for a named register.
    pub fn vreg_text(&self, v: VReg) -> String {
        match self.vregs.get(v.index()).and_then(|d| d.name.as_deref()) {
            Some(name) => format!("%{name}"),
            None => format!("%{}", self.vreg_number(v)),
        }
    }

    /// Adds a virtual register of class `class`.
    pub fn new_vreg(&mut self, class: Option<RegClass>) -> VReg {
        self.vregs.push(VRegData {
            class,
            ..Default::default()
        });
        VReg::new(self.vregs.len() - 1)
    }

    /// Adds an empty block at the end of the layout.
    pub fn new_block(&mut self) -> Block {
        self.blocks.push(BlockData::default());
        Block::new(self.blocks.len() - 1)
    }

    /// Recomputes every block's predecessor list from the successor lists
    /// (each predecessor once, in layout order).
    pub fn compute_preds(&mut self) {
        for b in &mut self.blocks {
            b.preds.clear();
        }
        for p in 0..self.blocks.len() {
            for k in 0..self.blocks[p].succs.len() {
                let s = self.blocks[p].succs[k].block.index();
                if self.blocks[s].preds.last() != Some(&Block::new(p)) {
                    self.blocks[s].preds.push(Block::new(p));
                }
            }
        }
    }

    /// The instructions of the function in layout order.
    pub fn inst_ids(&self) -> impl Iterator<Item = Inst> + '_ {
        self.blocks.iter().flat_map(|b| b.insts.iter().copied())
    }
}

#[cfg(test)]
mod vreg_number_tests {
    use super::{VReg, VRegNumbers};

    /// Registers made after reading take the numbers after the highest
    /// written one while LLVM's parser takes them, then the unused ones
    /// below it (found by the CLI fuzz target: a file naming
    /// %4294967294 was written back with %4294967296, which llc refuses).
    #[test]
    fn made_registers_stay_within_what_llvm_reads() {
        let numbers = VRegNumbers::new(vec![1, 3, 4_294_967_293]);
        let of = |i: u32| numbers.number(VReg(i));
        assert_eq!([of(0), of(1), of(2)], [1, 3, 4_294_967_293]);
        assert_eq!(of(3), VRegNumbers::LARGEST);
        assert_eq!([of(4), of(5), of(6), of(7)], [0, 2, 4, 5]);
        let identity = VRegNumbers::new(vec![0, 1, 2]);
        assert_eq!(identity.number(VReg(5)), 5);
    }
}
