//! Live intervals agree, at every program point, with an independent brute-force liveness over a graph of individual slots, on the -O2 corpus of the four targets and on 600 property-generated BPF functions per run.
//!
//! The brute force builds one node per slot (`B e r d` of every
//! instruction, `B` of every block start), marks reads and writes per
//! register (virtual registers, their sub-range lanes, register units), and
//! solves "held" (a read follows without a write in between) backwards and
//! "reaching definitions" forwards by plain iteration. A point is live when
//! it is held and a definition reaches it. The interval must cover exactly
//! the live points, and its value there must be the single reaching
//! definition, or a phi-def where several reach.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use regalloc::inspect::{
    Analyses, Cfg, INSTR_DIST, LiveIntervals, LiveRange, SlotIndex, vreg_lanes,
};
use regalloc::ir::{Block, Builder, Generic, MachineFunction, Op, Operand, RegFlags, RegRef, VReg};
use regalloc::mir;
use regalloc::target::{RegUnit, TargetInfo, fixtures};

/// The slot graph of a function.
struct Graph {
    slot: Vec<SlotIndex>,
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    /// Node of each (block start) and of each instruction's `B` slot.
    block_node: Vec<usize>,
    /// (block, node of slot B, instruction index) for every instruction with a slot.
    insts: Vec<(usize, usize, regalloc::ir::Inst)>,
}

fn is_debug(op: Op) -> bool {
    matches!(
        op,
        Op::Generic(
            Generic::DbgValue
                | Generic::DbgValueList
                | Generic::DbgInstrRef
                | Generic::DbgPhi
                | Generic::DbgLabel
                | Generic::PseudoProbe
        )
    )
}

fn graph(f: &MachineFunction, cfg: &Cfg) -> Graph {
    let mut g = Graph {
        slot: vec![],
        succs: vec![],
        preds: vec![],
        block_node: vec![],
        insts: vec![],
    };
    let mut index = 0u32;
    let mut last_of_block = Vec::new();
    for (b, bd) in f.blocks.iter().enumerate() {
        let start = g.slot.len();
        g.block_node.push(start);
        g.slot.push(SlotIndex(index));
        g.succs.push(vec![]);
        let mut prev = start;
        for &i in &bd.insts {
            if is_debug(f.inst(i).op) {
                continue;
            }
            index += INSTR_DIST;
            let base = g.slot.len();
            g.insts.push((b, base, i));
            for k in 0..4 {
                g.slot.push(SlotIndex(index + k));
                g.succs.push(vec![]);
                g.succs[prev].push(base + k as usize);
                prev = base + k as usize;
            }
        }
        index += INSTR_DIST;
        last_of_block.push(prev);
    }
    for (b, &last) in last_of_block.iter().enumerate() {
        if cfg.is_reachable(Block::new(b)) {
            for s in &cfg.succs[b] {
                let n = g.block_node[s.index()];
                if !g.succs[last].contains(&n) {
                    g.succs[last].push(n);
                }
            }
        }
    }
    g.preds = vec![vec![]; g.slot.len()];
    for (n, ss) in g.succs.iter().enumerate() {
        for &s in ss {
            g.preds[s].push(n);
        }
    }
    g
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Rd {
    One(usize),
    Many,
}

/// Checks one key: `uses`/`defs` are nodes; returns the number of points compared.
fn check_key(
    g: &Graph,
    uses: &[usize],
    defs: &[usize],
    range: &LiveRange,
    what: &str,
) -> Result<usize, String> {
    let n = g.slot.len();
    let mut is_def = vec![false; n];
    for &d in defs {
        is_def[d] = true;
    }
    let mut all_uses = uses.to_vec();
    // A definition is read at its own dead slot (LLVM's [def, dead) segment).
    for &d in defs {
        if g.slot[d].0 & 3 != 0 {
            all_uses.push(d - (g.slot[d].0 & 3) as usize + 3);
        }
    }
    let mut held = vec![false; n];
    let mut work: Vec<usize> = Vec::new();
    for &u in &all_uses {
        for &p in &g.preds[u] {
            if !held[p] {
                held[p] = true;
                work.push(p);
            }
        }
    }
    // A block-start definition that is read only at its dead slot: the
    // dead slot of a block node is not a node, so hold the node itself.
    for &d in defs {
        if g.slot[d].0 & 3 == 0 && !held[d] {
            held[d] = true;
            work.push(d);
        }
    }
    while let Some(m) = work.pop() {
        if is_def[m] {
            continue;
        }
        for &p in &g.preds[m] {
            if !held[p] {
                held[p] = true;
                work.push(p);
            }
        }
    }
    let mut rd: Vec<Option<Rd>> = vec![None; n];
    let mut work: Vec<usize> = defs.iter().copied().filter(|&d| held[d]).collect();
    for &d in &work {
        rd[d] = Some(Rd::One(d));
    }
    while let Some(m) = work.pop() {
        let v = rd[m];
        for &s in &g.succs[m] {
            if !held[s] || is_def[s] {
                continue;
            }
            let new = match (rd[s], v) {
                (None, x) => x,
                (Some(a), Some(b)) if a == b => Some(a),
                (Some(_), Some(_)) => Some(Rd::Many),
                (a, None) => a,
            };
            if new != rd[s] {
                rd[s] = new;
                work.push(s);
            }
        }
    }
    for k in 0..n {
        let live = held[k] && rd[k].is_some();
        let slot = g.slot[k];
        if live != range.live_at(slot) {
            return Err(format!(
                "{what}: at {slot} brute force says live={live}, interval {:?}",
                range.segments
            ));
        }
        if live {
            let vn = range.valno_at(slot).ok_or("no value")?;
            match rd[k] {
                Some(Rd::One(d)) if vn.def != g.slot[d] => {
                    return Err(format!(
                        "{what}: at {slot} value defined at {} but interval says {}",
                        g.slot[d], vn.def
                    ));
                }
                Some(Rd::Many) if !vn.is_phi() => {
                    return Err(format!(
                        "{what}: at {slot} several definitions reach but value {} is not a phi",
                        vn.def
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(n)
}

/// Brute-force check of every interval of `f`; returns points compared.
fn check_function(t: &TargetInfo<'_>, f: &MachineFunction) -> Result<usize, String> {
    let a = Analyses::new(t, f);
    let li: &LiveIntervals = &a.intervals;
    let g = graph(f, &a.flow.cfg);
    let mut vuses: HashMap<(u32, u64), Vec<usize>> = HashMap::new();
    let mut vdefs: HashMap<(u32, u64), Vec<usize>> = HashMap::new();
    let mut uuses: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut udefs: HashMap<usize, Vec<usize>> = HashMap::new();
    let lane_sets: HashMap<u32, Vec<u64>> = li
        .vregs
        .iter()
        .flatten()
        .map(|iv| (iv.vreg.0, iv.subranges.iter().map(|s| s.lanes.0).collect()))
        .collect();
    // Reserved and constant registers (a zero register) carry no liveness,
    // in LLVM as in our intervals: their uses do not make them live.
    let untracked = |u: RegUnit| {
        t.unit_roots(u).any(|r| {
            t.is_reserved(r)
                || t.reg(r)
                    .flags
                    .contains(regalloc::target::RegFlags::CONSTANT)
        })
    };
    for &(_, base, i) in &g.insts {
        let inst = f.inst(i);
        let ec_def = |v: VReg| {
            inst.operands.iter().any(|o| matches!(o, Operand::Reg(r) if r.reg == RegRef::Virt(v) && r.is_def() && r.flags.has(RegFlags::EARLY_CLOBBER)))
        };
        for o in &inst.operands {
            let Operand::Reg(r) = o else { continue };
            let undef = r.flags.has(RegFlags::UNDEF);
            match r.reg {
                RegRef::Virt(v) => {
                    let all = vreg_lanes(t, f, v).0;
                    let lanes = r.sub.map_or(all, |s| t.sub_reg_index(s).lane_mask.0 & all);
                    let use_node = base + if ec_def(v) { 1 } else { 2 };
                    let def_node = base
                        + if r.flags.has(RegFlags::EARLY_CLOBBER) {
                            1
                        } else {
                            2
                        };
                    let mut keys = vec![(0u64, true)];
                    for &m in lane_sets.get(&v.0).map(|x| &x[..]).unwrap_or(&[]) {
                        keys.push((m, false));
                    }
                    for (m, main) in keys {
                        if r.is_def() {
                            if main || lanes & m != 0 {
                                vdefs.entry((v.0, m)).or_default().push(def_node);
                            }
                            if main && r.sub.is_some() && !undef {
                                vuses.entry((v.0, m)).or_default().push(use_node);
                            }
                        } else if !undef && (main || lanes & m != 0) {
                            vuses.entry((v.0, m)).or_default().push(use_node);
                        }
                    }
                }
                RegRef::Phys(p) => {
                    let p = r.sub.and_then(|s| t.sub_reg(p, s)).unwrap_or(p);
                    for &u in t.units(p) {
                        if r.is_def() {
                            let node = base
                                + if r.flags.has(RegFlags::EARLY_CLOBBER) {
                                    1
                                } else {
                                    2
                                };
                            udefs.entry(u.index()).or_default().push(node);
                        } else if !undef && !untracked(u) {
                            uuses.entry(u.index()).or_default().push(base + 2);
                        }
                    }
                }
                RegRef::NoReg => {}
            }
        }
    }
    for (b, bd) in f.blocks.iter().enumerate() {
        for l in &bd.live_ins {
            for &u in t.units(l.reg) {
                if !untracked(u) {
                    udefs.entry(u.index()).or_default().push(g.block_node[b]);
                }
            }
        }
    }
    let mut points = 0;
    let empty = LiveRange::default();
    for v in 0..f.vregs.len() as u32 {
        let iv = li.vreg(VReg(v));
        let main = iv.map_or(&empty, |i| &i.range);
        let key = (v, 0);
        let (u, d) = (
            vuses.get(&key).cloned().unwrap_or_default(),
            vdefs.get(&key).cloned().unwrap_or_default(),
        );
        points += check_key(&g, &u, &d, main, &format!("{} %{v}", f.name))?;
        for sr in iv.map(|i| &i.subranges[..]).unwrap_or(&[]) {
            let key = (v, sr.lanes.0);
            let (u, d) = (
                vuses.get(&key).cloned().unwrap_or_default(),
                vdefs.get(&key).cloned().unwrap_or_default(),
            );
            points += check_key(
                &g,
                &u,
                &d,
                &sr.range,
                &format!("{} %{v} L{:x}", f.name, sr.lanes.0),
            )?;
        }
    }
    for u in 0..t.units.len() {
        let (us, ds) = (
            uuses.get(&u).cloned().unwrap_or_default(),
            udefs.get(&u).cloned().unwrap_or_default(),
        );
        let mut ds = ds;
        ds.sort();
        ds.dedup();
        points += check_key(
            &g,
            &us,
            &ds,
            &li.units[u].0,
            &format!("{} unit {u}", f.name),
        )?;
    }
    Ok(points)
}

fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            mir_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "mir") {
            out.push(p);
        }
    }
}

#[test]
fn intervals_match_brute_force_liveness_on_the_corpus() {
    let targets: [(&str, &TargetInfo<'static>); 4] = [
        ("bpf", &regalloc_targets::bpf::TARGET),
        ("x86_64", &regalloc_targets::x86::TARGET),
        ("aarch64", &regalloc_targets::aarch64::TARGET),
        ("hexagon", &regalloc_targets::hexagon::TARGET),
    ];
    for (name, t) in targets {
        corpus(name, t);
    }
}

fn corpus(name: &str, t: &TargetInfo<'_>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/out/corpus")
        .join(name)
        .join("O2");
    let mut files = Vec::new();
    mir_files(&dir, &mut files);
    if files.is_empty() {
        eprintln!("skipped: no {name} corpus at {}", dir.display());
        return;
    }
    let (mut functions, mut points) = (0, 0);
    let mut failures = Vec::new();
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        let file = mir::read(t, &p.display().to_string(), &text);
        for f in file.read_functions() {
            functions += 1;
            match check_function(t, f) {
                Ok(n) => points += n,
                Err(e) => failures.push(e),
            }
        }
    }
    println!(
        "{name}: {functions} corpus functions, {points} (register, point) pairs checked, {} disagreements",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(functions > 0);
}

/// A small deterministic generator (xorshift), driven by proptest's seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random BPF function: random CFG (loops, unreachable blocks, edges with
/// and without probabilities), 64- and 32-bit virtual registers, tied
/// two-address ops, sub-register uses and (undef and partial) defs,
/// early-clobber defs, calls with implicit defs, argument live-ins and
/// physical copies around calls.
fn generate(t: &TargetInfo<'_>, seed: u64) -> MachineFunction {
    let mut r = Rng(seed | 1);
    let op = |n: &str| Op::Target(t.find_opcode(n).expect("opcode"));
    let gpr = t.find_class("gpr").unwrap();
    let gpr32 = t.find_class("gpr32").unwrap();
    let sub = t.find_sub_reg_index("sub_32").unwrap();
    let reg = |n: &str| t.find_reg(n).unwrap();
    let mut f = MachineFunction::new(&format!("gen{seed:x}"));
    let mut b = Builder::new(&mut f);
    let nblocks = 1 + r.below(10) as usize;
    let blocks: Vec<Block> = (0..nblocks).map(|_| b.new_block()).collect();
    let nv = 2 + r.below(8) as usize;
    let vs: Vec<VReg> = (0..nv)
        .map(|k| b.new_vreg(if k % 3 == 2 { gpr32 } else { gpr }))
        .collect();
    let is32 = |v: VReg| v.index() % 3 == 2;
    b.add_live_in(blocks[0], reg("r1"));
    b.add_live_in(blocks[0], reg("r2"));
    for (k, &bb) in blocks.iter().enumerate() {
        b.at_end(bb);
        if k == 0 {
            b.inst(Op::Generic(Generic::Copy))
                .def(vs[0])
                .use_(reg("r1"))
                .done();
        }
        for _ in 0..r.below(8) {
            let v = vs[r.below(nv as u64) as usize];
            let w = vs[r.below(nv as u64) as usize];
            match r.below(9) {
                0 => {
                    let o = if is32(v) { "MOV_ri_32" } else { "MOV_ri" };
                    let ec = if r.below(4) == 0 {
                        RegFlags::DEF | RegFlags::EARLY_CLOBBER
                    } else {
                        RegFlags::DEF
                    };
                    b.inst(op(o)).reg(v, ec).imm(1).done();
                }
                1 if is32(v) == is32(w) => {
                    let o = if is32(v) { "ADD_rr_32" } else { "ADD_rr" };
                    b.inst(op(o)).def(v).use_(v).use_(w).tie(0, 1).done();
                }
                2 if is32(v) && !is32(w) => {
                    b.inst(Op::Generic(Generic::Copy))
                        .def(v)
                        .use_sub(w, sub)
                        .done();
                }
                3 if !is32(v) && is32(w) => {
                    let undef = r.below(2) == 0;
                    let fl = if undef {
                        RegFlags::DEF | RegFlags::UNDEF
                    } else {
                        RegFlags::DEF
                    };
                    b.inst(Op::Generic(Generic::Copy))
                        .operand(Operand::Reg(regalloc::ir::RegOperand {
                            sub: Some(sub),
                            flags: fl,
                            ..regalloc::ir::RegOperand::use_of(v)
                        }))
                        .use_(w)
                        .done();
                }
                4 if !is32(v) => {
                    b.inst(Op::Generic(Generic::Copy))
                        .def(reg("r1"))
                        .use_(v)
                        .done();
                    b.inst(op("JAL"))
                        .global("g")
                        .implicit_use(reg("r1"))
                        .reg(reg("r0"), RegFlags::DEF | RegFlags::IMPLICIT)
                        .reg(
                            reg("r1"),
                            RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD,
                        )
                        .reg(
                            reg("r2"),
                            RegFlags::DEF | RegFlags::IMPLICIT | RegFlags::DEAD,
                        )
                        .done();
                    b.inst(Op::Generic(Generic::Copy))
                        .def(w)
                        .use_(reg("w0"))
                        .done();
                }
                5 if !is32(v) && !is32(w) => {
                    b.inst(op("STD")).use_(v).use_(w).imm(0).done();
                }
                6 => {
                    let fl = if r.below(3) == 0 {
                        RegFlags::UNDEF
                    } else {
                        RegFlags::NONE
                    };
                    b.inst(Op::Generic(Generic::Copy)).def(w).reg(v, fl).done();
                }
                7 => {
                    b.inst(Op::Generic(Generic::ImplicitDef)).def(v).done();
                }
                _ => {
                    b.inst(Op::Generic(Generic::Copy))
                        .def(reg("r2"))
                        .use_(reg("r2"))
                        .done();
                }
            }
        }
        let nsucc = r.below(3) as usize;
        let mut succs = Vec::new();
        for _ in 0..nsucc {
            succs.push(blocks[r.below(nblocks as u64) as usize]);
        }
        if nsucc == 2 {
            let v = vs[r.below(nv as u64) as usize];
            let o = if is32(v) { "JNE_ri_32" } else { "JNE_ri" };
            b.inst(op(o)).use_(v).imm(0).block(succs[0]).done();
        }
        let with_probs = r.below(3) != 0;
        for (k, &s) in succs.iter().enumerate() {
            let p = with_probs.then(|| {
                if k == 0 {
                    1 + r.below(0x7fff_fffe) as u32
                } else {
                    0
                }
            });
            b.add_succ(bb, s, p);
        }
        if succs.is_empty() {
            b.inst(op("RET")).done();
        }
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn intervals_match_brute_force_liveness_on_generated_functions(seed in any::<u64>()) {
        let t = fixtures::bpf();
        let f = generate(t, seed);
        let checked = check_function(t, &f);
        prop_assert!(checked.is_ok(), "seed {seed:#x}: {}", checked.unwrap_err());
    }
}
