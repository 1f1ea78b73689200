//! Rematerialization of x86's zeroing idiom: `MOV32r0` (an `xor` that clobbers the flags) is recomputed at a use of a spilled zero where the flags are dead, and stored and reloaded where they are live (a `CMOV` reading a compare's flags); the checker and `llc-19 -verify-machineinstrs` accept both.

use std::fmt::Write as _;

use regalloc::ir::{MachineFunction, Op};
use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, Stats, allocate_recorded};

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

/// A zero defined first, `n` loaded values live over everything after
/// it, then the zero's one use: stored to memory (`flags_live` false,
/// where the flags are dead), or selected by a `CMOV32rr` that reads the
/// flags of the compare just before it.
fn zero_under_pressure(n: usize, flags_live: bool) -> String {
    let mut s = String::from(
        "---\nname: z\ntracksRegLiveness: true\nliveins:\n  - { reg: '$rdi', virtual-reg: '%0' }\nbody: |\n  bb.0:\n    liveins: $rdi\n    %0:gr64 = COPY $rdi\n    %100:gr32 = MOV32r0 implicit-def dead $eflags\n",
    );
    for k in 1..=n {
        let _ = writeln!(
            s,
            "    %{k}:gr64 = MOV64rm %0, 1, $noreg, {}, $noreg :: (load (s64))",
            8 * k
        );
    }
    if flags_live {
        s.push_str("    %101:gr32 = MOV32rm %0, 1, $noreg, 4, $noreg :: (load (s32))\n");
        s.push_str("    CMP64ri32 %1, 7, implicit-def $eflags\n");
        s.push_str("    %101:gr32 = CMOV32rr %101, %100, 4, implicit $eflags\n");
        s.push_str("    MOV32mr %0, 1, $noreg, 0, $noreg, %101 :: (store (s32))\n");
    } else {
        s.push_str("    MOV32mr %0, 1, $noreg, 0, $noreg, %100 :: (store (s32))\n");
    }
    for k in 1..=n {
        let _ = writeln!(
            s,
            "    MOV64mr %0, 1, $noreg, {}, $noreg, %{k} :: (store (s64))",
            8 * k
        );
    }
    s.push_str("    RET64\n...\n");
    s
}

fn read(text: &str) -> MachineFunction {
    let file = regalloc::mir::read(x86(), "t.mir", text);
    let errors: Vec<_> = file.errors().collect();
    assert!(errors.is_empty(), "{errors:?}");
    file.read_functions().next().expect("function read").clone()
}

/// Allocates `text` with the checker on, and has llc verify the output.
fn allocate(text: &str, allocator: Allocator) -> (MachineFunction, Stats) {
    let mut f = read(text);
    let (stats, _) = allocate_recorded(
        x86(),
        &mut f,
        &Options {
            allocator,
            check: true,
        },
    )
    .unwrap_or_else(|e| panic!("{allocator:?}: {e}"));
    if let Some(llc) = regalloc_tests::llvm_tool("llc") {
        let dir = std::env::temp_dir().join(format!("alloc_remat_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{allocator:?}-{}.mir", stats.remats));
        std::fs::write(&path, regalloc::mir::write_function(x86(), &f)).unwrap();
        let st = std::process::Command::new(llc)
            .args([
                "-mtriple=x86_64-linux-gnu",
                "-run-pass=none",
                "-verify-machineinstrs",
                "-o",
                "/dev/null",
            ])
            .arg(&path)
            .status()
            .unwrap();
        assert!(
            st.success(),
            "{allocator:?}: llc rejects {}",
            path.display()
        );
    }
    (f, stats)
}

/// The opcodes of `f` in layout order.
fn opcodes(f: &MachineFunction) -> Vec<String> {
    f.block_ids()
        .flat_map(|b| f.block(b).insts.clone())
        .map(|i| match f.inst(i).op {
            Op::Target(o) => x86().instr(o).name.to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn a_zero_is_recomputed_where_the_flags_are_dead() {
    for allocator in [Allocator::Basic, Allocator::Greedy] {
        let (f, stats) = allocate(&zero_under_pressure(24, false), allocator);
        println!("{allocator:?}: {stats:?}");
        assert!(
            stats.remats >= 1,
            "{allocator:?}: the zero is not recomputed"
        );
        let ops = opcodes(&f);
        let store = ops
            .iter()
            .position(|o| o == "MOV32mr")
            .expect("the zero's store");
        assert_eq!(ops[store - 1], "MOV32r0", "{allocator:?}: {ops:?}");
    }
}

#[test]
fn a_zero_is_reloaded_where_the_flags_are_live() {
    for allocator in [Allocator::Basic, Allocator::Greedy] {
        let (f, stats) = allocate(&zero_under_pressure(24, true), allocator);
        println!("{allocator:?}: {stats:?}");
        assert_eq!(stats.remats, 0, "{allocator:?}: recomputed over live flags");
        // Nothing between the compare and the CMOV (which may read the
        // zero from its slot directly) clobbers the flags.
        let ops = opcodes(&f);
        let cmp = ops
            .iter()
            .position(|o| o == "CMP64ri32")
            .expect("the compare");
        let cmov = ops
            .iter()
            .position(|o| o.starts_with("CMOV32r"))
            .expect("the CMOV");
        assert!(
            ops[cmp + 1..cmov].iter().all(|o| o != "MOV32r0"),
            "{allocator:?}: {ops:?}"
        );
        // The zero still went to memory: stored once, read back once.
        assert!(stats.spills + stats.folded_spills >= 1, "{allocator:?}");
        assert!(stats.reloads + stats.folded_reloads >= 1, "{allocator:?}");
    }
}

/// What the rematerializer's flag test relies on to find the registers
/// overlapping one cheaply: on every target, the registers holding a
/// register unit are exactly the unit's roots and their super-registers.
#[test]
fn a_units_holders_are_its_roots_and_their_super_registers() {
    for t in [
        &regalloc_targets::bpf::TARGET,
        &regalloc_targets::x86::TARGET,
        &regalloc_targets::aarch64::TARGET,
        &regalloc_targets::hexagon::TARGET,
    ] {
        for u in (0..t.units.len()).map(regalloc::target::RegUnit::new) {
            let mut by_roots: Vec<usize> = t
                .unit_roots(u)
                .flat_map(|r| std::iter::once(r).chain(t.super_regs(r).iter().copied()))
                .map(|r| r.index())
                .collect();
            by_roots.sort_unstable();
            by_roots.dedup();
            let holders: Vec<usize> = (0..t.regs.len())
                .filter(|&r| t.units(regalloc::target::Reg::new(r)).contains(&u))
                .collect();
            assert_eq!(by_roots, holders, "{}: unit {}", t.name, u.index());
        }
    }
}
