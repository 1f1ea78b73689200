//! The checker's view of jump tables: the blocks an indirect branch reaches through a table are edges of its dataflow, and the allocated function's tables must name the blocks the original's named.
//!
//! Which table an indirect branch jumps through is read from the original
//! function's data flow, not from where `%jump-table.N` is written: the
//! table's address is often computed outside the branching block (x86-64
//! hoists the `LEA64r $rip, 1, $noreg, %jump-table.0` out of the loop
//! around a switch). The branch's register operands are followed back
//! through every definition of the virtual registers they read, to the
//! tables named on the way (`LEA64r`, AArch64's `JumpTableDest32`,
//! Hexagon's `C4_addipc`, or the branch itself for x86's `JMP64m`). Each
//! entry of such a table is a successor of the branching block for the
//! dataflow, whether or not the block's successor list says so (LLVM keeps
//! the lists complete; a list that is not would otherwise let a value
//! live only along a table edge go unchecked).

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::ir::{Block, Inst, MachineFunction, Op, Operand, RegRef, Symbol, VReg};
use crate::target::{InstrFlags, TargetInfo};

use super::error::{CheckError, CheckErrorKind};

/// The differences between the jump tables of `original` and `allocated`
/// (kind, number of tables, each table's entries block by block), as
/// structure errors. A function without tables and one whose `jumpTable:`
/// lists none are alike.
pub(crate) fn compare(original: &MachineFunction, allocated: &MachineFunction) -> Vec<CheckError> {
    let name = &original.name;
    let error = |expected: String, found: String| {
        CheckError::new(CheckErrorKind::Structure, name, expected, found)
    };
    let tables = |f: &MachineFunction| {
        f.jump_tables
            .as_ref()
            .filter(|j| !j.tables.is_empty())
            .cloned()
    };
    let (want, have) = match (tables(original), tables(allocated)) {
        (None, None) => return Vec::new(),
        (Some(w), Some(h)) => (w, h),
        (w, h) => {
            let count =
                |j: &Option<crate::ir::JumpTables>| j.as_ref().map_or(0, |j| j.tables.len());
            return vec![error(
                format!("{} jump tables", count(&w)),
                count(&h).to_string(),
            )];
        }
    };
    let mut errors = Vec::new();
    if want.kind != have.kind {
        errors.push(error(
            format!("jump tables of kind {}", want.kind.name()),
            have.kind.name().to_string(),
        ));
    }
    if want.tables.len() != have.tables.len() {
        errors.push(error(
            format!("{} jump tables", want.tables.len()),
            have.tables.len().to_string(),
        ));
    }
    for (k, (w, h)) in want.tables.iter().zip(&have.tables).enumerate() {
        if w.blocks.len() != h.blocks.len() {
            errors.push(error(
                format!("%jump-table.{k} with {} entries", w.blocks.len()),
                h.blocks.len().to_string(),
            ));
            continue;
        }
        for (e, (wb, hb)) in w.blocks.iter().zip(&h.blocks).enumerate() {
            if wb != hb {
                errors.push(error(
                    format!("%jump-table.{k} entry {e} to jump to bb.{}", wb.index()),
                    format!("bb.{}", hb.index()),
                ));
            }
        }
    }
    errors
}

/// The successors of each block of `allocated` for the dataflow: its
/// successor list (targets out of range dropped), then every entry of the
/// tables it jumps through that the list lacks. Which tables a block jumps
/// through is read from `original` (the same blocks: the caller has
/// checked the structure); their entries from `allocated`.
pub(crate) fn dataflow_successors(
    t: &TargetInfo<'_>,
    original: &MachineFunction,
    allocated: &MachineFunction,
) -> Vec<Vec<Block>> {
    let n = allocated.blocks.len();
    let mut succs: Vec<Vec<Block>> = allocated
        .blocks
        .iter()
        .map(|b| {
            b.succs
                .iter()
                .map(|s| s.block)
                .filter(|s| s.index() < n)
                .collect()
        })
        .collect();
    let Some(tables) = allocated.jump_tables.as_ref() else {
        return succs;
    };
    let mut definitions: Option<HashMap<VReg, Vec<Inst>>> = None;
    for b in original.block_ids().take(n) {
        let branches: Vec<Inst> = original
            .block(b)
            .insts
            .iter()
            .copied()
            .filter(|&i| is_indirect_branch(t, original, i))
            .collect();
        if branches.is_empty() {
            continue;
        }
        let defs = definitions.get_or_insert_with(|| definitions_of(original));
        for k in tables_reached(original, defs, &branches) {
            let Some(table) = tables.tables.get(k as usize) else {
                continue;
            };
            for &target in &table.blocks {
                if target.index() < n && !succs[b.index()].contains(&target) {
                    succs[b.index()].push(target);
                }
            }
        }
    }
    succs
}

/// Whether instruction `i` of `f` is an indirect branch by its description.
fn is_indirect_branch(t: &TargetInfo<'_>, f: &MachineFunction, i: Inst) -> bool {
    match f.insts.get(i.index()).map(|d| d.op) {
        Some(Op::Target(op)) => t
            .instrs
            .get(op.index())
            .is_some_and(|d| d.flags.contains(InstrFlags::INDIRECT_BRANCH)),
        _ => false,
    }
}

/// Every instruction of `f` (in a block) defining each virtual register.
fn definitions_of(f: &MachineFunction) -> HashMap<VReg, Vec<Inst>> {
    let mut defs: HashMap<VReg, Vec<Inst>> = HashMap::new();
    for i in f.inst_ids() {
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        for r in d.operands.iter().filter_map(Operand::as_reg) {
            if let (RegRef::Virt(v), true) = (r.reg, r.is_def()) {
                defs.entry(v).or_default().push(i);
            }
        }
    }
    defs
}

/// The tables named by `branches` or by any definition their virtual
/// register operands are computed from, transitively.
fn tables_reached(
    f: &MachineFunction,
    defs: &HashMap<VReg, Vec<Inst>>,
    branches: &[Inst],
) -> BTreeSet<u32> {
    let mut found = BTreeSet::new();
    let mut seen: HashSet<VReg> = HashSet::new();
    let mut work: Vec<Inst> = branches.to_vec();
    let mut visited: HashSet<Inst> = HashSet::new();
    while let Some(i) = work.pop() {
        if !visited.insert(i) {
            continue;
        }
        let Some(d) = f.insts.get(i.index()) else {
            continue;
        };
        for o in &d.operands {
            match o {
                Operand::Symbol(s) => {
                    if let Symbol::JumpTable(k) = s.sym {
                        found.insert(k);
                    }
                }
                Operand::Reg(r) if !r.is_def() => {
                    if let RegRef::Virt(v) = r.reg
                        && seen.insert(v)
                    {
                        work.extend(defs.get(&v).into_iter().flatten().copied());
                    }
                }
                _ => {}
            }
        }
    }
    found
}
