// An AltOrderSelect fragment that reads the function: compiled into a function.
mod tiny {
    regalloc::regalloc!("ui/pass/tiny.td");
}
use regalloc::target::FunctionInfo;
use tiny::{TARGET, classes, regs};

fn main() {
    let leaf = FunctionInfo::default();
    let caller = FunctionInfo { has_calls: true, ..FunctionInfo::default() };
    assert_eq!(TARGET.alloc_order(classes::GPR, &leaf), &[regs::X0, regs::X1, regs::X2]);
    assert_eq!(TARGET.alloc_order(classes::GPR, &caller), &[regs::X2, regs::X1, regs::X0]);
}
