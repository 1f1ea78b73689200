//! Unit tests of the checker on small hand-allocated BPF functions.

use crate::ir::{Inst, MachineFunction, Operand, RegRef};
use crate::record::{AllocRecord, Edit};
use crate::target::fixtures::bpf;

use super::{CheckErrorKind, check};

const SRC: &str = r#"---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = MOV_ri 7
    %1:gpr = ADD_rr %1, %0
    $r0 = COPY %1
    RET implicit $r0
...
"#;

fn original() -> MachineFunction {
    let file = crate::mir::read(bpf(), "t.mir", SRC);
    file.read_functions()
        .next()
        .expect("test function reads")
        .clone()
}

/// Replaces every virtual register of `f` by the physical register `assign`
/// gives it.
fn assign(f: &MachineFunction, assign: &[&str]) -> MachineFunction {
    let t = bpf();
    let mut a = f.clone();
    for d in &mut a.insts {
        for o in &mut d.operands {
            if let Operand::Reg(r) = o
                && let RegRef::Virt(v) = r.reg
            {
                r.reg = RegRef::Phys(t.find_reg(assign[v.index()]).unwrap());
            }
        }
    }
    a
}

#[test]
fn accepts_a_correct_assignment() {
    let f = original();
    let a = assign(&f, &["r2", "r3"]);
    let rec = AllocRecord::new(f.insts.len());
    check(bpf(), &f, &a, &rec).unwrap();
}

#[test]
fn rejects_overlapping_values_and_names_the_place() {
    let f = original();
    // %0 and %1 both in r2: the MOV_ri overwrites %0 before the ADD reads it.
    let a = assign(&f, &["r2", "r2"]);
    let rec = AllocRecord::new(f.insts.len());
    let errs = check(bpf(), &f, &a, &rec).unwrap_err();
    assert_eq!(errs[0].kind, CheckErrorKind::WrongValue, "{}", errs[0]);
    let text = errs[0].to_string();
    println!("{text}");
    assert!(
        text.contains("bb.0") && text.contains("ADD_rr") && text.contains("%0"),
        "{text}"
    );
}

#[test]
fn rejects_a_broken_tie_and_a_reserved_register() {
    let f = original();
    let mut a = assign(&f, &["r2", "r3"]);
    // The ADD's definition moved off its tied use.
    let add = Inst::new(2);
    if let Operand::Reg(r) = &mut a.insts[add.index()].operands[0] {
        r.reg = RegRef::Phys(bpf().find_reg("r4").unwrap());
    }
    let rec = AllocRecord::new(f.insts.len());
    let errs = check(bpf(), &f, &a, &rec).unwrap_err();
    assert!(
        errs.iter().any(|e| e.kind == CheckErrorKind::TiedMismatch),
        "{errs:?}"
    );
    let b = assign(&f, &["r10", "r3"]);
    let errs = check(bpf(), &f, &b, &rec).unwrap_err();
    assert!(
        errs.iter().any(|e| e.kind == CheckErrorKind::WrongClass),
        "{errs:?}"
    );
}

#[test]
fn follows_spills_and_reloads() {
    let t = bpf();
    let f = original();
    let mut a = assign(&f, &["r2", "r3"]);
    a.stack.push(crate::ir::FrameObject::spill_slot(0, 8, 8));
    let (r2, r4) = (t.find_reg("r2").unwrap(), t.find_reg("r4").unwrap());
    let std = t.find_opcode("STD").unwrap();
    let ldd = t.find_opcode("LDD").unwrap();
    // Spill %0 after its COPY, clobber r2 with the MOV, reload into r4.
    let mut rec = AllocRecord::new(f.insts.len());
    let push = |a: &mut MachineFunction, d: crate::ir::InstData, pos: usize| {
        a.insts.push(d);
        let i = Inst::new(a.insts.len() - 1);
        a.blocks[0].insts.insert(pos, i);
        i
    };
    let mut spill = crate::ir::InstData::new(crate::ir::Op::Target(std));
    spill.operands = vec![
        Operand::Reg(crate::ir::RegOperand::use_of(r2)),
        Operand::Frame(
            crate::ir::FrameRef {
                fixed: false,
                id: 0,
            },
            0,
        ),
        Operand::Imm(0),
    ];
    let s = push(&mut a, spill, 1);
    rec.edits.insert(s, Edit::Spill { from: r2, slot: 0 });
    // The MOV now writes r2 (where %0 was), the ADD reads %0 from r4.
    if let Operand::Reg(r) = &mut a.insts[1].operands[0] {
        r.reg = RegRef::Phys(r2);
    }
    for k in [0, 1] {
        if let Operand::Reg(r) = &mut a.insts[2].operands[k] {
            r.reg = RegRef::Phys(r2);
        }
    }
    if let Operand::Reg(r) = &mut a.insts[3].operands[1] {
        r.reg = RegRef::Phys(r2);
    }
    let mut reload = crate::ir::InstData::new(crate::ir::Op::Target(ldd));
    reload.operands = vec![
        Operand::Reg(crate::ir::RegOperand::def_of(r4)),
        Operand::Frame(
            crate::ir::FrameRef {
                fixed: false,
                id: 0,
            },
            0,
        ),
        Operand::Imm(0),
    ];
    let l = push(&mut a, reload, 3);
    rec.edits.insert(l, Edit::Reload { slot: 0, to: r4 });
    if let Operand::Reg(r) = &mut a.insts[2].operands[2] {
        r.reg = RegRef::Phys(r4);
    }
    check(t, &f, &a, &rec).unwrap();
    // Reading %0 from r2 instead is caught.
    let mut bad = a.clone();
    if let Operand::Reg(r) = &mut bad.insts[2].operands[2] {
        r.reg = RegRef::Phys(r2);
    }
    let errs = check(t, &f, &bad, &rec).unwrap_err();
    assert_eq!(errs[0].kind, CheckErrorKind::WrongValue);
}

/// `SRC` with its ADD replaced by opcodes in no description, one plain and
/// one early-clobber, each reading and defining %1.
const UNKNOWN_SRC: &str = r#"---
name: u
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = MOV_ri 7
    %1:gpr = VPTIED_UNKNOWN %1, %0
    early-clobber %1:gpr = VPGATHER_UNKNOWN %1, %0
    $r0 = COPY %1
    RET implicit $r0
...
"#;

#[test]
fn an_unknown_opcode_reading_and_defining_one_register_is_a_tie() {
    // LLVM prints no tie its own description implies, so for an opcode
    // ours lacks, a use of the register a definition names is its tie:
    // the two must share a register, and an early-clobber definition may
    // share it with that use (an AVX-512 gather's pass-through operand).
    let file = crate::mir::read(bpf(), "t.mir", UNKNOWN_SRC);
    let f = file.read_functions().next().expect("reads").clone();
    let rec = AllocRecord::new(f.insts.len());
    let a = assign(&f, &["r2", "r3"]);
    check(bpf(), &f, &a, &rec).unwrap();

    let mut broken = a.clone();
    let tied = Inst::new(2);
    if let Operand::Reg(r) = &mut broken.insts[tied.index()].operands[0] {
        r.reg = RegRef::Phys(bpf().find_reg("r4").unwrap());
    }
    let errs = check(bpf(), &f, &broken, &rec).unwrap_err();
    assert!(
        errs.iter().any(|e| e.kind == CheckErrorKind::TiedMismatch),
        "{errs:?}"
    );
}

const PARTIAL_EARLY_CLOBBER: &str = r#"---
name: p
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = MOV_ri 7
    early-clobber %1.sub_32:gpr = VPGATHER_UNKNOWN %1.sub_32, %0
    $r0 = COPY %1
    RET implicit $r0
...
"#;

#[test]
fn an_early_clobber_partial_definition_may_overlap_the_read_of_its_other_lanes() {
    // The rewriter gives a sub-register definition without `undef` an
    // implicit use and definition of the whole register (as LLVM's does:
    // `early-clobber $ymm22 = VPGATHERQDZrm $ymm22, ..., implicit $zmm22,
    // implicit-def $zmm22`). The use reads only the lanes the definition
    // leaves; any other use overlapping the definition is still an error.
    let t = bpf();
    let file = crate::mir::read(t, "t.mir", PARTIAL_EARLY_CLOBBER);
    let f = file.read_functions().next().expect("reads").clone();
    let rec = AllocRecord::new(f.insts.len());
    let mut a = assign(&f, &["r2", "r3"]);
    let gather = Inst::new(2);
    for o in &mut a.insts[gather.index()].operands {
        if let Operand::Reg(r) = o
            && r.sub.is_some()
        {
            r.reg = RegRef::Phys(t.find_reg("w3").unwrap());
            r.sub = None;
        }
    }
    let r3 = t.find_reg("r3").unwrap();
    let whole = |flags| {
        Operand::Reg(crate::ir::RegOperand {
            flags,
            ..crate::ir::RegOperand::use_of(r3)
        })
    };
    use crate::ir::RegFlags;
    a.insts[gather.index()]
        .operands
        .push(whole(RegFlags::IMPLICIT));
    a.insts[gather.index()]
        .operands
        .push(whole(RegFlags::IMPLICIT | RegFlags::DEF));
    check(t, &f, &a, &rec).unwrap();

    // %0 in r3 as well: the original use of %0 overlaps the definition.
    let mut b = a.clone();
    if let Operand::Reg(r) = &mut b.insts[gather.index()].operands[2] {
        r.reg = RegRef::Phys(r3);
    }
    let errs = check(t, &f, &b, &rec).unwrap_err();
    assert!(
        errs.iter()
            .any(|e| e.kind == CheckErrorKind::EarlyClobberOverlap),
        "{errs:?}"
    );
}
