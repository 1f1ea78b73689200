//! Unit tests of linear scan on small BPF functions: one scan's spill choices (the furthest end, the current interval), expiry, call clobbers, and whole allocations through the checker.

use std::fmt::Write as _;

use super::scan;
use crate::alloc::context::AllocContext;
use crate::alloc::matrix::LiveRegMatrix;
use crate::alloc::order::ClassOrders;
use crate::alloc::virtmap::VirtRegMap;
use crate::ir::{MachineFunction, VReg};
use crate::target::fixtures::{bpf, read_bpf_function as read};
use crate::{Allocator, Options, Stats, allocate_recorded};

/// A function where `%0` (an argument) is the base of `n` loads
/// `%1..%n`, all live at once, then summed into `%0` in the order they
/// were loaded, `phases` times over: in each phase `%k` ends before
/// `%k+1`, and `%0` outlives them all.
fn loads(n: usize, phases: usize) -> String {
    let mut s = String::from("---\nname: p\ntracksRegLiveness: true\nregisters:\n");
    for k in 0..n * phases + 1 {
        let _ = writeln!(s, "  - {{ id: {k}, class: gpr }}");
    }
    s.push_str("liveins:\n  - { reg: '$r1', virtual-reg: '%0' }\nbody: |\n  bb.0:\n    liveins: $r1\n    %0:gpr = COPY $r1\n");
    for p in 0..phases {
        let base = 1 + p * n;
        for k in base..base + n {
            let _ = writeln!(s, "    %{k}:gpr = LDD %0, {}", 8 * k);
        }
        for k in base..base + n {
            let _ = writeln!(s, "    %0:gpr = ADD_rr %0, %{k}");
        }
    }
    s.push_str("    $r0 = COPY %0\n    RET implicit $r0\n...\n");
    s
}

/// The registers the first scan over every interval of `text` spills,
/// and the assignment it made.
fn first_scan(text: &str) -> (Vec<VReg>, VirtRegMap) {
    let t = bpf();
    let mut f = read(text);
    f.compute_preds();
    let an = crate::pipeline::analyse(t, &f, false, &mut AllocContext::new());
    let fixed = LiveRegMatrix::new(t, &an.intervals, false);
    let mut orders = ClassOrders::for_function(t, &f);
    let mut vrm = VirtRegMap::new(f.vregs.len());
    let all: Vec<VReg> = (0..f.vregs.len()).map(VReg::new).collect();
    let mut events = crate::events::EventLog::default();
    let spilled = scan(t, &f, &an, &fixed, &mut orders, &mut vrm, &all, &mut events).unwrap();
    (spilled, vrm)
}

/// The whole allocation, checked by the symbolic checker.
fn linear_scan(text: &str) -> (MachineFunction, Stats) {
    let mut f = read(text);
    let opts = Options {
        allocator: Allocator::LinearScan,
        check: true,
    };
    let (stats, _) = allocate_recorded(bpf(), &mut f, &opts).unwrap();
    (f, stats)
}

fn reg_name(r: crate::target::Reg) -> String {
    bpf().reg(r).name.to_string()
}

#[test]
fn the_active_interval_ending_furthest_is_spilled() {
    // BPF allocates ten registers. %0 and %1..%9 fill them; when %10
    // starts, %0 (live to the return) ends furthest of all, beyond %10:
    // it is spilled and %10 takes its register. When %11 starts, %1..%10
    // are active and all end before it: %11 itself is spilled.
    let (spilled, vrm) = first_scan(&loads(11, 1));
    assert_eq!(spilled, vec![VReg::new(0), VReg::new(11)]);
    for k in 1..=10 {
        assert!(vrm.phys(VReg::new(k)).is_some(), "%{k} has a register");
    }
    assert_eq!(vrm.phys(VReg::new(0)), None);
    assert_eq!(vrm.phys(VReg::new(11)), None);
    // %10 took the register %0 gave up: the one no other of %1..%9 has.
    let mut held: Vec<String> = (1..=10)
        .map(|k| reg_name(vrm.phys(VReg::new(k)).unwrap()))
        .collect();
    held.sort();
    held.dedup();
    assert_eq!(held.len(), 10, "{held:?}");
}

#[test]
fn expired_intervals_free_their_registers() {
    // Three phases of nine loads: 28 registers, never more than ten live
    // at once. Each phase's loads have expired when the next one's
    // start, so nothing is spilled and registers are used again.
    let (spilled, vrm) = first_scan(&loads(9, 3));
    assert_eq!(spilled, Vec::<VReg>::new());
    assert_eq!(
        vrm.phys(VReg::new(1)),
        vrm.phys(VReg::new(10)),
        "the second phase's first load takes the register the first phase's first load freed"
    );
    let (_, stats) = linear_scan(&loads(9, 3));
    assert_eq!((stats.spills, stats.reloads), (0, 0));
}

#[test]
fn spilled_intervals_are_reloaded_and_checked() {
    // Twelve loads at once need two more registers than BPF has: rounds
    // of scanning spill and allocate the spill code, and the checker
    // accepts the result.
    let (f, stats) = linear_scan(&loads(12, 2));
    assert!(
        stats.spills > 0 && stats.reloads >= stats.spills,
        "{stats:?}"
    );
    assert!(f.inst_ids().all(|i| {
        f.inst(i).operands.iter().all(|o| {
            !matches!(o, crate::ir::Operand::Reg(r) if matches!(r.reg, crate::ir::RegRef::Virt(_)))
        })
    }));
}

#[test]
fn values_live_across_a_call_take_callee_saved_registers() {
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
    // %0's hint is $r1, which the call clobbers: the fixed ranges of
    // r0-r5 overlap %0, so only r6-r9 are free for it.
    let (spilled, vrm) = first_scan(text);
    assert!(spilled.is_empty());
    let r = reg_name(vrm.phys(VReg::new(0)).unwrap());
    assert!(["R6", "R7", "R8", "R9"].contains(&r.as_str()), "{r}");
    let (_, stats) = linear_scan(text);
    assert_eq!(stats.spills, 0);
}
