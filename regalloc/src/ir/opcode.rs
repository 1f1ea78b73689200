//! What an instruction does: a target opcode or one of LLVM's target-independent pseudo-instructions.

use crate::target::{Opcode, TargetInfo};

/// An instruction's opcode.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// A target instruction from [`TargetInfo::instrs`].
    Target(Opcode),
    /// A target-independent pseudo-instruction.
    Generic(Generic),
}

impl Op {
    /// The opcode's name as printed in MIR.
    pub fn name<'t>(self, t: &'t TargetInfo<'_>) -> &'t str {
        match self {
            Op::Target(o) => &t.instr(o).name,
            Op::Generic(g) => g.name(),
        }
    }

    /// Whether this is the generic `COPY`.
    #[inline]
    pub fn is_copy(self) -> bool {
        self == Op::Generic(Generic::Copy)
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
