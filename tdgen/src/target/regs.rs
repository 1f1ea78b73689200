//! Registers and sub-register indices: enumeration, the sub-register closure with synthesized
//! composite (`A_then_B`) and concatenated (`a_b`) indices, super-registers, register units and lane masks.
//!
//! The computation follows llvm-tblgen's register bank step by step, because the
//! visible results (enumeration orders, synthesized index names, unit numbers)
//! depend on the order of each step.

use super::access::{Fields, compare_numeric, compare_register_names};
use super::sets::{Elem, Sets};
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId};
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// "No offset / unknown size" in a sub-register range (llvm-tblgen's `(uint16_t)-1`).
pub const UNKNOWN: i64 = 0xFFFF;

/// A sub-register index.
#[derive(Clone, Debug)]
pub struct SubRegIndex {
    /// Its name (synthesized ones: `A_then_B` or `a_b`).
    pub name: String,
    /// The def, for user-defined indices.
    pub def: Option<RecId>,
    /// The namespace.
    pub namespace: String,
    /// (size, offset) per HW mode, `UNKNOWN` when not known.
    pub range: Vec<(i64, i64)>,
    /// Compositions `self ∘ B = C`, keyed by B.
    pub composites: BTreeMap<usize, usize>,
    /// For a concatenated index: its leaf parts.
    pub concat_of: Vec<usize>,
    /// The lane mask.
    pub lane_mask: u64,
    /// No real register uses it.
    pub artificial: bool,
    /// Every register with this index is covered by its sub-registers.
    pub all_super_regs_covered: bool,
}

/// A physical register.
#[derive(Clone, Debug)]
pub struct Register {
    /// Its name.
    pub name: String,
    /// The def, or the tuple set that synthesized it.
    pub def: Option<RecId>,
    /// The def that synthesized it, for tuple members.
    pub tuple_def: Option<RecId>,
    /// Where it is defined.
    pub loc: Span,
    /// Sort key from `PositionOrder`.
    pub position_order: i64,
    /// `HWEncoding`.
    pub hw_encoding: i64,
    /// `AsmName`.
    pub asm_name: String,
    /// `CostPerUse`.
    pub cost_per_use: Vec<i64>,
    /// `CoveredBySubRegs`.
    pub covered_by_subregs: bool,
    /// `isArtificial`.
    pub artificial: bool,
    /// `isConstant`.
    pub constant: bool,
    /// `SubRegs` as registers.
    pub explicit_subregs: Vec<usize>,
    /// `SubRegIndices` as indices.
    pub explicit_indices: Vec<usize>,
    /// Ad-hoc aliases (both directions).
    pub aliases: Vec<usize>,
    /// Covered-by-subregs super-registers whose first explicit sub-register this is.
    pub leading_super_regs: Vec<usize>,
    /// All sub-registers by index.
    pub subregs: BTreeMap<usize, usize>,
    /// The index of each sub-register.
    pub subreg_index: HashMap<usize, usize>,
    /// Super-registers in topological order.
    pub super_regs: Vec<usize>,
    /// Register units (native and adopted).
    pub units: BTreeSet<u32>,
    /// Native register units.
    pub native_units: BTreeSet<u32>,
    /// Has more than one explicit sub-register somewhere in its tree.
    pub has_disjunct_subregs: bool,
    subregs_done: bool,
    superregs_done: bool,
}

/// A register unit: the roots whose super-registers contain it, and its weight.
#[derive(Clone, Debug)]
pub struct RegUnit {
    /// One root (a leaf register) or two (an alias edge).
    pub roots: Vec<usize>,
    /// Pressure weight.
    pub weight: u32,
    /// All roots are artificial.
    pub artificial: bool,
}

/// Registers, indices and units of a target.
#[derive(Default)]
pub struct RegBank {
    /// Sub-register indices, enum value = position + 1.
    pub indices: Vec<SubRegIndex>,
    /// Registers, enum value = position + 1.
    pub regs: Vec<Register>,
    /// Register units.
    pub units: Vec<RegUnit>,
    /// Native units (the rest were adopted for pressure balancing).
    pub num_native_units: usize,
    /// HW mode names, `Default` first.
    pub modes: Vec<String>,
    /// HW mode defs, in mode order (index 0, the default mode, has none).
    pub mode_defs: Vec<Option<RecId>>,
    /// Register of each def.
    pub reg_of_def: HashMap<RecId, usize>,
    /// Register of each tuple element.
    pub reg_of_tuple: HashMap<u32, usize>,
    index_of_def: HashMap<RecId, usize>,
    concat_index: HashMap<Vec<usize>, usize>,
    /// Errors.
    pub diags: Vec<Diagnostic>,
}

impl RegBank {
    /// The register an element of a set names, if it is a register.
    pub fn reg_of(&self, e: Elem) -> Option<usize> {
        match e {
            Elem::Def(d) => self.reg_of_def.get(&d).copied(),
            Elem::Tuple(t) => self.reg_of_tuple.get(&t).copied(),
        }
    }

    /// The sub-register index a `SubRegIndex` def is.
    pub fn index_of(&self, d: RecId) -> Option<usize> {
        self.index_of_def.get(&d).copied()
    }

    fn error(&mut self, loc: Span, msg: String) {
        self.diags.push(Diagnostic::error(Kind::Semantic, loc, msg));
    }

    /// Reads HW modes, indices and registers and computes the sub-register
    /// graph, super-registers and native register units.
    pub fn build(f: &Fields<'_>, sets: &mut Sets<'_>) -> RegBank {
        let mut b = RegBank::default();
        b.read_modes(f);
        b.read_indices(f);
        b.read_registers(f, sets);
        if !b.diags.is_empty() {
            return b;
        }
        for r in 0..b.regs.len() {
            b.compute_subregs(r);
            if !b.diags.is_empty() {
                return b;
            }
        }
        for i in 0..b.indices.len() {
            let c = b.concat_closure(i, 0);
            b.indices[i].concat_of = c.clone();
            if !c.is_empty() {
                b.concat_index.entry(c).or_insert(i);
            }
        }
        for r in 0..b.regs.len() {
            if b.regs[r].covered_by_subregs {
                b.compute_secondary_subregs(r);
            }
        }
        for r in 0..b.regs.len() {
            b.compute_super_regs(r);
        }
        for r in 0..b.regs.len() {
            if b.regs[r].artificial {
                continue;
            }
            let pairs: Vec<(usize, usize)> =
                b.regs[r].subregs.iter().map(|(&i, &s)| (i, s)).collect();
            for (i, s) in pairs {
                if !b.regs[s].artificial {
                    b.indices[i].artificial = false;
                }
            }
        }
        b.num_native_units = b.units.len();
        b
    }

    fn read_modes(&mut self, f: &Fields<'_>) {
        self.modes.push("Default".into());
        self.mode_defs.push(None);
        let mut modes: Vec<RecId> =
            f.rk.derived_defs("HwMode")
                .into_iter()
                .filter(|&d| f.name(d) != "DefaultMode")
                .collect();
        modes.sort_by(|&a, &b| compare_numeric(&f.name(a), &f.name(b)));
        for m in modes {
            self.modes.push(f.name(m));
            self.mode_defs.push(Some(m));
        }
    }

    /// The mode index of a HwMode def.
    pub fn mode_of(&self, d: RecId) -> Option<usize> {
        self.mode_defs.iter().position(|&m| m == Some(d))
    }

    fn read_indices(&mut self, f: &Fields<'_>) {
        let mut defs = f.rk.derived_defs("SubRegIndex");
        defs.sort_by(|&a, &b| compare_numeric(&f.name(a), &f.name(b)));
        let nmodes = self.modes.len();
        for d in defs {
            let size = f.opt_int(d, "Size").unwrap_or(-1) & 0xFFFF;
            let offset = f.opt_int(d, "Offset").unwrap_or(-1) & 0xFFFF;
            let mut range = vec![(size, offset); nmodes];
            if let Some(rr) = f.opt_def(d, "SubRegRanges") {
                let ms = f.list_defs(rr, "Modes").unwrap_or_default();
                let objs = f.list_defs(rr, "Objects").unwrap_or_default();
                if ms.len() != objs.len() {
                    let m = format!(
                        "SubRegRanges of '{}' lists {} modes but {} ranges",
                        f.name(d),
                        ms.len(),
                        objs.len()
                    );
                    self.error(f.loc(d), m);
                }
                for (m, o) in ms.iter().zip(objs.iter()) {
                    let r = (
                        f.opt_int(*o, "Size").unwrap_or(-1) & 0xFFFF,
                        f.opt_int(*o, "Offset").unwrap_or(-1) & 0xFFFF,
                    );
                    if f.name(*m) == "DefaultMode" {
                        range[0] = r;
                    } else if let Some(mi) = self.mode_of(*m) {
                        range[mi] = r;
                    }
                }
                // Modes without an entry use the default mode's range.
                let default = ms
                    .iter()
                    .zip(objs.iter())
                    .find(|(m, _)| f.name(**m) == "DefaultMode")
                    .map(|(_, o)| *o);
                if default.is_none() {
                    range[0] = (size, offset);
                }
                for m in 1..nmodes {
                    if !ms.iter().any(|d| self.mode_of(*d) == Some(m)) {
                        range[m] = range[0];
                    }
                }
            }
            self.index_of_def.insert(d, self.indices.len());
            self.indices.push(SubRegIndex {
                name: f.name(d),
                def: Some(d),
                namespace: f.string(d, "Namespace"),
                range,
                composites: BTreeMap::new(),
                concat_of: Vec::new(),
                lane_mask: 0,
                artificial: true,
                all_super_regs_covered: true,
            });
        }
        for i in 0..self.indices.len() {
            let d = self.indices[i].def.unwrap();
            let comps = f.list_defs(d, "ComposedOf").unwrap_or_default();
            if !comps.is_empty() {
                if comps.len() != 2 {
                    self.error(f.loc(d), "ComposedOf must have exactly two entries".into());
                    continue;
                }
                let (a, bb) = (self.index_of_def[&comps[0]], self.index_of_def[&comps[1]]);
                if a == i || bb == i {
                    let m = format!(
                        "sub-register index {} is composed of itself",
                        self.indices[i].name
                    );
                    self.diags
                        .push(Diagnostic::error(Kind::Semantic, f.loc(d), m).with_help(
                            "ComposedOf must name two other indices; a cycle gives no sub-register",
                        ));
                    continue;
                }
                if self.add_composite(a, bb, i).is_some() {
                    self.diags.push(
                        Diagnostic::error(
                            Kind::Semantic,
                            f.loc(d),
                            format!(
                                "ambiguous ComposedOf entries for '{}'",
                                self.indices[i].name
                            ),
                        )
                        .with_help(format!(
                            "another index already is the composition of {} and {}",
                            self.indices[a].name, self.indices[bb].name
                        )),
                    );
                }
            }
            let parts = f.list_defs(d, "CoveringSubRegIndices").unwrap_or_default();
            if !parts.is_empty() {
                if parts.len() < 2 {
                    self.error(
                        f.loc(d),
                        "CoveringSubRegIndices must have two or more entries".into(),
                    );
                    continue;
                }
                self.indices[i].concat_of = parts.iter().map(|p| self.index_of_def[p]).collect();
            }
        }
    }

    /// Records `a ∘ b = c`; returns the previous different result if there was one.
    fn add_composite(&mut self, a: usize, b: usize, c: usize) -> Option<usize> {
        let prev = *self.indices[a].composites.entry(b).or_insert(c);
        for m in 0..self.modes.len() {
            let (_, ao) = self.indices[a].range[m];
            let (bs, bo) = self.indices[b].range[m];
            let (_, co) = self.indices[c].range[m];
            if ao != UNKNOWN && bo != UNKNOWN && co == UNKNOWN {
                self.indices[c].range[m] = (bs, (ao + bo) & 0xFFFF);
            }
        }
        (prev != c).then_some(prev)
    }

    fn create_index(&mut self, name: String, namespace: String) -> usize {
        self.indices.push(SubRegIndex {
            name,
            def: None,
            namespace,
            range: vec![(UNKNOWN, UNKNOWN); self.modes.len()],
            composites: BTreeMap::new(),
            concat_of: Vec::new(),
            lane_mask: 0,
            artificial: true,
            all_super_regs_covered: true,
        });
        self.indices.len() - 1
    }

    fn composite_index(&mut self, a: usize, b: usize) -> usize {
        if let Some(&c) = self.indices[a].composites.get(&b) {
            return c;
        }
        let name = format!("{}_then_{}", self.indices[a].name, self.indices[b].name);
        let c = self.create_index(name, self.indices[a].namespace.clone());
        self.add_composite(a, b, c);
        c
    }

    fn concat_index(&mut self, parts: Vec<usize>) -> usize {
        if let Some(&i) = self.concat_index.get(&parts) {
            return i;
        }
        let name = parts
            .iter()
            .map(|&p| self.indices[p].name.clone())
            .collect::<Vec<_>>()
            .join("_");
        let i = self.create_index(name, self.indices[parts[0]].namespace.clone());
        for m in 0..self.modes.len() {
            let (mut size, first_off) = self.indices[parts[0]].range[m];
            let (mut last_off, mut last_size) = (first_off, size);
            let mut contiguous = true;
            for &p in &parts[1..] {
                let (ps, po) = self.indices[p].range[m];
                size = if size == UNKNOWN || ps == UNKNOWN {
                    UNKNOWN
                } else {
                    (size + ps) & 0xFFFF
                };
                if last_size == UNKNOWN || po != ((last_off + last_size) & 0xFFFF) {
                    contiguous = false;
                }
                last_off = po;
                last_size = ps;
            }
            self.indices[i].range[m] = (size, if contiguous { first_off } else { UNKNOWN });
        }
        self.indices[i].concat_of = parts.clone();
        self.concat_index.insert(parts, i);
        i
    }

    fn concat_closure(&self, i: usize, depth: usize) -> Vec<usize> {
        if depth > 64 {
            return self.indices[i].concat_of.clone();
        }
        let mut out = Vec::new();
        for &p in &self.indices[i].concat_of {
            let sub = self.concat_closure(p, depth + 1);
            if sub.is_empty() {
                out.push(p)
            } else {
                out.extend(sub)
            }
        }
        out
    }

    fn read_registers(&mut self, f: &Fields<'_>, sets: &mut Sets<'_>) {
        struct Desc {
            name: String,
            def: Option<RecId>,
            tuple: Option<u32>,
            pos: i64,
        }
        let mut descs: Vec<Desc> =
            f.rk.derived_defs("Register")
                .into_iter()
                .map(|d| Desc {
                    name: f.name(d),
                    def: Some(d),
                    tuple: None,
                    pos: f.opt_int(d, "PositionOrder").unwrap_or(0),
                })
                .collect();
        // In llvm-tblgen's record order: names compared with embedded
        // numbers by value (`AGPR_64` before `AGPR_1024`).
        let mut tuple_defs = f.rk.derived_defs("RegisterTuples");
        tuple_defs.sort_by(|&a, &b| super::access::compare_numeric(&f.name(a), &f.name(b)));
        let x86 = descs
            .first()
            .is_some_and(|d| d.def.is_some_and(|id| f.is_a(id, "X86Reg")));
        // llvm-tblgen numbers registers in name order of the defs (its records map).
        descs.sort_by(|a, b| a.name.cmp(&b.name));
        let by_reg =
            |a: &Desc, b: &Desc| compare_register_names((a.pos, &a.name), (b.pos, &b.name));
        let tuple_desc = |t: u32, sets: &Sets<'_>| {
            let tr = &sets.tuples[t as usize];
            Desc {
                name: tr.name.clone(),
                def: None,
                tuple: Some(t),
                pos: f.opt_int(tr.proto, "PositionOrder").unwrap_or(0),
            }
        };
        if x86 {
            for &td in &tuple_defs {
                for e in sets.expand(td).unwrap_or_default() {
                    if let Elem::Tuple(t) = e {
                        descs.push(tuple_desc(t, sets));
                    }
                }
            }
            descs.sort_by(by_reg);
        } else {
            descs.sort_by(by_reg);
            for &td in &tuple_defs {
                let mut ts: Vec<Desc> = sets
                    .expand(td)
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|e| match e {
                        Elem::Tuple(t) => Some(tuple_desc(t, sets)),
                        _ => None,
                    })
                    .collect();
                ts.sort_by(by_reg);
                descs.extend(ts);
            }
        }
        for d in &descs {
            let r = self.regs.len();
            let (proto, loc) = match (d.def, d.tuple) {
                (Some(id), _) => {
                    self.reg_of_def.insert(id, r);
                    (id, f.loc(id))
                }
                (None, Some(t)) => {
                    self.reg_of_tuple.insert(t, r);
                    let tr = &sets.tuples[t as usize];
                    (tr.proto, f.loc(tr.def))
                }
                _ => unreachable!("every register comes from a def or a tuple"),
            };
            let tuple = d.tuple.map(|t| sets.tuples[t as usize].clone());
            self.regs.push(Register {
                name: d.name.clone(),
                def: d.def,
                tuple_def: tuple.as_ref().map(|t| t.def),
                loc,
                position_order: d.pos,
                hw_encoding: f.opt_int(proto, "HWEncoding").unwrap_or(0),
                asm_name: match &tuple {
                    Some(t) => t.asm_name.clone(),
                    None => f.string(proto, "AsmName"),
                },
                cost_per_use: f.list_ints(proto, "CostPerUse").unwrap_or_else(|_| vec![0]),
                covered_by_subregs: tuple.is_some() || f.bit(proto, "CoveredBySubRegs"),
                artificial: f.bit(proto, "isArtificial"),
                constant: f.bit(proto, "isConstant"),
                explicit_subregs: Vec::new(),
                explicit_indices: Vec::new(),
                aliases: Vec::new(),
                leading_super_regs: Vec::new(),
                subregs: BTreeMap::new(),
                subreg_index: HashMap::default(),
                super_regs: Vec::new(),
                units: BTreeSet::new(),
                native_units: BTreeSet::new(),
                has_disjunct_subregs: false,
                subregs_done: false,
                superregs_done: false,
            });
        }
        // The object graph: explicit sub-registers, leading super-registers, aliases.
        for (r, d) in descs.iter().enumerate() {
            let loc = self.regs[r].loc;
            let (sub_elems, idx_defs, alias_defs): (Vec<Elem>, Vec<RecId>, Vec<RecId>) =
                match (d.def, d.tuple) {
                    (Some(id), _) => {
                        let subs = f
                            .list(id, "SubRegs")
                            .iter()
                            .filter_map(|v| {
                                if let Init::Def(x) = v {
                                    Some(Elem::Def(*x))
                                } else {
                                    None
                                }
                            })
                            .collect();
                        (
                            subs,
                            f.list_defs(id, "SubRegIndices").unwrap_or_default(),
                            f.list_defs(id, "Aliases").unwrap_or_default(),
                        )
                    }
                    (None, Some(t)) => {
                        let tr = &sets.tuples[t as usize];
                        (
                            tr.subregs.clone(),
                            f.list_defs(tr.def, "SubRegIndices").unwrap_or_default(),
                            Vec::new(),
                        )
                    }
                    _ => unreachable!(),
                };
            // Errors in a register's sub-registers point at the `let` that set them.
            let at_let = |msg: String| match d.def {
                Some(id) => f.error_at_let(id, &["SubRegIndices", "SubRegs"], msg),
                None => Diagnostic::error(Kind::Semantic, loc, msg),
            };
            if sub_elems.len() != idx_defs.len() {
                self.diags.push(at_let(format!(
                    "register '{}': SubRegs and SubRegIndices must have the same size",
                    d.name
                )));
                continue;
            }
            for (e, i) in sub_elems.iter().zip(idx_defs.iter()) {
                let (Some(sr), Some(&ix)) = (self.reg_of(*e), self.index_of_def.get(i)) else {
                    self.diags.push(at_let(format!(
                        "register '{}' has a sub-register or index that is not defined as one",
                        d.name
                    )));
                    continue;
                };
                self.regs[r].explicit_subregs.push(sr);
                self.regs[r].explicit_indices.push(ix);
            }
            if self.regs[r].covered_by_subregs
                && let Some(&first) = self.regs[r].explicit_subregs.first()
            {
                self.regs[first].leading_super_regs.push(r);
            }
            for a in alias_defs {
                if let Some(&ar) = self.reg_of_def.get(&a) {
                    self.regs[r].aliases.push(ar);
                    self.regs[ar].aliases.push(r);
                }
            }
        }
    }

    fn new_unit(&mut self, r0: usize, r1: Option<usize>) -> u32 {
        let artificial = self.regs[r0].artificial && r1.is_none_or(|r| self.regs[r].artificial);
        self.units.push(RegUnit {
            roots: std::iter::once(r0).chain(r1).collect(),
            weight: 0,
            artificial,
        });
        self.units.len() as u32 - 1
    }

    fn compute_subregs(&mut self, r: usize) {
        if self.regs[r].subregs_done {
            return;
        }
        self.regs[r].subregs_done = true;
        let explicit: Vec<(usize, usize)> = self.regs[r]
            .explicit_subregs
            .iter()
            .copied()
            .zip(self.regs[r].explicit_indices.iter().copied())
            .collect();
        self.regs[r].has_disjunct_subregs = explicit.len() > 1;
        for &(sr, idx) in &explicit {
            if !self.regs[sr].artificial {
                self.indices[idx].artificial = false;
            }
            if self.regs[r].subregs.insert(idx, sr).is_some() {
                let m = format!(
                    "sub-register index {} appears twice in register {}",
                    self.indices[idx].name, self.regs[r].name
                );
                return self.error(self.regs[r].loc, m);
            }
            self.regs[r].subreg_index.entry(sr).or_insert(idx);
        }
        let mut orphans: BTreeSet<usize> = BTreeSet::new();
        for &(sr, _) in &explicit {
            self.compute_subregs(sr);
            let disj = self.regs[sr].has_disjunct_subregs;
            self.regs[r].has_disjunct_subregs |= disj;
            let map: Vec<(usize, usize)> = self.regs[sr]
                .subregs
                .iter()
                .map(|(&i, &s)| (i, s))
                .collect();
            for (i, s) in map {
                if let std::collections::btree_map::Entry::Vacant(e) = self.regs[r].subregs.entry(i)
                {
                    e.insert(s);
                } else {
                    orphans.insert(s);
                }
            }
        }
        // Composed indices name orphaned sub-registers (dsub_2 = qsub_1 ∘ dsub_0).
        let mut indices: Vec<usize> = explicit.iter().map(|&(_, i)| i).collect();
        let mut k = 0;
        while k < indices.len() {
            let idx = indices[k];
            k += 1;
            let sr = self.regs[r].subregs[&idx];
            self.compute_subregs(sr);
            let comps: Vec<(usize, usize)> = self.indices[idx]
                .composites
                .iter()
                .map(|(&a, &b)| (a, b))
                .collect();
            for (key, val) in comps {
                let Some(&target) = self.regs[sr].subregs.get(&key) else {
                    continue;
                };
                if self.regs[r].subregs.contains_key(&val) || !orphans.remove(&target) {
                    continue;
                }
                self.regs[r].subregs.insert(val, target);
                indices.push(val);
            }
        }
        // Remaining orphans get composite indices, bottom-up.
        while !orphans.is_empty() {
            let Some(idx) = indices.pop() else { break };
            let sr = self.regs[r].subregs[&idx];
            let map: Vec<(usize, usize)> = self.regs[sr]
                .subregs
                .iter()
                .map(|(&i, &s)| (i, s))
                .collect();
            for (sri, sub) in map {
                if orphans.remove(&sub) {
                    let c = self.composite_index(idx, sri);
                    self.regs[r].subregs.insert(c, sub);
                }
            }
        }
        let pairs: Vec<(usize, usize)> =
            self.regs[r].subregs.iter().map(|(&i, &s)| (i, s)).collect();
        for (sri, sub) in pairs {
            if sub == r {
                let m = format!(
                    "register {} has itself as a sub-register",
                    self.regs[r].name
                );
                return self.diags.push(
                    Diagnostic::error(Kind::Semantic, self.regs[r].loc, m).with_help(
                        "the sub-register lists form a cycle; a register cannot contain itself",
                    ),
                );
            }
            if !self.regs[r].covered_by_subregs {
                self.indices[sri].all_super_regs_covered = false;
            }
            let existing = *self.regs[r].subreg_index.entry(sub).or_insert(sri);
            if existing != sri {
                let m = format!(
                    "sub-register can't have two names: {} available as {} and {}",
                    self.regs[sub].name, self.indices[sri].name, self.indices[existing].name
                );
                return self.error(self.regs[r].loc, m);
            }
        }
        // Explicit covered sub-registers offer a spelling for their concatenation.
        for (k, &(sr, idx)) in explicit.iter().enumerate() {
            let _ = k;
            if !self.regs[sr].covered_by_subregs || self.regs[sr].artificial {
                continue;
            }
            let mut parts = Vec::new();
            let mut any_artificial = false;
            for (&ssr, &sidx) in self.regs[sr]
                .explicit_subregs
                .iter()
                .zip(self.regs[sr].explicit_indices.iter())
            {
                if self.indices[sidx].artificial {
                    any_artificial = true;
                    break;
                }
                match self.regs[r].subreg_index.get(&ssr) {
                    Some(&i) => parts.push(i),
                    None => {
                        any_artificial = true;
                        break;
                    }
                }
            }
            if any_artificial || parts.is_empty() {
                continue;
            }
            if self.indices[idx].concat_of.is_empty() {
                self.indices[idx].concat_of = parts;
            }
        }
        // Native units: inherited from explicit sub-registers, one per ad-hoc
        // alias edge, and a fresh one for a register that still has none (so
        // aliasing leaves share their edge's unit, as in llvm-tblgen 19).
        let mut units = BTreeSet::new();
        for &(sr, _) in &explicit {
            units.extend(self.regs[sr].units.iter().copied());
        }
        self.regs[r].units.extend(units);
        let aliases = self.regs[r].aliases.clone();
        for ar in aliases {
            if self.regs[ar].subregs_done {
                continue;
            }
            let u = self.new_unit(r, Some(ar));
            self.regs[r].units.insert(u);
            self.regs[ar].units.insert(u);
        }
        if self.regs[r].units.is_empty() {
            let u = self.new_unit(r, None);
            self.regs[r].units.insert(u);
        }
        self.regs[r].native_units = self.regs[r].units.clone();
    }

    fn compute_secondary_subregs(&mut self, r: usize) {
        let mut new_subregs: Vec<(usize, usize)> = Vec::new();
        let mut queue: std::collections::VecDeque<(usize, usize)> =
            self.regs[r].subregs.iter().map(|(&i, &s)| (i, s)).collect();
        while let Some((_, sub)) = queue.pop_front() {
            let leads = self.regs[sub].leading_super_regs.clone();
            for cand in leads {
                if cand == r || self.regs[r].subreg_index.contains_key(&cand) {
                    continue;
                }
                if self.regs[cand].explicit_subregs.len() <= 1 {
                    continue;
                }
                let mut parts = Vec::new();
                for &s in &self.regs[cand].explicit_subregs {
                    match self.regs[r].subreg_index.get(&s) {
                        Some(&i) => {
                            if self.indices[i].concat_of.is_empty() {
                                parts.push(i)
                            } else {
                                parts.extend(self.indices[i].concat_of.iter().copied())
                            }
                        }
                        None => {
                            parts.clear();
                            break;
                        }
                    }
                }
                if parts.is_empty() {
                    continue;
                }
                let concat = self.concat_index(parts);
                if self.regs[r].subregs.contains_key(&concat) {
                    continue;
                }
                self.regs[r].subregs.insert(concat, cand);
                new_subregs.push((concat, cand));
                queue.push_back((concat, cand));
                self.regs[r].subreg_index.entry(cand).or_insert(concat);
            }
        }
        for (new_idx, new_sub) in new_subregs {
            let pairs: Vec<(usize, usize)> = self.regs[new_sub]
                .subregs
                .iter()
                .map(|(&i, &s)| (i, s))
                .collect();
            for (sri, sub) in pairs {
                match self.regs[r].subreg_index.get(&sub).copied() {
                    Some(sub_idx) => {
                        self.add_composite(new_idx, sri, sub_idx);
                    }
                    None => {
                        let m = format!(
                            "no sub-register index for {} in {}",
                            self.regs[sub].name, self.regs[r].name
                        );
                        self.error(self.regs[r].loc, m);
                    }
                }
            }
        }
    }

    fn compute_super_regs(&mut self, r: usize) {
        if self.regs[r].superregs_done {
            return;
        }
        self.regs[r].superregs_done = true;
        let subs: Vec<usize> = self.regs[r].subregs.values().copied().collect();
        for &s in &subs {
            self.compute_super_regs(s);
        }
        for s in subs {
            if self.regs[s].super_regs.last() == Some(&r) {
                continue;
            }
            self.regs[s].super_regs.push(r);
        }
    }

    /// Witnessed compositions: for every R:A = S and S:B = T, A ∘ B is T's index in R.
    pub fn compute_composites(&mut self) {
        for r1 in 0..self.regs.len() {
            let srm1: Vec<(usize, usize)> = self.regs[r1]
                .subregs
                .iter()
                .map(|(&i, &s)| (i, s))
                .collect();
            for (idx1, r2) in srm1 {
                if r1 == r2 {
                    continue;
                }
                let srm2: Vec<(usize, usize)> = self.regs[r2]
                    .subregs
                    .iter()
                    .map(|(&i, &s)| (i, s))
                    .collect();
                for (idx2, r3) in srm2 {
                    if r2 == r3 {
                        continue;
                    }
                    let Some(&idx3) = self.regs[r1].subreg_index.get(&r3) else {
                        continue;
                    };
                    // A conflicting composition is a warning in llvm-tblgen; the first one stays.
                    let _ = self.add_composite(idx1, idx2, idx3);
                }
            }
        }
    }

    /// Lane masks: one bit per leaf index in enum order; others the union of their compositions.
    pub fn compute_lane_masks(&mut self) {
        let mut bit = 0u32;
        for i in 0..self.indices.len() {
            if self.indices[i].composites.is_empty() {
                if bit >= 64 {
                    let m = format!(
                        "ran out of lane-mask bits to represent sub-register index {}",
                        self.indices[i].name
                    );
                    self.error(self.regs.first().map(|r| r.loc).unwrap_or_default(), m);
                    return;
                }
                self.indices[i].lane_mask = 1u64 << bit;
                bit += 1;
            }
        }
        let mut done = vec![false; self.indices.len()];
        for i in 0..self.indices.len() {
            self.lane_mask_of(i, &mut done, 0);
        }
    }

    fn lane_mask_of(&mut self, i: usize, done: &mut [bool], depth: usize) -> u64 {
        if done[i] || self.indices[i].composites.is_empty() || depth > 64 {
            return self.indices[i].lane_mask;
        }
        done[i] = true;
        let targets: Vec<usize> = self.indices[i].composites.values().copied().collect();
        let mut m = 0;
        for t in targets {
            m |= self.lane_mask_of(t, done, depth + 1);
        }
        self.indices[i].lane_mask = m;
        m
    }

    /// Sub-registers in MC order: pre-order over the explicit tree, then the others by index.
    pub fn subregs_preorder(&self, r: usize) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        let mut seen: BTreeSet<usize> = BTreeSet::new();
        self.preorder(r, &mut out, &mut seen);
        for &s in self.regs[r].subregs.values() {
            if seen.insert(s) {
                out.push(s);
            }
        }
        out
    }

    fn preorder(&self, r: usize, out: &mut Vec<usize>, seen: &mut BTreeSet<usize>) {
        for &s in &self.regs[r].explicit_subregs {
            if seen.insert(s) {
                out.push(s);
                self.preorder(s, out, seen);
            }
        }
        for &s in self.regs[r].subregs.values() {
            if seen.insert(s) {
                out.push(s);
            }
        }
    }
}
