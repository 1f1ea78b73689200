//! What every allocator requires of its input before it starts: no PHIs, every virtual register defined before it is read, tied operands already in two-address form.
//!
//! LLVM runs PHI elimination before any allocator, and so does stage 0
//! here ([`super::lower`]) on any function with PHIs: one that still has
//! them at stage 1 is refused by every allocator, in the words the Fast
//! allocator uses. A virtual register read where
//! some path from the entry has not defined it reads nothing: LLVM's
//! machine verifier refuses such code ("Virtual register defs don't
//! dominate all uses"), and here it is refused with the register and the
//! instruction, rather than allocated into a result the checker could
//! only call a wrong value.
//!
//! LLVM's allocators run after the two-address pass, which rewrites
//! `%c = ADD %a, %b` (with `$dst = $a`) into `%c = COPY %a; %c = ADD %c, %b`,
//! so that a tied definition and its use name the same virtual register.
//! MIR stopped before an allocator is in that form; MIR written by hand may
//! not be. The Fast allocator inserts the copy itself; the allocators built
//! on live intervals would have to invent it before computing them, so for
//! them the function is refused up front, with the instruction and the
//! fix, instead of being allocated wrongly.

use super::Allocator;
use crate::analysis::dataflow::{self, BlockPreds};
use crate::analysis::stamp::StampSet;
use crate::error::{AllocError, AllocErrorKind};
use crate::ir::{Block, Generic, Inst, MachineFunction, Op, Operand, RegFlags, RegRef, VReg};
use crate::target::{TargetInfo, bits};

/// Refuses a function with more instructions and blocks than slot indexes
/// can number.
pub fn check_numbering_fits(func: &MachineFunction) -> Result<(), AllocError> {
    let entries = func.blocks.iter().map(|b| b.insts.len() + 1).sum::<usize>();
    if entries > crate::analysis::slots::MAX_ENTRIES {
        return Err(AllocError::new(
            AllocErrorKind::Unsupported,
            &func.name,
            format!(
                "{entries} instructions and blocks are more than the {} slot indexes can number",
                crate::analysis::slots::MAX_ENTRIES
            ),
        ));
    }
    Ok(())
}

/// Refuses a function with PHI instructions, naming the first.
pub fn check_no_phis(func: &MachineFunction, allocator: Allocator) -> Result<(), AllocError> {
    for b in func.block_ids() {
        for &i in &func.block(b).insts {
            if func.inst(i).op == Op::Generic(Generic::Phi) {
                return Err(AllocError::new(
                    AllocErrorKind::Unsupported,
                    &func.name,
                    format!(
                        "PHI instructions must be eliminated before the {} allocator runs",
                        allocator.name()
                    ),
                )
                .at(b, i));
            }
        }
    }
    Ok(())
}

/// A read of a virtual register before any definition of it in its block:
/// where, which operand, which register.
#[derive(Copy, Clone)]
struct ExposedRead {
    block: Block,
    inst: Inst,
    operand: usize,
    vreg: VReg,
}

/// Refuses a function that reads a virtual register where some path from
/// the entry has not defined it (the first such read in layout order).
///
/// A read is what LLVM counts as one: a use not marked `undef` (nor
/// `internal`, nor a debug use), or a sub-register definition not marked
/// `undef`, which keeps the other lanes. Debug instructions read nothing.
/// Any definition counts, `IMPLICIT_DEF` included; a function live-in's
/// `virtual-reg:` link does not define (the entry's COPY does). Blocks not
/// reachable from the entry are not checked.
pub fn check_defined_before_use(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
) -> Result<(), AllocError> {
    let (exposed, defs) = exposed_reads(func);
    if exposed.is_empty() {
        return Ok(());
    }
    // Only registers read before their block defines them need the
    // dataflow: number them densely.
    let mut dense: Vec<u32> = vec![u32::MAX; func.vregs.len()];
    let mut count = 0usize;
    for r in &exposed {
        if dense[r.vreg.index()] == u32::MAX {
            dense[r.vreg.index()] = count as u32;
            count += 1;
        }
    }
    let words = bits::words_for(count);
    let nblocks = func.blocks.len();
    let mut block_defs = vec![0u32; words * nblocks];
    for &(b, v) in &defs {
        let d = dense[v.index()];
        if d != u32::MAX {
            block_defs[b.index() * words + d as usize / 32] |= 1 << (d % 32);
        }
    }
    let defined_in = defined_on_entry(func, &block_defs, words);
    let first = exposed.iter().find(|r| {
        defined_in[r.block.index()].as_ref().is_some_and(|set| {
            let d = dense[r.vreg.index()] as usize;
            set[d / 32] & (1 << (d % 32)) == 0
        })
    });
    let Some(r) = first else { return Ok(()) };
    let name = func.vregs[r.vreg.index()]
        .name
        .as_deref()
        .map_or_else(|| r.vreg.0.to_string(), str::to_string);
    let op = func.inst(r.inst).op.name(t).to_string();
    Err(AllocError::new(
        AllocErrorKind::InvalidInput,
        &func.name,
        format!(
            "%{name} is read before any definition: operand {} of {op} reads it where some path from the function's entry has not defined it (a use whose value does not matter is marked `undef`)",
            r.operand
        ),
    )
    .at(r.block, r.inst))
}

/// Every read of a virtual register before its block defines it (in
/// layout order), and every (block, register) definition.
fn exposed_reads(func: &MachineFunction) -> (Vec<ExposedRead>, Vec<(Block, VReg)>) {
    // The registers the current block has defined so far, so that a read
    // after a definition in the same block is not exposed.
    let mut defined = StampSet::new(func.vregs.len());
    let mut exposed = Vec::new();
    let mut defs = Vec::new();
    for b in func.block_ids() {
        defined.clear();
        for &i in &func.block(b).insts {
            let inst = func.inst(i);
            if inst.op.is_debug_or_probe() {
                continue;
            }
            for (k, o) in inst.operands.iter().enumerate() {
                let Operand::Reg(r) = o else { continue };
                let RegRef::Virt(v) = r.reg else { continue };
                let reads = !r.flags.has(RegFlags::UNDEF)
                    && !r.flags.has(RegFlags::INTERNAL)
                    && !r.flags.has(RegFlags::DEBUG_USE)
                    && (!r.is_def() || r.sub.is_some());
                if reads && v.index() < defined.len() && !defined.contains(v.index()) {
                    exposed.push(ExposedRead {
                        block: b,
                        inst: i,
                        operand: k,
                        vreg: v,
                    });
                }
            }
            for o in &inst.operands {
                if let Operand::Reg(r) = o
                    && let RegRef::Virt(v) = r.reg
                    && r.is_def()
                    && defined.insert(v.index())
                {
                    defs.push((b, v));
                }
            }
        }
    }
    (exposed, defs)
}

/// Per block, the registers (of the dense numbering) defined on every path
/// from the entry to its start, `words` words each; `None` for a block the
/// entry does not reach. A forward must-dataflow over reverse post-order:
/// a block starts with what all its predecessors define by their ends,
/// the entry with nothing.
fn defined_on_entry(
    func: &MachineFunction,
    block_defs: &[u32],
    words: usize,
) -> Vec<Option<Vec<u32>>> {
    let n = func.blocks.len();
    let preds = BlockPreds::new(func);
    let order = reverse_post_order(func);
    // Block ends; until a block is visited its end counts as "everything
    // defined", the neutral element of the meet.
    let mut out = vec![u32::MAX; n * words];
    let mut start = vec![0u32; words];
    dataflow::rounds(&order, usize::MAX, |b| {
        start.fill(if b == 0 { 0 } else { u32::MAX });
        for &p in preds.of(b) {
            let p = p as usize;
            let end = &out[p * words..(p + 1) * words];
            start.iter_mut().zip(end).for_each(|(w, x)| *w &= x);
        }
        let defs = &block_defs[b * words..(b + 1) * words];
        let mut changed = false;
        for (k, (w, d)) in start.iter().zip(defs).enumerate() {
            let e = &mut out[b * words + k];
            if *e != w | d {
                *e = w | d;
                changed = true;
            }
        }
        changed
    });
    // The starts, once more from the settled ends.
    let mut ins = vec![None; n];
    for &b in &order {
        start.fill(if b == 0 { 0 } else { u32::MAX });
        for &p in preds.of(b) {
            let p = p as usize;
            let end = &out[p * words..(p + 1) * words];
            start.iter_mut().zip(end).for_each(|(w, x)| *w &= x);
        }
        ins[b] = Some(start.clone());
    }
    ins
}

/// The blocks reachable from the entry, in reverse post-order.
fn reverse_post_order(func: &MachineFunction) -> Vec<usize> {
    let n = func.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n == 0 {
        return post;
    }
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(s) = func.blocks[b].succs.get(*next) {
            *next += 1;
            let s = s.block.index();
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Checks that every tied use names the register (and sub-register) of the
/// definition it is tied to.
pub fn check_two_address(t: &TargetInfo<'_>, func: &MachineFunction) -> Result<(), AllocError> {
    for b in func.block_ids() {
        for &i in &func.block(b).insts {
            let inst = func.inst(i);
            let Op::Target(opc) = inst.op else { continue };
            let Some(desc) = t.instrs.get(opc.index()) else {
                continue;
            };
            for (k, op) in inst.operands.iter().enumerate() {
                let Operand::Reg(u) = op else { continue };
                if u.is_def() || u.flags.has(crate::ir::RegFlags::UNDEF) {
                    continue;
                }
                let tied = u.tied_to.map(usize::from).or_else(|| desc.tied_to(k));
                let Some(d) = tied else { continue };
                let Some(Operand::Reg(def)) = inst.operands.get(d) else {
                    continue;
                };
                let virt = matches!(def.reg, RegRef::Virt(_)) || matches!(u.reg, RegRef::Virt(_));
                if virt && (def.reg != u.reg || def.sub != u.sub) {
                    let name = |r: &crate::ir::RegOperand| match r.reg {
                        RegRef::Virt(v) => func.vreg_text(v),
                        RegRef::Phys(p) => format!("${}", t.reg(p).name.to_ascii_lowercase()),
                        RegRef::NoReg => "$noreg".into(),
                    };
                    let (dn, un) = (name(def), name(u));
                    return Err(AllocError::new(
                        AllocErrorKind::Unsupported,
                        &func.name,
                        format!(
                            "{}: operand {k} ({un}) is tied to operand {d} ({dn}) but names another register; \
                             allocators take two-address form, as after LLVM's two-address pass: \
                             copy first (`{dn} = COPY {un}`) and use {dn} in both operands",
                            desc.name
                        ),
                    )
                    .at(b, i));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Allocator, Options, allocate};
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    /// The error allocating `text` with `allocator`.
    fn error_of(text: &str, allocator: Allocator) -> String {
        let mut f = read(text);
        let opts = Options {
            allocator,
            check: true,
        };
        allocate(bpf(), &mut f, &opts)
            .map(|_| ())
            .expect_err("refused")
            .to_string()
    }

    /// Allocates `text` with every allocator, checked.
    fn allocates(text: &str) {
        for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
            let mut f = read(text);
            let opts = Options {
                allocator,
                check: true,
            };
            if let Err(e) = allocate(bpf(), &mut f, &opts) {
                panic!("{}: {e}", allocator.name());
            }
        }
    }

    /// A diamond whose join reads `%1`, defined on the `bb.1` side;
    /// `{other}` is the other side's code.
    fn diamond(read: &str, other: &str) -> String {
        format!(
            "---
name: f
tracksRegLiveness: true
registers:
  - {{ id: 0, class: gpr }}
  - {{ id: 1, class: gpr }}
liveins:
  - {{ reg: '$r1', virtual-reg: '%0' }}
body: |
  bb.0:
    successors: %bb.1, %bb.2
    liveins: $r1
    %0:gpr = COPY $r1
    JEQ_ri %0, 0, %bb.2
  bb.1:
    successors: %bb.3
    %1:gpr = MOV_ri 1
    JMP %bb.3
  bb.2:
    successors: %bb.3
{other}  bb.3:
    {read}
    RET implicit $r0
...
"
        )
    }

    /// The diamond with a PHI merging two values into `%2`.
    fn diamond_with_phi() -> String {
        diamond("$r0 = COPY %2", "    %3:gpr = MOV_ri 2\n")
            .replace(
                "  - { id: 1, class: gpr }",
                "  - { id: 1, class: gpr }\n  - { id: 2, class: gpr }\n  - { id: 3, class: gpr }",
            )
            .replace(
                "  bb.3:\n",
                "  bb.3:\n    %2:gpr = PHI %1, %bb.1, %3, %bb.2\n",
            )
    }

    #[test]
    fn a_phi_left_at_stage_1_is_refused_in_the_same_words_by_every_allocator() {
        let f = read(&diamond_with_phi());
        for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
            let e = super::check_no_phis(&f, allocator).expect_err("refused");
            assert_eq!(
                e.to_string(),
                format!(
                    "unsupported: f, bb.3, instruction 5: PHI instructions must be eliminated before the {} allocator runs",
                    allocator.name()
                )
            );
        }
    }

    #[test]
    fn every_allocator_takes_phis_through_stage_0_and_is_checked() {
        for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
            let mut f = read(&diamond_with_phi());
            let opts = Options {
                allocator,
                check: true,
            };
            allocate(bpf(), &mut f, &opts).expect("lowered, allocated and checked");
            assert!(
                !crate::passes::has_phis(&f),
                "{}: PHIs left",
                allocator.name()
            );
        }
    }

    #[test]
    fn a_read_some_path_has_not_defined_is_refused_naming_register_and_place() {
        let text = diamond("$r0 = COPY %1", "");
        for allocator in [Allocator::Fast, Allocator::Basic, Allocator::Greedy] {
            assert_eq!(
                error_of(&text, allocator),
                "t.mir:22:5: error: invalid input: f, bb.3, instruction 4: %1 is read before any definition: operand 1 of COPY reads it where some path from the function's entry has not defined it (a use whose value does not matter is marked `undef`)"
            );
        }
    }

    #[test]
    fn undef_reads_and_implicit_definitions_are_not_refused() {
        allocates(&diamond("$r0 = COPY undef %1", ""));
        allocates(&diamond("$r0 = COPY %1", "    %1:gpr = IMPLICIT_DEF\n"));
        allocates(&diamond("$r0 = COPY %1", "    %1:gpr = MOV_ri 2\n"));
    }

    #[test]
    fn a_read_before_the_definition_in_its_own_block_is_refused() {
        let text = diamond("$r0 = COPY %1", "    %1:gpr = MOV_ri 2\n").replace(
            "  bb.2:\n    successors: %bb.3\n    %1:gpr = MOV_ri 2\n",
            "  bb.2:\n    successors: %bb.3\n    %1:gpr = ADD_ri %1, 2\n",
        );
        assert_eq!(
            error_of(&text, Allocator::Greedy),
            "t.mir:21:5: error: invalid input: f, bb.2, instruction 4: %1 is read before any definition: operand 1 of ADD_ri reads it where some path from the function's entry has not defined it (a use whose value does not matter is marked `undef`)"
        );
    }

    #[test]
    fn a_definition_later_in_layout_but_first_on_every_path_is_enough() {
        let text = "---
name: f
tracksRegLiveness: true
body: |
  bb.0:
    successors: %bb.2
    JMP %bb.2
  bb.1:
    $r0 = COPY %1
    RET implicit $r0
  bb.2:
    successors: %bb.1
    %1:gpr = MOV_ri 1
    JMP %bb.1
...
";
        allocates(text);
        // Reached from the entry through bb.1 first, the read is refused.
        let looped = text.replace(
            "    successors: %bb.2\n    JMP %bb.2",
            "    successors: %bb.1\n    JMP %bb.1",
        );
        assert_eq!(
            error_of(&looped, Allocator::Basic),
            "t.mir:9:5: error: invalid input: f, bb.1, instruction 1: %1 is read before any definition: operand 1 of COPY reads it where some path from the function's entry has not defined it (a use whose value does not matter is marked `undef`)"
        );
    }

    #[test]
    fn a_sub_register_definition_reads_the_rest_unless_undef() {
        let text = "---
name: f
tracksRegLiveness: true
body: |
  bb.0:
    %1.sub_32:gpr = MOV_ri_32 5
    $r0 = COPY %1
    RET implicit $r0
...
";
        assert_eq!(
            error_of(text, Allocator::Greedy),
            "t.mir:6:5: error: invalid input: f, bb.0, instruction 0: %1 is read before any definition: operand 0 of MOV_ri_32 reads it where some path from the function's entry has not defined it (a use whose value does not matter is marked `undef`)"
        );
        allocates(&text.replace("    %1.sub_32", "    undef %1.sub_32"));
    }
}
