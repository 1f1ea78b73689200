//! What an instruction does: a target opcode, one of LLVM's target-independent pseudo-instructions, or an opcode the target's description does not know.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use crate::target::{InstrFlags, Opcode, TargetInfo};

/// An instruction's opcode.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// A target instruction from [`TargetInfo::instrs`].
    Target(Opcode),
    /// A target-independent pseudo-instruction.
    Generic(Generic),
    /// An opcode the target's description does not have ([`UnknownOp`]),
    /// allocated by what its operands say.
    Unknown(UnknownOp),
}

/// An opcode missing from the target's description, kept by name so that
/// code using instructions the description has not caught up with is
/// still allocated. The allocator learns what the machine code itself
/// says and assumes the worst of the rest:
///
/// - its operands are as the MIR prints them: explicit and implicit
///   definitions and uses, fixed physical registers, `early-clobber`,
///   register masks (a mask makes it a call);
/// - a virtual register's class is what the function declares: the code
///   before allocation already satisfies the instruction's operand
///   classes, so split and spill products keep that class and are never
///   inflated past it;
/// - a definition and a use of the same virtual register are one register
///   (the two-address form LLVM leaves for tied operands before
///   allocation), as for any instruction;
/// - it has side effects, may load and store: it is never recomputed,
///   folded into, moved or deleted;
/// - it is a terminator only when it ends its block after every other
///   instruction, defines no register and is followed by terminators
///   only (decided by the MIR reader).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct UnknownOp {
    /// The name printed in MIR.
    pub name: &'static str,
    /// Whether it belongs to its block's terminators.
    pub terminator: bool,
}

impl UnknownOp {
    /// An unknown opcode spelled `name`, not a terminator.
    pub fn new(name: &str) -> UnknownOp {
        UnknownOp {
            name: intern(name),
            terminator: false,
        }
    }
}

/// `name` kept for the life of the process: unknown opcode names are few
/// (at most one per opcode the description lacks), so each is allocated
/// once and shared.
fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(n);
    n
}

impl Op {
    /// The opcode's name as printed in MIR.
    pub fn name<'t>(self, t: &'t TargetInfo<'_>) -> &'t str {
        match self {
            Op::Target(o) => &t.instr(o).name,
            Op::Generic(g) => g.name(),
            Op::Unknown(u) => u.name,
        }
    }

    /// Whether this is the generic `COPY`.
    #[inline]
    pub fn is_copy(self) -> bool {
        self == Op::Generic(Generic::Copy)
    }

    /// Whether an instruction of this opcode is one of its block's
    /// terminators: a target opcode by its description's `isTerminator`,
    /// an unknown one as the MIR reader marked it ([`UnknownOp`]), a
    /// generic one never.
    pub fn is_terminator(self, t: &TargetInfo<'_>) -> bool {
        match self {
            Op::Target(o) => t
                .instrs
                .get(o.index())
                .is_some_and(|d| d.is(InstrFlags::TERMINATOR)),
            Op::Generic(_) => false,
            Op::Unknown(u) => u.terminator,
        }
    }

    /// Whether LLVM gives an instruction of this opcode no slot index
    /// (debug and pseudo-probe instructions). It is a fact about the
    /// opcode, here so that the MIR reader (which must not depend on the
    /// analyses) and the slot numbering ask the same question.
    pub fn is_debug_or_probe(self) -> bool {
        self.is_debug() || self == Op::Generic(Generic::PseudoProbe)
    }

    /// Whether this is a debug pseudo-instruction (`DBG_VALUE` and its
    /// kin), which no pass counts as a reader or allocates for.
    pub fn is_debug(self) -> bool {
        matches!(
            self,
            Op::Generic(
                Generic::DbgValue
                    | Generic::DbgValueList
                    | Generic::DbgInstrRef
                    | Generic::DbgPhi
                    | Generic::DbgLabel
            )
        )
    }
}

macro_rules! generics {
    ($($(#[$doc:meta])* $v:ident = $n:literal,)*) => {
        /// LLVM's target-independent opcodes (`TargetOpcode`), in LLVM's
        /// numbering order. MIR spells them the same on every target.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        #[allow(missing_docs)]
        pub enum Generic {
            $($(#[$doc])* $v,)*
        }

        impl Generic {
            /// Every generic opcode.
            pub const ALL: &'static [Generic] = &[$(Generic::$v,)*];

            /// The name printed in MIR.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Generic::$v => $n,)*
                }
            }
        }
    };
}

generics! {
    /// `PHI`: SSA merge; operands are (value, predecessor block) pairs.
    Phi = "PHI",
    InlineAsm = "INLINEASM",
    InlineAsmBr = "INLINEASM_BR",
    CfiInstruction = "CFI_INSTRUCTION",
    EhLabel = "EH_LABEL",
    GcLabel = "GC_LABEL",
    AnnotationLabel = "ANNOTATION_LABEL",
    /// `KILL`: ends the live range of its operands; a no-op.
    Kill = "KILL",
    ExtractSubreg = "EXTRACT_SUBREG",
    /// `INSERT_SUBREG`: `dst = src` with sub-register `idx` replaced.
    InsertSubreg = "INSERT_SUBREG",
    /// `IMPLICIT_DEF`: defines an undefined value.
    ImplicitDef = "IMPLICIT_DEF",
    /// `SUBREG_TO_REG imm, src, idx`: `src` in sub-register `idx`, other
    /// lanes holding `imm` (usually 0) by the hardware's doing.
    SubregToReg = "SUBREG_TO_REG",
    CopyToRegclass = "COPY_TO_REGCLASS",
    DbgValue = "DBG_VALUE",
    DbgValueList = "DBG_VALUE_LIST",
    DbgInstrRef = "DBG_INSTR_REF",
    DbgPhi = "DBG_PHI",
    DbgLabel = "DBG_LABEL",
    /// `REG_SEQUENCE`: builds a register from (value, sub-register index) pairs.
    RegSequence = "REG_SEQUENCE",
    /// `COPY`: register-to-register copy, any classes, sub-registers allowed.
    Copy = "COPY",
    Bundle = "BUNDLE",
    LifetimeStart = "LIFETIME_START",
    LifetimeEnd = "LIFETIME_END",
    PseudoProbe = "PSEUDO_PROBE",
    ArithFence = "ARITH_FENCE",
    Stackmap = "STACKMAP",
    FentryCall = "FENTRY_CALL",
    Patchpoint = "PATCHPOINT",
    LoadStackGuard = "LOAD_STACK_GUARD",
    PreallocatedSetup = "PREALLOCATED_SETUP",
    PreallocatedArg = "PREALLOCATED_ARG",
    Statepoint = "STATEPOINT",
    LocalEscape = "LOCAL_ESCAPE",
    FaultingOp = "FAULTING_OP",
    PatchableOp = "PATCHABLE_OP",
    PatchableFunctionEnter = "PATCHABLE_FUNCTION_ENTER",
    PatchableRet = "PATCHABLE_RET",
    PatchableFunctionExit = "PATCHABLE_FUNCTION_EXIT",
    PatchableTailCall = "PATCHABLE_TAIL_CALL",
    PatchableEventCall = "PATCHABLE_EVENT_CALL",
    PatchableTypedEventCall = "PATCHABLE_TYPED_EVENT_CALL",
    IcallBranchFunnel = "ICALL_BRANCH_FUNNEL",
    Membarrier = "MEMBARRIER",
    JumpTableDebugInfo = "JUMP_TABLE_DEBUG_INFO",
    ConvergencectrlEntry = "CONVERGENCECTRL_ENTRY",
    ConvergencectrlAnchor = "CONVERGENCECTRL_ANCHOR",
    ConvergencectrlLoop = "CONVERGENCECTRL_LOOP",
    ConvergencectrlGlue = "CONVERGENCECTRL_GLUE",
}

impl Generic {
    /// The generic opcode spelled `name` in MIR.
    pub fn from_name(name: &str) -> Option<Generic> {
        Generic::ALL.iter().copied().find(|g| g.name() == name)
    }
}
