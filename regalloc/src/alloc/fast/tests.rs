//! Unit tests of the fast allocator on small functions over the BPF fixture table.

use crate::{Allocator, Options, allocate_recorded};

use crate::ir::{Operand, RegRef};
use crate::record::Edit;
use crate::target::fixtures::bpf;

fn alloc(text: &str) -> (crate::ir::MachineFunction, crate::AllocRecord) {
    let t = bpf();
    let file = crate::mir::read(t, "t.mir", text);
    let mut f = file.read_functions().next().expect("function read").clone();
    let (_, rec) = allocate_recorded(
        t,
        &mut f,
        &Options {
            allocator: Allocator::Fast,
            check: false,
        },
    )
    .expect("allocates");
    (f, rec)
}

fn no_vregs(f: &crate::ir::MachineFunction) -> bool {
    f.inst_ids().all(|i| {
        f.inst(i)
            .operands
            .iter()
            .all(|o| !matches!(o, Operand::Reg(r) if matches!(r.reg, RegRef::Virt(_))))
    })
}

const STRAIGHT: &str = "---
name: f
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = MOV_ri 5
    %2:gpr = COPY %0
    %2:gpr = ADD_rr %2, %1
    $r0 = COPY %2
    RET implicit $r0
...
";

#[test]
fn straight_line_needs_no_spill_code() {
    let (f, rec) = alloc(STRAIGHT);
    assert!(no_vregs(&f));
    assert!(rec.edits.is_empty(), "{:?}", rec.edits);
    // %0 = COPY $r1 becomes an identity copy and is taken out.
    assert!(!rec.removed.is_empty());
}

const ACROSS: &str = "---
name: g
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    successors: %bb.1
    liveins: $r1
    %0:gpr = COPY $r1
    JMP %bb.1
  bb.1:
    %1:gpr = COPY %0
    %1:gpr = ADD_ri %1, 1
    $r0 = COPY %1
    RET implicit $r0
...
";

#[test]
fn values_crossing_blocks_go_through_a_slot() {
    let (f, rec) = alloc(ACROSS);
    assert!(no_vregs(&f));
    let spills = rec
        .edits
        .values()
        .filter(|e| matches!(e, Edit::Spill { .. }))
        .count();
    let reloads = rec
        .edits
        .values()
        .filter(|e| matches!(e, Edit::Reload { .. }))
        .count();
    assert_eq!((spills, reloads), (1, 1));
    assert_eq!(
        f.stack.last().map(|o| o.kind),
        Some(crate::ir::StackObjectKind::SpillSlot)
    );
    assert!(f.blocks[1].live_ins.is_empty());
}

/// The physical register of operand `k` of the `n`th instruction of block `b`.
fn reg_at(f: &crate::ir::MachineFunction, b: usize, n: usize, k: usize) -> crate::target::Reg {
    let i = f.blocks[b].insts[n];
    match f.inst(i).operands[k].as_reg().map(|r| r.reg) {
        Some(RegRef::Phys(p)) => p,
        other => panic!("operand {k} of instruction {n} is {other:?}"),
    }
}

fn wrap(name: &str, regs: &str, body: &str) -> String {
    format!("---\nname: {name}\ntracksRegLiveness: true\nregisters:\n{regs}body: |\n{body}...\n")
}

#[test]
fn tied_use_of_another_register_is_copied_into_the_definition() {
    // %0 stays live after the ADD, so the ADD's tied use cannot simply
    // take %0's register: the value is copied first. (%1's second, dead
    // definition makes the function not SSA, so that the pipeline's
    // two-address lowering leaves the ties to Fast.)
    let text = wrap(
        "tied",
        "  - { id: 0, class: gpr }\n  - { id: 1, class: gpr }\n  - { id: 2, class: gpr }\n",
        "  bb.0:
    %0:gpr = MOV_ri 1
    %1:gpr = MOV_ri 2
    %2:gpr = ADD_rr %0, %1
    $r0 = ADD_rr %2, %0
    dead %1:gpr = MOV_ri 3
    RET implicit $r0
",
    );
    let (f, rec) = alloc(&text);
    assert!(no_vregs(&f));
    let add = f.blocks[0]
        .insts
        .iter()
        .position(|&i| rec.is_original(i) && i.index() == 2)
        .unwrap();
    assert_eq!(reg_at(&f, 0, add, 0), reg_at(&f, 0, add, 1));
    let copies = rec
        .edits
        .values()
        .filter(|e| matches!(e, Edit::Copy { .. }))
        .count();
    println!("{}", crate::mir::write_function(bpf(), &f));
    assert_eq!(copies, 2, "one for each tie to another register");
    // %0 is read again by the last ADD from a register the copy left alone.
    let last = f.blocks[0].insts.len() - 3;
    assert_ne!(reg_at(&f, 0, last, 2), reg_at(&f, 0, add, 0));
}

#[test]
fn unknown_opcode_keeps_a_register_it_reads_and_defines_in_one_register() {
    // `VPTIED_UNKNOWN` is in no description: LLVM may tie its definition
    // to the use of the same register without printing the tie (as it
    // does for AVX-512 masked moves and SVE `AND_ZI`), so both operands
    // get one register even though the copy below pulls %1 into $r0.
    let text = wrap(
        "unknown_tie",
        "  - { id: 0, class: gpr }\n  - { id: 1, class: gpr }\n",
        "  bb.0:
    %0:gpr = MOV_ri 1
    %1:gpr = MOV_ri 2
    %1:gpr = VPTIED_UNKNOWN %1, %0
    $r0 = COPY %1
    RET implicit $r0
",
    );
    let (f, _) = alloc(&text);
    assert!(no_vregs(&f));
    let n = f.blocks[0]
        .insts
        .iter()
        .position(|&i| matches!(f.inst(i).op, crate::ir::Op::Unknown(_)))
        .expect("the unknown instruction is kept");
    assert_eq!(
        reg_at(&f, 0, n, 0),
        reg_at(&f, 0, n, 1),
        "{}",
        crate::mir::write_function(bpf(), &f)
    );
}

#[test]
fn early_clobber_definition_avoids_the_uses() {
    let text = wrap(
        "ec",
        "  - { id: 0, class: gpr }\n  - { id: 1, class: gpr }\n",
        "  bb.0:
    %0:gpr = MOV_ri 1
    early-clobber %1:gpr = MOV_rr %0
    $r0 = COPY %1
    RET implicit $r0
",
    );
    let (f, _) = alloc(&text);
    assert_ne!(reg_at(&f, 0, 1, 0), reg_at(&f, 0, 1, 1));
}

#[test]
fn values_live_across_a_masked_call_are_reloaded_or_preserved() {
    let text = wrap(
        "call",
        "  - { id: 0, class: gpr }\n  - { id: 1, class: gpr }\n",
        "  bb.0:
    %0:gpr = MOV_ri 7
    JAL @g, csr, implicit-def $r0
    %1:gpr = COPY %0
    %1:gpr = ADD_rr %1, %0
    $r0 = COPY %1
    RET implicit $r0
",
    );
    let t = bpf();
    let csr = t.find_callee_saved("csr").unwrap();
    let (f, rec) = alloc(&text);
    let call = f.blocks[0]
        .insts
        .iter()
        .position(|&i| {
            f.inst(i)
                .operands
                .iter()
                .any(|o| matches!(o, Operand::RegMask(_)))
        })
        .unwrap();
    // Right after the call, either a reload puts %0 back, or %0 sits in a
    // register the mask preserves.
    let next = f.blocks[0].insts[call + 1];
    let def0 = reg_at(&f, 0, 0, 0);
    assert!(
        matches!(rec.edit(next), Some(Edit::Reload { to, .. }) if *to == def0 || t.mask_preserves(csr, *to))
            || t.mask_preserves(csr, def0)
    );
}

#[test]
fn sub_register_uses_name_the_sub_register_of_the_assignment() {
    let text = wrap(
        "sub",
        "  - { id: 0, class: gpr }\n  - { id: 1, class: gpr32 }\n",
        "  bb.0:
    %0:gpr = MOV_ri 7
    %1:gpr32 = MOV_rr_32 %0.sub_32
    $w0 = COPY %1
    RET implicit $w0
",
    );
    let t = bpf();
    let (f, _) = alloc(&text);
    let full = reg_at(&f, 0, 0, 0);
    let sub = t
        .sub_reg(full, t.find_sub_reg_index("sub_32").unwrap())
        .unwrap();
    assert_eq!(reg_at(&f, 0, 1, 1), sub);
}

#[test]
fn undef_uses_need_no_reload() {
    let text = wrap(
        "undef",
        "  - { id: 0, class: gpr }\n",
        "  bb.0:
    successors: %bb.1
    JMP %bb.1
  bb.1:
    %0:gpr = ADD_ri undef %0, 1
    $r0 = COPY %0
    RET implicit $r0
",
    );
    let (f, rec) = alloc(&text);
    assert!(no_vregs(&f));
    assert!(!rec.edits.values().any(|e| matches!(e, Edit::Reload { .. })));
    assert_eq!(reg_at(&f, 1, 0, 0), reg_at(&f, 1, 0, 1));
}

#[test]
fn too_many_registers_at_once_is_an_error_not_a_panic() {
    let regs: String = (0..11)
        .map(|k| format!("  - {{ id: {k}, class: gpr }}\n"))
        .collect();
    let mut body = String::from("  bb.0:\n");
    for k in 0..11 {
        body.push_str(&format!("    %{k}:gpr = MOV_ri {k}\n"));
    }
    let uses: Vec<String> = (0..11).map(|k| format!("implicit %{k}")).collect();
    body.push_str(&format!("    RET {}\n", uses.join(", ")));
    let text = wrap("many", &regs, &body);
    let t = bpf();
    let file = crate::mir::read(t, "t.mir", &text);
    let mut f = file.read_functions().next().expect("read").clone();
    let context = crate::TargetContext::new(t);
    let mut buffers = super::Buffers::default();
    let e = super::run_in(
        t,
        context.orders(),
        context.fast_tables(),
        &mut buffers,
        &mut f,
    )
    .unwrap_err();
    assert_eq!(e.kind, crate::AllocErrorKind::OverConstrained);
    assert!(e.inst.is_some() && e.message.contains("gpr"), "{e}");
}
