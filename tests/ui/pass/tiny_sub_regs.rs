// Sub-register constants, super-registers, overlap on units.
mod tiny {
    regalloc::regalloc!("ui/pass/tiny.td");
}
use tiny::{TARGET, regs, sub_regs};

fn main() {
    assert_eq!(TARGET.sub_reg(regs::X1, sub_regs::lo32), Some(regs::W1));
    assert_eq!(TARGET.super_regs(regs::W2), &[regs::X2]);
    assert!(TARGET.regs_overlap(regs::X0, regs::W0));
    assert!(!TARGET.regs_overlap(regs::X0, regs::W1));
}
