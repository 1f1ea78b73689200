//! The lowering checker's symbolic values: what an SSA register or a lowered location holds, interned, with the sub-register algebra (parts and compositions) that sub-register copies need.
//!
//! A value is one of the SSA function's own values (a virtual register's
//! definition, a physical register written by an instruction, a unit's
//! value at entry or where the paths into a block disagree), a constant
//! (an instruction reading no register, known by its opcode and
//! operands: two such definitions are equal), `undef`, a part of a value
//! by sub-register index, or a value with some sub-registers replaced
//! (what `REG_SEQUENCE`, `INSERT_SUBREG` and their sub-register copies
//! build). Values are interned, so that equal descriptions are one
//! number and sets of values are sorted numbers.

use std::collections::HashMap;

use crate::ir::{Block, Inst, Op, Operand, VReg};
use crate::target::{Reg, RegUnit, SubRegIndex, TargetInfo};

/// An interned value.
pub(crate) type Val = u32;

/// What a value is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Kind {
    /// No value (an `IMPLICIT_DEF`, an `undef` read): any value will do.
    Undef,
    /// The value an SSA virtual register's definition (an instruction
    /// other than a copy, or a PHI) gives it.
    Def(VReg),
    /// The value SSA instruction `Inst` writes into physical register `Reg`.
    Phys(Inst, Reg),
    /// A unit's value on entry to the function.
    Entry(RegUnit),
    /// A unit's value on entry to an SSA block where the paths into it
    /// bring different values (an implicit PHI of a physical register).
    Merge(Block, RegUnit),
    /// The result of an instruction that reads no register: its opcode and
    /// operands, definitions left out, flags cleared.
    Const(Op, Vec<Operand>),
    /// The part of a value at a sub-register index.
    Sub(Val, SubRegIndex),
    /// A value with the sub-registers listed (sorted by index) replaced.
    Compose(Val, Vec<(SubRegIndex, Val)>),
}

/// Which program event makes a value stale when it happens again: the
/// SSA definition of a virtual register, the SSA instruction writing a
/// physical register, or the entry of a block (its implicit PHIs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub(crate) enum Key {
    Vreg(VReg),
    Inst(Inst),
    Block(Block),
}

/// The interning table, with each value's stale-making events.
pub(crate) struct Values<'c, 't> {
    t: &'c TargetInfo<'t>,
    kinds: Vec<Kind>,
    index: HashMap<Kind, Val>,
    keys: Vec<Vec<Key>>,
    /// The value `Undef`.
    pub undef: Val,
}

impl<'c, 't> Values<'c, 't> {
    /// An empty table for target `t`.
    pub fn new(t: &'c TargetInfo<'t>) -> Values<'c, 't> {
        let mut v = Values {
            t,
            kinds: Vec::new(),
            index: HashMap::new(),
            keys: Vec::new(),
            undef: 0,
        };
        v.undef = v.intern(Kind::Undef);
        v
    }

    /// The value `k` describes.
    pub fn intern(&mut self, k: Kind) -> Val {
        if let Some(&x) = self.index.get(&k) {
            return x;
        }
        let mut keys: Vec<Key> = match &k {
            Kind::Undef | Kind::Entry(_) | Kind::Const(..) => Vec::new(),
            Kind::Def(v) => vec![Key::Vreg(*v)],
            Kind::Phys(i, _) => vec![Key::Inst(*i)],
            Kind::Merge(b, _) => vec![Key::Block(*b)],
            Kind::Sub(x, _) => self.keys[*x as usize].clone(),
            Kind::Compose(x, parts) => {
                let mut all = self.keys[*x as usize].clone();
                for (_, p) in parts {
                    all.extend(self.keys[*p as usize].iter().copied());
                }
                all
            }
        };
        keys.sort();
        keys.dedup();
        let x = self.kinds.len() as Val;
        self.kinds.push(k.clone());
        self.keys.push(keys);
        self.index.insert(k, x);
        x
    }

    /// What value `x` is.
    pub fn kind(&self, x: Val) -> &Kind {
        &self.kinds[x as usize]
    }

    /// Whether `x` goes stale when `key` happens again.
    pub fn mentions(&self, x: Val, key: Key) -> bool {
        self.keys[x as usize].binary_search(&key).is_ok()
    }

    /// The lanes sub-register index `i` covers.
    fn lanes(&self, i: SubRegIndex) -> u64 {
        self.t
            .sub_reg_indices
            .get(i.index())
            .map_or(0, |d| d.lane_mask.0)
    }

    /// The index `r` such that `a` composed with `r` is `b`, if `b` lies
    /// inside `a`.
    fn inside(&self, a: SubRegIndex, b: SubRegIndex) -> Option<SubRegIndex> {
        (0..self.t.sub_reg_indices.len())
            .map(SubRegIndex::new)
            .find(|&r| self.t.compose_sub_reg(a, r) == Some(b))
    }

    /// The part of `x` at `idx` (`x` itself for no index).
    pub fn sub(&mut self, x: Val, idx: Option<SubRegIndex>) -> Val {
        let Some(s) = idx else { return x };
        match self.kind(x).clone() {
            Kind::Undef => x,
            Kind::Sub(y, t) => match self.t.compose_sub_reg(t, s) {
                Some(c) => self.sub(y, Some(c)),
                None => self.intern(Kind::Sub(x, s)),
            },
            Kind::Compose(base, parts) => {
                for &(t, y) in &parts {
                    if t == s {
                        return y;
                    }
                    if let Some(r) = self.inside(t, s) {
                        return self.sub(y, Some(r));
                    }
                }
                if parts
                    .iter()
                    .all(|&(t, _)| self.lanes(t) & self.lanes(s) == 0)
                {
                    self.sub(base, Some(s))
                } else {
                    self.intern(Kind::Sub(x, s))
                }
            }
            _ => self.intern(Kind::Sub(x, s)),
        }
    }

    /// `base` with its sub-register `idx` replaced by `part`.
    pub fn compose(&mut self, base: Val, idx: SubRegIndex, part: Val) -> Val {
        let (root, mut parts) = match self.kind(base).clone() {
            Kind::Compose(r, p) => (r, p),
            _ => (base, Vec::new()),
        };
        let lanes = self.lanes(idx);
        // Parts the new one covers go; one it covers only in part makes
        // the result a composition of the old one.
        let mut partial = false;
        parts.retain(|&(t, _)| {
            let l = self.lanes(t);
            if l & lanes == 0 {
                return true;
            }
            if l & !lanes != 0 {
                partial = true;
            }
            false
        });
        if partial {
            return self.intern(Kind::Compose(base, vec![(idx, part)]));
        }
        parts.push((idx, part));
        parts.sort();
        // A part that is the root's own value changes nothing.
        let mut kept = Vec::with_capacity(parts.len());
        for (t, y) in parts {
            if self.sub(root, Some(t)) != y {
                kept.push((t, y));
            }
        }
        if kept.is_empty() {
            return root;
        }
        self.intern(Kind::Compose(root, kept))
    }

    /// The value an instruction reading no register computes: its opcode
    /// and its operands but the definitions, flags cleared.
    pub fn constant(&mut self, op: Op, operands: &[Operand]) -> Val {
        let key: Vec<Operand> = operands
            .iter()
            .filter(|o| o.as_reg().is_none_or(|r| !r.is_def()))
            .map(|o| match o {
                Operand::Reg(r) => {
                    let mut r = r.clone();
                    r.flags = crate::ir::RegFlags(r.flags.0 & crate::ir::RegFlags::IMPLICIT.0);
                    r.tied_to = None;
                    Operand::Reg(r)
                }
                other => other.clone(),
            })
            .collect();
        self.intern(Kind::Const(op, key))
    }
}
