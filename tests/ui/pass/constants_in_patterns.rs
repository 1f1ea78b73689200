// Typed constants are usable in consts and match patterns.
mod tiny {
    regalloc::regalloc!("ui/pass/tiny.td");
}
use regalloc::target::{Reg, RegClass};
use tiny::{classes, regs};

const SCRATCH: Reg = regs::X0;
const WIDE: RegClass = classes::GPR;

fn describe(r: Reg) -> &'static str {
    match r {
        regs::X0 => "x0",
        regs::X1 => "x1",
        _ => "other",
    }
}

fn main() {
    assert_eq!(describe(SCRATCH), "x0");
    assert_eq!(describe(regs::W2), "other");
    assert_ne!(WIDE, classes::GPR32);
}
