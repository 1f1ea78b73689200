//! Register references for the data-flow graph: a register with a lane mask, or a call's register mask, and sets of register units (LLVM's `RegisterRef`, `PhysicalRegisterInfo` and `RegisterAggr`).
//!
//! Everything is decided on register units, so that `D0`, `R1:R0` and a
//! register mask that clobbers `R0` all meet on the same atoms.

use crate::ir::{MachineFunction, Operand, RegMask};
use crate::target::{CalleeSavedSet, LaneMask, Reg, RegUnit, TargetInfo};

/// What a reference names: one physical register, or the registers a call's
/// register mask clobbers (an index into the graph's mask table).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum RegId {
    /// A physical register.
    Phys(Reg),
    /// The `n`-th register mask (from 1, as LLVM numbers them).
    Mask(u32),
}

/// A register and the lanes of it that are meant, or a register mask.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct RegisterRef {
    /// The register or mask.
    pub id: RegId,
    /// The lanes (all lanes for a mask).
    pub lanes: LaneMask,
}

impl RegisterRef {
    /// All of register `r`.
    pub fn whole(r: Reg) -> RegisterRef {
        RegisterRef {
            id: RegId::Phys(r),
            lanes: LaneMask::ALL,
        }
    }
}

/// One register mask: the registers it preserves, by register index.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum MaskKey {
    /// A named callee-saved set.
    Named(CalleeSavedSet),
    /// An explicit list of preserved registers.
    Custom(Vec<Reg>),
}

/// The register facts the graph needs: unit sets, the register each unit
/// is reported under, the masks of the function and which units are tracked.
pub(crate) struct RegisterInfo<'t, 'a> {
    pub(crate) t: &'t TargetInfo<'a>,
    /// The register masks: the target's callee-saved sets first (as
    /// `TRI.getRegMasks()`), then custom masks of the function.
    masks: Vec<MaskKey>,
    /// Units each mask clobbers, parallel to `masks`.
    mask_units: Vec<UnitSet>,
    /// For each unit, the register and lanes it is reported under when a
    /// unit set is turned back into references.
    unit_ref: Vec<(Reg, LaneMask)>,
    /// For each unit, the registers that have it.
    unit_regs: Vec<Vec<Reg>>,
}

impl<'t, 'a> RegisterInfo<'t, 'a> {
    /// The facts for function `f` of target `t`.
    pub(crate) fn new(t: &'t TargetInfo<'a>, f: &MachineFunction) -> Self {
        let mut masks: Vec<MaskKey> = (0..t.callee_saved.len())
            .map(|k| MaskKey::Named(CalleeSavedSet::new(k)))
            .collect();
        for i in &f.insts {
            for o in &i.operands {
                if let Operand::RegMask(RegMask::Custom(regs)) = o {
                    let key = MaskKey::Custom(regs.clone());
                    if !masks.contains(&key) {
                        masks.push(key);
                    }
                }
            }
        }
        let mut info = RegisterInfo {
            t,
            masks,
            mask_units: Vec::new(),
            unit_ref: unit_refs(t),
            unit_regs: unit_regs(t),
        };
        info.mask_units = (0..info.masks.len())
            .map(|k| info.clobbered_units(k))
            .collect();
        info
    }

    /// The mask id of `m` (from 1).
    pub(crate) fn mask_id(&self, m: &RegMask) -> u32 {
        let key = match m {
            RegMask::Named(s) => MaskKey::Named(*s),
            RegMask::Custom(v) => MaskKey::Custom(v.clone()),
        };
        let k = self.masks.iter().position(|x| *x == key).unwrap_or(0);
        k as u32 + 1
    }

    /// Whether mask `id` preserves register `r`.
    pub(crate) fn mask_preserves(&self, id: u32, r: Reg) -> bool {
        match &self.masks[id as usize - 1] {
            MaskKey::Named(s) => self.t.mask_preserves(*s, r),
            MaskKey::Custom(v) => v.contains(&r),
        }
    }

    fn clobbered_units(&self, k: usize) -> UnitSet {
        let mut s = UnitSet::new(self.t.units.len());
        for r in 0..self.t.num_regs() {
            if !self.mask_preserves(k as u32 + 1, Reg::new(r)) {
                for &u in self.t.units(Reg::new(r)) {
                    s.set(u);
                }
            }
        }
        s
    }

    /// An empty unit set of this target's size.
    pub(crate) fn empty_set(&self) -> UnitSet {
        UnitSet::new(self.t.units.len())
    }

    /// The units of `rr`'s lanes, and their lanes within the register.
    fn units_with_lanes(&self, r: Reg) -> impl Iterator<Item = (RegUnit, LaneMask)> + '_ {
        let d = self.t.reg(r);
        d.units.iter().copied().zip(d.unit_lanes.iter().copied())
    }

    /// Adds the units of `rr` to `s`.
    pub(crate) fn insert(&self, s: &mut UnitSet, rr: RegisterRef) {
        match rr.id {
            RegId::Mask(m) => s.union_with(&self.mask_units[m as usize - 1]),
            RegId::Phys(r) => {
                for (u, l) in self.units_with_lanes(r) {
                    if l.overlaps(rr.lanes) {
                        s.set(u);
                    }
                }
            }
        }
    }

    /// The units of `rr`.
    pub(crate) fn units(&self, rr: RegisterRef) -> UnitSet {
        let mut s = self.empty_set();
        self.insert(&mut s, rr);
        s
    }

    /// Whether `s` has a unit of `rr`.
    pub(crate) fn has_alias_of(&self, s: &UnitSet, rr: RegisterRef) -> bool {
        match rr.id {
            RegId::Mask(m) => s.intersects(&self.mask_units[m as usize - 1]),
            RegId::Phys(r) => self
                .units_with_lanes(r)
                .any(|(u, l)| l.overlaps(rr.lanes) && s.test(u)),
        }
    }

    /// Whether `s` has every unit of `rr`.
    pub(crate) fn has_cover_of(&self, s: &UnitSet, rr: RegisterRef) -> bool {
        match rr.id {
            RegId::Mask(m) => self.mask_units[m as usize - 1].is_subset_of(s),
            RegId::Phys(r) => self
                .units_with_lanes(r)
                .all(|(u, l)| !l.overlaps(rr.lanes) || s.test(u)),
        }
    }

    /// Whether `a` and `b` name the same units (LLVM's `equal_to`).
    pub(crate) fn equal(&self, a: RegisterRef, b: RegisterRef) -> bool {
        match (a.id, b.id) {
            (RegId::Phys(x), RegId::Phys(y)) => {
                if x == y {
                    return a.lanes == b.lanes;
                }
                let ua = self
                    .units_with_lanes(x)
                    .filter(|(_, l)| l.overlaps(a.lanes))
                    .map(|(u, _)| u);
                let ub = self
                    .units_with_lanes(y)
                    .filter(|(_, l)| l.overlaps(b.lanes))
                    .map(|(u, _)| u);
                ua.eq(ub)
            }
            _ => a.id == b.id,
        }
    }

    /// The registers other than `id` that share a unit with it; for a mask,
    /// every register it clobbers (LLVM's `getAliasSet`).
    pub(crate) fn alias_set(&self, id: RegId) -> Vec<RegId> {
        match id {
            RegId::Mask(m) => (0..self.t.num_regs())
                .map(Reg::new)
                .filter(|&r| !self.mask_preserves(m, r))
                .map(RegId::Phys)
                .collect(),
            RegId::Phys(r) => {
                let mut v: Vec<Reg> = self
                    .t
                    .units(r)
                    .iter()
                    .flat_map(|u| self.unit_regs[u.index()].iter().copied())
                    .filter(|&o| o != r)
                    .collect();
                v.sort();
                v.dedup();
                v.into_iter().map(RegId::Phys).collect()
            }
        }
    }

    /// The references a unit set stands for: each unit reported under its
    /// root register, lanes merged per register, in register order (LLVM's
    /// `RegisterAggr::refs`).
    pub(crate) fn refs(&self, s: &UnitSet) -> Vec<RegisterRef> {
        let mut out: Vec<RegisterRef> = Vec::new();
        for u in s.iter() {
            let (r, l) = self.unit_ref[u.index()];
            match out.iter_mut().find(|x| x.id == RegId::Phys(r)) {
                Some(x) => x.lanes = LaneMask(x.lanes.0 | l.0),
                None => out.push(RegisterRef {
                    id: RegId::Phys(r),
                    lanes: l,
                }),
            }
        }
        out.sort_by_key(|x| x.id);
        out
    }

    /// `rr` as LLVM prints it: the register's name and a short lane mask
    /// unless all lanes are meant, or `M#nnnn` for a mask.
    pub(crate) fn print(&self, rr: RegisterRef) -> String {
        match rr.id {
            RegId::Mask(m) => format!("M#{m:04x}"),
            RegId::Phys(r) => format!("{}{}", self.t.reg(r).name, short_lanes(rr.lanes)),
        }
    }
}

/// A lane mask as LLVM's `PrintLaneMaskShort` writes it after a register.
fn short_lanes(m: LaneMask) -> String {
    if m == LaneMask::ALL {
        String::new()
    } else if m.0 == 0 {
        ":*none*".to_string()
    } else if m.0 <= 0xffff {
        format!(":{:04X}", m.0)
    } else if m.0 <= 0xffff_ffff {
        format!(":{:08X}", m.0)
    } else {
        format!(":{:016X}", m.0)
    }
}

/// For each unit, the register it is reported under: its root, with the
/// unit's lanes in the root; a unit with two roots is reported under the
/// first with all lanes.
fn unit_refs(t: &TargetInfo<'_>) -> Vec<(Reg, LaneMask)> {
    let n = t.units.len();
    let mut out: Vec<Option<(Reg, LaneMask)>> = vec![None; n];
    for u in 0..n {
        if out[u].is_some() {
            continue;
        }
        let mut roots = t.unit_roots(RegUnit::new(u));
        let Some(first) = roots.next() else {
            continue;
        };
        if roots.next().is_some() {
            out[u] = Some((first, LaneMask::ALL));
        } else {
            let d = t.reg(first);
            for (&v, &l) in d.units.iter().zip(d.unit_lanes.iter()) {
                out[v.index()] = Some((first, l));
            }
        }
    }
    out.into_iter()
        .map(|x| x.unwrap_or((Reg::new(0), LaneMask::ALL)))
        .collect()
}

/// For each unit, the registers having it.
fn unit_regs(t: &TargetInfo<'_>) -> Vec<Vec<Reg>> {
    let mut out = vec![Vec::new(); t.units.len()];
    for r in 0..t.num_regs() {
        for &u in t.units(Reg::new(r)) {
            out[u.index()].push(Reg::new(r));
        }
    }
    out
}

/// A set of register units.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct UnitSet {
    words: Vec<u64>,
}

impl UnitSet {
    /// The empty set over `n` units.
    pub(crate) fn new(n: usize) -> UnitSet {
        UnitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    pub(crate) fn set(&mut self, u: RegUnit) {
        self.words[u.index() / 64] |= 1 << (u.index() % 64);
    }

    pub(crate) fn test(&self, u: RegUnit) -> bool {
        self.words[u.index() / 64] >> (u.index() % 64) & 1 == 1
    }

    pub(crate) fn union_with(&mut self, o: &UnitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a |= b;
        }
    }

    /// Keeps only the units also in `o`.
    pub(crate) fn intersect_with(&mut self, o: &UnitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= b;
        }
    }

    /// Removes the units of `o`.
    pub(crate) fn subtract(&mut self, o: &UnitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= !b;
        }
    }

    pub(crate) fn intersects(&self, o: &UnitSet) -> bool {
        self.words.iter().zip(&o.words).any(|(a, b)| a & b != 0)
    }

    pub(crate) fn is_subset_of(&self, o: &UnitSet) -> bool {
        self.words.iter().zip(&o.words).all(|(a, b)| a & !b == 0)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The units, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = RegUnit> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| RegUnit::new(k * 64 + b))
        })
    }
}
