// Two targets in one crate, each in its own module, do not clash.
mod bpf {
    regalloc::regalloc!("../targets/bpf/bpf.td");
}
mod tiny {
    regalloc::regalloc!("ui/pass/tiny.td");
}

fn main() {
    assert_eq!(bpf::TARGET.num_regs(), 24);
    assert_eq!(tiny::TARGET.num_regs(), 6);
    assert_eq!(bpf::TARGET.class(bpf::classes::GPR).name, "GPR");
    assert_eq!(tiny::TARGET.class(tiny::classes::GPR).members.len(), 3);
    assert_eq!(bpf::TARGET.class(bpf::classes::GPR).members.len(), 12);
}
