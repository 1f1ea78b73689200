//! x86's pointer-like address operands take the register classes the target gives their kinds (`PointerRegClass`, LLVM's `getPointerRegClass`): an instruction that also names a high-byte register (`MOV8mr_NOREX`) addresses through `GR64_NOREX` only, so neither the allocator nor the checker may put `$r15` there.

use regalloc::target::TargetInfo;

fn x86() -> &'static TargetInfo<'static> {
    &regalloc_targets::x86::TARGET
}

/// The class names of the register operands of `name`, in operand order.
fn operand_classes(name: &str) -> Vec<Option<String>> {
    let t = x86();
    let op = t
        .find_opcode(name)
        .unwrap_or_else(|| panic!("no opcode {name}"));
    t.instr(op)
        .operands
        .iter()
        .map(|o| o.class.map(|c| t.class(c).name.to_string()))
        .collect()
}

#[test]
fn address_operands_take_the_class_of_their_pointer_kind() {
    let s = |x: &str| Some(x.to_string());
    // base, scale, index, displacement, segment, then the stored value.
    let norex = operand_classes("MOV8mr_NOREX");
    assert_eq!(norex[0], s("GR64_NOREX"), "{norex:?}");
    assert_eq!(norex[2], s("GR64_NOREX_NOSP"), "{norex:?}");
    assert_eq!(norex[5], s("GR8_NOREX"), "{norex:?}");
    let plain = operand_classes("MOV8mr");
    assert_eq!(plain[0], s("GR64"), "{plain:?}");
    assert_eq!(plain[2], s("GR64_NOSP"), "{plain:?}");
    let r15 = x86().find_reg("R15").expect("R15");
    let class = |n: &str| x86().find_class(n).unwrap();
    assert!(x86().class_contains(class("GR64"), r15));
    assert!(!x86().class_contains(class("GR64_NOREX"), r15));
}

#[test]
fn a_tail_call_through_memory_addresses_through_the_tail_call_set() {
    // Base and index of TCRETURNmi64 are read after the epilogue has
    // restored the callee-saved registers, so neither may be one of them.
    let s = |x: &str| Some(x.to_string());
    let tc = operand_classes("TCRETURNmi64");
    assert_eq!(tc[0], s("GR64_TC"), "{tc:?}");
    assert_eq!(tc[2], s("GR64_TC"), "{tc:?}");
    let rbx = x86().find_reg("RBX").expect("RBX");
    assert!(!x86().class_contains(x86().find_class("GR64_TC").unwrap(), rbx));
}
