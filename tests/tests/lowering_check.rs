//! The lowering checker (`check::check_lowering`) on small x86-64 functions through our pre-allocation passes: the PHI swap and lost-copy shapes, a split critical edge, commuted and three-address two-address forms and coalesced copies are proved; mutants of the lowered code (PHI copies swapped, a copy dropped, a wrong commute, a register renamed wrongly, a three-address immediate changed, a forged block record) are caught.

use regalloc::check::{CheckErrorKind, check_lowering};
use regalloc::ir::{Generic, Inst, MachineFunction, Op, Operand, RegRef};
use regalloc::passes::{self, Pass};
use regalloc::record::{BlockOrigin, LoweringRecord};
use regalloc::target::TargetInfo;

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

/// The one function of `mir`, and its lowering up to `stop_after` with
/// the record.
fn lower(mir: &str, stop_after: Pass) -> (MachineFunction, MachineFunction, LoweringRecord) {
    let file = regalloc::mir::read(x86(), "test.mir", mir);
    assert_eq!(
        file.errors().count(),
        0,
        "{:?}",
        file.errors().collect::<Vec<_>>()
    );
    let ssa = file.read_functions().next().expect("a function").clone();
    let mut lowered = ssa.clone();
    let (_, record) =
        passes::run_until_recorded(x86(), &mut lowered, stop_after).expect("the passes run");
    (ssa, lowered, record)
}

/// The lowering of `mir` up to the coalescer is proved.
fn proved(mir: &str) {
    for stop in [
        Pass::PhiElimination,
        Pass::TwoAddress,
        Pass::RegisterCoalescer,
    ] {
        let (ssa, lowered, record) = lower(mir, stop);
        if let Err(errors) = check_lowering(x86(), &ssa, &lowered, &record) {
            let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!(
                "after {}: {}\n{}",
                stop.name(),
                text.join("\n"),
                regalloc::mir::write_function(x86(), &lowered)
            );
        }
    }
}

/// The kinds of the errors the checker reports on `lowered`.
fn rejected(
    ssa: &MachineFunction,
    lowered: &MachineFunction,
    record: &LoweringRecord,
) -> Vec<CheckErrorKind> {
    match check_lowering(x86(), ssa, lowered, record) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(|e| e.kind).collect(),
    }
}

const DIAMOND: &str = "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr32 }
  - { id: 5, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
body: |
  bb.0:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    liveins: $edi
    %0:gr32 = COPY $edi
    %1:gr32 = IMPLICIT_DEF
    TEST32rr %0, %0, implicit-def $eflags
    JCC_1 %bb.2, 4, implicit $eflags
  bb.1:
    successors: %bb.2(0x80000000)
    %2:gr32 = ADD32rr %0, %0, implicit-def $eflags
    JMP_1 %bb.2
  bb.3:
    successors: %bb.2(0x80000000)
    %4:gr32 = MOV32ri 7
    JMP_1 %bb.2
  bb.2:
    %3:gr32 = PHI %1, %bb.0, %2, %bb.1, %4, %bb.3
    %5:gr32 = PHI %0, %bb.0, %0, %bb.1, %0, %bb.3
    $eax = COPY %3
    $edi = COPY %5
    RET 0, implicit $eax, implicit $edi
...
";

/// Two PHIs of a loop swapping their values each iteration (the swap
/// problem), both read after the loop (the lost-copy problem).
const SWAP: &str = "---
name: swap
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $edi, $esi
    %0:gr32 = COPY $edi
    %1:gr32 = COPY $esi
  bb.1:
    successors: %bb.1(0x40000000), %bb.2(0x40000000)
    %2:gr32 = PHI %0, %bb.0, %3, %bb.1
    %3:gr32 = PHI %1, %bb.0, %2, %bb.1
    %4:gr32 = SUB32rr %2, %3, implicit-def $eflags
    JCC_1 %bb.1, 5, implicit $eflags
  bb.2:
    $eax = COPY %2
    $edx = COPY %3
    RET 0, implicit $eax, implicit $edx
...
";

const TWO_ADDRESS_COPY: &str = "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $edi, $esi
    %0:gr32 = COPY $edi
    %1:gr32 = COPY $esi
    %2:gr32 = SUB32rr %0, %1, implicit-def $eflags
    %3:gr32 = IMUL32rr %2, %0, implicit-def $eflags
    $eax = COPY %3
    RET 0, implicit $eax
...
";

const TWO_ADDRESS_COMMUTE: &str = "---
name: g
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    liveins: $edi, $esi
    %0:gr32 = COPY $edi
    %1:gr32 = COPY $esi
    %2:gr32 = IMUL32rr %0, %1, implicit-def $eflags
    TEST32rr %0, %0, implicit-def $eflags
    %3:gr32 = CMOV32rr %0, %2, 4, implicit $eflags
    %4:gr32 = SUB32rr %3, %0, implicit-def $eflags
    $eax = COPY %4
    RET 0, implicit $eax
...
";

const THREE_ADDRESS: &str = "---
name: k
tracksRegLiveness: true
registers:
  - { id: 0, class: gr64 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr64 }
  - { id: 3, class: gr32 }
  - { id: 4, class: gr8 }
  - { id: 5, class: gr8 }
  - { id: 6, class: gr32 }
  - { id: 7, class: gr32 }
  - { id: 8, class: gr32 }
liveins:
  - { reg: '$rdi', virtual-reg: '%0' }
  - { reg: '$esi', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1(0x80000000)
    liveins: $rdi, $esi
    %0:gr64 = COPY $rdi
    %1:gr32 = COPY $esi
    %2:gr64 = ADD64ri32 %0, 16, implicit-def $eflags
    %3:gr32 = ADD32rr %1, %1, implicit-def $eflags
    %4:gr8 = COPY %1.sub_8bit
    %5:gr8 = INC8r %4, implicit-def $eflags
    %6:gr32 = SHL32ri %3, 2, implicit-def $eflags
    %7:gr32 = SUB32ri %3, 9, implicit-def $eflags
    %8:gr32 = ADD32ri %6, 1, implicit-def $eflags
    JCC_1 %bb.1, 4, implicit $eflags
  bb.1:
    $rax = COPY %2
    $rdx = COPY %0
    $ecx = COPY %1
    $r8d = COPY %3
    $r9b = COPY %4
    $r10b = COPY %5
    $r11d = COPY %6
    $esi = COPY %7
    $edi = COPY %8
    RET 0, implicit $rax, implicit $rdx, implicit $ecx, implicit $r8d, implicit $r9b, implicit $r10b, implicit $r11d, implicit $esi, implicit $edi
...
";

/// Copies the coalescer joins and a constant it rematerializes into a
/// physical register.
const COALESCED: &str = "---
name: c
tracksRegLiveness: true
registers:
  - { id: 0, class: gr32 }
  - { id: 1, class: gr32 }
  - { id: 2, class: gr32 }
  - { id: 3, class: gr32 }
liveins:
  - { reg: '$edi', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $edi
    %0:gr32 = COPY $edi
    %1:gr32 = COPY %0
    %2:gr32 = IMUL32rri %1, 3, implicit-def $eflags
    %3:gr32 = MOV32ri 5
    $eax = COPY %2
    $edx = COPY %3
    RET 0, implicit $eax, implicit $edx
...
";

#[test]
fn a_split_critical_edge_and_its_phis_are_proved() {
    proved(DIAMOND);
    let (_, _, record) = lower(DIAMOND, Pass::PhiElimination);
    assert!(
        record
            .block_origins
            .iter()
            .any(|o| matches!(o, BlockOrigin::Split { .. })),
        "the diamond's critical edge is split: {:?}",
        record.block_origins
    );
}

#[test]
fn swapped_phis_and_lost_copies_are_proved() {
    proved(SWAP);
}

#[test]
fn two_address_copies_commuting_and_three_address_forms_are_proved() {
    proved(TWO_ADDRESS_COPY);
    proved(TWO_ADDRESS_COMMUTE);
    proved(THREE_ADDRESS);
    let (_, lowered, _) = lower(THREE_ADDRESS, Pass::TwoAddress);
    assert!(
        lowered
            .inst_ids()
            .any(|i| lowered.inst(i).op.name(x86()).starts_with("LEA")),
        "a three-address form was made"
    );
}

#[test]
fn coalesced_copies_and_rematerialized_constants_are_proved() {
    proved(COALESCED);
}

/// The COPYs ending block `b` before its terminators.
fn copies_before_terminators(f: &MachineFunction, b: usize) -> Vec<Inst> {
    let insts = &f.blocks[b].insts;
    let first_term = insts
        .iter()
        .position(|&i| f.inst(i).op.is_terminator(x86()))
        .unwrap_or(insts.len());
    insts[..first_term]
        .iter()
        .rev()
        .take_while(|&&i| f.inst(i).op.is_copy())
        .copied()
        .collect()
}

#[test]
fn swapped_phi_copies_are_caught() {
    let (ssa, mut lowered, record) = lower(SWAP, Pass::PhiElimination);
    let loop_block = (0..lowered.blocks.len())
        .find(|&b| lowered.blocks[b].succs.iter().any(|s| s.block.index() == b))
        .expect("the loop");
    let copies = copies_before_terminators(&lowered, loop_block);
    assert!(copies.len() >= 2, "the loop's PHI copies: {copies:?}");
    let (a, b) = (copies[0], copies[1]);
    let sa = lowered.inst(a).operands[1].clone();
    let sb = lowered.inst(b).operands[1].clone();
    lowered.inst_mut(a).operands[1] = sb;
    lowered.inst_mut(b).operands[1] = sa;
    assert!(rejected(&ssa, &lowered, &record).contains(&CheckErrorKind::WrongValue));
}

/// Every COPY of the lowered functions, dropped alone, is caught.
#[test]
fn each_dropped_copy_is_caught() {
    for mir in [DIAMOND, SWAP, TWO_ADDRESS_COPY, TWO_ADDRESS_COMMUTE] {
        let (ssa, lowered, record) = lower(mir, Pass::TwoAddress);
        let mut tried = 0;
        for b in 0..lowered.blocks.len() {
            for &i in &lowered.blocks[b].insts {
                if !lowered.inst(i).op.is_copy() {
                    continue;
                }
                let mut mutant = lowered.clone();
                mutant.blocks[b].insts.retain(|&x| x != i);
                tried += 1;
                assert!(
                    !rejected(&ssa, &mutant, &record).is_empty(),
                    "dropping {:?} in bb.{b} of {} is not caught",
                    regalloc::mir::inst_text(x86(), &lowered, i),
                    ssa.name
                );
            }
        }
        assert!(tried > 0);
    }
}

/// The error a dropped two-address copy gives, as text.
#[test]
fn a_dropped_copy_is_reported_where_it_is_read() {
    let (ssa, mut lowered, record) = lower(TWO_ADDRESS_COPY, Pass::TwoAddress);
    let copy = lowered.blocks[0].insts[2];
    assert!(lowered.inst(copy).op.is_copy());
    lowered.blocks[0].insts.remove(2);
    let errors = check_lowering(x86(), &ssa, &lowered, &record).expect_err("caught");
    assert_eq!(
        errors[0].to_string(),
        "test.mir:17:5: error: wrong value in f, bb.0, instruction 2 (position 2) \
         `%2:gr32 = SUB32rr %2, killed %1, implicit-def dead $eflags`, operand 1 (%2): \
         expected %0, found nothing known"
    );
}

/// A non-commutable `SUB` commuted, and a commuted `CMOV` whose
/// condition is not reversed, are caught.
#[test]
fn wrong_commutes_are_caught() {
    let (ssa, mut lowered, record) = lower(TWO_ADDRESS_COPY, Pass::TwoAddress);
    // %2 = COPY %0; %2 = SUB32rr %2, %1  ->  %2 = COPY %1; %2 = SUB32rr %2, %0
    let insts = lowered.blocks[0].insts.clone();
    let (copy, sub) = (insts[2], insts[3]);
    let (zero, one) = (
        lowered.inst(copy).operands[1].clone(),
        lowered.inst(sub).operands[2].clone(),
    );
    lowered.inst_mut(copy).operands[1] = one;
    lowered.inst_mut(sub).operands[2] = zero;
    assert!(rejected(&ssa, &lowered, &record).contains(&CheckErrorKind::WrongValue));

    let (ssa, mut lowered, record) = lower(TWO_ADDRESS_COMMUTE, Pass::TwoAddress);
    let cmov = lowered
        .inst_ids()
        .find(|&i| lowered.inst(i).op.name(x86()) == "CMOV32rr")
        .expect("the CMOV");
    let cond = lowered
        .inst(cmov)
        .operands
        .iter()
        .position(|o| matches!(o, Operand::Imm(_)))
        .expect("a condition");
    assert_eq!(
        lowered.inst(cmov).operands[cond],
        Operand::Imm(5),
        "commuted, condition reversed"
    );
    lowered.inst_mut(cmov).operands[cond] = Operand::Imm(4);
    assert!(!rejected(&ssa, &lowered, &record).is_empty());
}

/// A read renamed to another register the coalescer could have joined
/// it with is caught.
#[test]
fn a_wrongly_renamed_register_is_caught() {
    for mir in [TWO_ADDRESS_COPY, TWO_ADDRESS_COMMUTE, COALESCED] {
        let (ssa, lowered, record) = lower(mir, Pass::RegisterCoalescer);
        let vregs: Vec<RegRef> = lowered
            .inst_ids()
            .flat_map(|i| lowered.inst(i).operands.clone())
            .filter_map(|o| o.as_reg().filter(|r| r.is_def()).map(|r| r.reg))
            .filter(|r| matches!(r, RegRef::Virt(_)))
            .collect();
        let mut caught = 0;
        let mut tried = 0;
        for b in 0..lowered.blocks.len() {
            for &i in &lowered.blocks[b].insts {
                let d = lowered.inst(i);
                if d.op.is_copy() || d.op == Op::Generic(Generic::Phi) {
                    continue;
                }
                for (k, o) in d.operands.iter().enumerate() {
                    let Some(r) = o
                        .as_reg()
                        .filter(|r| !r.is_def() && matches!(r.reg, RegRef::Virt(_)))
                    else {
                        continue;
                    };
                    let Some(&other) = vregs.iter().find(|&&v| v != r.reg) else {
                        continue;
                    };
                    let mut mutant = lowered.clone();
                    if let Operand::Reg(x) = &mut mutant.inst_mut(i).operands[k] {
                        x.reg = other;
                    }
                    tried += 1;
                    caught += usize::from(!rejected(&ssa, &mutant, &record).is_empty());
                }
            }
        }
        assert!(tried > 0, "{}", ssa.name);
        // A rename may land on a register holding an equal value (an
        // equivalent mutant); most must be caught.
        println!("{}: {caught}/{tried} renamed reads caught", ssa.name);
        assert!(
            caught * 4 >= tried * 3,
            "renamed reads caught in {}: {caught}/{tried}",
            ssa.name
        );
    }
}

/// A three-address form reading a different immediate than the
/// two-address instruction it replaces is caught.
#[test]
fn a_wrong_three_address_form_is_caught() {
    let (ssa, mut lowered, record) = lower(THREE_ADDRESS, Pass::TwoAddress);
    let lea = lowered
        .inst_ids()
        .filter(|&i| lowered.blocks.iter().any(|b| b.insts.contains(&i)))
        .find(|&i| lowered.inst(i).op.name(x86()) == "LEA64r")
        .expect("ADD64ri32 became LEA64r");
    let disp = lowered
        .inst(lea)
        .operands
        .iter()
        .position(|o| *o == Operand::Imm(16))
        .expect("the displacement");
    lowered.inst_mut(lea).operands[disp] = Operand::Imm(17);
    assert!(rejected(&ssa, &lowered, &record).contains(&CheckErrorKind::InstructionChanged));
}

/// The record is a claim: origins that do not match the blocks are
/// caught.
#[test]
fn a_forged_block_record_is_caught() {
    let (ssa, lowered, record) = lower(DIAMOND, Pass::PhiElimination);
    let mut forged = record.clone();
    forged.block_origins.swap(1, 2);
    assert!(rejected(&ssa, &lowered, &forged).contains(&CheckErrorKind::Structure));
    let mut short = record;
    short.block_origins.pop();
    assert_eq!(
        rejected(&ssa, &lowered, &short),
        vec![CheckErrorKind::Structure]
    );
}
