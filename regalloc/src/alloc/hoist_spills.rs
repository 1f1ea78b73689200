//! Spill hoisting: the stores of one value of a spilled original are covered by fewer, colder stores higher in the dominator tree (LLVM's `HoistSpillHelper::hoistAllSpills`).
//!
//! Splitting leaves one original value in several pieces: some in
//! registers, some spilled. Every spilled piece that receives the value
//! from a register piece (the back-copy at a region exit) stores it, so a
//! value defined once before a loop can be stored twenty times inside it.
//! All those stores write the same value to the same slot (every piece of
//! an original shares its slot, [`super::spiller::SpillSlot`]), so one
//! store at a point that dominates them, where some register piece holds
//! the value, does their work.
//!
//! For each (slot, value) with stores, the blocks holding them and the
//! dominator-tree paths from the value's defining block down to them form
//! a subtree. Bottom up, each node costs either what its children's best
//! placements cost, or, when a store already sits in it, its own frequency
//! (that store covers everything it dominates), or, when a register piece
//! holds the value at its end and that is cheaper than the children, its
//! own frequency for a new store before its first terminator. The chosen
//! new stores are added to the spill code; the stores they cover are then
//! removed by [`super::redundant_spills`], whose dataflow proves what the
//! argument above says: on every path to a covered store the slot already
//! holds its value (a path from the value's definition to a node of the
//! subtree passes the node's dominating store after the last definition).

use rustc_hash::FxHashMap as HashMap;

use crate::analysis::{Analyses, Slot, SlotIndex};
use crate::ir::{Block, Inst, MachineFunction, RegOperand, RegRef, VReg};
use crate::target::TargetInfo;

use super::spiller::{Insertion, SpillCode, SpillKind, store_template};
use super::virtmap::VirtRegMap;

/// How a block of the subtree stands.
#[derive(Copy, Clone, PartialEq, Debug)]
enum Choice {
    /// Its subtree's stores stay where they are (or are hoisted lower).
    Children,
    /// A store already in the block covers its subtree.
    Existing,
    /// A new store at the block's end covers its subtree.
    Hoist,
}

/// One block's node in the subtree of a (slot, value).
#[derive(Clone, Debug)]
struct Node {
    children: Vec<Block>,
    /// The frequency-weighted cost of the block's best placement.
    cost: f64,
    /// How many stores that placement executes (statically).
    count: usize,
    choice: Choice,
    /// A store of the value already in the block: `Some(true)` when it
    /// cannot be removed (a folded memory operand), so it costs nothing.
    existing: Option<bool>,
}

/// Adds stores that cover costlier ones to `code` and returns how many
/// were added; [`super::redundant_spills::eliminate`] then removes the
/// stores they cover. `vrm` gives each register piece's original and
/// register.
pub fn hoist(
    t: &TargetInfo<'_>,
    code: &mut SpillCode,
    func: &MachineFunction,
    an: &Analyses,
    vrm: &VirtRegMap,
) -> usize {
    let slots = &an.intervals.slots;
    let block_of_inst = |i: Inst| slots.inst(i).and_then(|x| slots.block_of(x));
    // The blocks holding a store of each (slot, value), and whether that
    // store can be removed.
    let mut groups: HashMap<(u32, u32), HashMap<Block, bool>> = HashMap::default();
    let mut add = |slot: u32, value: u32, b: Block, fixed: bool| {
        let e = groups
            .entry((slot, value))
            .or_default()
            .entry(b)
            .or_insert(fixed);
        *e |= fixed;
    };
    for x in &code.insertions {
        if let (SpillKind::Spill { slot }, Some(value), Some(b)) =
            (x.kind, x.value, block_of_inst(x.at))
        {
            add(slot, value, b, false);
        }
    }
    for f in &code.folded {
        if let (SpillKind::Spill { slot }, Some(value), Some(b)) =
            (f.kind, f.value, block_of_inst(f.inst))
        {
            add(slot, value, b, false);
        }
    }
    for f in &code.memory_folds {
        if let (Some(Some(value)), Some(b)) = (f.written, block_of_inst(f.inst)) {
            add(f.slot, value, b, true);
        }
    }
    if groups.is_empty() {
        return 0;
    }
    // The register pieces of each original.
    let mut pieces: HashMap<VReg, Vec<VReg>> = HashMap::default();
    for v in 0..an.intervals.vregs.len() {
        let v = VReg::new(v);
        if vrm.phys(v).is_some() && an.intervals.vreg(v).is_some() {
            pieces.entry(vrm.original(v)).or_default().push(v);
        }
    }

    let mut keys: Vec<(u32, u32)> = groups.keys().copied().collect();
    keys.sort_unstable();
    let mut added = 0;
    for key in keys {
        let sites = &groups[&key];
        if sites.values().all(|&fixed| fixed) {
            // Folded writes stay whatever happens: nothing to save.
            continue;
        }
        let (slot, value) = key;
        let Some(s) = code.slots.get(slot as usize) else {
            continue;
        };
        let Some(def) = s.range.valnos.get(value as usize).map(|vn| vn.def) else {
            continue;
        };
        let Some(root) = slots.block_of(def) else {
            continue;
        };
        let Some(nodes) = subtree(an, root, sites) else {
            continue;
        };
        let empty = Vec::new();
        let siblings = pieces.get(&s.vreg).unwrap_or(&empty);
        let holder = |b: Block| holder_at_end(t, func, an, &s.range, value, siblings, b);
        for (b, v, at, after) in place(an, root, nodes, holder) {
            let Some(class) = func.vreg_class(v) else {
                continue;
            };
            let reg = RegOperand::use_of(RegRef::Virt(v));
            let Some(inst) = store_template(t, func.features, class, reg, slot, s.align) else {
                continue;
            };
            tracing::debug!(vreg = v.0, block = b.index(), slot, value, "hoisted spill");
            code.insertions.push(Insertion {
                at,
                after,
                inst,
                vreg: v,
                kind: SpillKind::Spill { slot },
                value: Some(value),
            });
            added += 1;
        }
    }
    added
}

/// The subtree of the dominator tree from `root` down to the blocks of
/// `sites`, or `None` when `root` does not dominate one of them.
fn subtree(
    an: &Analyses,
    root: Block,
    sites: &HashMap<Block, bool>,
) -> Option<HashMap<Block, Node>> {
    let dom = &an.flow.dom;
    let mut nodes: HashMap<Block, Node> = HashMap::default();
    let node = |existing| Node {
        children: Vec::new(),
        cost: 0.0,
        count: 0,
        choice: Choice::Children,
        existing,
    };
    nodes.insert(root, node(sites.get(&root).copied()));
    let mut blocks: Vec<Block> = sites.keys().copied().collect();
    blocks.sort_unstable();
    for b in blocks {
        if nodes.contains_key(&b) {
            continue;
        }
        nodes.insert(b, node(sites.get(&b).copied()));
        // Link the new node to its parent, creating parents up to the
        // first node already there (ultimately `root`).
        let mut cur = b;
        loop {
            let parent = dom.idom.get(cur.index()).copied().flatten()?;
            if parent == cur {
                // The entry, reached without passing `root`.
                return None;
            }
            let existed = nodes.contains_key(&parent);
            nodes
                .entry(parent)
                .or_insert_with(|| node(sites.get(&parent).copied()))
                .children
                .push(cur);
            if existed {
                break;
            }
            cur = parent;
        }
    }
    Some(nodes)
}

/// Decides the placement over `nodes` (bottom up, then top down from
/// `root`) and returns the new stores: block, register piece, and where
/// (before the instruction, or after it when the flag is set).
fn place(
    an: &Analyses,
    root: Block,
    mut nodes: HashMap<Block, Node>,
    holder: impl Fn(Block) -> Option<(VReg, Inst, bool)>,
) -> Vec<(Block, VReg, Inst, bool)> {
    let dom = &an.flow.dom;
    let freq = |b: Block| f64::from(an.flow.freq.relative(b));
    let mut order: Vec<Block> = nodes.keys().copied().collect();
    // Deepest first, so children are done before their parent.
    order.sort_unstable_by_key(|b| (std::cmp::Reverse(dom.depth[b.index()]), b.index()));
    let mut hoisted: HashMap<Block, (VReg, Inst, bool)> = HashMap::default();
    for b in order {
        let (children_cost, children_count) = nodes[&b]
            .children
            .iter()
            .map(|c| (nodes[c].cost, nodes[c].count))
            .fold((0.0, 0), |a, x| (a.0 + x.0, a.1 + x.1));
        let n = &nodes[&b];
        let (mut cost, mut count, mut choice) = match n.existing {
            Some(true) => (0.0, 0, Choice::Existing),
            Some(false) => (freq(b), 1, Choice::Existing),
            None => (children_cost, children_count, Choice::Children),
        };
        if choice == Choice::Children && children_count > 0 {
            let f = freq(b);
            // Cheaper, or as cheap with fewer stores.
            let better = f < cost * (1.0 - 1e-6) || (f <= cost && count > 1);
            if better && let Some(h) = holder(b) {
                hoisted.insert(b, h);
                (cost, count, choice) = (f, 1, Choice::Hoist);
            }
        }
        let n = nodes.get_mut(&b).expect("node of the subtree");
        (n.cost, n.count, n.choice) = (cost, count, choice);
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(b) = stack.pop() {
        let n = &nodes[&b];
        match n.choice {
            Choice::Hoist => {
                let (v, at, after) = hoisted[&b];
                out.push((b, v, at, after));
            }
            Choice::Existing => {}
            Choice::Children => stack.extend(n.children.iter().copied()),
        }
    }
    out.sort_unstable_by_key(|x| x.0);
    out
}

/// A register piece of the original that holds value `value` at the end of
/// block `b`, and the point a store of it goes: before the first
/// terminator, or after the last instruction of a block without one (the
/// piece must then live out of the block).
fn holder_at_end(
    t: &TargetInfo<'_>,
    func: &MachineFunction,
    an: &Analyses,
    original: &crate::analysis::LiveRange,
    value: u32,
    siblings: &[VReg],
    b: Block,
) -> Option<(VReg, Inst, bool)> {
    let slots = &an.intervals.slots;
    let mut insts = func
        .block(b)
        .insts
        .iter()
        .copied()
        .filter(|&i| slots.inst(i).is_some());
    let (at, after, idx) = match insts.clone().find(|&i| func.inst(i).op.is_terminator(t)) {
        Some(term) => (term, false, slots.inst(term)?.with(Slot::Block)),
        None => (
            insts.next_back()?,
            true,
            SlotIndex(slots.block_end(b).0 - 1),
        ),
    };
    if original.segment_at(idx).map(|seg| seg.valno) != Some(value) {
        return None;
    }
    siblings
        .iter()
        .copied()
        .find(|&v| an.intervals.vreg(v).is_some_and(|iv| iv.range.live_at(idx)))
        .map(|v| (v, at, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::redundant_spills;
    use crate::alloc::redundant_spills::tests::{code, insts, read_before};
    use crate::target::fixtures::{bpf, read_bpf_function as read};

    /// `%0` is defined once in bb.0 and read in a loop (bb.1-bb.2) and
    /// after it (bb.3).
    const LOOP: &str = "---
name: hoist
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    JMP %bb.1
  bb.1:
    successors: %bb.2, %bb.3
    JEQ_ri %1, 0, %bb.3
    JMP %bb.2
  bb.2:
    successors: %bb.1
    $r2 = COPY %0
    JMP %bb.1
  bb.3:
    $r0 = COPY %0
    RET implicit $r0
...
";

    fn stores(code: &SpillCode) -> Vec<(Inst, bool)> {
        code.insertions
            .iter()
            .filter(|x| matches!(x.kind, SpillKind::Spill { .. }))
            .map(|x| (x.at, x.after))
            .collect()
    }

    /// A map in which `%0` is in a register everywhere (its own original).
    fn in_register() -> VirtRegMap {
        let mut vrm = VirtRegMap::new(2);
        vrm.assign(VReg(0), bpf().find_reg("R6").unwrap());
        vrm
    }

    #[test]
    fn stores_in_a_loop_move_to_the_cold_definition_block() {
        let f = read(LOOP);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let (in_loop, after) = (insts(&f, 2)[0], insts(&f, 3)[0]);
        let jump = insts(&f, 0)[2];
        let mut c = code(&f, &an, &[in_loop, after], &[]);
        assert_eq!(hoist(bpf(), &mut c, &f, &an, &in_register()), 1);
        // One new store before bb.0's jump, of the register holding %0.
        assert_eq!(stores(&c)[2], (jump, false));
        assert_eq!(c.insertions[2].vreg, VReg(0));
        assert_eq!(c.insertions[2].value, Some(0));
        // A read of the slot at the end, so that its stores are live.
        read_before(&mut c, &f, insts(&f, 3)[1], 0);
        // The two stores it covers are then redundant.
        assert_eq!(redundant_spills::eliminate(&mut c, &f, &an), 2);
        assert_eq!(stores(&c), vec![(jump, false)]);
    }

    #[test]
    fn a_single_cold_store_stays_where_it_is() {
        let f = read(LOOP);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        // Only the exit block stores: bb.0 runs as often, nothing to gain.
        let after = insts(&f, 3)[0];
        let mut c = code(&f, &an, &[after], &[]);
        assert_eq!(hoist(bpf(), &mut c, &f, &an, &in_register()), 0);
        assert_eq!(stores(&c), vec![(after, true)]);
    }

    #[test]
    fn no_store_is_placed_where_no_register_holds_the_value() {
        let f = read(LOOP);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let (in_loop, after) = (insts(&f, 2)[0], insts(&f, 3)[0]);
        let mut c = code(&f, &an, &[in_loop, after], &[]);
        // %0 has no register: nothing can be stored from one.
        let vrm = VirtRegMap::new(2);
        assert_eq!(hoist(bpf(), &mut c, &f, &an, &vrm), 0);
        assert_eq!(stores(&c).len(), 2);
    }

    /// `%0` (spilled) is defined in bb.0; bb.1 copies it into the register
    /// piece `%2` as its last instruction (a split copy, which the spiller
    /// turns into a reload) and falls through into the loop bb.2, which
    /// reads `%2`, as does the exit bb.3.
    const PIECE: &str = "---
name: piece
tracksRegLiveness: true
registers:
  - { id: 0, class: gpr }
  - { id: 1, class: gpr }
  - { id: 2, class: gpr }
liveins:
  - { reg: '$r1', virtual-reg: '%1' }
body: |
  bb.0:
    successors: %bb.1
    liveins: $r1
    %1:gpr = COPY $r1
    %0:gpr = LDD %1, 0
    JMP %bb.1
  bb.1:
    successors: %bb.2
    %2:gpr = COPY %0
  bb.2:
    successors: %bb.2, %bb.3
    $r2 = COPY %2
    JNE_ri %1, 0, %bb.2
    JMP %bb.3
  bb.3:
    $r3 = COPY %0
    $r0 = COPY %2
    RET implicit $r0
...
";

    #[test]
    fn a_store_hoisted_after_the_reload_of_its_piece_goes_but_the_reload_stays() {
        let f = read(PIECE);
        let an = crate::analysis::Analyses::new(bpf(), &f);
        let copy = insts(&f, 1)[0];
        let (in_loop, exit) = (insts(&f, 2)[0], insts(&f, 3)[0]);
        let mut c = code(&f, &an, &[in_loop, exit], &[]);
        c.folded.push(crate::alloc::spiller::FoldedCopy {
            inst: copy,
            kind: SpillKind::Reload { slot: 0 },
            operand: 0,
            value: Some(0),
        });
        let mut vrm = VirtRegMap::new(3);
        vrm.assign(VReg(2), bpf().find_reg("R6").unwrap());
        vrm.set_original(VReg(2), VReg(0));
        // The loop's store moves to bb.1, after the reload into %2 (bb.1
        // has no terminator).
        assert_eq!(hoist(bpf(), &mut c, &f, &an, &vrm), 1);
        let hoisted = c.insertions.last().unwrap();
        assert_eq!(
            (hoisted.at, hoisted.after, hoisted.vreg),
            (copy, true, VReg(2))
        );
        // The reload already put the value in the slot: every store goes,
        // the hoisted one too; the reload stays, since the loop reads %2.
        assert_eq!(redundant_spills::eliminate(&mut c, &f, &an), 3);
        assert_eq!(stores(&c), vec![]);
        assert!(!c.removed.contains(&copy), "{:?}", c.removed);
    }
}
