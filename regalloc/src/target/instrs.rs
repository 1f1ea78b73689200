//! Table rows for target instructions: operands, constraints, implicit registers, flags, and spill/reload/copy templates.

use std::borrow::Cow;

use super::ids::{FeatureSet, Opcode, Reg, RegClass, SubRegIndex};

/// What an explicit operand holds.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum OperandKind {
    /// A register (physical or virtual before allocation).
    Register,
    /// An immediate, or a symbol, frame index or block used as one.
    Immediate,
    /// A basic block (branch target).
    Block,
    /// Anything else (memory addressing pieces described by the target).
    Other,
}

/// One explicit operand of an instruction, in the instruction's operand
/// order: definitions (`OutOperandList`) first, then uses (`InOperandList`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OperandDesc<'a> {
    /// Name in the description (`$dst`), without the `$`.
    pub name: Cow<'a, str>,
    /// What the operand holds.
    pub kind: OperandKind,
    /// Required register class, for register operands.
    pub class: Option<RegClass>,
    /// Whether the operand is a definition.
    pub is_def: bool,
    /// For a use tied to a definition (`Constraints = "$dst = $src"`), the
    /// index of that definition: both must get the same register.
    pub tied_to: Option<u8>,
    /// The definition is written before all uses are read
    /// (`@earlyclobber`), so it may not share a register with any use.
    pub early_clobber: bool,
}

/// Instruction flags, one bit each.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct InstrFlags(pub u32);

macro_rules! flag_consts {
    ($($(#[$doc:meta])* $name:ident = $bit:expr;)*) => {
        impl InstrFlags {
            $($(#[$doc])* pub const $name: InstrFlags = InstrFlags(1 << $bit);)*
        }
    };
}

flag_consts! {
    /// `isReMaterializable`: may be re-executed at a use instead of reloaded.
    REMAT = 0;
    /// `isAsCheapAsAMove`.
    CHEAP_AS_MOVE = 1;
    /// `isMoveImm`: loads an immediate into a register.
    MOVE_IMM = 2;
    /// `isCommutable`: the first two register uses may be swapped.
    COMMUTABLE = 3;
    /// `isConvertibleToThreeAddress`.
    CONVERTIBLE_TO_3ADDR = 4;
    /// `isCall`.
    CALL = 5;
    /// `isTerminator`: ends a block (with other terminators).
    TERMINATOR = 6;
    /// `isBranch`.
    BRANCH = 7;
    /// `isIndirectBranch`.
    INDIRECT_BRANCH = 8;
    /// `isReturn`.
    RETURN = 9;
    /// `isBarrier`: control never falls through to the next block.
    BARRIER = 10;
    /// `mayLoad`.
    MAY_LOAD = 11;
    /// `mayStore`.
    MAY_STORE = 12;
    /// `isMoveReg`: a plain register-to-register copy.
    MOVE_REG = 13;
    /// `isPseudo`: expanded before emission.
    PSEUDO = 14;
    /// `variable_ops`: takes more operands than described.
    VARIADIC = 15;
    /// `hasSideEffects`.
    SIDE_EFFECTS = 16;
    /// `isPredicated` (a target's own `Instruction` field, Hexagon's
    /// TSFlags bit): executes under a predicate, so a definition may leave
    /// its register as it was (LLVM's `TII.isPredicated`).
    PREDICATED = 17;
    /// `isRegisterCopy` (a target's own `Instruction` field): output 0
    /// takes the value of input 1, a copy the target spells as its own
    /// instruction (LLVM's Hexagon RDF optimiser lists these in C++).
    REGISTER_COPY = 18;
    /// `isCopyWhenZero` (a target's own field): the same when the last
    /// explicit operand is the immediate 0 (`A2_addi $d, $s, 0`).
    COPY_WHEN_ZERO = 19;
}

impl InstrFlags {
    /// No flags.
    pub const NONE: InstrFlags = InstrFlags(0);

    /// Whether every flag of `other` is set here.
    #[inline]
    pub const fn contains(self, other: InstrFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of the two flag sets.
    #[inline]
    pub const fn union(self, other: InstrFlags) -> InstrFlags {
        InstrFlags(self.0 | other.0)
    }
}

impl std::ops::BitOr for InstrFlags {
    type Output = InstrFlags;
    fn bitor(self, o: InstrFlags) -> InstrFlags {
        self.union(o)
    }
}

/// One target instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstrDesc<'a> {
    /// Opcode name as in the `.td` file and in MIR (`ADD_rr`).
    pub name: Cow<'a, str>,
    /// Explicit operands, definitions first.
    pub operands: Cow<'a, [OperandDesc<'a>]>,
    /// Number of definitions at the front of `operands`.
    pub num_defs: u8,
    /// Registers written without appearing as operands (`Defs`).
    pub implicit_defs: Cow<'a, [Reg]>,
    /// Registers read without appearing as operands (`Uses`).
    pub implicit_uses: Cow<'a, [Reg]>,
    /// Behaviour flags.
    pub flags: InstrFlags,
}

impl InstrDesc<'_> {
    /// Whether the instruction has all of `f`.
    #[inline]
    pub fn is(&self, f: InstrFlags) -> bool {
        self.flags.contains(f)
    }

    /// For explicit operand `i`, the definition it is tied to, if any.
    #[inline]
    pub fn tied_to(&self, i: usize) -> Option<usize> {
        self.operands
            .get(i)
            .and_then(|o| o.tied_to)
            .map(usize::from)
    }
}

/// One operand of an instruction template: a placeholder the allocator fills.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TemplateOperand {
    /// The register being stored (spill), loaded (reload) or copied to (copy).
    Reg,
    /// The source register of a copy.
    Src,
    /// The stack slot (a frame index).
    Slot,
    /// A fixed immediate (e.g. the offset 0 of `STD $r, %stack.0, 0`).
    Imm(i64),
    /// A fixed physical register (e.g. a frame base register).
    Fixed(Reg),
    /// An empty register operand (`$noreg`), e.g. the unused index register
    /// of an x86 memory reference.
    NoReg,
    /// A sub-register of the register stored, loaded or copied to: the
    /// template names the register piecewise (AArch64's `STPXi` of a
    /// register pair's halves); a reload defines each piece `undef`.
    RegSub(SubRegIndex),
    /// A sub-register of the source of a copy.
    SrcSub(SubRegIndex),
}

/// An instruction pattern for spill code, given per class in the `.td` file:
/// the opcode and its explicit operands with placeholders.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstrTemplate<'a> {
    /// The instruction to emit.
    pub opcode: Opcode,
    /// Its explicit operands, in the instruction's operand order.
    pub operands: Cow<'a, [TemplateOperand]>,
}

/// One template of one kind (spill, reload or copy) of a class, and the
/// subtarget features a function needs for it (`SpillTemplates`'s
/// `Features`): a class lists its choices most specific first, and a
/// function takes the first whose features it has
/// ([`TargetInfo::spill_template`](super::TargetInfo::spill_template)).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TemplateChoice<'a> {
    /// The features a function must have (closed under implication).
    pub features: FeatureSet,
    /// The template, for a slot aligned as the class asks.
    pub template: InstrTemplate<'a>,
    /// For a spill or reload: the form for a slot that only has the
    /// stack's alignment (`UnalignedSpill`, `UnalignedReload`), when the
    /// instruction differs.
    pub unaligned: Option<InstrTemplate<'a>>,
}

impl<'a> TemplateChoice<'a> {
    /// The template for a slot that is (`aligned`) or is not aligned as
    /// the class asks.
    pub fn for_slot(&self, aligned: bool) -> &InstrTemplate<'a> {
        match &self.unaligned {
            Some(u) if !aligned => u,
            _ => &self.template,
        }
    }
}

/// The first of `choices` (most specific first) whose features `f` has.
pub fn choose<'c, 'a>(
    choices: &'c [TemplateChoice<'a>],
    f: FeatureSet,
) -> Option<&'c TemplateChoice<'a>> {
    choices.iter().find(|c| f.contains(c.features))
}

/// One subtarget feature (a `SubtargetFeature` def, or a name a HW mode's
/// feature string uses): its bit is its index in
/// [`TargetInfo::features`](super::TargetInfo::features).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FeatureDesc<'a> {
    /// Its name, as `-mattr=` and IR's `"target-features"` spell it.
    pub name: Cow<'a, str>,
    /// The features it turns on: itself and, transitively, what it implies.
    pub implies: FeatureSet,
}

/// One HW mode (index 0: the default mode, which needs nothing): a
/// function is in the first mode whose features it satisfies.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HwModeDesc<'a> {
    /// Its name (`Default`, `Hvx128`).
    pub name: Cow<'a, str>,
    /// Features the function must have.
    pub requires: FeatureSet,
    /// Features it must not have.
    pub excludes: FeatureSet,
}

/// A memory-operand fold, given in the `.td` file (`MemoryFold`): explicit
/// register operand `operand` of `reg_form` may live in a stack slot
/// instead, which turns the instruction into `mem_form` with `address` in
/// that operand's place. A use folds into a load from the slot, a
/// definition into a store to it, and a definition tied to a use (a
/// read-modify-write such as x86's `ADD64ri32`) into both. `also` is a
/// second operand naming the same register that goes with the first: the
/// use tied to a folded definition, or a second use the target names (x86
/// folds `TEST32rr %a, %a` into `CMP32mi slot, 0`). The other explicit
/// operands keep their order ([`MemoryFoldDesc::shifted`]). tdgen has
/// checked that the two forms agree on every other operand, tie and
/// implicit register.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MemoryFoldDesc<'a> {
    /// The instruction naming the register.
    pub reg_form: Opcode,
    /// The index of the folded register among its explicit operands.
    pub operand: u8,
    /// A second operand, after `operand`, that must name the same register
    /// and is replaced with it.
    pub also: Option<u8>,
    /// The instruction accessing memory instead.
    pub mem_form: Opcode,
    /// The operands replacing the register: [`TemplateOperand::Slot`] once,
    /// the rest immediates, fixed registers or `$noreg`.
    pub address: Cow<'a, [TemplateOperand]>,
    /// The slot's first bytes hold a register's low bits (a little-endian
    /// target): a use of a sub-register at bit offset 0 whose size is the
    /// operand's register size folds too, reading just those bytes.
    pub little_endian: bool,
}

impl MemoryFoldDesc<'_> {
    /// Where explicit operand `k` of the register form is in the memory
    /// form (`k` other than the folded operands).
    #[inline]
    pub fn shifted(&self, k: usize) -> usize {
        let gone = usize::from(self.also.is_some_and(|u| k > usize::from(u)));
        if k > usize::from(self.operand) {
            k + self.address.len() - 1 - gone
        } else {
            k
        }
    }
}

/// One operand of a three-address form ([`ThreeAddressDesc`]): where the
/// new instruction's operand comes from.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ThreeAddressOperand {
    /// The two-address instruction's definition, flags and all.
    Def,
    /// Explicit operand `k` of the two-address instruction as it is (a
    /// register killed when that instruction kills it).
    Operand(u8),
    /// Register operand `k`, its virtual register narrowed to the class
    /// (no conversion when the two have nothing in common).
    Constrained(u8, RegClass),
    /// Immediate operand `k` negated; no conversion when the result does
    /// not fit in that many signed bits.
    Negated(u8, u8),
    /// Register operand `k` read through a new register of the class,
    /// whose sub-register is a copy of it placed before (`undef
    /// %new.idx = COPY %k`), killed here.
    Widened(u8, RegClass, SubRegIndex),
    /// The same, the new register first defined by an `IMPLICIT_DEF`
    /// (`%new = IMPLICIT_DEF; %new.idx = COPY %k`).
    Inserted(u8, RegClass, SubRegIndex),
    /// In place of the definition: a new register of the class, its
    /// sub-register copied to the definition after (`%def = COPY killed
    /// %new.idx`).
    Result(RegClass, SubRegIndex),
    /// A fixed immediate.
    Imm(i64),
    /// An empty register operand (`$noreg`).
    NoReg,
    /// A fixed physical register.
    Fixed(Reg),
}

impl ThreeAddressOperand {
    /// Whether the operand makes a new register.
    pub fn is_new_register(self) -> bool {
        matches!(
            self,
            ThreeAddressOperand::Widened(..)
                | ThreeAddressOperand::Inserted(..)
                | ThreeAddressOperand::Result(..)
        )
    }
}

/// What a two-address instruction becomes when its tie would cost a copy
/// (LLVM's `convertToThreeAddress`, given as data by `ThreeAddressForm`
/// defs): an instruction computing the same into an untied definition.
/// tdgen has checked that the operands fit both instructions.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ThreeAddressDesc<'a> {
    /// The two-address instruction (`isConvertibleToThreeAddress`).
    pub two_address: Opcode,
    /// The instruction emitted in its place.
    pub three_address: Opcode,
    /// Its explicit operands, in order.
    pub operands: Cow<'a, [ThreeAddressOperand]>,
    /// The form applies only when this explicit operand of the
    /// two-address instruction is this immediate.
    pub immediate: Option<(u8, i64)>,
    /// The positions in `operands` of those that make new registers, in
    /// the order the registers are made and their copies placed.
    pub new_register_order: Cow<'a, [u8]>,
}
