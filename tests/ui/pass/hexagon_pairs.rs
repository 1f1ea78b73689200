// Hexagon register pairs: D0 is R1:R0.
mod hexagon {
    regalloc::regalloc!("../targets/hexagon/hexagon.td");
}
use hexagon::{TARGET, classes, regs};

fn main() {
    assert!(TARGET.regs_overlap(regs::D0, regs::R0));
    assert!(TARGET.regs_overlap(regs::D0, regs::R1));
    assert!(!TARGET.regs_overlap(regs::D0, regs::R2));
    assert!(TARGET.class_contains(classes::DoubleRegs, regs::D0));
}
