//! `processimpdefs`: LLVM's ProcessImplicitDefs. An `IMPLICIT_DEF` of a virtual register is removed and every read of the register marked `undef`.
//!
//! A reader that then reads nothing (a `COPY`, `SUBREG_TO_REG`,
//! `INSERT_SUBREG`, `REG_SEQUENCE` or PHI whose every use is `undef`)
//! becomes an `IMPLICIT_DEF` itself and is processed in turn. An
//! `IMPLICIT_DEF` of a physical register is removed when a later
//! instruction of its block touches an overlapping register (whose reads
//! become `undef`); otherwise it stays, stripped of any extra operands.
//! Blocks are processed in layout order, each block's `IMPLICIT_DEF`s as
//! a last-in first-out work list, as LLVM's.

use crate::error::AllocError;
use crate::ir::{Block, Generic, Inst, MachineFunction, Op, Operand, RegFlags, RegRef, VReg};
use crate::target::TargetInfo;

use super::edit::{erase, is_debug, reads_reg};

/// Runs the pass on `func`.
pub fn run(target: &TargetInfo<'_>, func: &mut MachineFunction) -> Result<(), AllocError> {
    let mut pass = ImplicitDefs {
        target,
        users: users_of_vregs(func),
        block_of: block_of_insts(func),
        work: Vec::new(),
    };
    for b in func.block_ids() {
        pass.work = func
            .block(b)
            .insts
            .iter()
            .copied()
            .filter(|&i| func.inst(i).op == IMPLICIT_DEF)
            .collect();
        while let Some(i) = pass.work.pop() {
            pass.process(func, i);
        }
    }
    Ok(())
}

const IMPLICIT_DEF: Op = Op::Generic(Generic::ImplicitDef);

struct ImplicitDefs<'a, 't> {
    target: &'a TargetInfo<'t>,
    /// The non-debug instructions reading each virtual register (an
    /// instruction once per operand), in layout order.
    users: Vec<Vec<Inst>>,
    /// The block holding each placed instruction.
    block_of: Vec<Option<Block>>,
    /// LLVM's `SetVector` work list.
    work: Vec<Inst>,
}

impl ImplicitDefs<'_, '_> {
    fn process(&mut self, func: &mut MachineFunction, i: Inst) {
        let Some(Operand::Reg(def)) = func.inst(i).operands.first() else {
            return;
        };
        match def.reg {
            RegRef::Virt(v) => self.process_virtual(func, i, v),
            RegRef::Phys(r) => self.process_physical(func, i, r),
            RegRef::NoReg => {}
        }
    }

    /// Marks every read of `v` undef, turns readers that read nothing else
    /// into `IMPLICIT_DEF`s, and removes `i`.
    fn process_virtual(&mut self, func: &mut MachineFunction, i: Inst, v: VReg) {
        let users = self.users[v.index()].clone();
        let mut seen = Vec::new();
        for u in users {
            if self.block_of[u.index()].is_none() || seen.contains(&u) {
                continue;
            }
            seen.push(u);
            for o in &mut func.inst_mut(u).operands {
                if let Operand::Reg(r) = o
                    && r.reg == RegRef::Virt(v)
                    && !r.is_def()
                {
                    r.flags.set(RegFlags::UNDEF, true);
                }
            }
            if can_turn_into_implicit_def(func, u) {
                func.inst_mut(u).op = IMPLICIT_DEF;
                if !self.work.contains(&u) {
                    self.work.push(u);
                }
            }
        }
        self.remove(func, i);
    }

    /// Removes `i` when a later instruction of its block touches a register
    /// overlapping `reg` (marking those reads undef); keeps it, with only
    /// its definition, otherwise.
    fn process_physical(&mut self, func: &mut MachineFunction, i: Inst, reg: crate::target::Reg) {
        let Some(b) = self.block_of[i.index()] else {
            return;
        };
        let insts = func.block(b).insts.clone();
        let at = insts.iter().position(|&x| x == i).unwrap_or(insts.len());
        for &u in &insts[at + 1..] {
            let mut found = false;
            for o in &mut func.inst_mut(u).operands {
                if let Operand::Reg(r) = o
                    && let RegRef::Phys(p) = r.reg
                    && self.target.regs_overlap(reg, p)
                {
                    found = true;
                    if !r.is_def() {
                        r.flags.set(RegFlags::UNDEF, true);
                    }
                }
            }
            if found {
                self.remove(func, i);
                return;
            }
        }
        func.inst_mut(i).operands.truncate(1);
    }

    fn remove(&mut self, func: &mut MachineFunction, i: Inst) {
        if let Some(b) = self.block_of[i.index()].take() {
            erase(func, b, i);
        }
    }
}

/// Whether `u` only moves values (LLVM's copy-like instructions,
/// `INSERT_SUBREG`, `REG_SEQUENCE`, PHI) and none of its uses reads.
fn can_turn_into_implicit_def(func: &MachineFunction, u: Inst) -> bool {
    let inst = func.inst(u);
    let moves = matches!(
        inst.op,
        Op::Generic(
            Generic::Copy
                | Generic::SubregToReg
                | Generic::InsertSubreg
                | Generic::RegSequence
                | Generic::Phi
        )
    );
    moves
        && inst
            .operands
            .iter()
            .filter_map(Operand::as_reg)
            .filter(|r| !r.is_def())
            .all(|r| !reads_reg(r))
}

/// For each virtual register, the non-debug instructions with a use
/// operand of it.
fn users_of_vregs(func: &MachineFunction) -> Vec<Vec<Inst>> {
    let mut users = vec![Vec::new(); func.vregs.len()];
    for i in func.inst_ids() {
        let inst = func.inst(i);
        if is_debug(inst.op) {
            continue;
        }
        for o in &inst.operands {
            if let Operand::Reg(r) = o
                && let RegRef::Virt(v) = r.reg
                && !r.is_def()
            {
                users[v.index()].push(i);
            }
        }
    }
    users
}

/// The block of each placed instruction, by instruction.
pub(crate) fn block_of_insts(func: &MachineFunction) -> Vec<Option<Block>> {
    let mut of = vec![None; func.insts.len()];
    for b in func.block_ids() {
        for &i in &func.block(b).insts {
            of[i.index()] = Some(b);
        }
    }
    of
}
