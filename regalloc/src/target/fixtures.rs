//! A hand-built BPF `TargetInfo` (R0-R11, W0-W11, sub_32, GPR/GPR32) that stands in for tdgen's generated BPF tables until the emitter lands.
//!
//! Registers and classes follow LLVM 19's BPF register file (`-mcpu=v3`,
//! with 32-bit `w` halves). The instruction list holds only the opcodes
//! found when scanning BPF MIR produced by `llc-19 -stop-before=greedy` from
//! real C code (zlib, lz4, bzip2, xxhash, and the project's BPF corpus of
//! Lua, zlib, bzip2, lz4 and libyaml at -O0 and -O2), plus the 32-bit move that the
//! GPR32 copy template needs. Each row's operands, ties, flags and implicit
//! registers were read from LLVM 19's BPF instruction descriptions
//! (through libLLVM's public `MCInstrInfo`), not guessed: in particular the
//! ALU ops carry their `$dst = $src` ties, which MIR does not print.
//! Spill/reload/copy templates are what LLVM's BPF backend emits
//! (`STD`/`LDD`/`MOV_rr` for GPR, `STW32`/`LDW32`/`MOV_rr_32` for GPR32).

use std::borrow::Cow;
use std::sync::OnceLock;

use super::{
    ClassSpec, InstrDesc, InstrFlags, InstrTemplate, OperandDesc, OperandKind, Reg, RegClass,
    TargetBuilder, TargetInfo, TemplateOperand,
};

/// One instruction row: name, number of definitions, operand signature,
/// flags, implicit definitions, implicit uses.
///
/// Operand signature: one word per explicit operand, `GPR`/`GPR32` (a
/// register of that class, `=N` when tied to operand N, `!` when
/// early-clobber), `i` (immediate or symbol) or `b` (branch target).
type Row = (
    &'static str,
    u8,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

const INSTRS: &[Row] = &[
    ("ADD_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("ADD_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("ADD_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("ADD_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("ADJCALLSTACKDOWN", 0, "i i", "PSEUDO", "R11", "R11"),
    ("ADJCALLSTACKUP", 0, "i i", "PSEUDO", "R11", "R11"),
    ("AND_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("AND_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("AND_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("AND_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("BE16", 1, "GPR GPR=0", "", "", ""),
    ("BE32", 1, "GPR GPR=0", "", "", ""),
    ("BE64", 1, "GPR GPR=0", "", "", ""),
    ("DIV_ri", 1, "GPR GPR=0 i", "", "", ""),
    ("DIV_ri_32", 1, "GPR32 GPR32=0 i", "", "", ""),
    ("DIV_rr", 1, "GPR GPR=0 GPR", "", "", ""),
    ("FI_ri", 1, "GPR GPR i", "PSEUDO", "", ""),
    ("JAL", 0, "i", "CALL", "R0 R1 R2 R3 R4 R5", "R11"),
    ("JALX", 0, "GPR", "CALL", "R0 R1 R2 R3 R4 R5", "R11"),
    ("JEQ_ri", 0, "GPR i b", "TERM BR", "", ""),
    ("JEQ_ri_32", 0, "GPR32 i b", "TERM BR", "", ""),
    ("JEQ_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JEQ_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JMP", 0, "b", "BARRIER TERM BR", "", ""),
    ("JNE_ri", 0, "GPR i b", "TERM BR", "", ""),
    ("JNE_ri_32", 0, "GPR32 i b", "TERM BR", "", ""),
    ("JNE_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JNE_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JSGE_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JSGE_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JSGT_ri", 0, "GPR i b", "TERM BR", "", ""),
    ("JSGT_ri_32", 0, "GPR32 i b", "TERM BR", "", ""),
    ("JSGT_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JSGT_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JSLE_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JSLE_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JSLT_ri", 0, "GPR i b", "TERM BR", "", ""),
    ("JSLT_ri_32", 0, "GPR32 i b", "TERM BR", "", ""),
    ("JSLT_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JSLT_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JUGE_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JUGE_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JUGT_ri", 0, "GPR i b", "TERM BR", "", ""),
    ("JUGT_ri_32", 0, "GPR32 i b", "TERM BR", "", ""),
    ("JUGT_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JUGT_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JULE_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JULE_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("JULT_ri", 0, "GPR i b", "TERM BR", "", ""),
    ("JULT_ri_32", 0, "GPR32 i b", "TERM BR", "", ""),
    ("JULT_rr", 0, "GPR GPR b", "TERM BR", "", ""),
    ("JULT_rr_32", 0, "GPR32 GPR32 b", "TERM BR", "", ""),
    ("LDB32", 1, "GPR32 GPR i", "LOAD", "", ""),
    ("LDD", 1, "GPR GPR i", "LOAD", "", ""),
    ("LDH32", 1, "GPR32 GPR i", "LOAD", "", ""),
    ("LDW32", 1, "GPR32 GPR i", "LOAD", "", ""),
    ("LD_imm64", 1, "GPR i", "CHEAP REMAT", "", ""),
    ("MOD_ri", 1, "GPR GPR=0 i", "", "", ""),
    ("MOD_ri_32", 1, "GPR32 GPR32=0 i", "", "", ""),
    ("MOD_rr", 1, "GPR GPR=0 GPR", "", "", ""),
    ("MOD_rr_32", 1, "GPR32 GPR32=0 GPR32", "", "", ""),
    ("MOV_32_64", 1, "GPR GPR32", "", "", ""),
    ("MOV_ri", 1, "GPR i", "CHEAP REMAT", "", ""),
    ("MOV_ri_32", 1, "GPR32 i", "CHEAP REMAT", "", ""),
    ("MOV_rr", 1, "GPR GPR", "CHEAP REMAT SIDE", "", ""),
    ("MOV_rr_32", 1, "GPR32 GPR32", "CHEAP REMAT SIDE", "", ""),
    ("MUL_ri", 1, "GPR GPR=0 i", "", "", ""),
    ("MUL_ri_32", 1, "GPR32 GPR32=0 i", "", "", ""),
    ("MUL_rr", 1, "GPR GPR=0 GPR", "", "", ""),
    ("MUL_rr_32", 1, "GPR32 GPR32=0 GPR32", "", "", ""),
    ("NEG_32", 1, "GPR32 GPR32=0", "CHEAP", "", ""),
    ("NEG_64", 1, "GPR GPR=0", "CHEAP", "", ""),
    ("OR_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("OR_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("OR_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("OR_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("RET", 0, "", "RET BARRIER TERM", "", ""),
    ("SLL_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("SLL_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("SLL_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("SLL_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("SRA_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("SRA_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("SRA_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("SRL_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("SRL_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("SRL_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("SRL_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("STB32", 0, "GPR32 GPR i", "STORE", "", ""),
    ("STD", 0, "GPR GPR i", "STORE", "", ""),
    ("STH32", 0, "GPR32 GPR i", "STORE", "", ""),
    ("STW32", 0, "GPR32 GPR i", "STORE", "", ""),
    ("SUB_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("SUB_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
    ("XOR_ri", 1, "GPR GPR=0 i", "CHEAP", "", ""),
    ("XOR_ri_32", 1, "GPR32 GPR32=0 i", "CHEAP", "", ""),
    ("XOR_rr", 1, "GPR GPR=0 GPR", "CHEAP", "", ""),
    ("XOR_rr_32", 1, "GPR32 GPR32=0 GPR32", "CHEAP", "", ""),
];

/// The BPF fixture target, built once.
pub fn bpf() -> &'static TargetInfo<'static> {
    static BPF: OnceLock<TargetInfo<'static>> = OnceLock::new();
    BPF.get_or_init(build_bpf)
}

fn build_bpf() -> TargetInfo<'static> {
    let mut b = TargetBuilder::new("bpf");
    let sub_32 = b.sub_reg_index("sub_32", 32, 0);
    let w: Vec<Reg> = (0..12).map(|n| b.reg(&format!("W{n}"), n, &[])).collect();
    let r: Vec<Reg> = (0..12)
        .map(|n| b.reg(&format!("R{n}"), n, &[(sub_32, w[n as usize])]))
        .collect();
    // LLVM's BPF allocation order: r1-r9, then r0, r11, r10.
    let order = |v: &[Reg]| [&v[1..10], &[v[0], v[11], v[10]]].concat();
    // Classes are added before instructions, whose rows name them; the
    // templates name opcodes by their position in INSTRS.
    let op = |name: &str| {
        let i = INSTRS
            .iter()
            .position(|row| row.0 == name)
            .expect("template opcode in INSTRS");
        super::Opcode::new(i)
    };
    use TemplateOperand::{Imm, Reg as R, Slot, Src};
    let tpl = |name: &str, ops: &[TemplateOperand]| {
        Some(InstrTemplate {
            opcode: op(name),
            operands: Cow::Owned(ops.to_vec()),
        })
    };
    let gpr32 = b.class(ClassSpec {
        name: "GPR32".into(),
        members: order(&w),
        reg_size: 32,
        copy_cost: 1,
        allocatable: true,
        spill: tpl("STW32", &[R, Slot, Imm(0)]),
        reload: tpl("LDW32", &[R, Slot, Imm(0)]),
        copy: tpl("MOV_rr_32", &[R, Src]),
    });
    let gpr = b.class(ClassSpec {
        name: "GPR".into(),
        members: order(&r),
        reg_size: 64,
        copy_cost: 1,
        allocatable: true,
        spill: tpl("STD", &[R, Slot, Imm(0)]),
        reload: tpl("LDD", &[R, Slot, Imm(0)]),
        copy: tpl("MOV_rr", &[R, Src]),
    });
    b.callee_saved("CSR", &r[6..=10]);
    for n in [10, 11] {
        b.reserve(r[n]);
        b.reserve(w[n]);
    }
    for row in INSTRS {
        b.instr(instr(row, gpr, gpr32, &r));
    }
    b.build()
}

/// Turns one [`Row`] into an instruction description.
fn instr(
    &(name, defs, sig, flags, idefs, iuses): &Row,
    gpr: RegClass,
    gpr32: RegClass,
    r: &[Reg],
) -> InstrDesc<'static> {
    let operands = sig
        .split_whitespace()
        .enumerate()
        .map(|(k, tok)| {
            let early_clobber = tok.ends_with('!');
            let tok = tok.trim_end_matches('!');
            let (cls, tied) = match tok.split_once('=') {
                Some((c, t)) => (c, Some(t.parse::<u8>().expect("tie index"))),
                None => (tok, None),
            };
            let (kind, class) = match cls {
                "GPR" => (OperandKind::Register, Some(gpr)),
                "GPR32" => (OperandKind::Register, Some(gpr32)),
                "b" => (OperandKind::Block, None),
                _ => (OperandKind::Immediate, None),
            };
            OperandDesc {
                name: Cow::Owned(format!("op{k}")),
                kind,
                class,
                is_def: k < defs as usize,
                tied_to: tied,
                early_clobber,
            }
        })
        .collect::<Vec<_>>();
    let flags = flags.split_whitespace().fold(InstrFlags::NONE, |f, w| {
        f | match w {
            "CHEAP" => InstrFlags::CHEAP_AS_MOVE,
            "REMAT" => InstrFlags::REMAT,
            "SIDE" => InstrFlags::SIDE_EFFECTS,
            "PSEUDO" => InstrFlags::PSEUDO,
            "CALL" => InstrFlags::CALL,
            "RET" => InstrFlags::RETURN,
            "BARRIER" => InstrFlags::BARRIER,
            "TERM" => InstrFlags::TERMINATOR,
            "BR" => InstrFlags::BRANCH,
            "LOAD" => InstrFlags::MAY_LOAD,
            "STORE" => InstrFlags::MAY_STORE,
            "MOVEIMM" => InstrFlags::MOVE_IMM,
            "MOVEREG" => InstrFlags::MOVE_REG,
            "COMM" => InstrFlags::COMMUTABLE,
            other => panic!("fixture row {name}: unknown flag {other}"),
        }
    });
    let regs = |s: &str| {
        s.split_whitespace()
            .map(|n| r[n[1..].parse::<usize>().expect("R<n>")])
            .collect::<Vec<_>>()
    };
    InstrDesc {
        name: Cow::Borrowed(name),
        operands: Cow::Owned(operands),
        num_defs: defs,
        implicit_defs: Cow::Owned(regs(idefs)),
        implicit_uses: Cow::Owned(regs(iuses)),
        flags,
    }
}

/// The first function of BPF MIR `text`, which must read without errors
/// (unit tests' hand-written functions). Unit tests name registers by
/// their written numbers (`VReg(2)` for `%2`, with `%0` unwritten), so
/// each register is given its written number as its index, the numbers
/// between left as unused registers without a class.
#[cfg(test)]
pub fn read_bpf_function(text: &str) -> crate::ir::MachineFunction {
    let file = crate::mir::read(bpf(), "t.mir", text);
    let errors: Vec<_> = file.errors().collect();
    assert!(errors.is_empty(), "{errors:?}");
    let mut f = file.read_functions().next().expect("function read").clone();
    index_by_written_number(&mut f);
    f
}

/// Gives every register of `f` its written number as index.
#[cfg(test)]
fn index_by_written_number(f: &mut crate::ir::MachineFunction) {
    use crate::ir::{RegRef, VReg, VRegData, VRegNumbers};
    let number = |v: VReg| f.vreg_number(v) as usize;
    let new_of_old: Vec<VReg> = (0..f.vregs.len())
        .map(|i| VReg::new(number(VReg::new(i))))
        .collect();
    let len = new_of_old.last().map_or(0, |v| v.index() + 1);
    let mut vregs = vec![VRegData::default(); len];
    for (old, data) in std::mem::take(&mut f.vregs).into_iter().enumerate() {
        vregs[new_of_old[old].index()] = data;
    }
    f.vregs = vregs;
    for inst in &mut f.insts {
        for o in &mut inst.operands {
            if let Some(r) = o.as_reg_mut()
                && let RegRef::Virt(v) = &mut r.reg
            {
                *v = new_of_old[v.index()];
            }
        }
    }
    for l in &mut f.live_ins {
        if let Some(v) = &mut l.vreg {
            *v = new_of_old[v.index()];
        }
    }
    f.vreg_numbers = VRegNumbers::default();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bpf_fixture_is_consistent() {
        let t = bpf();
        t.validate().unwrap();
        let (r1, w1) = (t.find_reg("r1").unwrap(), t.find_reg("w1").unwrap());
        let sub_32 = t.find_sub_reg_index("sub_32").unwrap();
        assert_eq!(t.sub_reg(r1, sub_32), Some(w1));
        assert!(t.regs_overlap(r1, w1) && !t.regs_overlap(r1, t.find_reg("w2").unwrap()));
        let gpr = t.find_class("gpr").unwrap();
        let gpr32 = t.find_class("gpr32").unwrap();
        assert_eq!(t.sub_class_with_sub_reg(gpr, sub_32), Some(gpr));
        assert_eq!(t.matching_super_reg_class(gpr, gpr32, sub_32), Some(gpr));
        assert_eq!(t.class(gpr).orders[0][0], r1);
        assert!(
            t.is_reserved(t.find_reg("r10").unwrap()) && t.is_reserved(t.find_reg("w11").unwrap())
        );
        let add = t.instr(t.find_opcode("ADD_rr").unwrap());
        assert_eq!(add.tied_to(1), Some(0));
        let jal = t.instr(t.find_opcode("JAL").unwrap());
        assert!(jal.is(InstrFlags::CALL) && jal.implicit_defs.len() == 6);
        let csr = t.find_callee_saved("csr").unwrap();
        assert!(t.mask_preserves(csr, t.find_reg("w6").unwrap()) && !t.mask_preserves(csr, r1));
    }
}
