//! Reader tests for opcodes the target's description does not have: kept by name, written back unchanged, terminators recognised, and allocated by what their operands say.

use crate::ir::{Op, Operand, RegRef};
use crate::target::fixtures::{bpf, read_bpf_function as read};
use crate::{Allocator, Options, allocate_recorded};

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

/// A function whose `bb.2` ends in an unknown tail-call-like opcode with no
/// `successors:` line, `bb.3` after it in layout; in the plain form (what
/// llc prints) every other block with successors lists them, in the
/// simplified form (`-simplify-mir`) none does.
fn tail_call_then_block(plain: bool) -> String {
    let line = |s: &str| {
        if plain {
            format!("    successors: {s}\n")
        } else {
            String::new()
        }
    };
    format!(
        "---
name: tail
tracksRegLiveness: true
registers:
  - {{ id: 0, class: gpr }}
liveins:
  - {{ reg: '$r1', virtual-reg: '%0' }}
body: |
  bb.0:
{}    liveins: $r1
  bb.1:
{}    liveins: $r1
    %0:gpr = COPY $r1
    JEQ_ri %0, 0, %bb.3
  bb.2:
    $r1 = COPY %0
    TAIL_JUMP_MAGIC implicit $r1
  bb.3:
    $r0 = MOV_ri 0
    RET implicit $r0
...
",
        line("%bb.1"),
        line("%bb.3, %bb.2")
    )
}

fn successors(f: &crate::ir::MachineFunction, b: usize) -> Vec<usize> {
    f.blocks[b].succs.iter().map(|s| s.block.index()).collect()
}

#[test]
fn in_the_plain_form_a_block_without_successors_ending_in_an_unknown_opcode_has_none() {
    // bb.2's missing line means it has no successors: the unknown opcode
    // is not taken to fall through into bb.3.
    let f = read(&tail_call_then_block(true));
    assert_eq!(successors(&f, 1), [3, 2]);
    assert_eq!(successors(&f, 2), Vec::<usize>::new());
    // Written back with an explicit empty list, so llc reads the same CFG.
    let text = crate::mir::write_function(bpf(), &f);
    let bb2 = &text[text.find("  bb.2:").unwrap()..text.find("  bb.3:").unwrap()];
    assert!(bb2.contains("successors:\n"), "{bb2}");
}

#[test]
fn in_the_simplified_form_a_block_without_successors_ending_in_an_unknown_opcode_falls_through() {
    // bb.0 falls through into bb.1 without a line: a non-empty guess the
    // printer left out, so the missing lines are guesses, the unknown
    // opcode's included.
    let f = read(&tail_call_then_block(false));
    assert_eq!(successors(&f, 0), [1]);
    assert_eq!(successors(&f, 1), [3, 2]);
    assert_eq!(successors(&f, 2), [3]);
}
