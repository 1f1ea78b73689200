//! The checker's abstract state: for every register unit and spill slot, the set of original values it is known to hold.
//!
//! A value is a virtual register of the original function, or the original
//! program's value of one physical register unit (what pre-coloured code
//! such as argument registers and `$eflags` holds). Values are numbered
//! densely: virtual register `v` is `v`, the value of unit `u` is
//! `num_vregs + u`. Sets are small sorted vectors: a location rarely holds
//! more than a handful of equal values.

use std::collections::BTreeMap;

use crate::ir::{Inst, VReg};
use crate::target::RegUnit;

/// One value: a virtual register or a unit's original-program value.
pub(crate) type Value = u32;

/// How values are numbered for one function.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Values {
    /// Number of virtual registers of the original function.
    pub num_vregs: u32,
}

impl Values {
    /// The value of virtual register `v`.
    #[inline]
    pub fn vreg(self, v: VReg) -> Value {
        v.0
    }

    /// The original program's value of unit `u`.
    #[inline]
    pub fn unit(self, u: RegUnit) -> Value {
        self.num_vregs.saturating_add(u.0)
    }

    /// The virtual register a value is, if it is one.
    #[inline]
    pub fn as_vreg(self, x: Value) -> Option<VReg> {
        (x < self.num_vregs).then_some(VReg(x))
    }

    /// The unit a value is the original value of, if it is one.
    #[inline]
    pub fn as_unit(self, x: Value) -> Option<RegUnit> {
        x.checked_sub(self.num_vregs).map(RegUnit)
    }
}

/// A set of values, sorted, without duplicates.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct ValueSet(Vec<Value>);

impl ValueSet {
    /// The set holding only `x`.
    pub fn single(x: Value) -> ValueSet {
        ValueSet(vec![x])
    }

    /// Whether `x` is in the set.
    pub fn contains(&self, x: Value) -> bool {
        self.0.binary_search(&x).is_ok()
    }

    /// Adds `x`.
    pub fn insert(&mut self, x: Value) {
        if let Err(k) = self.0.binary_search(&x) {
            self.0.insert(k, x);
        }
    }

    /// Removes `x`; returns whether it was there.
    pub fn remove(&mut self, x: Value) -> bool {
        match self.0.binary_search(&x) {
            Ok(k) => {
                self.0.remove(k);
                true
            }
            Err(_) => false,
        }
    }

    /// Keeps only values also in `other`; returns whether anything changed.
    pub fn intersect(&mut self, other: &ValueSet) -> bool {
        let before = self.0.len();
        self.0.retain(|x| other.contains(*x));
        self.0.len() != before
    }

    /// Whether the two sets share a value.
    pub fn meets(&self, other: &ValueSet) -> bool {
        self.0.iter().any(|&x| other.contains(x))
    }

    /// The values, in order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        self.0.iter().copied()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keeps only the values `keep` says; returns whether any went.
    pub fn retain(&mut self, mut keep: impl FnMut(Value) -> bool) -> bool {
        let before = self.0.len();
        self.0.retain(|&x| keep(x));
        self.0.len() != before
    }
}

/// What is known at one program point.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct State {
    /// Per register unit, the values it holds.
    pub units: Vec<ValueSet>,
    /// Per spill slot (`%stack.N` id), the values it holds; absent is empty.
    pub slots: BTreeMap<u32, ValueSet>,
    /// For the virtual registers that are rematerialized and defined more
    /// than once, the original definitions that may reach here: a
    /// rematerialization recomputes one definition's value, which is the
    /// register's value only when that definition is the one that reaches.
    pub reaching: BTreeMap<VReg, Vec<Inst>>,
}

impl State {
    /// The state at function entry: every unit holds its own original
    /// value, no slot holds anything.
    pub fn entry(values: Values, num_units: usize) -> State {
        State {
            units: (0..num_units)
                .map(|u| ValueSet::single(values.unit(RegUnit::new(u))))
                .collect(),
            slots: BTreeMap::new(),
            reaching: BTreeMap::new(),
        }
    }

    /// Meets `other` into this state (values: intersection; reaching
    /// definitions: union); returns whether this state changed.
    pub fn meet(&mut self, other: &State) -> bool {
        let mut changed = false;
        for (a, b) in self.units.iter_mut().zip(&other.units) {
            changed |= a.intersect(b);
        }
        let mut slots_changed = false;
        self.slots.retain(|id, set| {
            match other.slots.get(id) {
                Some(o) => slots_changed |= set.intersect(o),
                None => {
                    slots_changed = true;
                    set.0.clear();
                }
            }
            !set.is_empty()
        });
        changed |= slots_changed;
        for (v, defs) in &other.reaching {
            let mine = self.reaching.entry(*v).or_default();
            for d in defs {
                if let Err(k) = mine.binary_search(d) {
                    mine.insert(k, *d);
                    changed = true;
                }
            }
        }
        changed
    }

    /// Removes `x` from every unit and slot: the program redefined it, so
    /// copies of its old value are stale.
    pub fn forget(&mut self, x: Value) {
        for s in &mut self.units {
            s.remove(x);
        }
        for s in self.slots.values_mut() {
            s.remove(x);
        }
    }

    /// The values slot `id` holds.
    pub fn slot(&self, id: u32) -> ValueSet {
        self.slots.get(&id).cloned().unwrap_or_default()
    }

    /// The values unit `u` holds (empty for a unit out of range).
    pub fn unit(&self, u: RegUnit) -> &ValueSet {
        static EMPTY: ValueSet = ValueSet(Vec::new());
        self.units.get(u.index()).unwrap_or(&EMPTY)
    }

    /// Sets what unit `u` holds.
    pub fn set_unit(&mut self, u: RegUnit, s: ValueSet) {
        if let Some(slot) = self.units.get_mut(u.index()) {
            *slot = s;
        }
    }

    /// Adds `x` to what unit `u` holds.
    pub fn add_to_unit(&mut self, u: RegUnit, x: Value) {
        if let Some(slot) = self.units.get_mut(u.index()) {
            slot.insert(x);
        }
    }
}
