//! A function made with the IR builder is written as MIR that reads back to the same blocks, registers and instructions.

use regalloc::ir::{Builder, Generic, MachineFunction, Op};
use regalloc::mir::{self, FunctionDoc};
use regalloc::target::fixtures;

#[test]
fn built_function_writes_and_reads_back() {
    let t = fixtures::bpf();
    let gpr = t.find_class("GPR").unwrap();
    let r1 = t.find_reg("R1").unwrap();
    let r0 = t.find_reg("R0").unwrap();
    let op = |n: &str| Op::Target(t.find_opcode(n).unwrap());
    let mut f = MachineFunction::new("built");
    let mut b = Builder::new(&mut f);
    let (entry, exit) = (b.new_block(), b.new_block());
    b.add_succ(entry, exit, Some(0x8000_0000));
    b.add_live_in(entry, r1);
    b.at_end(entry);
    let a = b.new_vreg(gpr);
    let s = b.new_vreg(gpr);
    b.inst(Op::Generic(Generic::Copy)).def(a).use_(r1).done();
    b.inst(op("ADD_ri")).def(s).use_(a).imm(7).tie(0, 1).done();
    b.inst(op("JMP")).block(exit).done();
    b.at_end(exit);
    b.inst(Op::Generic(Generic::Copy)).def(r0).use_(s).done();
    b.inst(op("RET")).implicit_use(r0).done();

    let text = mir::write_function(t, &f);
    assert!(text.contains("%1:gpr = ADD_ri %0, 7\n"), "{text}");
    let file = mir::read(t, "built.mir", &text);
    let [FunctionDoc::Read(g)] = &file.functions[..] else {
        panic!("{:?}", file.errors().collect::<Vec<_>>())
    };
    assert_eq!(
        (&g.name, &g.blocks, &g.insts, &g.vregs),
        (&f.name, &f.blocks, &f.insts, &f.vregs)
    );
}
