//! Register classes: members and allocation orders from set expressions, sizes per HW mode,
//! inferred classes, topological enumeration, and sub-class / super-class relations.

use super::access::Fields;
use super::regs::RegBank;
use super::sets::{OrderedSet, Sets};
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId};
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Register size, spill size and spill alignment (bits) in one HW mode.
pub type SizeInfo = (i64, i64, i64);

/// A register class.
#[derive(Clone, Debug)]
pub struct RegClass {
    /// Its name.
    pub name: String,
    /// The def, for user-defined classes.
    pub def: Option<RecId>,
    /// Where it is defined (the super-class's place for inferred classes).
    pub loc: Span,
    /// Members in register enum order.
    pub members: Vec<usize>,
    member_set: rustc_hash::FxHashSet<usize>,
    /// Allocation order 0 and the `AltOrders`.
    pub orders: Vec<Vec<usize>>,
    /// Sizes per HW mode (index 0: the default mode).
    pub sizes: Vec<SizeInfo>,
    /// Value type names per HW mode.
    pub value_types: Vec<Vec<String>>,
    /// `CopyCost`.
    pub copy_cost: i64,
    /// `isAllocatable`.
    pub allocatable: bool,
    /// `AltOrderSelect` code.
    pub alt_order_select: String,
    /// `AllocationPriority`.
    pub allocation_priority: i64,
    /// `GlobalPriority`.
    pub global_priority: bool,
    /// `BaseClassOrder`, if set.
    pub base_class_order: Option<i64>,
    /// `Namespace`.
    pub namespace: String,
    /// All members are artificial.
    pub artificial: bool,
    /// The largest sub-class whose members all have the index.
    pub sub_class_with_subreg: BTreeMap<usize, usize>,
    /// Classes whose members' sub-registers by an index all lie in this class.
    pub super_reg_classes: BTreeMap<usize, BTreeSet<usize>>,
    /// Sub-classes (including itself), by enum value.
    pub sub_classes: Vec<usize>,
    /// Super-classes, by enum value.
    pub super_classes: Vec<usize>,
    /// `KeepCalleeSavedOrder` (our extension): `None` follows the target's policy.
    pub keep_callee_saved_order: Option<bool>,
}

impl RegClass {
    /// Whether a register is a member.
    pub fn contains(&self, r: usize) -> bool {
        self.member_set.contains(&r)
    }
}

/// The classes of a target, in enum order once built.
pub struct Classes {
    /// Classes in enum (topological) order.
    pub list: Vec<RegClass>,
    // llvm-tblgen's class key compares sizes in the default mode only.
    key_map: HashMap<(Vec<usize>, SizeInfo), usize>,
    /// Errors.
    pub diags: Vec<Diagnostic>,
}

/// The machine value type's name: `LLVMName` where the value type sets one (`untyped` is `Untyped`).
/// Value types as generated tables name them: by their `Value` number, as
/// llvm-tblgen's `getEnumName` does, so that a target's own type with the
/// number of a standard one is that one (SPIR-V's `p32 : PtrValueType<i32,
/// 0>` is `i32`). The first def with a number names it: LLVM's
/// ValueTypes.td (or our prelude) is read before any target's types.
pub(crate) struct ValueTypeNames {
    by_value: HashMap<i64, RecId>,
}

impl ValueTypeNames {
    pub(crate) fn new(f: &Fields<'_>) -> ValueTypeNames {
        let mut by_value = HashMap::default();
        for &d in &f.rk.def_order {
            if f.is_a(d, "ValueType")
                && let Some(v) = f.opt_int(d, "Value")
            {
                by_value.entry(v).or_insert(d);
            }
        }
        ValueTypeNames { by_value }
    }

    /// The first value type with the number of `t` (`t` if it has none).
    pub(crate) fn canonical(&self, f: &Fields<'_>, t: RecId) -> RecId {
        f.opt_int(t, "Value")
            .and_then(|v| self.by_value.get(&v).copied())
            .unwrap_or(t)
    }

    /// The name of value type `t`: `LLVMName` (else the def's name) of the
    /// first value type with its number.
    pub(crate) fn name(&self, f: &Fields<'_>, t: RecId) -> String {
        let canonical = self.canonical(f, t);
        let n = f.string(canonical, "LLVMName");
        if n.is_empty() { f.name(canonical) } else { n }
    }
}

fn is_sub_size(a: SizeInfo, b: SizeInfo) -> bool {
    a.0 <= b.0 && a.2 != 0 && b.2 % a.2 == 0 && a.1 <= b.1
}

fn stricter_spill(a: SizeInfo, b: SizeInfo) -> bool {
    a.1 > b.1 || (a.1 == b.1 && a.2 > b.2)
}

impl Classes {
    /// Reads the user classes, infers the missing ones, orders and relates them.
    pub fn build(f: &Fields<'_>, sets: &mut Sets<'_>, bank: &RegBank) -> Classes {
        let mut c = Classes {
            list: Vec::new(),
            key_map: HashMap::default(),
            diags: Vec::new(),
        };
        let mut defs = f.rk.derived_defs("RegisterClass");
        defs.sort_by(|&a, &b| super::access::compare_numeric(&f.name(a), &f.name(b)));
        if defs.is_empty() {
            c.diags.push(Diagnostic::error(
                Kind::Semantic,
                Span::default(),
                "no register class is defined",
            ));
            return c;
        }
        let vt_names = ValueTypeNames::new(f);
        for d in defs {
            if let Some(rc) = c.read_class(f, sets, bank, &vt_names, d) {
                let artificial = rc.artificial;
                let key = (rc.members.clone(), rc.sizes[0]);
                c.list.push(rc);
                if !artificial {
                    c.key_map.entry(key).or_insert(c.list.len() - 1);
                }
            }
        }
        if !c.diags.is_empty() {
            return c;
        }
        c.infer(bank);
        c.order_and_relate();
        c
    }

    fn read_class(
        &mut self,
        f: &Fields<'_>,
        sets: &mut Sets<'_>,
        bank: &RegBank,
        vt_names: &ValueTypeNames,
        d: RecId,
    ) -> Option<RegClass> {
        let loc = f.loc(d);
        let name = f.name(d);
        let nmodes = bank.modes.len();
        let elements = sets.expand(d).unwrap_or_default();
        let mut order0 = Vec::new();
        for e in &elements {
            match bank.reg_of(*e) {
                Some(r) => order0.push(r),
                None => {
                    let m = format!(
                        "register class '{name}' has member '{}', which is not a register",
                        sets.elem_name(*e)
                    );
                    self.diags.push(Diagnostic::error(Kind::Semantic, loc, m));
                    return None;
                }
            }
        }
        let mut members = order0.clone();
        members.sort_unstable();
        members.dedup();
        let member_set: rustc_hash::FxHashSet<usize> = members.iter().copied().collect();
        let mut orders = vec![order0];
        for alt in f.list(d, "AltOrders").iter() {
            let mut s = OrderedSet::default();
            sets.evaluate(alt, &mut s, loc);
            let mut order = Vec::new();
            for e in s.items {
                let Some(r) = bank.reg_of(e) else { continue };
                if !member_set.contains(&r) {
                    self.diags.push(
                        Diagnostic::error(
                            Kind::Semantic,
                            loc,
                            format!("AltOrder register {} is not a member of class {name}", bank.regs[r].name),
                        )
                        .with_help("an alternative allocation order may only reorder or drop members of the class"),
                    );
                    return None;
                }
                order.push(r);
            }
            orders.push(order);
        }
        // Value types per mode.
        let types = f.list_defs(d, "RegTypes").unwrap_or_default();
        if types.is_empty() {
            self.diags.push(Diagnostic::error(
                Kind::Semantic,
                loc,
                format!("register class '{name}': RegTypes list must not be empty"),
            ));
            return None;
        }
        let mut value_types = vec![Vec::new(); nmodes];
        let mut first_simple_size: Option<i64> = None;
        for (k, &t) in types.iter().enumerate() {
            if f.is_a(t, "ValueTypeByHwMode") {
                let ms = f.list_defs(t, "Modes").unwrap_or_default();
                let ts = f.list_defs(t, "Objects").unwrap_or_default();
                let default = ms
                    .iter()
                    .zip(ts.iter())
                    .find(|(m, _)| f.name(**m) == "DefaultMode")
                    .map(|(_, t)| vt_names.name(f, *t));
                for (m, vts) in value_types.iter_mut().enumerate() {
                    let here = ms.iter().zip(ts.iter()).find(|(md, _)| {
                        bank.mode_of(**md) == Some(m) || (m == 0 && f.name(**md) == "DefaultMode")
                    });
                    // A mode without an entry or a default is left out
                    // of that mode's list, as llvm-tblgen's VTLists do.
                    match (here, &default) {
                        (Some((_, t)), _) => vts.push(vt_names.name(f, *t)),
                        (None, Some(dn)) => vts.push(dn.clone()),
                        (None, None) => {}
                    }
                }
            } else {
                if k == 0 {
                    // The size of the type the number names (LLVM's MVT).
                    first_simple_size = f.opt_int(vt_names.canonical(f, t), "Size");
                }
                for vts in value_types.iter_mut() {
                    vts.push(vt_names.name(f, t));
                }
            }
        }
        // Sizes: RegInfos per mode, else Size, else the first value type's size.
        let mut sizes: Vec<Option<SizeInfo>> = vec![None; nmodes];
        if let Some(ri) = f.opt_def(d, "RegInfos") {
            let ms = f.list_defs(ri, "Modes").unwrap_or_default();
            let objs = f.list_defs(ri, "Objects").unwrap_or_default();
            if ms.len() != objs.len() {
                self.diags.push(
                    Diagnostic::error(
                        Kind::Semantic,
                        loc,
                        format!(
                            "class '{name}': RegInfos lists {} modes but {} sizes",
                            ms.len(),
                            objs.len()
                        ),
                    )
                    .with_help("give one RegInfo per mode, in the same order"),
                );
                return None;
            }
            for (m, o) in ms.iter().zip(objs.iter()) {
                let info = (
                    f.opt_int(*o, "RegSize").unwrap_or(0),
                    f.opt_int(*o, "SpillSize").unwrap_or(0),
                    f.opt_int(*o, "SpillAlignment").unwrap_or(0),
                );
                let mi = if f.name(*m) == "DefaultMode" {
                    Some(0)
                } else {
                    bank.mode_of(*m)
                };
                if let Some(mi) = mi {
                    sizes[mi] = Some(info);
                }
            }
        }
        if sizes[0].is_none() {
            let size = f.opt_int(d, "Size").unwrap_or(0);
            let size = if size != 0 {
                Some(size)
            } else {
                first_simple_size
            };
            let Some(size) = size else {
                self.diags.push(
                    Diagnostic::error(
                        Kind::Semantic,
                        loc,
                        format!("impossible to determine the register size of class '{name}'"),
                    )
                    .with_help(
                        "set `Size`, `RegInfos`, or give a simple value type first in RegTypes",
                    ),
                );
                return None;
            };
            sizes[0] = Some((size, size, f.opt_int(d, "Alignment").unwrap_or(0)));
        }
        let default = sizes[0].unwrap();
        let sizes: Vec<SizeInfo> = sizes.into_iter().map(|s| s.unwrap_or(default)).collect();
        let copy_cost = f.opt_int(d, "CopyCost").unwrap_or(1);
        if !(-128..=255).contains(&copy_cost) {
            self.diags.push(Diagnostic::error(
                Kind::Semantic,
                loc,
                format!("class '{name}': 'CopyCost' must be an 8-bit value"),
            ));
        }
        let prio = f.opt_int(d, "AllocationPriority").unwrap_or(0);
        if !(0..32).contains(&prio) {
            self.diags.push(Diagnostic::error(
                Kind::Semantic,
                loc,
                format!("class '{name}': AllocationPriority out of range [0,31]"),
            ));
        }
        // An allocatable class may be empty (AMDGPU's `VReg_1`): llvm-tblgen
        // emits it, and an allocator finds no register in it.
        let allocatable = f.bit(d, "isAllocatable") || f.value(d, "isAllocatable").is_none();
        let artificial = members.iter().all(|&r| bank.regs[r].artificial);
        Some(RegClass {
            name,
            def: Some(d),
            loc,
            members,
            member_set,
            orders,
            sizes,
            value_types,
            copy_cost,
            allocatable,
            alt_order_select: match f.value(d, "AltOrderSelect") {
                Some(Init::Str(s, _)) => s.to_string(),
                _ => String::new(),
            },
            allocation_priority: prio,
            global_priority: f.bit(d, "GlobalPriority"),
            base_class_order: f.opt_int(d, "BaseClassOrder"),
            namespace: f.string(d, "Namespace"),
            artificial,
            sub_class_with_subreg: BTreeMap::new(),
            super_reg_classes: BTreeMap::new(),
            sub_classes: Vec::new(),
            super_classes: Vec::new(),
            keep_callee_saved_order: None,
        })
    }

    fn get_or_create_sub_class(
        &mut self,
        rc: usize,
        members: Vec<usize>,
        name: String,
        bank: &RegBank,
    ) -> usize {
        let key = (members, self.list[rc].sizes[0]);
        if let Some(&i) = self.key_map.get(&key) {
            return i;
        }
        let members = key.0.clone();
        let artificial = members.iter().all(|&r| bank.regs[r].artificial);
        let parent = &self.list[rc];
        let new = RegClass {
            name,
            def: None,
            loc: parent.loc,
            member_set: members.iter().copied().collect(),
            members,
            orders: Vec::new(),
            sizes: parent.sizes.clone(),
            value_types: Vec::new(),
            copy_cost: 0,
            allocatable: true,
            alt_order_select: String::new(),
            allocation_priority: 0,
            global_priority: false,
            base_class_order: None,
            namespace: String::new(),
            artificial,
            sub_class_with_subreg: BTreeMap::new(),
            super_reg_classes: BTreeMap::new(),
            sub_classes: Vec::new(),
            super_classes: Vec::new(),
            keep_callee_saved_order: None,
        };
        self.list.push(new);
        let i = self.list.len() - 1;
        self.key_map.insert(key, i);
        i
    }

    fn infer(&mut self, bank: &RegBank) {
        let mut first_new = self.list.len() - 1;
        let mut i = 0;
        while i < self.list.len() {
            if self.list[i].artificial {
                i += 1;
                continue;
            }
            self.infer_sub_class_with_subreg(i, bank);
            self.infer_common_sub_class(i, bank);
            self.infer_matching_super_reg_class(i, 0, bank);
            if i == first_new {
                let next_new = self.list.len() - 1;
                for i2 in 0..=first_new {
                    self.infer_matching_super_reg_class(i2, first_new + 1, bank);
                }
                first_new = next_new;
            }
            i += 1;
            if self.list.len() > 100_000 {
                let loc = self.list[0].loc;
                self.diags.push(Diagnostic::error(
                    Kind::Limit,
                    loc,
                    "register class inference created more than 100000 classes",
                ));
                return;
            }
        }
    }

    fn infer_sub_class_with_subreg(&mut self, rc: usize, bank: &RegBank) {
        let mut sets: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &r in &self.list[rc].members {
            if bank.regs[r].artificial {
                continue;
            }
            for &idx in bank.regs[r].subregs.keys() {
                if !bank.indices[idx].artificial {
                    sets.entry(idx).or_default().push(r);
                }
            }
        }
        for (idx, regs) in sets {
            if regs.len() == self.list[rc].members.len() {
                self.list[rc].sub_class_with_subreg.insert(idx, rc);
                continue;
            }
            let name = format!("{}_with_{}", self.list[rc].name, bank.indices[idx].name);
            let sub = self.get_or_create_sub_class(rc, regs, name, bank);
            self.list[rc].sub_class_with_subreg.insert(idx, sub);
        }
    }

    fn infer_common_sub_class(&mut self, rc: usize, bank: &RegBank) {
        let last = self.list.len();
        for other in 0..last {
            if other == rc {
                continue;
            }
            let inter: Vec<usize> = {
                let (a, b) = (&self.list[rc], &self.list[other]);
                a.members
                    .iter()
                    .copied()
                    .filter(|r| b.contains(*r))
                    .collect()
            };
            if inter.is_empty() {
                continue;
            }
            let (mut rc1, mut rc2) = (rc, other);
            if stricter_spill(self.list[rc2].sizes[0], self.list[rc1].sizes[0]) {
                std::mem::swap(&mut rc1, &mut rc2);
            }
            let name = format!("{}_and_{}", self.list[rc1].name, self.list[rc2].name);
            self.get_or_create_sub_class(rc1, inter, name, bank);
        }
    }

    fn infer_matching_super_reg_class(&mut self, rc: usize, first_sub_rc: usize, bank: &RegBank) {
        for idx in 0..bank.indices.len() {
            if self.list[rc].sub_class_with_subreg.get(&idx) != Some(&rc) {
                continue;
            }
            let pairs: Vec<(usize, usize)> = self.list[rc]
                .members
                .iter()
                .map(|&sup| (sup, bank.regs[sup].subregs[&idx]))
                .collect();
            let last = self.list.len();
            for sub_rc in first_sub_rc..last {
                if self.list[sub_rc].artificial {
                    continue;
                }
                let subset: Vec<usize> = pairs
                    .iter()
                    .filter(|(_, sub)| self.list[sub_rc].contains(*sub))
                    .map(|&(sup, _)| sup)
                    .collect();
                if subset.is_empty() {
                    continue;
                }
                if subset.len() == pairs.len() {
                    self.list[sub_rc]
                        .super_reg_classes
                        .entry(idx)
                        .or_default()
                        .insert(rc);
                    continue;
                }
                let name = format!(
                    "{}_with_{}_in_{}",
                    self.list[rc].name, bank.indices[idx].name, self.list[sub_rc].name
                );
                self.get_or_create_sub_class(rc, subset, name, bank);
            }
        }
    }

    fn order_and_relate(&mut self) {
        let n = self.list.len();
        let mut perm: Vec<usize> = (0..n).collect();
        // llvm-tblgen's TopoOrderRC: sizes compare in the first mode of the
        // class's size map, which is always the default mode (every class
        // has a default-mode size), so the other modes never matter here.
        let topo = |a: &RegClass, b: &RegClass| -> Ordering {
            match a.sizes[0].cmp(&b.sizes[0]) {
                Ordering::Equal => {}
                o => return o,
            }
            b.members
                .len()
                .cmp(&a.members.len())
                .then_with(|| a.name.cmp(&b.name))
        };
        perm.sort_by(|&a, &b| topo(&self.list[a], &self.list[b]));
        let mut new_of_old = vec![0; n];
        for (new, &old) in perm.iter().enumerate() {
            new_of_old[old] = new;
        }
        let mut list: Vec<RegClass> = perm.iter().map(|&o| self.list[o].clone()).collect();
        for rc in list.iter_mut() {
            rc.sub_class_with_subreg = rc
                .sub_class_with_subreg
                .iter()
                .map(|(&i, &c)| (i, new_of_old[c]))
                .collect();
            rc.super_reg_classes = rc
                .super_reg_classes
                .iter()
                .map(|(&i, s)| (i, s.iter().map(|&c| new_of_old[c]).collect()))
                .collect();
        }
        // Sub-classes, visiting backwards so that sub-classes are known first.
        let test = |a: &RegClass, b: &RegClass| {
            is_sub_size(a.sizes[0], b.sizes[0]) && b.members.iter().all(|r| a.contains(*r))
        };
        let mut subs: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        for rc in (0..n).rev() {
            subs[rc].insert(rc);
            if list[rc].artificial {
                continue;
            }
            for sub in rc + 1..n {
                if subs[rc].contains(&sub) || !test(&list[rc], &list[sub]) {
                    continue;
                }
                let extra: Vec<usize> = subs[sub].iter().copied().collect();
                subs[rc].extend(extra);
            }
            for i2 in (0..rc).rev() {
                if !test(&list[rc], &list[i2]) {
                    break;
                }
                subs[rc].insert(i2);
            }
        }
        for (rc, sub) in subs.iter().enumerate() {
            for &s in sub {
                if s != rc {
                    list[s].super_classes.push(rc);
                }
            }
        }
        for (rc, s) in subs.into_iter().enumerate() {
            list[rc].sub_classes = s.into_iter().collect();
        }
        for rc in 0..n {
            if list[rc].def.is_some() {
                continue;
            }
            let Some(&sup) = list[rc].super_classes.last() else {
                continue;
            };
            let s = list[sup].clone();
            let allocatable = list[rc].super_classes.iter().any(|&x| list[x].allocatable);
            let c = &mut list[rc];
            c.namespace = s.namespace;
            c.value_types = s.value_types;
            c.copy_cost = s.copy_cost;
            c.allocatable = allocatable;
            c.alt_order_select = s.alt_order_select;
            c.allocation_priority = s.allocation_priority;
            c.global_priority = s.global_priority;
            c.orders = s
                .orders
                .iter()
                .map(|o| {
                    o.iter()
                        .copied()
                        .filter(|r| c.member_set.contains(r))
                        .collect()
                })
                .collect();
        }
        self.list = list;
    }
}
