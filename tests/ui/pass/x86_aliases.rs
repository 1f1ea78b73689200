// X86: AL, AX, EAX, RAX share units; sub-register constants by index.
mod x86 {
    regalloc::regalloc!("../targets/x86/x86.td");
}
use x86::{TARGET, classes, regs, sub_regs};

fn main() {
    assert!(TARGET.regs_overlap(regs::RAX, regs::AL));
    assert!(TARGET.regs_overlap(regs::EAX, regs::AH));
    assert!(!TARGET.regs_overlap(regs::AL, regs::AH));
    assert_eq!(TARGET.sub_reg(regs::RAX, sub_regs::sub_8bit), Some(regs::AL));
    assert!(TARGET.class_contains(classes::GR64, regs::R15));
    assert!(TARGET.validate().is_ok());
}
