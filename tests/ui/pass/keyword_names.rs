// Names that are Rust keywords: raw identifiers, or a `_` suffix where raw is not allowed.
mod kw {
    regalloc::regalloc!("ui/pass/keywords.td");
}
use kw::{TARGET, classes, regs};

fn main() {
    assert_eq!(TARGET.reg(regs::r#loop).name, "loop");
    assert_eq!(TARGET.reg(regs::self_).name, "self");
    assert_eq!(TARGET.reg(regs::r#type).name, "type");
    assert!(TARGET.class_contains(classes::r#match, regs::r#type));
}
