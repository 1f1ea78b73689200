// The include = [...] option adds include directories.
mod inc {
    regalloc::regalloc!("ui/pass/with_include.td", include = ["ui/pass/inc"]);
}
use inc::{TARGET, classes, regs};

fn main() {
    assert_eq!(TARGET.class(classes::ARegs).members.len(), 2);
    assert_eq!(TARGET.alloc_order(classes::ARegs, &Default::default()), &[regs::A1, regs::A0]);
    assert_eq!(TARGET.class(classes::ARegs).members, &[regs::A0, regs::A1][..]);
}
