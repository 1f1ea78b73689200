//! Reader tests for opcodes the target's description does not have: kept by name, written back unchanged, terminators recognised, and allocated by what their operands say.

use crate::alloc::{Allocator, Options, allocate_recorded};
use crate::ir::{Op, Operand, RegRef};
use crate::target::fixtures::{bpf, read_bpf_function as read};

/// BPF code with three opcodes BPF's description lacks: one with a
/// physical clobber, one in two-address form (`%1` both defined and
/// read), and a return-like one ending the block.
const UNKNOWN: &str = "---
name: unknown
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%0' }
body: |
  bb.0:
    liveins: $r1
    %0:gpr = COPY $r1
    %1:gpr = LDD %0, 0
    %2:gpr = XADD_MAGIC %0, %1, implicit-def dead $r5
    %1:gpr = FROB_TIED %1, %2
    STD %1, %0, 0
    $r0 = COPY %2
    FANCY_RET implicit $r0
...
";

fn unknown_ops(f: &crate::ir::MachineFunction) -> Vec<(&'static str, bool)> {
    f.inst_ids()
        .filter_map(|i| match f.inst(i).op {
            Op::Unknown(u) => Some((u.name, u.terminator)),
            _ => None,
        })
        .collect()
}

#[test]
fn unknown_opcodes_are_kept_by_name_and_written_back() {
    let f = read(UNKNOWN);
    assert_eq!(
        unknown_ops(&f),
        [
            ("XADD_MAGIC", false),
            ("FROB_TIED", false),
            ("FANCY_RET", true)
        ]
    );
    let text = crate::mir::write_function(bpf(), &f);
    for line in [
        "%2:gpr = XADD_MAGIC %0, %1, implicit-def dead $r5",
        "%1:gpr = FROB_TIED %1, %2",
        "FANCY_RET implicit $r0",
    ] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
}

#[test]
fn an_unknown_opcode_that_defines_a_register_is_not_a_terminator() {
    let f = read(&UNKNOWN.replace(
        "    FANCY_RET implicit $r0\n",
        "    $r0 = FANCY_DEF\n    RET implicit $r0\n",
    ));
    assert_eq!(
        unknown_ops(&f),
        [
            ("XADD_MAGIC", false),
            ("FROB_TIED", false),
            ("FANCY_DEF", false)
        ]
    );
}

#[test]
fn every_allocator_allocates_around_unknown_opcodes() {
    for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
        let mut f = read(UNKNOWN);
        let opts = Options {
            allocator,
            check: true,
        };
        allocate_recorded(bpf(), &mut f, &opts)
            .unwrap_or_else(|e| panic!("{}: {e}", allocator.name()));
        // The two-address form keeps one register for `%1`.
        let i = f
            .inst_ids()
            .find(|&i| matches!(f.inst(i).op, Op::Unknown(u) if u.name == "FROB_TIED"))
            .unwrap();
        let regs: Vec<RegRef> = f
            .inst(i)
            .operands
            .iter()
            .filter_map(|o| match o {
                Operand::Reg(r) => Some(r.reg),
                _ => None,
            })
            .collect();
        assert!(matches!(regs[0], RegRef::Phys(_)), "{}", allocator.name());
        assert_eq!(regs[0], regs[1], "{}", allocator.name());
    }
}
