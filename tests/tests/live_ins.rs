//! Block live-in lists after allocation name registers as the code does (LLVM's rewriter lists the registers it assigned): `$xmm0`, not `$zmm0`, whose register units are the same; `$d8, $d9`, not the tuple `$z8_z9`; and the widest name the code uses when it uses several.

use regalloc::ir::MachineFunction;
use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, allocate_without_stats};

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

fn aarch64() -> &'static TargetInfo<'static> {
    &regalloc_targets::aarch64::TARGET
}

/// The live-in names of every block after allocation by the interval
/// allocators, whose pipeline recomputes them in its live-in stage (the
/// code has no virtual register: allocating changes nothing else). Fast
/// lists its own (`fast/liveness.rs`).
fn live_ins(t: &TargetInfo<'_>, body: &str) -> Vec<Vec<String>> {
    let text = format!("---\nname: f\ntracksRegLiveness: true\nbody: |\n{body}...\n");
    let m = regalloc::mir::read(t, "live_ins.mir", &text);
    let read: &MachineFunction = m.read_functions().next().expect("read");
    let mut lists = [Allocator::Basic, Allocator::Greedy].map(|allocator| {
        let mut f = read.clone();
        let options = Options {
            allocator,
            check: true,
        };
        allocate_without_stats(t, &mut f, &options).expect("allocated");
        f.blocks
            .iter()
            .map(|b| {
                b.live_ins
                    .iter()
                    .map(|l| t.reg(l.reg).name.to_ascii_lowercase())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(lists[1], lists[0], "greedy beside basic");
    std::mem::take(&mut lists[0])
}

#[test]
fn an_sse_register_is_listed_by_its_own_name() {
    let ins = live_ins(
        x86(),
        "  bb.0:
    successors: %bb.1
    liveins: $rdi
    $xmm0 = MOVSDrm_alt $rdi, 1, $noreg, 0, $noreg
    JMP_1 %bb.1
  bb.1:
    $xmm0 = ADDSDrr $xmm0, $xmm0, implicit $mxcsr
    RET 0, $xmm0
",
    );
    assert_eq!(ins[1], ["xmm0"]);
}

#[test]
fn the_widest_name_the_code_uses_is_listed() {
    // `$eax` here, `$rax` there: the unit is listed as `$rax`.
    let ins = live_ins(
        x86(),
        "  bb.0:
    successors: %bb.1
    liveins: $rdi
    $eax = MOV32rm $rdi, 1, $noreg, 0, $noreg
    JMP_1 %bb.1
  bb.1:
    $rax = ADD64rr $rax, $rdi, implicit-def dead $eflags
    RET 0, $rax
",
    );
    assert_eq!(ins[1], ["rax", "rdi"]);
}

#[test]
fn neighbouring_fp_registers_are_not_listed_as_a_tuple() {
    let ins = live_ins(
        aarch64(),
        "  bb.0:
    successors: %bb.1
    liveins: $x0
    $d8 = LDRDui $x0, 0
    $d9 = LDRDui $x0, 1
    B %bb.1
  bb.1:
    $d0 = FADDDrr $d8, $d9, implicit $fpcr
    RET_ReallyLR implicit $d0
",
    );
    assert_eq!(ins[1], ["d8", "d9"]);
}
