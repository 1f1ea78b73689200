// TARGET is a TargetInfo<'static> usable wherever a &TargetInfo is taken.
mod tiny {
    regalloc::regalloc!("ui/pass/tiny.td");
}
use regalloc::target::TargetInfo;

static T: &TargetInfo<'static> = &tiny::TARGET;

fn count_allocatable(t: &TargetInfo<'_>) -> usize {
    t.classes.iter().filter(|c| c.allocatable).count()
}

fn main() {
    assert_eq!(count_allocatable(T), 2);
    assert!(T.validate().is_ok());
    assert_eq!(T.find_class("gpr"), Some(tiny::classes::GPR));
}
