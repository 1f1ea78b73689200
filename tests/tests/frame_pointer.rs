//! The frame pointer is reserved as the IR function's `"frame-pointer"` attribute says (LLVM's `DisableFramePointerElim`): `"all"` in every function, `"non-leaf"` in functions that call, `"none"` only when the frame needs one; without the attribute, the target's default. Every allocator keeps out of a reserved frame pointer even when it runs out of other registers.

use regalloc::alloc::order::function_reserved;
use regalloc::alloc::{Allocator, Options, allocate_recorded};
use regalloc::ir::{FramePointerKind, MachineFunction};
use regalloc::target::TargetInfo;

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
    function_reserved(x86(), f)[rbp.index()]
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
        .map(|f| function_reserved(aarch64(), f)[fp.index()])
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
