//! Per-instruction split (LLVM's `tryInstructionSplit`): a range inside one block whose class is narrower than it must be everywhere gets a tiny interval around each instruction that needs the narrow class, and the rest is inflated to the largest legal super-class.
//!
//! The last resort before spilling a local range. It helps when the class
//! is narrow because of a few instructions (a byte register with a high
//! half, an address operand that excludes the stack pointer): around each
//! such instruction a new interval holds the value in a register of the
//! class that instruction needs, and the pieces in between, constrained
//! only by the other instructions (copies among them), take the larger
//! class ([`super::super::inflate`]). Copies are not split around: a full
//! copy does not constrain the class. Every product goes to the `Spill`
//! stage: this was the last split.

use crate::ir::{Inst, VReg};

use super::super::inflate::{allocatable_count, constrained_class, largest_legal_super_class};
use super::super::split::{BlockPlan, Gap, SplitPlan};
use super::{Greedy, Stage};

/// LLVM's `tryInstructionSplit` for `v`, a range inside one block;
/// `true` when it was split (its pieces are queued).
pub fn try_instruction_split(g: &mut Greedy<'_, '_, '_>, v: VReg) -> bool {
    let Some(class) = g.func.vreg_class(v) else {
        return false;
    };
    let wide = largest_legal_super_class(g.t, class);
    if wide == class {
        tracing::debug!(vreg = v.0, class = %g.t.class(class).name, "no instruction split: no larger class");
        return false;
    }
    let wide_count = allocatable_count(g.t, wide);
    let slots = &g.an.intervals.slots;
    let users: Vec<Inst> = g
        .spiller
        .users(v)
        .iter()
        .copied()
        .filter(|&i| slots.inst(i).is_some())
        .collect();
    if users.len() <= 1 {
        return false;
    }
    let Some(block) = slots.inst(users[0]).and_then(|at| slots.block_of(at)) else {
        return false;
    };
    let mut switches = Vec::new();
    let mut intervals = 1;
    for &i in &users {
        let inst = g.func.inst(i);
        let full_copy = inst.op.is_copy()
            && inst
                .operands
                .iter()
                .filter_map(|o| o.as_reg())
                .all(|r| r.sub.is_none());
        if full_copy {
            continue;
        }
        let narrow = constrained_class(g.t, g.func, v, &[i], wide);
        if narrow.is_some_and(|c| allocatable_count(g.t, c) == wide_count) {
            continue;
        }
        switches.push((Gap::Before(i), intervals));
        switches.push((Gap::After(i), 0));
        intervals += 1;
    }
    if intervals == 1 {
        return false;
    }
    let plan = SplitPlan {
        intervals,
        default: 0,
        blocks: [(block, BlockPlan { entry: 0, switches })]
            .into_iter()
            .collect(),
        hoist: None,
        hoist_at: None,
    };
    let all_users = g.spiller.users(v).to_vec();
    let Some(res) = g
        .kit
        .apply(g.t, g.func, &mut g.an, &mut g.vrm, v, &all_users, &plan)
    else {
        return false;
    };
    tracing::debug!(
        vreg = v.0,
        from = %g.t.class(class).name,
        to = %g.t.class(wide).name,
        intervals,
        copies = res.copies,
        "instruction split"
    );
    g.note_split(v, crate::events::SplitKind::Instruction, &res.regs);
    for (r, users) in res.regs.iter().zip(res.users) {
        let Some(n) = *r else { continue };
        // Each piece takes the largest class its own instructions accept.
        if let Some(c) = constrained_class(g.t, g.func, n, &users, wide) {
            g.func.vregs[n.index()].class = Some(c);
        }
        g.spiller.set_users(n, users);
        g.set_stage(n, Stage::Spill);
        g.set_cascade(n, 0);
        g.enqueue(n);
    }
    true
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::target::{
        ClassSpec, InstrDesc, InstrFlags, InstrTemplate, Opcode, OperandDesc, OperandKind,
        TargetBuilder, TargetInfo, TemplateOperand,
    };

    use super::super::GreedyOptions;

    /// Four registers; `LO` holds the first two. `USE_LO` reads a `LO`
    /// register, `USE` any.
    fn target() -> TargetInfo<'static> {
        let mut b = TargetBuilder::new("tiny");
        let r: Vec<_> = (0..4).map(|n| b.reg(&format!("R{n}"), n, &[])).collect();
        let operand = |class: Option<crate::target::RegClass>, is_def| OperandDesc {
            name: Cow::Borrowed("op"),
            kind: if class.is_some() {
                OperandKind::Register
            } else {
                OperandKind::Immediate
            },
            class,
            is_def,
            tied_to: None,
            early_clobber: false,
        };
        let template = |k: usize, ops: &[TemplateOperand]| {
            Some(InstrTemplate {
                opcode: Opcode::new(k),
                operands: Cow::Owned(ops.to_vec()),
            })
        };
        use TemplateOperand::{Imm, Reg as R, Slot, Src};
        let spec = |name: &str, members: Vec<_>| ClassSpec {
            name: name.into(),
            members,
            reg_size: 32,
            copy_cost: 1,
            allocatable: true,
            spill: template(3, &[R, Slot, Imm(0)]),
            reload: template(4, &[R, Slot, Imm(0)]),
            copy: template(5, &[R, Src]),
        };
        let all = b.class(spec("ALL", r.clone()));
        let lo = b.class(spec("LO", r[..2].to_vec()));
        let desc = |name: &str, ops: Vec<OperandDesc<'static>>, defs: u8, flags| InstrDesc {
            name: Cow::Owned(name.to_string()),
            operands: Cow::Owned(ops),
            num_defs: defs,
            implicit_defs: Cow::Owned(Vec::new()),
            implicit_uses: Cow::Owned(Vec::new()),
            flags,
        };
        b.instr(desc(
            "LI",
            vec![operand(Some(all), true), operand(None, false)],
            1,
            InstrFlags::NONE,
        ));
        b.instr(desc(
            "USE",
            vec![operand(Some(all), false)],
            0,
            InstrFlags::NONE,
        ));
        b.instr(desc(
            "USE_LO",
            vec![operand(Some(lo), false)],
            0,
            InstrFlags::NONE,
        ));
        b.instr(desc(
            "ST",
            vec![
                operand(Some(all), false),
                operand(None, false),
                operand(None, false),
            ],
            0,
            InstrFlags::MAY_STORE,
        ));
        b.instr(desc(
            "LD",
            vec![
                operand(Some(all), true),
                operand(None, false),
                operand(None, false),
            ],
            1,
            InstrFlags::MAY_LOAD,
        ));
        b.instr(desc(
            "MOV",
            vec![operand(Some(all), true), operand(Some(all), false)],
            1,
            InstrFlags::MOVE_REG,
        ));
        b.instr(desc(
            "RET",
            Vec::new(),
            0,
            InstrFlags::RETURN
                .union(InstrFlags::TERMINATOR)
                .union(InstrFlags::BARRIER),
        ));
        b.build()
    }

    #[test]
    fn only_the_narrow_instruction_keeps_the_narrow_class() {
        let t = target();
        let file = crate::mir::read(
            &t,
            "t.mir",
            "---
name: narrow
tracksRegLiveness: true
registers:
  - { id: 0, class: lo }
body: |
  bb.0:
    %0:lo = LI 1
    USE %0
    USE_LO %0
    USE %0
    RET
...
",
        );
        assert_eq!(
            file.errors().count(),
            0,
            "{:?}",
            file.errors().collect::<Vec<_>>()
        );
        let mut f = file.read_functions().next().unwrap().clone();
        let (all, lo) = (t.find_class("all").unwrap(), t.find_class("lo").unwrap());
        let mut g = Greedy::new(&t, &mut f, GreedyOptions::default());
        assert!(try_instruction_split(&mut g, VReg(0)));
        // One piece around `USE_LO` (class LO), copied in and out; the
        // rest (the definition and the plain uses) is of class ALL.
        let insts = g.func.block(crate::ir::Block::new(0)).insts.clone();
        let reg_of = |i: Inst| match &g.func.inst(i).operands[0] {
            crate::ir::Operand::Reg(r) => r.reg,
            _ => unreachable!(),
        };
        let names: Vec<String> = insts
            .iter()
            .map(|&i| match g.func.inst(i).op {
                crate::ir::Op::Target(o) => t.instr(o).name.to_string(),
                crate::ir::Op::Generic(_) => "COPY".to_string(),
                crate::ir::Op::Unknown(u) => u.name.to_string(),
            })
            .collect();
        assert_eq!(names, ["LI", "USE", "COPY", "USE_LO", "COPY", "USE", "RET"]);
        let class_of = |i: Inst| match reg_of(i) {
            crate::ir::RegRef::Virt(v) => g.func.vreg_class(v),
            _ => None,
        };
        assert_eq!(class_of(insts[3]), Some(lo));
        assert_eq!(class_of(insts[0]), Some(all));
        assert_eq!(class_of(insts[5]), Some(all));
        for v in [reg_of(insts[0]), reg_of(insts[3])] {
            let crate::ir::RegRef::Virt(v) = v else {
                unreachable!()
            };
            assert_eq!(g.stage(v), Stage::Spill);
        }
    }
}
