//! Unit tests of the basic allocator and its machinery (matrix, order, spiller, rewriter, slot colouring) on small BPF functions.

use std::fmt::Write as _;

use crate::alloc::order::ClassOrders;
use crate::ir::{MachineFunction, Op, Operand, RegFlags, RegRef};
use crate::record::Edit;
use crate::target::fixtures::bpf;
use crate::{AllocErrorKind, AllocRecord, Allocator, Options, Stats, allocate_recorded};

use crate::target::fixtures::read_bpf_function as read;

fn basic(text: &str) -> Result<(MachineFunction, Stats, AllocRecord), crate::AllocError> {
    let mut f = read(text);
    let opts = Options {
        allocator: Allocator::Basic,
        check: false,
    };
    allocate_recorded(bpf(), &mut f, &opts).map(|(s, r)| (f, s, r))
}

fn no_vregs(f: &MachineFunction) -> bool {
    f.inst_ids().all(|i| {
        f.inst(i)
            .operands
            .iter()
            .all(|o| !matches!(o, Operand::Reg(r) if matches!(r.reg, RegRef::Virt(_))))
    })
}

fn reg(name: &str) -> crate::target::Reg {
    bpf().find_reg(name).unwrap()
}

/// The physical register of operand `k` of instruction `i`.
fn phys(f: &MachineFunction, i: crate::ir::Inst, k: usize) -> crate::target::Reg {
    match &f.inst(i).operands[k] {
        Operand::Reg(r) => match r.reg {
            RegRef::Phys(p) => p,
            other => panic!("operand {k} is {other:?}"),
        },
        other => panic!("operand {k} is {other:?}"),
    }
}

/// A function with `n` values defined by `def` (a format string with `{}`
/// for the value number and `{c}` for a constant) and all used at the end,
/// so that `n` values are live at once.
fn pressure(n: usize, def: &str, phases: usize) -> String {
    let mut s = String::from("---\nname: p\ntracksRegLiveness: true\nregisters:\n");
    for k in 0..n * phases + 1 {
        let _ = writeln!(s, "  - {{ id: {k}, class: gpr }}");
    }
    s.push_str("liveins:\n  - { reg: '$r1', virtual-reg: '%0' }\nbody: |\n  bb.0:\n    liveins: $r1\n    %0:gpr = COPY $r1\n");
    for p in 0..phases {
        let base = 1 + p * n;
        for k in base..base + n {
            let _ = writeln!(
                s,
                "    {}",
                def.replace("{}", &k.to_string())
                    .replace("{c}", &(k * 7).to_string())
            );
        }
        for k in base..base + n {
            let _ = writeln!(s, "    %0:gpr = ADD_rr %0, %{k}");
        }
    }
    s.push_str("    $r0 = COPY %0\n    RET implicit $r0\n...\n");
    s
}

#[test]
fn straight_line_without_pressure() {
    let text = "---
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
    %1:gpr = MOV_ri 5
    %0:gpr = ADD_rr %0, %1
    $r0 = COPY %0
    RET implicit $r0
...
";
    let (f, stats, rec) = basic(text).unwrap();
    assert!(no_vregs(&f));
    assert_eq!((stats.spills, stats.reloads, stats.remats), (0, 0, 0));
    assert!(rec.edits.is_empty());
    // %0 takes one of its hints ($r1 or $r0): that copy becomes an identity
    // and goes, recorded with the instruction it came before.
    assert_eq!(rec.removed.len(), 1);
    let removed = rec.removed[0];
    assert!(f.inst(removed.inst).op.is_copy());
    let original = [0, 1, 2, 3, 4].map(crate::ir::Inst::new);
    let k = original.iter().position(|&i| i == removed.inst).unwrap();
    assert_eq!(removed.before, Some(original[k + 1]));
    // Operands are renamable; the entry block's live-ins are recomputed.
    let add = crate::ir::Inst::new(2);
    match &f.inst(add).operands[0] {
        Operand::Reg(r) => assert!(r.flags.has(RegFlags::RENAMABLE)),
        o => panic!("{o:?}"),
    }
    let live_ins: Vec<_> = f.blocks[0].live_ins.iter().map(|l| l.reg).collect();
    assert_eq!(live_ins, vec![reg("r1")]);
}

#[test]
fn callee_saved_registers_come_last_and_reserved_never() {
    let t = bpf();
    let f = read(&pressure(1, "%{}:gpr = MOV_ri {c}", 1));
    let orders = ClassOrders::new(t, &crate::alloc::order::TargetOrders::new(t), &f);
    let gpr = t.find_class("gpr").unwrap();
    let names: Vec<String> = orders
        .base(t, gpr)
        .iter()
        .map(|&r| t.reg(r).name.to_string())
        .collect();
    assert_eq!(
        names,
        ["R1", "R2", "R3", "R4", "R5", "R0", "R6", "R7", "R8", "R9"]
    );
}

#[test]
fn values_live_across_a_call_avoid_clobbered_registers() {
    let text = "---
name: c
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
    ADJCALLSTACKDOWN 0, 0, implicit-def dead $r11, implicit $r11
    $r1 = COPY %0
    JAL @g, implicit-def dead $r0, implicit-def dead $r1, implicit-def dead $r2, implicit-def dead $r3, implicit-def dead $r4, implicit-def dead $r5, implicit $r11, implicit $r1, implicit-def $r0
    ADJCALLSTACKUP 0, 0, implicit-def dead $r11, implicit $r11
    %1:gpr = COPY $r0
    %1:gpr = ADD_rr %1, %0
    $r0 = COPY %1
    RET implicit $r0
...
";
    let (f, stats, _) = basic(text).unwrap();
    assert!(no_vregs(&f));
    assert_eq!(stats.spills, 0);
    // %0 lives across the call: it must be in r6-r9.
    let add = f
        .inst_ids()
        .find(|&i| f.inst(i).op.name(bpf()) == "ADD_rr")
        .unwrap();
    let r = phys(&f, add, 2);
    assert!(
        ["R6", "R7", "R8", "R9"].contains(&&*bpf().reg(r).name),
        "{}",
        bpf().reg(r).name
    );
}

#[test]
fn pressure_spills_and_reloads_consistently() {
    let (f, stats, rec) = basic(&pressure(12, "%{}:gpr = LDD %0, {c}", 2)).unwrap();
    assert!(no_vregs(&f));
    assert!(
        stats.spills > 0 && stats.reloads >= stats.spills,
        "{stats:?}"
    );
    let slots: Vec<u32> = f
        .stack
        .iter()
        .filter(|o| o.kind == crate::ir::StackObjectKind::SpillSlot)
        .map(|o| o.id)
        .collect();
    // The two phases' spilled values never overlap: their slots are shared.
    assert!((slots.len() as u64) < stats.spills, "{} slots", slots.len());
    for (&i, e) in &rec.edits {
        assert!(!rec.is_original(i));
        let name = f.inst(i).op.name(bpf()).to_string();
        match *e {
            Edit::Spill { from, slot } => {
                assert_eq!(name, "STD");
                assert_eq!(phys(&f, i, 0), from);
                assert!(slots.contains(&slot));
            }
            Edit::Reload { slot, to } => {
                assert_eq!(name, "LDD");
                assert_eq!(phys(&f, i, 0), to);
                assert!(slots.contains(&slot));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // Every instruction in the function is in exactly one block, once.
    let mut seen = std::collections::HashSet::new();
    assert!(f.inst_ids().all(|i| seen.insert(i)));
}

#[test]
fn constants_are_rematerialized_not_spilled() {
    let (f, stats, rec) = basic(&pressure(12, "%{}:gpr = MOV_ri {c}", 1)).unwrap();
    assert!(no_vregs(&f));
    assert_eq!((stats.spills, stats.reloads), (0, 0), "{stats:?}");
    assert!(stats.remats > 0);
    // Each rematerialized constant's original definition is dead and gone.
    let remat_of: std::collections::HashSet<_> = rec
        .edits
        .values()
        .filter_map(|e| match e {
            Edit::Remat { of, .. } => Some(*of),
            _ => None,
        })
        .collect();
    for of in &remat_of {
        assert!(rec.removed.iter().any(|r| r.inst == *of));
        assert!(!f.inst_ids().any(|i| i == *of));
        assert_eq!(f.inst(*of).op.name(bpf()), "MOV_ri");
    }
    assert!(
        f.stack
            .iter()
            .all(|o| o.kind != crate::ir::StackObjectKind::SpillSlot)
    );
}

#[test]
fn sub_register_defs_get_an_implicit_def_of_the_whole_register() {
    let text = "---
name: s
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
    undef %1.sub_32:gpr = LDW32 %0, 0
    $r0 = COPY %1
    RET implicit $r0
...
";
    let (f, _, _) = basic(text).unwrap();
    let ld = f
        .inst_ids()
        .find(|&i| f.inst(i).op.name(bpf()) == "LDW32")
        .unwrap();
    let w = phys(&f, ld, 0);
    assert!(bpf().reg(w).name.starts_with('W'));
    let full = bpf().super_regs(w)[0];
    let has_implicit_def = f.inst(ld).operands.iter().any(|o| {
        matches!(o, Operand::Reg(r) if r.reg == RegRef::Phys(full)
            && r.flags.has(RegFlags::DEF | RegFlags::IMPLICIT))
    });
    assert!(has_implicit_def, "{:?}", f.inst(ld).operands);
    // No `undef` is left on the rewritten def.
    match &f.inst(ld).operands[0] {
        Operand::Reg(r) => assert!(!r.flags.has(RegFlags::UNDEF)),
        o => panic!("{o:?}"),
    }
}

#[test]
fn spilled_sub_register_uses_reload_the_whole_register() {
    let text = pressure(12, "undef %{}.sub_32:gpr = LDW32 %0, {c}", 1);
    let (f, stats, rec) = basic(&text).unwrap();
    assert!(no_vregs(&f));
    assert!(stats.spills > 0);
    for (&i, e) in &rec.edits {
        if let Edit::Reload { to, .. } = e {
            assert_eq!(f.inst(i).op.name(bpf()), "LDD");
            assert!(bpf().reg(*to).name.starts_with('R'));
        }
    }
}

#[test]
fn fixed_registers_everywhere_is_an_error_not_a_panic() {
    // Every allocatable register is live across the use of %1.
    let mut text = String::from(
        "---\nname: o\ntracksRegLiveness: true\nregisters:\n  - { id: 1, class: gpr }\nbody: |\n  bb.0:\n",
    );
    for r in 0..10 {
        let _ = writeln!(text, "    $r{r} = MOV_ri {r}");
    }
    text.push_str("    %1:gpr = MOV_ri 42\n    STD %1, $r10, -8\n");
    text.push_str("    RET implicit $r0, implicit $r1, implicit $r2, implicit $r3, implicit $r4, implicit $r5, implicit $r6, implicit $r7, implicit $r8, implicit $r9\n...\n");
    let e = basic(&text).map(|_| ()).unwrap_err();
    assert_eq!(e.kind, AllocErrorKind::OutOfRegisters, "{e}");
    assert!(e.block.is_some() && e.inst.is_some(), "{e}");
}

#[test]
fn allocated_mir_reads_back() {
    let mut f = read(&pressure(12, "%{}:gpr = LDD %0, {c}", 1));
    let opts = Options {
        allocator: Allocator::Basic,
        check: false,
    };
    allocate_recorded(bpf(), &mut f, &opts).unwrap();
    let text = crate::mir::write_function(bpf(), &f);
    let g = read(&text);
    assert_eq!(g.inst_ids().count(), f.inst_ids().count());
    assert!(
        g.inst_ids()
            .all(|i| !matches!(g.inst(i).op, Op::Generic(crate::ir::Generic::Phi)))
    );
}

#[test]
fn copies_of_spilled_registers_fold_into_the_reload() {
    let n = 12;
    let mut s = String::from("---\nname: k\ntracksRegLiveness: true\nregisters:\n");
    for k in 0..=2 * n {
        let _ = writeln!(s, "  - {{ id: {k}, class: gpr }}");
    }
    s.push_str("liveins:\n  - { reg: '$r1', virtual-reg: '%0' }\nbody: |\n  bb.0:\n    liveins: $r1\n    %0:gpr = COPY $r1\n");
    for k in 1..=n {
        let _ = writeln!(s, "    %{k}:gpr = LDD %0, {}", k * 8);
    }
    for k in 1..=n {
        let _ = writeln!(s, "    %{}:gpr = COPY %{k}", k + n);
        let _ = writeln!(s, "    %0:gpr = ADD_rr %0, %{}", k + n);
    }
    s.push_str("    $r0 = COPY %0\n    RET implicit $r0\n...\n");
    let (f, stats, rec) = basic(&s).unwrap();
    assert!(no_vregs(&f));
    assert!(stats.reloads > 0);
    let folded: Vec<_> = rec
        .edits
        .iter()
        .filter(|(i, _)| rec.is_original(**i))
        .collect();
    assert!(!folded.is_empty(), "{:?}", rec.edits);
    for (&i, e) in folded {
        let Edit::Reload { to, .. } = *e else {
            panic!("{e:?}")
        };
        assert_eq!(f.inst(i).op.name(bpf()), "LDD");
        assert_eq!(phys(&f, i, 0), to);
    }
}
