//! Register files: how one function's target registers become regalloc2 `PReg`s and register classes.
//!
//! regalloc2 knows at most three register classes of at most 64 registers
//! each, and no aliasing. Our targets have sub-registers (`$w1` inside
//! `$r1`, `$eax` inside `$rax`) and overlapping classes. For one function
//! the adapter takes the allocatable registers of the classes its virtual
//! registers use (our per-function allocation orders, [`ClassOrders`]),
//! keeps the maximal ones (those not inside another candidate) as
//! `PReg`s, and maps every target register to the `PReg`s it overlaps
//! (by register units). Candidates connected through a class form one
//! register file; files become regalloc2's `Int`, `Float` and `Vector` in
//! the order of their first class in the target's class table.
//!
//! A function is inexpressible here when two candidates of one class that
//! do not overlap would share a `PReg` (a register pair such as Hexagon's
//! `D0 = R1:R0` beside `R0` and `R1`), when maximal candidates overlap
//! without one containing the other (AArch64 tuples), or when it needs
//! more than three files or more than 64 registers in one.

use std::collections::HashMap;

use regalloc::ir::{MachineFunction, Operand, RegMask};
use regalloc::orders::ClassOrders;
use regalloc::target::{CalleeSavedSet, Reg, RegClass, TargetInfo};
use regalloc2::{MachineEnv, PReg, PRegSet, RegClass as Ra2Class};

/// The regalloc2 classes in the order files are given them.
pub const RA2_CLASSES: [Ra2Class; 3] = [Ra2Class::Int, Ra2Class::Float, Ra2Class::Vector];

/// One function's register files.
#[derive(Clone, Debug)]
pub struct RegFiles {
    /// For each register unit of the target, the `PReg` whose register holds it.
    unit_preg: Vec<Option<PReg>>,
    /// Per regalloc2 class, the target register of each `hw_enc`.
    pub tops: [Vec<Reg>; 3],
    /// Per target class used by the function, its regalloc2 class.
    class_file: HashMap<RegClass, Ra2Class>,
    /// Spill slot size per regalloc2 class, in 8-byte units.
    pub slot_units: [usize; 3],
    /// The machine environment regalloc2 allocates in.
    pub env: MachineEnv,
    /// The calling convention's callee-saved set (for call clobbers).
    pub csr: Option<CalleeSavedSet>,
}

/// Index of a regalloc2 class in [`RA2_CLASSES`].
pub fn class_index(c: Ra2Class) -> usize {
    match c {
        Ra2Class::Int => 0,
        Ra2Class::Float => 1,
        Ra2Class::Vector => 2,
    }
}

impl RegFiles {
    /// The files of `func`: an error says why it cannot be expressed.
    pub fn new(t: &TargetInfo<'_>, func: &MachineFunction) -> Result<RegFiles, String> {
        let orders = ClassOrders::for_function(t, func);
        // The classes the function's operands use, in class-table order.
        let mut used: Vec<RegClass> = Vec::new();
        let mut seen = vec![false; func.vregs.len()];
        for i in func.inst_ids() {
            for op in &func.inst(i).operands {
                if let Operand::Reg(r) = op
                    && let regalloc::ir::RegRef::Virt(v) = r.reg
                    && v.index() < seen.len()
                    && !seen[v.index()]
                {
                    seen[v.index()] = true;
                    match func.vreg_class(v) {
                        Some(c) => used.push(c),
                        None => return Err(format!("%{} has no register class", v.0)),
                    }
                }
            }
        }
        used.sort();
        used.dedup();
        let mut candidates: Vec<Reg> = Vec::new();
        let mut is_candidate = vec![false; t.num_regs()];
        let mut class_regs: Vec<(RegClass, Vec<Reg>)> = Vec::new();
        for &c in &used {
            let base = orders.base(t, c).to_vec();
            if base.is_empty() {
                return Err(format!(
                    "class {} has no allocatable register",
                    t.class(c).name
                ));
            }
            for &r in &base {
                if !is_candidate[r.index()] {
                    is_candidate[r.index()] = true;
                    candidates.push(r);
                }
            }
            class_regs.push((c, base));
        }
        // Maximal candidates: not inside another candidate.
        let maximal: Vec<Reg> = candidates
            .iter()
            .copied()
            .filter(|&r| !t.super_regs(r).iter().any(|s| is_candidate[s.index()]))
            .collect();
        let mut unit_top: Vec<Option<Reg>> = vec![None; t.units.len()];
        for &m in &maximal {
            for &u in t.units(m) {
                if let Some(other) = unit_top[u.index()] {
                    return Err(format!(
                        "registers {} and {} overlap without one containing the other \
                         (register tuples); regalloc2 has no register aliasing",
                        t.reg(other).name,
                        t.reg(m).name
                    ));
                }
                unit_top[u.index()] = Some(m);
            }
        }
        let top_of =
            |r: Reg| -> Option<Reg> { t.units(r).first().and_then(|u| unit_top[u.index()]) };
        // Files: union of maximal registers reached from one class.
        let mut parent: HashMap<Reg, Reg> = maximal.iter().map(|&m| (m, m)).collect();
        fn find(p: &mut HashMap<Reg, Reg>, mut r: Reg) -> Reg {
            while p[&r] != r {
                let up = p[&p[&r]];
                p.insert(r, up);
                r = up;
            }
            r
        }
        for (c, regs) in &class_regs {
            let mut by_top: HashMap<Reg, Reg> = HashMap::new();
            let mut first: Option<Reg> = None;
            for &r in regs {
                let Some(top) = top_of(r) else {
                    return Err(format!("register {} has no register units", t.reg(r).name));
                };
                if let Some(&other) = by_top.get(&top) {
                    if !t.regs_overlap(other, r) {
                        return Err(format!(
                            "class {}: {} and {} both lie in {} (a register pair); \
                             regalloc2 has no register aliasing",
                            t.class(*c).name,
                            t.reg(other).name,
                            t.reg(r).name,
                            t.reg(top).name
                        ));
                    }
                } else {
                    by_top.insert(top, r);
                }
                match first {
                    None => first = Some(top),
                    Some(f) => {
                        let (a, b) = (find(&mut parent, f), find(&mut parent, top));
                        if a != b {
                            parent.insert(b, a);
                        }
                    }
                }
            }
        }
        // Files in the order of their first class; registers in order of
        // first appearance in that class order.
        let mut file_of_root: HashMap<Reg, usize> = HashMap::new();
        let mut tops: [Vec<Reg>; 3] = Default::default();
        let mut class_file = HashMap::new();
        let mut slot_units = [1usize; 3];
        let mut preg_of_top: HashMap<Reg, PReg> = HashMap::new();
        for (c, regs) in &class_regs {
            let root = find(&mut parent, top_of(regs[0]).unwrap_or(regs[0]));
            let n = file_of_root.len();
            let k = *file_of_root.entry(root).or_insert(n);
            if k >= 3 {
                return Err(format!(
                    "class {} needs a fourth register file; regalloc2 has three classes",
                    t.class(*c).name
                ));
            }
            let rc = RA2_CLASSES[k];
            class_file.insert(*c, rc);
            slot_units[k] = slot_units[k].max((t.class(*c).spill_size as usize).div_ceil(8));
            for &r in regs {
                let top = top_of(r).unwrap_or(r);
                if let std::collections::hash_map::Entry::Vacant(e) = preg_of_top.entry(top) {
                    if tops[k].len() > PReg::MAX {
                        return Err(format!(
                            "register file of class {} has more than {} registers",
                            t.class(*c).name,
                            PReg::MAX + 1
                        ));
                    }
                    e.insert(PReg::new(tops[k].len(), rc));
                    tops[k].push(top);
                }
            }
        }
        let unit_preg = unit_top
            .iter()
            .map(|t| t.and_then(|r| preg_of_top.get(&r).copied()))
            .collect();
        let csr = calling_convention(t, func);
        // Caller-saved registers are preferred, callee-saved ones are not
        // (they cost a save and restore in the prologue), as LLVM orders them.
        let mut preferred = [PRegSet::empty(); 3];
        let mut non_preferred = [PRegSet::empty(); 3];
        for (k, regs) in tops.iter().enumerate() {
            for (enc, &r) in regs.iter().enumerate() {
                let p = PReg::new(enc, RA2_CLASSES[k]);
                let saved = csr.is_some_and(|s| {
                    t.callee_saved_set(s)
                        .saves
                        .iter()
                        .any(|&c| t.regs_overlap(c, r))
                });
                if saved {
                    non_preferred[k].add(p);
                } else {
                    preferred[k].add(p);
                }
            }
        }
        let env = MachineEnv {
            preferred_regs_by_class: preferred,
            non_preferred_regs_by_class: non_preferred,
            scratch_by_class: [None; 3],
            fixed_stack_slots: Vec::new(),
        };
        Ok(RegFiles {
            unit_preg,
            tops,
            class_file,
            slot_units,
            env,
            csr,
        })
    }

    /// The regalloc2 class of target class `c` (one the function uses).
    pub fn class(&self, c: RegClass) -> Option<Ra2Class> {
        self.class_file.get(&c).copied()
    }

    /// The `PReg`s register `r` overlaps: none when it is outside every
    /// file (reserved, flags, stack pointer), more than one when it spans
    /// several (a pair whose halves are `PReg`s).
    pub fn pregs(&self, t: &TargetInfo<'_>, r: Reg) -> Vec<PReg> {
        let mut out: Vec<PReg> = Vec::new();
        for &u in t.units(r) {
            if let Some(p) = self.unit_preg[u.index()]
                && !out.contains(&p)
            {
                out.push(p);
            }
        }
        out
    }

    /// The target register behind `p`.
    pub fn reg_of(&self, p: PReg) -> Reg {
        self.tops[class_index(p.class())][p.hw_enc()]
    }

    /// The `PReg`s a call with register mask `m` clobbers.
    pub fn mask_clobbers(&self, t: &TargetInfo<'_>, m: &RegMask) -> PRegSet {
        let mut set = PRegSet::empty();
        for (k, regs) in self.tops.iter().enumerate() {
            for (enc, &r) in regs.iter().enumerate() {
                let preserved = match m {
                    RegMask::Named(s) => {
                        s.index() < t.callee_saved.len() && t.mask_preserves(*s, r)
                    }
                    RegMask::Custom(list) => list.contains(&r),
                };
                if !preserved {
                    set.add(PReg::new(enc, RA2_CLASSES[k]));
                }
            }
        }
        set
    }
}

/// The callee-saved set of `func`: the one its calls' masks name, else the
/// target's usual C convention (the same choice as `ClassOrders`).
fn calling_convention(t: &TargetInfo<'_>, func: &MachineFunction) -> Option<CalleeSavedSet> {
    for i in func.inst_ids() {
        for o in &func.inst(i).operands {
            if let Operand::RegMask(RegMask::Named(s)) = o
                && s.index() < t.callee_saved.len()
            {
                return Some(*s);
            }
        }
    }
    ["CSR_64", "CSR_AArch64_AAPCS", "HexagonCSR", "CSR"]
        .iter()
        .find_map(|n| t.find_callee_saved(n))
        .or_else(|| (!t.callee_saved.is_empty()).then(|| CalleeSavedSet::new(0)))
}
