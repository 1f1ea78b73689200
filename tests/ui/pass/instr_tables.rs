// Typed opcode constants and instruction facts: ties, flags, spill/reload/copy templates.
mod bpf {
    regalloc::regalloc!("../targets/bpf/bpf.td");
}
use bpf::{TARGET, classes, opcodes};
use regalloc::target::{InstrFlags, TemplateOperand};

fn main() {
    // Two-address ALU: the use is tied to the definition.
    let add = TARGET.instr(opcodes::ADD_rr);
    assert_eq!(add.name, "ADD_rr");
    assert_eq!(add.num_defs, 1);
    assert_eq!(add.tied_to(1), Some(0));
    assert_eq!(TARGET.find_opcode("ADD_rr"), Some(opcodes::ADD_rr));
    // Spill/reload/copy templates per class.
    let gpr = TARGET.class(classes::GPR);
    let spill = &gpr.spill[0].template;
    assert_eq!(spill.opcode, opcodes::STD);
    assert_eq!(
        &spill.operands[..],
        &[TemplateOperand::Reg, TemplateOperand::Slot, TemplateOperand::Imm(0)]
    );
    assert_eq!(gpr.reload[0].template.opcode, opcodes::LDD);
    assert_eq!(gpr.copy[0].template.opcode, opcodes::MOV_rr);
    let gpr32 = TARGET.class(classes::GPR32);
    assert_eq!(gpr32.spill[0].template.opcode, opcodes::STW32);
    assert_eq!(gpr32.copy[0].template.opcode, opcodes::MOV_rr_32);
    // Flags.
    assert!(TARGET.instr(opcodes::MOV_ri).is(InstrFlags::REMAT));
    assert!(TARGET.instr(opcodes::STD).is(InstrFlags::MAY_STORE));
    assert!(TARGET.instr(opcodes::LDD).is(InstrFlags::MAY_LOAD));
}
