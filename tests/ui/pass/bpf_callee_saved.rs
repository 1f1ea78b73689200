// Callee-saved constants and masks.
mod bpf {
    regalloc::regalloc!("../targets/bpf/bpf.td");
}
use bpf::{TARGET, callee_saved, regs};

fn main() {
    let csr = callee_saved::CSR;
    assert!(TARGET.is_callee_saved(csr, regs::R6));
    assert!(!TARGET.is_callee_saved(csr, regs::R1));
    assert!(TARGET.mask_preserves(csr, regs::W6));
}
