//! Memory-operand folding on x86: under register pressure the spiller reads spilled registers straight from their slots (`ADD64rm`, `CMP64mi32`, `CMP32mi` for a tested 32-bit half), the checker accepts the result and rejects a folded access to the wrong slot, and `llc-19 -verify-machineinstrs` accepts the output. (Folded stores and read-modify-writes are exercised on the whole corpus by `alloc_basic` and `alloc_greedy`.)

use std::fmt::Write as _;

use regalloc::check::check;
use regalloc::ir::{MachineFunction, Op, Operand};
use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, allocate_recorded};

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

/// `n` 64-bit values loaded from `$rdi`, all live at once, then consumed
/// in reverse by a sum (`ADD64rr`), a compare with an immediate and a
/// self-test of a 32-bit half; `n` above the 14 free registers forces
/// spills whose uses can fold.
fn pressure(n: usize) -> String {
    let mut s = String::from(
        "---\nname: p\ntracksRegLiveness: true\nliveins:\n  - { reg: '$rdi', virtual-reg: '%0' }\nbody: |\n  bb.0:\n    successors: %bb.1, %bb.2\n    liveins: $rdi\n    %0:gr64 = COPY $rdi\n",
    );
    for k in 1..=n {
        let _ = writeln!(
            s,
            "    %{k}:gr64_with_sub_8bit = MOV64rm %0, 1, $noreg, {}, $noreg :: (load (s64))",
            8 * k
        );
    }
    // A constant defined here and used after the sum: under pressure, a
    // candidate for a folded store or a rematerialization.
    let c = n + 1;
    let _ = writeln!(s, "    %{c}:gr64 = MOV64ri32 42");
    // The sum in two-address form, as after LLVM's two-address pass.
    let acc = n + 2;
    let _ = writeln!(s, "    %{acc}:gr64 = COPY %{n}");
    for k in (1..n).rev() {
        let _ = writeln!(
            s,
            "    %{acc}:gr64 = ADD64rr %{acc}, %{k}, implicit-def dead $eflags"
        );
    }
    let _ = writeln!(
        s,
        "    %{acc}:gr64 = ADD64rr %{acc}, %{c}, implicit-def dead $eflags"
    );
    for k in 1..=n {
        let _ = writeln!(s, "    CMP64ri32 %{k}, 7, implicit-def $eflags");
        let _ = writeln!(
            s,
            "    TEST32rr %{k}.sub_32bit, %{k}.sub_32bit, implicit-def $eflags"
        );
    }
    let _ = writeln!(
        s,
        "    JCC_1 %bb.2, 4, implicit $eflags\n  bb.1:\n    $rax = COPY %{acc}\n    RET64 implicit $rax\n  bb.2:\n    $rax = COPY %{c}\n    RET64 implicit $rax\n..."
    );
    s
}

fn read(text: &str) -> MachineFunction {
    let file = regalloc::mir::read(x86(), "t.mir", text);
    let errors: Vec<_> = file.errors().collect();
    assert!(errors.is_empty(), "{errors:?}");
    file.read_functions().next().expect("function read").clone()
}

fn opcode_count(f: &MachineFunction, name: &str) -> usize {
    let op = x86().find_opcode(name).unwrap();
    f.inst_ids()
        .filter(|&i| f.inst(i).op == Op::Target(op))
        .count()
}

#[test]
fn spilled_uses_fold_and_the_checker_holds_them_to_their_slot() {
    for allocator in [Allocator::Basic, Allocator::Greedy] {
        let original = read(&pressure(24));
        let mut f = original.clone();
        let (stats, record) = allocate_recorded(
            x86(),
            &mut f,
            &Options {
                allocator,
                check: true,
            },
        )
        .unwrap_or_else(|e| panic!("{allocator:?}: {e}"));
        println!("{allocator:?}: {stats:?}");
        assert!(stats.folded_reloads > 0, "{allocator:?}: no folded reload");
        assert_eq!(stats.folded_reloads as usize, {
            f.inst_ids()
                .filter(|i| record.memory_folds.contains_key(i))
                .filter(|&i| match f.inst(i).op {
                    Op::Target(o) => x86().instr(o).is(regalloc::target::InstrFlags::MAY_LOAD),
                    _ => false,
                })
                .count()
        });
        let folded_ops = ["ADD64rm", "CMP64mi32", "CMP32mi"];
        let used: Vec<usize> = folded_ops.iter().map(|n| opcode_count(&f, n)).collect();
        assert!(
            used.iter().any(|&c| c > 0),
            "{allocator:?}: none of {folded_ops:?} in the output"
        );
        // Every folded instruction names its slot, and moving it to
        // another slot is caught.
        let (&inst, access) = record.memory_folds.iter().next().expect("a fold");
        let mut wrong = f.clone();
        let other = f
            .stack
            .iter()
            .map(|o| o.id)
            .find(|&id| id != access.slot)
            .unwrap_or(access.slot + 1000);
        for o in &mut wrong.insts[inst.index()].operands {
            if let Operand::Frame(fr, _) = o
                && fr.id == access.slot
            {
                fr.id = other;
            }
        }
        let mut record_wrong = record.clone();
        record_wrong.memory_folds.insert(
            inst,
            regalloc::record::FoldedAccess {
                operand: access.operand,
                slot: other,
            },
        );
        let errors = check(x86(), &original, &wrong, &record_wrong)
            .expect_err("a folded access to the wrong slot is an error");
        println!("{allocator:?}: {}", errors[0]);
        assert!(check(x86(), &original, &f, &record).is_ok());

        if let Some(llc) = regalloc_tests::llvm_tool("llc") {
            let out = regalloc::mir::write_function(x86(), &f);
            let dir = std::env::temp_dir().join(format!("alloc_folds_{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{allocator:?}.mir"));
            std::fs::write(&path, out).unwrap();
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
    }
}

/// `MOV32r0` (a zeroing `xor` that clobbers the flags) folds into
/// `MOV32mi` (which leaves them alone) only where its flags definition is
/// dead: a live one would lose its value.
#[test]
fn a_fold_that_drops_the_flags_needs_them_dead() {
    let f = read(
        "---\nname: z\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    %1:gr32 = MOV32r0 implicit-def dead $eflags\n    %2:gr32 = MOV32r0 implicit-def $eflags\n    JCC_1 %bb.1, 4, implicit $eflags\n  bb.1:\n    $eax = COPY %1\n    $ecx = COPY %2\n    RET64 implicit $eax, implicit $ecx\n...\n",
    );
    let t = x86();
    let zero = t.find_opcode("MOV32r0").unwrap();
    let store = t.find_opcode("MOV32mi").unwrap();
    let fold = t
        .memory_folds_for(zero, 0)
        .iter()
        .find(|x| x.mem_form == store)
        .expect("MOV32r0 folds into MOV32mi");
    let insts: Vec<_> = f
        .block_ids()
        .flat_map(|b| f.block(b).insts.clone())
        .collect();
    assert!(
        f.inst(insts[0]).fold_loses_no_live_def(t, fold),
        "dead flags"
    );
    assert!(
        !f.inst(insts[1]).fold_loses_no_live_def(t, fold),
        "live flags"
    );
}

/// A zero (`MOV32r0`, two definitions so it cannot be rematerialized)
/// live across `n` loaded values: under pressure its store folds into
/// `MOV32mi`; the checker accepts that, and rejects the same allocation
/// once the original's flags definition is made live.
#[test]
fn the_checker_rejects_a_fold_that_loses_live_flags() {
    let n = 24;
    let mut s = String::from(
        "---\nname: z\ntracksRegLiveness: true\nliveins:\n  - { reg: '$rdi', virtual-reg: '%0' }\nbody: |\n  bb.0:\n    successors: %bb.1, %bb.2\n    liveins: $rdi\n    %0:gr64 = COPY $rdi\n",
    );
    for k in 1..=n {
        let _ = writeln!(
            s,
            "    %{k}:gr64_with_sub_8bit = MOV64rm %0, 1, $noreg, {}, $noreg :: (load (s64))",
            8 * k
        );
    }
    s.push_str("    %100:gr32 = MOV32r0 implicit-def dead $eflags\n    CMP64ri32 %0, 3, implicit-def $eflags\n    JCC_1 %bb.2, 4, implicit $eflags\n  bb.1:\n    successors: %bb.2\n    %100:gr32 = MOV32ri 5\n  bb.2:\n");
    let acc = n + 1;
    let _ = writeln!(s, "    %{acc}:gr64 = COPY %{n}");
    for k in (1..n).rev() {
        let _ = writeln!(
            s,
            "    %{acc}:gr64 = ADD64rr %{acc}, %{k}, implicit-def dead $eflags"
        );
    }
    // Every loaded value read again, so that each weighs more than the
    // zero, which is read once at the end.
    for k in 1..=n {
        let _ = writeln!(s, "    CMP64ri32 %{k}, 7, implicit-def $eflags");
        let _ = writeln!(
            s,
            "    %{acc}:gr64 = ADC64rr %{acc}, %{k}, implicit-def dead $eflags, implicit $eflags"
        );
    }
    let _ = writeln!(
        s,
        "    MOV32mr %0, 1, $noreg, 0, $noreg, %100 :: (store (s32))\n    $rax = COPY %{acc}\n    RET64 implicit $rax\n..."
    );
    let original = read(&s);
    let mut f = original.clone();
    let (_, record) = allocate_recorded(
        x86(),
        &mut f,
        &Options {
            allocator: Allocator::Greedy,
            check: true,
        },
    )
    .unwrap();
    let zero = x86().find_opcode("MOV32r0").unwrap();
    let (&folded, _) = record
        .memory_folds
        .iter()
        .find(|(i, _)| original.inst(**i).op == Op::Target(zero))
        .expect("the zero's store folds");
    assert_eq!(
        f.inst(folded).op,
        Op::Target(x86().find_opcode("MOV32mi").unwrap())
    );
    assert!(check(x86(), &original, &f, &record).is_ok());
    let mut live = original.clone();
    for o in &mut live.insts[folded.index()].operands {
        if let Operand::Reg(r) = o {
            r.flags.set(regalloc::ir::RegFlags::DEAD, false);
        }
    }
    let errors = check(x86(), &live, &f, &record).expect_err("the fold loses live flags");
    assert!(
        errors
            .iter()
            .any(|e| e.to_string().contains("whose value the fold loses")),
        "{}",
        errors[0]
    );
}
