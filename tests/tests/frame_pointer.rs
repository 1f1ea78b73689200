//! The frame pointer is reserved as the IR function's `"frame-pointer"` attribute says (LLVM's `DisableFramePointerElim`): `"all"` in every function, `"non-leaf"` in functions that call, `"none"` only when the frame needs one (variable-sized objects, a taken frame address, a realigned stack: `maxAlignment` above the target's stack alignment); without the attribute, the target's default. The base pointer (x86 RBX, AArch64 X19) is reserved when variable-sized objects keep the stack pointer from addressing locals and the frame pointer cannot either (a realigned stack; on AArch64 also a local frame of 256 bytes or more). Every allocator keeps out of a reserved frame or base pointer even when it runs out of other registers.

use regalloc::ir::{FramePointerKind, MachineFunction};
use regalloc::orders::reserved_registers;
use regalloc::target::TargetInfo;
use regalloc::{Allocator, Options, allocate_recorded};

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

fn aarch64() -> &'static TargetInfo<'static> {
    &regalloc_targets::aarch64::TARGET
}

/// An x86-64 function that loads `n` values through `%0`, then stores them
/// back in reverse order, so that all `n` and the pointer are live at once.
fn pressure_body(n: usize) -> String {
    let mut body = String::from("  bb.0:\n    liveins: $rdi\n    %0:gr64 = COPY $rdi\n");
    for k in 1..=n {
        body += &format!("    %{k}:gr64 = MOV64rm %0, 1, $noreg, {}, $noreg\n", 8 * k);
    }
    for k in (1..=n).rev() {
        body += &format!("    MOV64mr %0, 1, $noreg, {}, $noreg, %{k}\n", 8 * k);
    }
    body + "    RET 0\n"
}

/// A file with one such function per `(name, attribute group)` and an IR
/// module giving each its group.
fn file(functions: &[(&str, &str)], calls: bool) -> String {
    let mut module = String::from("--- |\n");
    let mut docs = String::new();
    for (k, (name, _)) in functions.iter().enumerate() {
        module += &format!("  define void @{name}(ptr %p) #{k} {{\n    ret void\n  }}\n\n");
        let mut body = pressure_body(15);
        if calls {
            body = body.replace(
                "    RET 0\n",
                "    CALL64pcrel32 @g, csr_64, implicit $rsp, implicit $ssp, implicit-def $rsp, implicit-def $ssp\n    RET 0\n",
            );
        }
        docs += &format!(
            "---\nname: {name}\ntracksRegLiveness: true\nliveins:\n  - {{ reg: '$rdi', virtual-reg: '%0' }}\nbody: |\n{body}...\n"
        );
    }
    for (k, (_, attrs)) in functions.iter().enumerate() {
        module += &format!("  attributes #{k} = {{ nounwind {attrs} }}\n");
    }
    module + "...\n" + &docs
}

fn read(t: &TargetInfo<'_>, text: &str) -> Vec<MachineFunction> {
    let m = regalloc::mir::read(t, "frame_pointer.mir", text);
    assert_eq!(
        m.errors().count(),
        0,
        "{:?}",
        m.errors().collect::<Vec<_>>()
    );
    m.read_functions().cloned().collect()
}

fn rbp_reserved(f: &MachineFunction) -> bool {
    let rbp = x86().find_reg("RBP").unwrap();
    reserved_registers(x86(), f)[rbp.index()]
}

#[test]
fn the_attribute_is_read_from_the_ir_module() {
    let fs = read(
        x86(),
        &file(
            &[
                ("keeps", "\"frame-pointer\"=\"all\""),
                ("leaf_only", "\"frame-pointer\"=\"non-leaf\""),
                ("omits", "\"frame-pointer\"=\"none\""),
                ("silent", "\"target-cpu\"=\"x86-64\""),
            ],
            false,
        ),
    );
    let kinds: Vec<_> = fs.iter().map(|f| f.frame_pointer).collect();
    assert_eq!(
        kinds,
        [
            Some(FramePointerKind::All),
            Some(FramePointerKind::NonLeaf),
            Some(FramePointerKind::None),
            None
        ]
    );
    // Without calls, only "all" keeps it (x86's default omits it).
    let reserved: Vec<bool> = fs.iter().map(rbp_reserved).collect();
    assert_eq!(reserved, [true, false, false, false]);
}

#[test]
fn non_leaf_reserves_it_in_functions_that_call() {
    let fs = read(
        x86(),
        &file(
            &[
                ("leaf_only", "\"frame-pointer\"=\"non-leaf\""),
                ("omits", "\"frame-pointer\"=\"none\""),
            ],
            true,
        ),
    );
    let reserved: Vec<bool> = fs.iter().map(rbp_reserved).collect();
    assert_eq!(reserved, [true, false]);
}

#[test]
fn the_attribute_overrides_the_targets_default() {
    // AArch64's default keeps a frame record in every function that calls;
    // "none" says otherwise, and "all" keeps it in leaves too.
    let text = "--- |\n  define void @leaf() #0 {\n    ret void\n  }\n  define void @calls() #1 {\n    ret void\n  }\n  attributes #0 = { \"frame-pointer\"=\"all\" }\n  attributes #1 = { \"frame-pointer\"=\"none\" }\n...\n---\nname: leaf\nbody: |\n  bb.0:\n    RET_ReallyLR\n...\n---\nname: calls\nbody: |\n  bb.0:\n    BL @g, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit-def $sp\n    RET_ReallyLR\n...\n";
    let fs = read(aarch64(), text);
    let fp = aarch64().find_reg("FP").unwrap();
    let reserved: Vec<bool> = fs
        .iter()
        .map(|f| reserved_registers(aarch64(), f)[fp.index()])
        .collect();
    assert_eq!(reserved, [true, false]);
}

/// Whether the written function names RBP or one of its parts.
fn mentions_rbp(f: &MachineFunction) -> bool {
    let text = regalloc::mir::write_function(x86(), f);
    ["$rbp", "$ebp", "$bp,", "$bp\n", "$bp ", "$bpl", "$bph"]
        .iter()
        .any(|r| text.contains(r))
}

#[test]
fn no_allocator_takes_a_reserved_frame_pointer_under_pressure() {
    let text = file(
        &[
            ("keeps", "\"frame-pointer\"=\"all\""),
            ("omits", "\"frame-pointer\"=\"none\""),
        ],
        false,
    );
    for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
        let mut fs = read(x86(), &text);
        let opts = Options {
            allocator,
            check: true,
        };
        for f in &mut fs {
            allocate_recorded(x86(), f, &opts)
                .unwrap_or_else(|e| panic!("{} {}: {e}", allocator.name(), f.name));
        }
        // Sixteen values live at once: without the frame pointer some
        // spill; with it every GR64 register is needed, RBP included.
        assert!(
            !mentions_rbp(&fs[0]),
            "{}: keeps uses RBP",
            allocator.name()
        );
        assert!(
            mentions_rbp(&fs[1]),
            "{}: omits leaves RBP unused",
            allocator.name()
        );
    }
}

/// An x86-64 or AArch64 file of functions `(name, frameInfo lines, stack
/// entries, body)`, each with `"frame-pointer"="none"` in the IR module so
/// that only its frame decides.
fn framed_file(functions: &[(&str, &str, &str, String)], x86: bool) -> String {
    let mut module = String::from("--- |\n");
    let mut docs = String::new();
    for (name, frame, stack, body) in functions {
        module += &format!("  define void @{name}(ptr %p) #0 {{\n    ret void\n  }}\n\n");
        let liveins = if x86 {
            "liveins:\n  - { reg: '$rdi', virtual-reg: '%0' }\n"
        } else {
            ""
        };
        docs += &format!(
            "---\nname: {name}\ntracksRegLiveness: true\n{liveins}frameInfo:\n{frame}stack:{stack}\nbody: |\n{body}...\n"
        );
    }
    module += "  attributes #0 = { nounwind \"frame-pointer\"=\"none\" }\n";
    module + "...\n" + &docs
}

/// `frameInfo:` lines saying the largest alignment an object asks for, the
/// local frame's size and whether the stack pointer moves opaquely.
fn frame_info(max_alignment: u32, local_frame_size: u32, opaque: bool) -> String {
    format!(
        "  isFrameAddressTaken: false\n  stackSize:       0\n  maxAlignment:    {max_alignment}\n  hasCalls:        false\n  hasOpaqueSPAdjustment: {opaque}\n  localFrameSize:  {local_frame_size}\n"
    )
}

/// A `stack:` list with one variable-sized object (an `alloca` of run-time
/// size), or an empty one.
fn stack(variable_sized: bool) -> &'static str {
    if variable_sized {
        "\n  - { id: 0, name: vla, type: variable-sized, offset: 0, alignment: 1, stack-id: default }"
    } else {
        " []"
    }
}

/// Whether register `name` of `t` is reserved in `f`.
fn reserved(t: &TargetInfo<'_>, f: &MachineFunction, name: &str) -> bool {
    let r = t.find_reg(name).unwrap();
    reserved_registers(t, f)[r.index()]
}

/// Per function: whether RBP, RBX and EBX are reserved.
fn x86_reserved(fs: &[MachineFunction]) -> Vec<[bool; 3]> {
    fs.iter()
        .map(|f| ["RBP", "RBX", "EBX"].map(|r| reserved(x86(), f, r)))
        .collect()
}

const X86_LEAF: &str = "  bb.0:\n    liveins: $rdi\n    RET 0\n";

#[test]
fn a_realigned_x86_stack_reserves_the_frame_pointer() {
    let fs = read(
        x86(),
        &framed_file(
            &[
                (
                    "over_aligned",
                    &frame_info(32, 0, false),
                    stack(false),
                    X86_LEAF.into(),
                ),
                (
                    "aligned",
                    &frame_info(16, 0, false),
                    stack(false),
                    X86_LEAF.into(),
                ),
            ],
            true,
        ),
    );
    // 32 bytes exceed the 16 the SysV stack guarantees: realigned, so RBP
    // is kept; no variable-sized object, so no base pointer.
    assert_eq!(
        x86_reserved(&fs),
        [[true, false, false], [false, false, false]]
    );
}

#[test]
fn variable_sized_objects_on_a_realigned_x86_stack_reserve_the_base_pointer() {
    let fs = read(
        x86(),
        &framed_file(
            &[
                (
                    "realigned_vla",
                    &frame_info(32, 0, false),
                    stack(true),
                    X86_LEAF.into(),
                ),
                (
                    "aligned_vla",
                    &frame_info(16, 0, false),
                    stack(true),
                    X86_LEAF.into(),
                ),
                (
                    "realigned_opaque",
                    &frame_info(32, 0, true),
                    stack(false),
                    X86_LEAF.into(),
                ),
                (
                    "aligned_opaque",
                    &frame_info(16, 0, true),
                    stack(false),
                    X86_LEAF.into(),
                ),
            ],
            true,
        ),
    );
    // Variable-sized objects or an opaque adjustment keep RBP either way;
    // RBX (and its parts) only when the stack is realigned too.
    assert_eq!(
        x86_reserved(&fs),
        [
            [true, true, true],
            [true, false, false],
            [true, true, true],
            [true, false, false]
        ]
    );
}

#[test]
fn a_large_aarch64_frame_with_variable_sized_objects_reserves_the_base_pointer() {
    let leaf = "  bb.0:\n    RET_ReallyLR\n".to_string();
    let fs = read(
        aarch64(),
        &framed_file(
            &[
                (
                    "large_vla",
                    &frame_info(8, 256, false),
                    stack(true),
                    leaf.clone(),
                ),
                (
                    "small_vla",
                    &frame_info(8, 255, false),
                    stack(true),
                    leaf.clone(),
                ),
                (
                    "large_no_vla",
                    &frame_info(8, 4096, false),
                    stack(false),
                    leaf.clone(),
                ),
                (
                    "realigned_vla",
                    &frame_info(32, 0, false),
                    stack(true),
                    leaf,
                ),
            ],
            false,
        ),
    );
    let got: Vec<[bool; 3]> = fs
        .iter()
        .map(|f| ["X19", "W19", "FP"].map(|r| reserved(aarch64(), f, r)))
        .collect();
    // 256 bytes of locals is where AArch64 stops trusting FP's reach; a
    // large frame without variable-sized objects is addressed from SP; a
    // realigned stack needs the base pointer whatever the frame's size.
    assert_eq!(
        got,
        [
            [true, true, true],
            [false, false, true],
            [false, false, false],
            [true, true, true]
        ]
    );
}

/// Whether the written function names RBX or one of its parts.
fn mentions_rbx(f: &MachineFunction) -> bool {
    let text = regalloc::mir::write_function(x86(), f);
    ["$rbx", "$ebx", "$bx,", "$bx\n", "$bx ", "$bl", "$bh"]
        .iter()
        .any(|r| text.contains(r))
}

#[test]
fn no_allocator_takes_a_reserved_base_pointer_under_pressure() {
    let text = framed_file(
        &[
            (
                "realigned_vla",
                &frame_info(32, 0, false),
                stack(true),
                pressure_body(15),
            ),
            (
                "aligned_vla",
                &frame_info(16, 0, false),
                stack(true),
                pressure_body(15),
            ),
        ],
        true,
    );
    for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
        let mut fs = read(x86(), &text);
        let opts = Options {
            allocator,
            check: true,
        };
        for f in &mut fs {
            allocate_recorded(x86(), f, &opts)
                .unwrap_or_else(|e| panic!("{} {}: {e}", allocator.name(), f.name));
        }
        // Sixteen values live at once and RBP kept in both: every other
        // GR64 register is needed, RBX included, unless it is the base
        // pointer.
        assert!(
            !mentions_rbx(&fs[0]) && !mentions_rbp(&fs[0]),
            "{}: realigned_vla uses RBX or RBP",
            allocator.name()
        );
        assert!(
            mentions_rbx(&fs[1]) && !mentions_rbp(&fs[1]),
            "{}: aligned_vla leaves RBX unused or uses RBP",
            allocator.name()
        );
    }
}

/// `f` with every operand naming register `from` renamed to `to`.
fn rename(
    f: &MachineFunction,
    from: regalloc::target::Reg,
    to: regalloc::target::Reg,
) -> MachineFunction {
    let mut g = f.clone();
    for inst in &mut g.insts {
        for o in &mut inst.operands {
            if let Some(r) = o.as_reg_mut()
                && r.reg == regalloc::ir::RegRef::Phys(from)
            {
                r.reg = regalloc::ir::RegRef::Phys(to);
            }
        }
    }
    g
}

#[test]
fn the_checker_rejects_a_value_in_the_functions_reserved_frame_pointer() {
    // Five values fit without RBP; moving one of them into RBP is a sound
    // allocation where the frame pointer is free and a wrong one where the
    // function keeps it.
    let text = file(
        &[
            ("keeps", "\"frame-pointer\"=\"all\""),
            ("omits", "\"frame-pointer\"=\"none\""),
        ],
        false,
    )
    .replace(&pressure_body(15), &pressure_body(5));
    let originals = read(x86(), &text);
    let rbp = x86().find_reg("RBP").unwrap();
    let mut verdicts = Vec::new();
    for orig in &originals {
        let mut f = orig.clone();
        let opts = Options {
            allocator: Allocator::Greedy,
            check: true,
        };
        let (_, record) = allocate_recorded(x86(), &mut f, &opts).expect("allocates");
        // The register the first load got (a value of the code, not an
        // argument or return register).
        let load = regalloc::ir::Op::Target(x86().find_opcode("MOV64rm").unwrap());
        let first_load = f.inst_ids().find(|&i| f.inst(i).op == load).unwrap();
        let Some(regalloc::ir::RegRef::Phys(x)) =
            f.inst(first_load).operands[0].as_reg().map(|r| r.reg)
        else {
            panic!("the load defines a physical register");
        };
        let moved = rename(&f, x, rbp);
        verdicts.push(
            regalloc::check::check(x86(), orig, &moved, &record)
                .map_err(|errs| errs.iter().map(|e| e.kind).collect::<Vec<_>>()),
        );
    }
    // Its definition and its use, each in a reserved register.
    assert_eq!(
        verdicts[0],
        Err(vec![regalloc::check::CheckErrorKind::WrongClass; 2]),
        "keeps"
    );
    assert_eq!(verdicts[1], Ok(()), "omits");
}
