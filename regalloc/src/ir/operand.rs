//! Instruction operands: registers with their flags, immediates, blocks, frame indices, symbols, register masks.

use crate::target::{CalleeSavedSet, Reg, SubRegIndex, TemplateOperand};

use super::ids::{Block, VReg};

/// The register named by a register operand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RegRef {
    /// A virtual register (`%N`).
    Virt(VReg),
    /// A physical register (`$r1`).
    Phys(Reg),
    /// No register (`$noreg`), an optional operand left empty.
    NoReg,
}

impl From<VReg> for RegRef {
    fn from(v: VReg) -> RegRef {
        RegRef::Virt(v)
    }
}

impl From<Reg> for RegRef {
    fn from(r: Reg) -> RegRef {
        RegRef::Phys(r)
    }
}

/// Flags of a register operand, as MIR spells them before the register.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct RegFlags(pub u16);

macro_rules! reg_flags {
    ($($(#[$doc:meta])* $name:ident = $bit:expr;)*) => {
        impl RegFlags {
            $($(#[$doc])* pub const $name: RegFlags = RegFlags(1 << $bit);)*
        }
    };
}

reg_flags! {
    /// The operand writes the register (before `=`, or `def`/`implicit-def`).
    DEF = 0;
    /// The operand is not part of the instruction's described operands
    /// (`implicit`, `implicit-def`).
    IMPLICIT = 1;
    /// `undef`: the value read does not matter (or, on a sub-register def,
    /// the other lanes become undefined).
    UNDEF = 2;
    /// `killed`: last use of the value.
    KILLED = 3;
    /// `dead`: the value defined is never read.
    DEAD = 4;
    /// `early-clobber`: written before the uses are read.
    EARLY_CLOBBER = 5;
    /// `renamable`: a physical register the allocator assigned and may change.
    RENAMABLE = 6;
    /// `debug-use`: a use by a debug instruction.
    DEBUG_USE = 7;
    /// `internal`: reads a value defined inside the same bundle.
    INTERNAL = 8;
}

impl RegFlags {
    /// No flags.
    pub const NONE: RegFlags = RegFlags(0);

    /// Whether every flag of `f` is set.
    #[inline]
    pub const fn has(self, f: RegFlags) -> bool {
        self.0 & f.0 == f.0
    }

    /// Sets or clears `f`.
    #[inline]
    pub fn set(&mut self, f: RegFlags, on: bool) {
        if on { self.0 |= f.0 } else { self.0 &= !f.0 }
    }
}

impl std::ops::BitOr for RegFlags {
    type Output = RegFlags;
    fn bitor(self, o: RegFlags) -> RegFlags {
        RegFlags(self.0 | o.0)
    }
}

/// A register operand.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RegOperand {
    /// The register.
    pub reg: RegRef,
    /// The sub-register read or written (`%5.sub_32`), if any.
    pub sub: Option<SubRegIndex>,
    /// Def/use and liveness flags.
    pub flags: RegFlags,
    /// The operand this one is tied to (a use's definition, or a
    /// definition's use): both get the same register. Set from the
    /// instruction description or from an explicit `(tied-def N)`.
    pub tied_to: Option<u16>,
    /// A generic type annotation (`(s32)`), kept as text, if present.
    pub ty: Option<Box<str>>,
}

impl RegOperand {
    /// A plain use of `reg`.
    pub fn use_of(reg: impl Into<RegRef>) -> RegOperand {
        RegOperand {
            reg: reg.into(),
            sub: None,
            flags: RegFlags::NONE,
            tied_to: None,
            ty: None,
        }
    }

    /// A plain definition of `reg`.
    pub fn def_of(reg: impl Into<RegRef>) -> RegOperand {
        RegOperand {
            flags: RegFlags::DEF,
            ..RegOperand::use_of(reg)
        }
    }

    /// Whether the operand writes its register.
    #[inline]
    pub fn is_def(&self) -> bool {
        self.flags.has(RegFlags::DEF)
    }

    /// Whether the operand is implicit.
    #[inline]
    pub fn is_implicit(&self) -> bool {
        self.flags.has(RegFlags::IMPLICIT)
    }
}

/// A stack object reference: `%stack.N` or `%fixed-stack.N`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FrameRef {
    /// `true` for `%fixed-stack.N` (objects at fixed offsets such as incoming
    /// arguments), `false` for `%stack.N`.
    pub fixed: bool,
    /// The object's `id`.
    pub id: u32,
}

/// What a symbol operand names.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Symbol {
    /// A global value `@name`; the name is kept as written after `@`
    /// (quoted when MIR quotes it).
    Global(Box<str>),
    /// An external symbol `&name`, kept as written after `&`.
    External(Box<str>),
    /// A constant-pool entry `%const.N`.
    ConstPool(u32),
    /// A jump table `%jump-table.N`.
    JumpTable(u32),
}

/// A symbol operand with its offset and target flags.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SymbolOperand {
    /// The symbol.
    pub sym: Symbol,
    /// Byte offset (`@g + 8`).
    pub offset: i64,
    /// Target flags (`target-flags(x86-gotpcrel)`), kept as the text inside
    /// the parentheses.
    pub target_flags: Option<Box<str>>,
}

/// A register mask operand: the registers a call preserves.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum RegMask {
    /// A named callee-saved set (`csr_64`).
    Named(CalleeSavedSet),
    /// An explicit list (`<regmask $r6 $r7>`).
    Custom(Vec<Reg>),
}

/// One operand of a machine instruction.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    /// A register.
    Reg(RegOperand),
    /// An integer immediate.
    Imm(i64),
    /// A basic block (branch target).
    Block(Block),
    /// A stack object, with a byte offset.
    Frame(FrameRef, i64),
    /// A global, external symbol, constant-pool entry or jump table.
    Symbol(SymbolOperand),
    /// A register mask.
    RegMask(RegMask),
    /// A sub-register index used as an immediate (`%subreg.sub_32`, in
    /// `SUBREG_TO_REG`, `INSERT_SUBREG`, `REG_SEQUENCE`).
    SubRegIndex(SubRegIndex),
    /// Any other operand (metadata, MC symbols, predicates, typed
    /// immediates, intrinsic IDs, CFI ...), kept verbatim: the allocator
    /// never looks inside these.
    Other(Box<str>),
}

impl Operand {
    /// The register operand, if this is one.
    #[inline]
    pub fn as_reg(&self) -> Option<&RegOperand> {
        match self {
            Operand::Reg(r) => Some(r),
            _ => None,
        }
    }

    /// The register operand, mutably, if this is one.
    #[inline]
    pub fn as_reg_mut(&mut self) -> Option<&mut RegOperand> {
        match self {
            Operand::Reg(r) => Some(r),
            _ => None,
        }
    }

    /// The operand a spill-code or fold template operand stands for, with
    /// `%stack.slot` for the slot; `None` for the register placeholders
    /// (`TplReg`, `TplSrc` and their pieces), which the caller fills.
    pub fn from_template(o: TemplateOperand, slot: u32) -> Option<Operand> {
        Some(match o {
            TemplateOperand::Slot => Operand::Frame(
                FrameRef {
                    fixed: false,
                    id: slot,
                },
                0,
            ),
            TemplateOperand::Imm(x) => Operand::Imm(x),
            TemplateOperand::Fixed(r) => Operand::Reg(RegOperand::use_of(r)),
            TemplateOperand::NoReg => Operand::Reg(RegOperand::use_of(RegRef::NoReg)),
            TemplateOperand::Reg
            | TemplateOperand::Src
            | TemplateOperand::RegSub(_)
            | TemplateOperand::SrcSub(_) => return None,
        })
    }
}
