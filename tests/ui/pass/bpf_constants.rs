// BPF typed constants: registers, classes, sub-register indices.
mod bpf {
    regalloc::regalloc!("../targets/bpf/bpf.td");
}
use bpf::{TARGET, classes, regs, sub_regs};

fn main() {
    assert!(TARGET.class_contains(classes::GPR, regs::R1));
    assert!(!TARGET.class_contains(classes::GPR, regs::W1));
    assert_eq!(TARGET.sub_reg(regs::R1, sub_regs::sub_32), Some(regs::W1));
    assert_eq!(TARGET.reg(regs::R10).name, "R10");
    assert_eq!(TARGET.name, "bpf");
}
