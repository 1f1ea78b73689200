//! Unit tests of copy propagation on small BPF functions: each original is "allocated" by a given assignment, propagated, and the result read by the symbolic checker against the original.

use super::*;
use crate::ir::MachineFunction;
use crate::target::fixtures::bpf;

/// Reads the BPF function of `body` (virtual registers `%0`.. of class
/// gpr, `registers` of them).
fn original(registers: usize, body: &str) -> MachineFunction {
    let regs: String = (0..registers)
        .map(|k| format!("  - {{ id: {k}, class: gpr }}\n"))
        .collect();
    let text = format!(
        "---\nname: f\ntracksRegLiveness: true\nregisters:\n{regs}liveins:\n  - {{ reg: '$r1' }}\nbody: |\n{body}...\n"
    );
    let file = crate::mir::read(bpf(), "t.mir", &text);
    let f = file
        .read_functions()
        .next()
        .expect("the test function reads");
    f.clone()
}

/// `f` with virtual register `%k` replaced by physical register
/// `assign[k]`, marked `renamable` as the rewriter marks it, and its
/// live-ins computed.
fn allocated(f: &MachineFunction, assign: &[&str]) -> MachineFunction {
    let t = bpf();
    let mut a = f.clone();
    for d in &mut a.insts {
        for o in &mut d.operands {
            if let Operand::Reg(r) = o
                && let RegRef::Virt(v) = r.reg
            {
                r.reg = RegRef::Phys(t.find_reg(assign[v.index()]).unwrap());
                r.flags.set(RegFlags::RENAMABLE, true);
            }
        }
    }
    let reserved = crate::alloc::order::function_reserved(t, &a);
    crate::analysis::phys_liveness::update_live_ins(t, &mut a, &reserved);
    a
}

/// Propagates copies in `f` allocated by `assign`, checks the result
/// against `f`, and returns what the pass did and the instructions left,
/// as MIR text without `renamable`.
fn propagate(f: &MachineFunction, assign: &[&str]) -> (CopyPropagation, Vec<String>) {
    let t = bpf();
    let mut a = allocated(f, assign);
    let mut record = AllocRecord::new(f.insts.len());
    let reserved = crate::alloc::order::function_reserved(t, &a);
    let done = propagate_copies(
        t,
        &mut a,
        &mut record,
        &reserved,
        &super::SubRegisterUses::of(f),
    );
    if let Err(errors) = crate::check::check(t, f, &a, &record) {
        panic!("the checker rejects the result: {}", errors[0]);
    }
    let listing = a
        .inst_ids()
        .map(|i| {
            crate::mir::inst_text(t, &a, i)
                .unwrap_or_default()
                .replace("renamable ", "")
        })
        .collect();
    (done, listing)
}

#[test]
fn a_use_reads_the_source_and_the_dead_copies_go() {
    let f = original(
        3,
        "  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = COPY %0
    %2:gpr = MOV_rr %1
    $r0 = COPY %2
    RET implicit $r0
",
    );
    let (done, l) = propagate(&f, &["r2", "r3", "r4"]);
    // `$r0 = COPY $r4` goes backward into the MOV_rr; the two copies
    // forwarded through are dead.
    assert_eq!(l, ["$r0 = MOV_rr $r1", "RET implicit $r0"]);
    assert_eq!(
        done,
        CopyPropagation {
            forwarded: 2,
            backward: 1,
            redundant: 0,
            dead: 2,
        }
    );
}

#[test]
fn a_copy_back_and_a_repeated_copy_are_redundant() {
    let f = original(
        3,
        "  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = COPY %0
    STD %1, %0, 0
    %2:gpr = COPY %1
    STD %2, %1, 8
    $r0 = COPY %2
    RET implicit $r0
",
    );
    // %0 in r1, %1 in r2, %2 in r1: `$r1 = COPY $r2` copies back what r1
    // holds.
    let (done, l) = propagate(&f, &["r1", "r2", "r1"]);
    assert_eq!(done.redundant, 1, "{l:?}");
    assert!(!l.contains(&"$r1 = COPY $r2".to_string()), "{l:?}");
}

#[test]
fn a_copy_live_into_a_successor_stays() {
    let f = original(
        2,
        "  bb.0:
    successors: %bb.1
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = MOV_ri 1
    JMP %bb.1

  bb.1:
    STD %1, %0, 0
    RET
",
    );
    let (done, l) = propagate(&f, &["r2", "r3"]);
    assert_eq!(done.removed(), 0, "{l:?}");
    assert!(l.contains(&"$r2 = COPY $r1".to_string()), "{l:?}");
}

#[test]
fn a_copy_overwritten_before_a_read_is_dead() {
    let f = original(
        2,
        "  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = MOV_ri 1
    $r0 = MOV_rr %1
    RET implicit $r0
",
    );
    // %0 and %1 share r2: the copy into it is never read.
    let (done, l) = propagate(&f, &["r2", "r2"]);
    assert_eq!(done.dead, 1, "{l:?}");
    assert_eq!(l.len(), 3, "{l:?}");
}

#[test]
fn a_definition_takes_the_copy_destination_only_where_its_value_dies() {
    let body = "  bb.0:
    liveins: $r1
    %0:gpr = MOV_rr $r1
    %1:gpr = COPY %0
    STD %0, %1, 0
    $r0 = COPY %1
    RET implicit $r0
";
    let f = original(2, body);
    // %0 is read after the copy: the MOV_rr keeps its register, and the
    // store reads the source instead.
    let (done, l) = propagate(&f, &["r2", "r3"]);
    assert_eq!(done.backward, 0, "{l:?}");
    assert!(l.contains(&"$r2 = MOV_rr $r1".to_string()), "{l:?}");
}

#[test]
fn a_reserved_destination_is_never_taken_out() {
    let f = original(
        1,
        "  bb.0:
    liveins: $r1
    %0:gpr = MOV_ri 3
    $r10 = COPY %0
    RET
",
    );
    let (done, l) = propagate(&f, &["r2"]);
    assert_eq!(done.removed(), 0, "{l:?}");
}
