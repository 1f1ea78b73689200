//! The page's data: one JSON object describing a function before and after allocation (blocks, instructions, live intervals, the pieces the allocator made of them, the code it inserted, the pressure per block and its decisions).
//!
//! Positions are raw slot indexes of the function before allocation
//! (`regalloc::inspect::SlotIndex`: instructions `unit` apart, the slot in
//! the low two bits), the numbering the allocator's own live ranges use;
//! the page divides by `unit` to draw. Code the allocator inserted has no
//! index of its own in that numbering: it is placed between the original
//! instructions it stands between in the allocated block.

use regalloc::AllocRecord;
use regalloc::events::Event;
use regalloc::inspect::{Analyses, INSTR_DIST, LiveRange};
use regalloc::ir::{Inst, MachineFunction, Operand, RegRef, VReg};
use regalloc::orders::ClassOrders;
use regalloc::record::Edit;
use regalloc::target::{Reg, TargetInfo};
use serde_json::{Value, json};

/// What [`page_data`] describes.
pub(crate) struct Inputs<'a, 't> {
    pub target: &'a TargetInfo<'t>,
    /// The function as read.
    pub original: &'a MachineFunction,
    /// Its analyses (the allocator's numbering).
    pub before: &'a Analyses,
    /// The function as allocated.
    pub allocated: &'a MachineFunction,
    pub record: &'a AllocRecord,
    /// The allocation's event log.
    pub events: &'a [Event],
    pub allocator: &'a str,
    pub stats: &'a regalloc::Stats,
}

/// The JSON object the page draws.
pub(crate) fn page_data(x: &Inputs<'_, '_>) -> Value {
    let origins = origins(x);
    let pieces = pieces(x);
    let ops = operand_registers(x);
    let vregs = vregs(x, &ops, &pieces);
    let marks = marks(x, &pieces, &ops);
    json!({
        "function": x.original.name,
        "target": x.target.name,
        "allocator": x.allocator,
        "unit": INSTR_DIST,
        "stats": {
            "spills": x.stats.spills,
            "reloads": x.stats.reloads,
            "folded_reloads": x.stats.folded_reloads,
            "remats": x.stats.remats,
            "copies": x.stats.copies,
        },
        "blocks": blocks(x),
        "insts": insts(x),
        "classes": classes(x),
        "vregs": vregs,
        "names": (0..x.allocated.vregs.len()).map(|v| x.allocated.vreg_text(VReg::new(v))).collect::<Vec<_>>(),
        "origin": origins,
        "pieces": pieces.iter().map(|p| json!({
            "v": p.vreg.index(),
            "o": p.original.index(),
            "reg": p.reg.map(|r| reg_name(x.target, r)),
            "segs": segments(&p.range),
        })).collect::<Vec<_>>(),
        "marks": marks,
        "decisions": decisions(x),
        "bundles": bundles(x),
        "pressure": pressure(x),
    })
}

fn reg_name(t: &TargetInfo<'_>, r: Reg) -> String {
    format!("${}", t.reg(r).name.to_ascii_lowercase())
}

/// `[start, end, value]` of each segment.
fn segments(r: &LiveRange) -> Vec<[u32; 3]> {
    r.segments
        .iter()
        .map(|s| [s.start.0, s.end.0, s.valno])
        .collect()
}

/// Blocks in layout order: name, `[start, end)`, relative frequency, loop
/// depth, successors.
fn blocks(x: &Inputs<'_, '_>) -> Vec<Value> {
    let flow = &x.before.flow;
    let slots = &x.before.intervals.slots;
    x.original
        .block_ids()
        .map(|b| {
            json!({
                "name": format!("bb.{}", b.index()),
                "start": slots.block_start(b).0,
                "end": slots.block_end(b).0,
                "freq": flow.freq.relative(b),
                "depth": flow.loops.depth(b),
                "succs": x.original.block(b).succs.iter().map(|s| s.block.index()).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// Original instructions in layout order: index, block, text before and
/// after allocation (`null` after: taken out).
fn insts(x: &Inputs<'_, '_>) -> Vec<Value> {
    let slots = &x.before.intervals.slots;
    let removed: std::collections::HashSet<Inst> =
        x.record.removed.iter().map(|r| r.inst).collect();
    let mut out = Vec::new();
    for b in x.original.block_ids() {
        for &i in &x.original.block(b).insts {
            let Some(at) = slots.inst(i) else { continue };
            let after = (!removed.contains(&i))
                .then(|| regalloc::mir::inst_text(x.target, x.allocated, i))
                .flatten();
            out.push(json!({
                "at": at.0,
                "b": b.index(),
                "text": regalloc::mir::inst_text(x.target, x.original, i).unwrap_or_default(),
                "after": after,
            }));
        }
    }
    out
}

/// The classes of the function's virtual registers with the registers
/// the function may allocate in each.
fn classes(x: &Inputs<'_, '_>) -> Vec<Value> {
    let orders = ClassOrders::for_function(x.target, x.original);
    (0..x.target.classes.len())
        .map(|c| {
            let c = regalloc::target::RegClass::new(c);
            json!({
                "name": x.target.class(c).name,
                "available": orders.num_allocatable(x.target, c),
            })
        })
        .collect()
}

/// The input register each virtual register of the allocated function is
/// a piece of, by register index: itself for an input register, through
/// the split and spill events and the final ranges for the rest (`null`:
/// not known, as for Fast, which makes none).
fn origins(x: &Inputs<'_, '_>) -> Vec<Option<usize>> {
    let n = x.allocated.vregs.len();
    let mut origin: Vec<Option<usize>> = (0..n)
        .map(|v| (v < x.original.vregs.len()).then_some(v))
        .collect();
    for e in x.events {
        let (from, products) = match e {
            Event::Split { vreg, products, .. } | Event::Spill { vreg, products } => {
                (vreg, products)
            }
            Event::Final { vreg, original, .. } => {
                if let Some(o) = origin.get_mut(vreg.index()) {
                    *o = Some(original.index());
                }
                continue;
            }
            _ => continue,
        };
        let root = origin.get(from.index()).copied().flatten();
        for p in products {
            if let Some(o) = origin.get_mut(p.index()) {
                *o = root.or(Some(from.index()));
            }
        }
    }
    origin
}

/// A live range the allocation ended with.
pub(crate) struct Piece {
    pub vreg: VReg,
    pub original: VReg,
    pub reg: Option<Reg>,
    pub range: LiveRange,
}

/// The final live ranges of the event log, by original register and start.
fn pieces(x: &Inputs<'_, '_>) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = x
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Final {
                vreg,
                original,
                reg,
                range,
            } => Some(Piece {
                vreg: *vreg,
                original: *original,
                reg: *reg,
                range: range.clone(),
            }),
            _ => None,
        })
        .collect();
    pieces.sort_by_key(|p| {
        (
            p.original.index(),
            p.range.segments.first().map_or(0, |s| s.start.0),
        )
    });
    pieces
}

/// What the allocated code has where an original instruction named a
/// virtual register: the register (or, for an operand folded into a
/// memory access, the stack slot).
pub(crate) struct OperandRegister {
    pub vreg: VReg,
    /// The instruction's raw index, at the operand's slot (`r` for a use,
    /// the def slot for a definition).
    pub at: u32,
    pub def: bool,
    pub reg: Option<Reg>,
    pub slot: Option<u32>,
}

/// The register each original virtual-register operand got, read from the
/// allocated code (the original instruction keeps its id and operand
/// positions), for every original instruction still in the function.
fn operand_registers(x: &Inputs<'_, '_>) -> Vec<OperandRegister> {
    let slots = &x.before.intervals.slots;
    let removed: std::collections::HashSet<Inst> =
        x.record.removed.iter().map(|r| r.inst).collect();
    let mut out = Vec::new();
    for i in x.original.inst_ids() {
        let Some(base) = slots.inst(i) else { continue };
        if removed.contains(&i) {
            continue;
        }
        let fold = x.record.memory_folds.get(&i);
        let before = &x.original.inst(i).operands;
        let after = &x.allocated.inst(i).operands;
        for (k, o) in before.iter().enumerate() {
            let Operand::Reg(r) = o else { continue };
            let RegRef::Virt(v) = r.reg else { continue };
            let def = r.is_def();
            let at = if def { base.0 | 2 } else { base.0 | 1 };
            if let Some(edit) = x.record.edit(i) {
                // An original COPY turned into spill code or another copy:
                // its operands are the edit's.
                let (reg, slot) = match (*edit, def) {
                    (Edit::Reload { to, .. }, true) | (Edit::Copy { to, .. }, true) => {
                        (Some(to), None)
                    }
                    (Edit::Reload { slot, .. }, false) => (None, Some(slot)),
                    (Edit::Spill { from, .. }, false) | (Edit::Copy { from, .. }, false) => {
                        (Some(from), None)
                    }
                    (Edit::Spill { slot, .. }, true) => (None, Some(slot)),
                    (Edit::Remat { to, .. }, true) => (Some(to), None),
                    (Edit::Remat { .. }, false) => (None, None),
                };
                out.push(OperandRegister {
                    vreg: v,
                    at,
                    def,
                    reg,
                    slot,
                });
                continue;
            }
            if let Some(f) = fold {
                // The fold replaced operand `f.operand` (and its tie) by an
                // address: the other operands moved.
                let tied = r.tied_to.map(usize::from);
                if f.operand == k || tied == Some(f.operand) {
                    out.push(OperandRegister {
                        vreg: v,
                        at,
                        def,
                        reg: None,
                        slot: Some(f.slot),
                    });
                }
                continue;
            }
            let reg = match after.get(k) {
                Some(Operand::Reg(a)) => match a.reg {
                    RegRef::Phys(p) => Some(p),
                    _ => None,
                },
                _ => None,
            };
            out.push(OperandRegister {
                vreg: v,
                at,
                def,
                reg,
                slot: None,
            });
        }
    }
    out
}

/// The input's virtual registers that have a live interval: name, class,
/// weight, segments, value definitions, the registers their operands got,
/// and their pieces (indexes into the page's `pieces`).
fn vregs(x: &Inputs<'_, '_>, ops: &[OperandRegister], pieces: &[Piece]) -> Vec<Value> {
    let mut ops_of: Vec<Vec<&OperandRegister>> = vec![Vec::new(); x.original.vregs.len()];
    for o in ops {
        ops_of[o.vreg.index()].push(o);
    }
    let mut pieces_of: Vec<Vec<usize>> = vec![Vec::new(); x.original.vregs.len()];
    for (k, p) in pieces.iter().enumerate() {
        if let Some(list) = pieces_of.get_mut(p.original.index()) {
            list.push(k);
        }
    }
    let mut out = Vec::new();
    for (v, iv) in x.before.intervals.vregs.iter().enumerate() {
        let Some(iv) = iv else { continue };
        let vreg = VReg::new(v);
        let mut regs: Vec<String> = ops_of[v]
            .iter()
            .filter_map(|o| o.reg.map(|r| reg_name(x.target, r)))
            .collect();
        regs.sort();
        regs.dedup();
        let spilled = ops_of[v].iter().any(|o| o.slot.is_some())
            || pieces_of[v].iter().any(|&k| pieces[k].reg.is_none());
        out.push(json!({
            "v": v,
            "name": x.original.vreg_text(vreg),
            "class": x.original.vreg_class(vreg).map(|c| c.index()),
            "weight": if iv.weight.is_finite() { json!(iv.weight) } else { json!("inf") },
            "segs": segments(&iv.range),
            "defs": iv.range.valnos.iter().map(|d| d.def.0).collect::<Vec<_>>(),
            "ops": ops_of[v].iter().map(|o| json!([
                o.at,
                o.reg.map(|r| reg_name(x.target, r)),
                o.def,
                o.slot,
            ])).collect::<Vec<_>>(),
            "regs": regs,
            "spilled": spilled,
            "pieces": pieces_of[v],
        }));
    }
    out
}

/// The code the allocator inserted (spills, reloads, rematerializations,
/// copies), original COPYs it turned into spill code, accesses folded
/// into memory operands and instructions it took out, each at its place
/// and with the input register it belongs to where one can be told.
fn marks(x: &Inputs<'_, '_>, pieces: &[Piece], ops: &[OperandRegister]) -> Vec<Value> {
    let slots = &x.before.intervals.slots;
    let owners = Owners::new(pieces, ops);
    // The operands folded into a memory access, by instruction position.
    let folded: std::collections::HashMap<(u32, u32), usize> = ops
        .iter()
        .filter_map(|o| Some(((o.at >> 2, o.slot?), o.vreg.index())))
        .collect();
    let mut out = Vec::new();
    for b in x.allocated.block_ids() {
        let insts = &x.allocated.block(b).insts;
        let mut prev = slots.block_start(b).0;
        let mut pending: Vec<Inst> = Vec::new();
        // `None` stands for the block's end, after its last instruction.
        for i in insts.iter().copied().map(Some).chain([None]) {
            let next = match i {
                None => slots.block_end(b).0,
                Some(i) => match (x.record.is_original(i), slots.inst(i)) {
                    (true, Some(at)) => at.0,
                    _ => {
                        pending.push(i);
                        continue;
                    }
                },
            };
            let n = pending.len() as u64;
            for (k, &p) in pending.iter().enumerate() {
                let at = prev as u64 + (next - prev) as u64 * (k as u64 + 1) / (n + 1);
                out.extend(mark(x, p, at as u32, (prev, next), &owners));
            }
            pending.clear();
            let Some(i) = i else { continue };
            if let Some(f) = x.record.memory_folds.get(&i) {
                let owner = folded.get(&(next >> 2, f.slot)).copied();
                out.push(json!({"k": "fold", "at": next, "slot": f.slot, "o": owner,
                    "text": regalloc::mir::inst_text(x.target, x.allocated, i)}));
            } else if x.record.edit(i).is_some() {
                out.extend(mark(x, i, next, (prev, next), &owners));
            }
            prev = next;
        }
    }
    for r in &x.record.removed {
        let Some(at) = slots.inst(r.inst) else {
            continue;
        };
        out.push(
            json!({"k": "removed", "at": at.0, "o": Option::<usize>::None,
            "text": regalloc::mir::inst_text(x.target, x.original, r.inst)}),
        );
    }
    out
}

/// One inserted or converted instruction `i` at `at` (between original
/// positions `around`).
fn mark(
    x: &Inputs<'_, '_>,
    i: Inst,
    at: u32,
    around: (u32, u32),
    owners: &Owners,
) -> Option<Value> {
    let edit = x.record.edit(i)?;
    let text = regalloc::mir::inst_text(x.target, x.allocated, i);
    let (kind, reg, slot, owner) = match *edit {
        Edit::Spill { from, slot } => ("spill", from, Some(slot), None),
        Edit::Reload { slot, to } => ("reload", to, Some(slot), None),
        Edit::Copy { from: _, to } => ("copy", to, None, None),
        Edit::Remat { vreg, to, .. } => ("remat", to, None, Some(vreg.index())),
    };
    let owner = owner.or_else(|| owners.owner(x.target, reg, around));
    Some(json!({
        "k": kind,
        "at": at,
        "reg": reg_name(x.target, reg),
        "slot": slot,
        "o": owner,
        "text": text,
    }))
}

/// A segment of a final piece: start, end, the input register.
type HeldSegment = (u32, u32, usize);

/// Who holds which register where, to tell the owner of a piece of spill
/// code: per register, the segments of the final pieces in it (a register's
/// pieces never overlap, so sorted by start they are sorted by end too),
/// and the original operands that got it, by position.
pub(crate) struct Owners {
    /// (register, its pieces' segments as (start, end, input register)).
    pieces: Vec<(Reg, Vec<HeldSegment>)>,
    /// (register, its operands as (position, input register)), sorted.
    ops: Vec<(Reg, Vec<(u32, usize)>)>,
}

impl Owners {
    pub(crate) fn new(pieces: &[Piece], ops: &[OperandRegister]) -> Owners {
        let mut by_reg: std::collections::BTreeMap<Reg, Vec<(u32, u32, usize)>> =
            Default::default();
        for p in pieces {
            let Some(r) = p.reg else { continue };
            let list = by_reg.entry(r).or_default();
            list.extend(
                p.range
                    .segments
                    .iter()
                    .map(|s| (s.start.0, s.end.0, p.original.index())),
            );
        }
        let mut ops_by_reg: std::collections::BTreeMap<Reg, Vec<(u32, usize)>> = Default::default();
        for o in ops {
            if let Some(r) = o.reg {
                ops_by_reg
                    .entry(r)
                    .or_default()
                    .push((o.at, o.vreg.index()));
            }
        }
        let sorted = |mut v: Vec<(u32, u32, usize)>| {
            v.sort_unstable();
            v
        };
        Owners {
            pieces: by_reg.into_iter().map(|(r, v)| (r, sorted(v))).collect(),
            ops: ops_by_reg
                .into_iter()
                .map(|(r, mut v)| {
                    v.sort_unstable();
                    (r, v)
                })
                .collect(),
        }
    }

    /// The input register whose value register `reg` holds between the
    /// original positions `lo` and `hi`: a final piece in a register
    /// overlapping `reg` and live there, else an original operand there
    /// that got such a register (Fast keeps no pieces).
    fn owner(&self, t: &TargetInfo<'_>, reg: Reg, (lo, hi): (u32, u32)) -> Option<usize> {
        let overlapping = |r: &Reg| t.regs_overlap(*r, reg);
        let in_piece = self
            .pieces
            .iter()
            .filter(|(r, _)| overlapping(r))
            .find_map(|(_, segs)| {
                let k = segs.partition_point(|s| s.1 <= lo);
                segs.get(k).filter(|s| s.0 <= hi).map(|s| s.2)
            });
        in_piece.or_else(|| {
            self.ops
                .iter()
                .filter(|(r, _)| overlapping(r))
                .find_map(|(_, list)| {
                    let k = list.partition_point(|o| o.0 >> 2 < lo >> 2);
                    list.get(k).filter(|o| o.0 >> 2 <= hi >> 2).map(|o| o.1)
                })
        })
    }
}

/// The allocator's decisions in order, the ranges they name by register
/// index (the page's `names` and `origin` say which input register each
/// stands for).
fn decisions(x: &Inputs<'_, '_>) -> Vec<Value> {
    let name = |r: Reg| reg_name(x.target, r);
    let list = |v: &[VReg]| v.iter().map(|v| v.index()).collect::<Vec<_>>();
    x.events
        .iter()
        .filter_map(|e| {
            Some(match e {
                Event::Assign { vreg, reg } => {
                    json!({"k": "assign", "v": vreg.index(), "r": name(*reg)})
                }
                Event::Unassign { vreg, reg } => {
                    json!({"k": "unassign", "v": vreg.index(), "r": name(*reg)})
                }
                Event::Evict { vreg, reg, evicted } => {
                    json!({"k": "evict", "v": vreg.index(), "r": name(*reg), "x": list(evicted)})
                }
                Event::Split {
                    vreg,
                    kind,
                    products,
                } => {
                    json!({"k": "split", "v": vreg.index(), "s": kind.name(), "x": list(products)})
                }
                Event::Spill { vreg, products } => {
                    json!({"k": "spill", "v": vreg.index(), "x": list(products)})
                }
                Event::RegionCandidate {
                    vreg,
                    reg,
                    cost,
                    bundles,
                } => {
                    json!({"k": "candidate", "v": vreg.index(), "r": name(*reg), "c": cost, "b": bundle_nodes(bundles)})
                }
                Event::Final { .. } => return None,
            })
        })
        .collect()
}

/// A region candidate's network, one `[bundle, register bias, stack
/// bias, value]` per node (the bundles' blocks are in [`bundles`]); an
/// infinite stack bias (a border that must spill) as `-1`, which no
/// frequency is. Biases to `f32` precision: the page shows three digits,
/// and a big function's candidates are thousands of nodes.
fn bundle_nodes(nodes: &[regalloc::events::BundleNode]) -> Vec<Value> {
    nodes
        .iter()
        .map(|n| {
            let stack = if n.stack_bias.is_finite() {
                n.stack_bias as f32
            } else {
                -1.0
            };
            json!([n.bundle, n.register_bias as f32, stack, n.value])
        })
        .collect()
}

/// The blocks of every edge bundle a region candidate's network names,
/// as `[bundle, [blocks]]` in bundle order, once for all candidates.
fn bundles(x: &Inputs<'_, '_>) -> Vec<Value> {
    let mut blocks = std::collections::BTreeMap::new();
    for e in x.events {
        if let Event::RegionCandidate { bundles, .. } = e {
            for n in bundles {
                blocks
                    .entry(n.bundle)
                    .or_insert_with(|| n.blocks.iter().map(|b| b.index()).collect::<Vec<_>>());
            }
        }
    }
    blocks
        .into_iter()
        .map(|(b, list)| json!([b, list]))
        .collect()
}

/// Per block, per class with virtual registers: the most input registers
/// of that class live at once at one of the block's instructions
/// (`pressure[block][class]`, classes by index, absent ones 0).
fn pressure(x: &Inputs<'_, '_>) -> Vec<Vec<u32>> {
    let slots = &x.before.intervals.slots;
    let classes = x.target.classes.len();
    // Start and end points of every segment, by class.
    let mut points: Vec<Vec<(u32, i32)>> = vec![Vec::new(); classes];
    for iv in x.before.intervals.vregs.iter().flatten() {
        let Some(c) = x.original.vreg_class(iv.vreg) else {
            continue;
        };
        for s in &iv.range.segments {
            points[c.index()].push((s.start.0, 1));
            points[c.index()].push((s.end.0, -1));
        }
    }
    let mut out = vec![vec![0u32; classes]; x.original.blocks.len()];
    for (c, pts) in points.iter_mut().enumerate() {
        if pts.is_empty() {
            continue;
        }
        // Ends before starts at the same point: half-open segments.
        pts.sort_unstable();
        let mut k = 0;
        let mut live = 0i32;
        for b in x.original.block_ids() {
            for &i in &x.original.block(b).insts {
                let Some(at) = slots.inst(i) else { continue };
                // Live across the instruction's uses: at its `r` slot.
                let probe = at.0 | 2;
                while k < pts.len() && pts[k].0 <= probe {
                    live += pts[k].1;
                    k += 1;
                }
                let row = &mut out[b.index()][c];
                *row = (*row).max(live.max(0) as u32);
            }
        }
    }
    out
}
