//! The lowering checker's structural checks: the record's block origins verified against both functions' edges, every SSA instruction placed once in its own block or removed where removing it is allowed, and three-address forms paired with the instructions they replace.

use std::collections::HashMap;

use crate::ir::{Block, Generic, Inst, MachineFunction, Op};
use crate::record::{BlockOrigin, LoweringRecord};
use crate::target::{InstrFlags, TargetInfo};

use super::super::error::{CheckError, CheckErrorKind as K};
use super::ssa::Ssa;

/// The correspondence between the two functions, once verified.
pub(crate) struct Map {
    /// By lowered block, its origin.
    pub origins: Vec<BlockOrigin>,
    /// By lowered block, its predecessors.
    pub preds: Vec<Vec<Block>>,
    /// New three-address instructions and the SSA instruction each
    /// replaces.
    pub three_address: HashMap<Inst, Inst>,
}

impl Map {
    /// The SSA block a lowered block stands for on an edge into it.
    pub fn target(&self, b: Block) -> Option<Block> {
        match self.origins.get(b.index())? {
            BlockOrigin::Original(x) => Some(*x),
            BlockOrigin::Split { to, .. } => Some(*to),
        }
    }

    /// The SSA block a lowered block stands for on an edge out of it.
    pub fn source(&self, b: Block) -> Option<Block> {
        match self.origins.get(b.index())? {
            BlockOrigin::Original(x) => Some(*x),
            BlockOrigin::Split { from, .. } => Some(*from),
        }
    }
}

/// An error at no instruction.
fn structure(f: &MachineFunction, b: Option<Block>, expected: String, found: String) -> CheckError {
    let mut e = CheckError::new(K::Structure, &f.name, expected, found);
    e.block = b;
    e
}

/// Verifies the record and the placement of instructions; the map when
/// the functions correspond, the errors found otherwise.
pub(crate) fn verify(
    t: &TargetInfo<'_>,
    ssa: &Ssa<'_>,
    low: &MachineFunction,
    record: &LoweringRecord,
) -> Result<Map, Vec<CheckError>> {
    let mut errors = Vec::new();
    let origins = record.block_origins.clone();
    if origins.len() != low.blocks.len() {
        errors.push(structure(
            low,
            None,
            format!("a block origin for each of the {} blocks", low.blocks.len()),
            format!("{}", origins.len()),
        ));
        return Err(errors);
    }
    let mut preds = vec![Vec::new(); low.blocks.len()];
    for b in low.block_ids() {
        for s in &low.block(b).succs {
            if let Some(p) = preds.get_mut(s.block.index()) {
                p.push(b);
            }
        }
    }
    let map = Map {
        origins,
        preds,
        three_address: HashMap::new(),
    };
    check_origins(ssa, low, &map, &mut errors);
    if errors.is_empty() {
        check_edges(ssa, low, &map, &mut errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut map = map;
    check_placement(t, ssa, low, &mut map, &mut errors);
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(errors)
    }
}

/// Each reachable SSA block is the origin of exactly one lowered block;
/// split blocks stand for SSA edges.
fn check_origins(ssa: &Ssa<'_>, low: &MachineFunction, map: &Map, errors: &mut Vec<CheckError>) {
    let f = ssa.f;
    let mut seen = vec![0usize; f.blocks.len()];
    for (k, o) in map.origins.iter().enumerate() {
        let b = Block::new(k);
        match *o {
            BlockOrigin::Original(x) if ssa.reachable.get(x.index()).copied() == Some(true) => {
                seen[x.index()] += 1;
            }
            BlockOrigin::Split { from, to }
                if ssa.reachable.get(from.index()).copied() == Some(true)
                    && f.block(from).succs.iter().any(|s| s.block == to) => {}
            _ => errors.push(structure(
                low,
                Some(b),
                "a reachable SSA block or an SSA edge as its origin".into(),
                format!("{o:?}"),
            )),
        }
    }
    for (x, &n) in seen.iter().enumerate() {
        if ssa.reachable[x] && n != 1 {
            errors.push(structure(
                low,
                None,
                format!("SSA bb.{x} the origin of one block"),
                format!("{n}"),
            ));
        }
    }
}

/// The lowered edges are the SSA edges, through split blocks.
fn check_edges(ssa: &Ssa<'_>, low: &MachineFunction, map: &Map, errors: &mut Vec<CheckError>) {
    for b in low.block_ids() {
        let succs: Vec<Block> = low.block(b).succs.iter().map(|s| s.block).collect();
        let mut found = Vec::new();
        for &s in &succs {
            match map.origins.get(s.index()) {
                Some(BlockOrigin::Split { from, .. }) if Some(*from) != map.source(b) => {
                    found.push(None);
                }
                _ => found.push(map.target(s)),
            }
        }
        let expected: Vec<Option<Block>> = match map.origins[b.index()] {
            BlockOrigin::Original(x) => {
                ssa.f.block(x).succs.iter().map(|s| Some(s.block)).collect()
            }
            BlockOrigin::Split { to, .. } => vec![Some(to)],
        };
        let (mut e, mut f) = (expected.clone(), found.clone());
        e.sort();
        e.dedup();
        f.sort();
        f.dedup();
        let split_ok = match map.origins[b.index()] {
            BlockOrigin::Split { from, .. } => {
                succs.len() == 1
                    && matches!(
                        map.origins.get(succs[0].index()),
                        Some(BlockOrigin::Original(_))
                    )
                    && map.preds[b.index()].len() == 1
                    && map.origins.get(map.preds[b.index()][0].index())
                        == Some(&BlockOrigin::Original(from))
            }
            BlockOrigin::Original(_) => true,
        };
        if e != f || !split_ok {
            let names = |v: &[Option<Block>]| {
                v.iter()
                    .map(|b| b.map_or("?".into(), |b| format!("bb.{}", b.0)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            errors.push(structure(
                low,
                Some(b),
                format!("successors standing for SSA [{}]", names(&e)),
                format!("[{}]", names(&f)),
            ));
        }
    }
}

/// Whether an SSA instruction may be missing from the lowered function:
/// what the passes lower away (PHIs, copies, sequences, undefined values,
/// an unconditional branch edge splitting made redundant) or a definition
/// with no effect (a dead one the coalescer erased; a value still read
/// is caught where it is read).
fn may_vanish(t: &TargetInfo<'_>, op: Op) -> bool {
    match op {
        Op::Generic(g) => {
            matches!(
                g,
                Generic::Phi
                    | Generic::Copy
                    | Generic::RegSequence
                    | Generic::InsertSubreg
                    | Generic::ImplicitDef
                    | Generic::Kill
            ) || op.is_debug()
        }
        Op::Target(o) => {
            if t.unconditional_branch == Some(o) {
                return true;
            }
            t.instrs.get(o.index()).is_some_and(|d| {
                ![
                    InstrFlags::MAY_STORE,
                    InstrFlags::CALL,
                    InstrFlags::TERMINATOR,
                    InstrFlags::BRANCH,
                    InstrFlags::SIDE_EFFECTS,
                ]
                .iter()
                .any(|&f| d.is(f))
            })
        }
        Op::Unknown(_) => false,
    }
}

/// Every lowered instruction with an SSA id is in a block standing for
/// its SSA block, once; SSA instructions missing may vanish or were
/// replaced by a three-address form (paired here).
fn check_placement(
    t: &TargetInfo<'_>,
    ssa: &Ssa<'_>,
    low: &MachineFunction,
    map: &mut Map,
    errors: &mut Vec<CheckError>,
) {
    let n = ssa.f.insts.len();
    let mut placed = vec![false; n];
    let mut new_three: Vec<(Block, Inst)> = Vec::new();
    for b in low.block_ids() {
        for &i in &low.block(b).insts {
            if i.index() >= n {
                if let Op::Target(op) = low.inst(i).op
                    && t.three_address_forms.iter().any(|f| f.three_address == op)
                {
                    new_three.push((b, i));
                }
                continue;
            }
            let home = ssa.block_of[i.index()];
            let wrong =
                home.is_none() || Some(map.origins[b.index()]) != home.map(BlockOrigin::Original);
            if wrong || std::mem::replace(&mut placed[i.index()], true) {
                let mut e = structure(
                    low,
                    Some(b),
                    match home {
                        Some(h) => format!(
                            "SSA instruction {} once, in the block of SSA bb.{}",
                            i.0, h.0
                        ),
                        None => "only instructions of the SSA function".into(),
                    },
                    format!("instruction {} here", i.0),
                );
                e.inst = Some(i);
                errors.push(e);
            }
        }
    }
    let mut missing: Vec<Inst> = Vec::new();
    for b in ssa.f.block_ids().filter(|b| ssa.reachable[b.index()]) {
        for &i in &ssa.f.block(b).insts {
            if !placed[i.index()] {
                missing.push(i);
            }
        }
    }
    // Pair each new three-address instruction with a missing instruction
    // of its block that has that form, in order.
    for (b, n_inst) in new_three {
        let Op::Target(op) = low.inst(n_inst).op else {
            continue;
        };
        let home = map.source(b);
        let pick = missing.iter().position(|&m| {
            ssa.block_of[m.index()] == home
                && matches!(ssa.f.inst(m).op, Op::Target(o) if t.three_address_forms(o).iter().any(|f| f.three_address == op))
        });
        if let Some(k) = pick {
            map.three_address.insert(n_inst, missing.remove(k));
        }
    }
    for i in missing {
        let op = ssa.f.inst(i).op;
        if !may_vanish(t, op) {
            let mut e = CheckError::new(
                K::BadRemoval,
                &low.name,
                "only copies, PHIs, undefined values and definitions without effect removed",
                format!("{} removed", op.name(t)),
            );
            e.block = ssa.block_of[i.index()];
            e.inst = Some(i);
            e.inst_text = crate::mir::inst_text(t, ssa.f, i);
            errors.push(e);
        }
    }
}
