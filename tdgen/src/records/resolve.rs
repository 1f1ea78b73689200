//! Resolution of references (llvm-tblgen's `Resolver`s) and the type conversions values undergo.

use super::fold::fold;
use super::record::RecordKeeper;
use super::types::{Ty, type_is_a, type_is_convertible};
use super::value::{Field, Init, Op, OpInit, StrFormat};
use super::{RecId, inherit};
use crate::syntax::ast::Sym;
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// Maps variable names to values during resolution.
pub trait Resolver {
    /// The value of a variable, if this resolver knows it.
    fn resolve(&mut self, name: Sym, rk: &mut RecordKeeper) -> Option<Init>;
    /// Whether this is the final resolution of a def (unresolvable lookups are errors).
    fn is_final(&self) -> bool {
        false
    }
    /// Whether bits that would resolve to `?` keep their reference instead.
    fn keep_unset_bits(&self) -> bool {
        false
    }
    /// The record being resolved, with its name (for self-references).
    fn current(&self) -> Option<(RecId, Init)> {
        None
    }
}

/// Substitutes a fixed set of variables; values are resolved on first use.
#[derive(Default)]
pub struct MapResolver {
    // Usually a handful of entries (template arguments, a loop variable), and
    // one resolver is made per `!foreach` element: a vector searched linearly
    // beats hashing there; `index` takes over for the rare large maps.
    map: Vec<(Sym, Init, bool)>,
    index: HashMap<Sym, usize>,
    current: Option<(RecId, Init)>,
    final_: bool,
}

impl MapResolver {
    /// A resolver with no entries.
    pub fn new() -> MapResolver {
        MapResolver::default()
    }

    /// A resolver whose current record is `cur`.
    pub fn with_current(cur: Option<(RecId, Init)>) -> MapResolver {
        MapResolver {
            current: cur,
            ..MapResolver::default()
        }
    }

    /// Adds or replaces an entry.
    pub fn set(&mut self, name: Sym, value: Init) {
        match self.find(name) {
            Some(i) => self.map[i] = (name, value, false),
            None => {
                self.map.push((name, value, false));
                if self.map.len() > Self::LINEAR {
                    if self.index.is_empty() {
                        for (i, e) in self.map.iter().enumerate() {
                            self.index.insert(e.0, i);
                        }
                    } else {
                        self.index.insert(name, self.map.len() - 1);
                    }
                }
            }
        }
    }

    /// Entries up to which a linear search is used.
    const LINEAR: usize = 16;

    fn find(&self, name: Sym) -> Option<usize> {
        if self.map.len() > Self::LINEAR {
            self.index.get(&name).copied()
        } else {
            self.map.iter().position(|e| e.0 == name)
        }
    }

    /// Marks the resolution final.
    pub fn set_final(&mut self, f: bool) {
        self.final_ = f;
    }

    /// Whether the resolver has an entry for `name`.
    pub fn contains(&self, name: Sym) -> bool {
        self.find(name).is_some()
    }
}

impl Resolver for MapResolver {
    fn resolve(&mut self, name: Sym, rk: &mut RecordKeeper) -> Option<Init> {
        let i = self.find(name)?;
        let (_, v, done) = &mut self.map[i];
        if *done {
            return Some(v.clone());
        }
        // Values may refer to other entries (template-argument defaults do).
        *done = true;
        let v = v.clone();
        let r = resolve(&v, self, rk);
        self.map[i].1 = r.clone();
        Some(r)
    }
    fn is_final(&self) -> bool {
        self.final_
    }
    fn current(&self) -> Option<(RecId, Init)> {
        self.current.clone()
    }
}

/// Resolves references between the fields of one record (the final resolution of a def).
pub struct RecordResolver {
    id: RecId,
    name: Init,
    // Records have few fields: a vector beats hashing here.
    fields: Vec<(Sym, Init)>,
    cache: Vec<(Sym, Option<Init>)>,
    stack: Vec<Sym>,
    /// Whether this is the final resolution.
    pub final_: bool,
}

impl RecordResolver {
    /// A resolver over the fields of record `id` as they are now.
    pub fn new(id: RecId, rk: &RecordKeeper) -> RecordResolver {
        let r = rk.get(id);
        let fields = r.values.iter().map(|v| (v.name, v.value.clone())).collect();
        RecordResolver {
            id,
            name: r.name.clone(),
            fields,
            cache: Vec::new(),
            stack: Vec::new(),
            final_: true,
        }
    }
}

impl Resolver for RecordResolver {
    fn resolve(&mut self, name: Sym, rk: &mut RecordKeeper) -> Option<Init> {
        if let Some((_, v)) = self.cache.iter().find(|(n, _)| *n == name) {
            return v.clone();
        }
        if self.stack.contains(&name) {
            return None;
        }
        let v = match self.fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v) {
            Some(v) if !v.is_unset() => {
                let v = v.clone();
                self.stack.push(name);
                let r = resolve(&v, self, rk);
                self.stack.pop();
                Some(r)
            }
            _ => None,
        };
        self.cache.push((name, v.clone()));
        v
    }
    fn is_final(&self) -> bool {
        self.final_
    }
    fn keep_unset_bits(&self) -> bool {
        true
    }
    fn current(&self) -> Option<(RecId, Init)> {
        Some((self.id, self.name.clone()))
    }
}

/// Hides some names from an inner resolver (the bound variables of `!foreach`, `!foldl`, `!filter`).
pub struct ShadowResolver<'a> {
    inner: &'a mut dyn Resolver,
    shadowed: Vec<Sym>,
}

impl<'a> ShadowResolver<'a> {
    /// Wraps `inner`, hiding `shadowed`.
    pub fn new(inner: &'a mut dyn Resolver, shadowed: Vec<Sym>) -> Self {
        ShadowResolver { inner, shadowed }
    }
}

impl Resolver for ShadowResolver<'_> {
    fn resolve(&mut self, name: Sym, rk: &mut RecordKeeper) -> Option<Init> {
        if self.shadowed.contains(&name) {
            None
        } else {
            self.inner.resolve(name, rk)
        }
    }
    fn is_final(&self) -> bool {
        self.inner.is_final()
    }
    fn keep_unset_bits(&self) -> bool {
        self.inner.keep_unset_bits()
    }
    fn current(&self) -> Option<(RecId, Init)> {
        self.inner.current()
    }
}

/// Whether `v` is a literal or a def, which every resolver leaves as it is.
/// Lists and dags of them are common (types, properties, signatures), and
/// skipping them spares a call, a clone, a comparison and a drop each.
#[inline]
fn is_leaf(v: &Init) -> bool {
    matches!(
        v,
        Init::Unset | Init::Bit(_) | Init::Int(_) | Init::Str(..) | Init::Def(_)
    )
}

/// Resolves every reference in `v` that `r` knows, folding what becomes foldable.
pub fn resolve(v: &Init, r: &mut dyn Resolver, rk: &mut RecordKeeper) -> Init {
    match v {
        Init::Unset | Init::Bit(_) | Init::Int(_) | Init::Str(..) | Init::Def(_) => v.clone(),
        Init::Bits(bs) => resolve_bits(bs, v, r, rk),
        Init::List(es, t) => match resolve_all(es, r, rk) {
            Some(out) => Init::List(out.into(), t.clone()),
            None => v.clone(),
        },
        Init::Dag(d) => resolve_dag(v, d, r, rk),
        Init::Var(var) => r.resolve(var.name, rk).unwrap_or_else(|| v.clone()),
        Init::VarBit(inner, i) => {
            let n = resolve(inner, r, rk);
            if ptr_same(&n, inner) {
                v.clone()
            } else {
                get_bit(&n, *i)
            }
        }
        Init::Field(f) => resolve_field(v, f, r, rk),
        Init::AnonClass(a) => resolve_anon(v, a, r, rk),
        Init::Op(o) => resolve_op(v, o, r, rk),
    }
}

// The arms below are out of line: `resolve` recurses through every value,
// and keeping its frame to the common arms (leaves, variables) makes each
// call's prologue and epilogue cheap.

#[inline(never)]
fn resolve_dag(
    v: &Init,
    d: &Rc<super::value::Dag>,
    r: &mut dyn Resolver,
    rk: &mut RecordKeeper,
) -> Init {
    let op = resolve(&d.op, r, rk);
    let mut changed = !ptr_same(&op, &d.op);
    // Built only from the first changed argument on: most dags are
    // already concrete, and resolving them should not copy them.
    let mut args: Option<Vec<(Init, Option<Rc<str>>)>> =
        changed.then(|| Vec::with_capacity(d.args.len()));
    for (i, (a, n)) in d.args.iter().enumerate() {
        if is_leaf(a) {
            if let Some(out) = &mut args {
                out.push((a.clone(), n.clone()));
            }
            continue;
        }
        let x = resolve(a, r, rk);
        match &mut args {
            Some(out) => out.push((x, n.clone())),
            None if !ptr_same(&x, a) => {
                changed = true;
                let mut out = Vec::with_capacity(d.args.len());
                out.extend_from_slice(&d.args[..i]);
                out.push((x, n.clone()));
                args = Some(out);
            }
            None => {}
        }
    }
    match args {
        Some(args) if changed => Init::Dag(Rc::new(super::value::Dag {
            op,
            op_name: d.op_name.clone(),
            args,
        })),
        _ => v.clone(),
    }
}

#[inline(never)]
fn resolve_field(v: &Init, f: &Rc<Field>, r: &mut dyn Resolver, rk: &mut RecordKeeper) -> Init {
    let n = resolve(&f.rec, r, rk);
    if ptr_same(&n, &f.rec) {
        return v.clone();
    }
    let cur = r.current().map(|c| c.0);
    fold_field(
        Init::Field(Rc::new(Field {
            rec: n,
            field: f.field,
            ty: f.ty.clone(),
        })),
        cur,
        rk,
    )
}

#[inline(never)]
fn resolve_anon(
    v: &Init,
    a: &Rc<super::value::AnonClass>,
    r: &mut dyn Resolver,
    rk: &mut RecordKeeper,
) -> Init {
    let mut changed = false;
    let mut args = Vec::with_capacity(a.args.len());
    for (n, x) in &a.args {
        let y = resolve(x, r, rk);
        changed |= !ptr_same(&y, x);
        args.push((*n, y));
    }
    if !changed {
        return v.clone();
    }
    inherit::fold_anon_class(a.class, args, a.positional, rk)
}

#[inline(never)]
fn resolve_op(v: &Init, o: &Rc<OpInit>, r: &mut dyn Resolver, rk: &mut RecordKeeper) -> Init {
    let a = &o.args;
    let mut args: Vec<Init> = Vec::with_capacity(a.len());
    match o.op {
        Op::If => {
            let c = resolve(&a[0], r, rk);
            if !ptr_same(&c, &a[0])
                && let Some(Init::Int(i)) = convert(&c, &Ty::Int, rk)
            {
                return resolve(if i != 0 { &a[1] } else { &a[2] }, r, rk);
            }
            args.push(c);
            args.push(resolve(&a[1], r, rk));
            args.push(resolve(&a[2], r, rk));
        }
        Op::Foreach | Op::Filter => {
            args.push(a[0].clone());
            args.push(resolve(&a[1], r, rk));
            let var = bound_var(&a[0], rk);
            let mut sr = ShadowResolver::new(r, vec![var]);
            args.push(resolve(&a[2], &mut sr, rk));
        }
        Op::Foldl => {
            args.push(resolve(&a[0], r, rk));
            args.push(resolve(&a[1], r, rk));
            args.push(a[2].clone());
            args.push(a[3].clone());
            let vars = vec![bound_var(&a[2], rk), bound_var(&a[3], rk)];
            let mut sr = ShadowResolver::new(r, vars);
            args.push(resolve(&a[4], &mut sr, rk));
        }
        _ => {
            for x in a {
                args.push(resolve(x, r, rk));
            }
        }
    }
    let changed = args.iter().zip(a.iter()).any(|(x, y)| !ptr_same(x, y));
    let fin = r.is_final();
    let needs_final = fin && matches!(o.op, Op::Cast | Op::Exists(_));
    if !changed && !needs_final {
        return v.clone();
    }
    let cur = r.current();
    fold(
        OpInit {
            op: o.op.clone(),
            args,
            ty: o.ty.clone(),
        },
        cur,
        fin,
        rk,
    )
}

/// The name of a bound variable (stored as a string in the operator).
pub fn bound_var(v: &Init, rk: &mut RecordKeeper) -> Sym {
    match v {
        Init::Str(s, _) => rk.interner.intern(s),
        Init::Var(var) => var.name,
        _ => rk.interner.intern(""),
    }
}

#[inline(never)]
fn resolve_bits(bs: &Rc<[Init]>, v: &Init, r: &mut dyn Resolver, rk: &mut RecordKeeper) -> Init {
    // Allocated at the first changed bit (see resolve_all).
    let mut out: Option<Vec<Init>> = None;
    let mut cached: Option<(Init, Init)> = None;
    for (k, b) in bs.iter().enumerate() {
        let nb = match b {
            Init::Bit(_) | Init::Unset => b.clone(),
            Init::VarBit(var, i) => {
                let resolved = match &cached {
                    Some((k, val)) if ptr_same(k, var) => val.clone(),
                    _ => {
                        let val = resolve(var, r, rk);
                        cached = Some(((**var).clone(), val.clone()));
                        val
                    }
                };
                get_bit(&resolved, *i)
            }
            other => get_bit(&resolve(other, r, rk), 0),
        };
        let nb = if nb.is_unset() && r.keep_unset_bits() {
            b.clone()
        } else {
            nb
        };
        match &mut out {
            Some(o) => o.push(nb),
            None if !ptr_same(&nb, b) => {
                let mut o = Vec::with_capacity(bs.len());
                o.extend_from_slice(&bs[..k]);
                o.push(nb);
                out = Some(o);
            }
            None => {}
        }
    }
    match out {
        Some(o) => Init::Bits(o.into()),
        None => v.clone(),
    }
}

/// Resolves each element; `None` when every element is unchanged, so that
/// resolving a concrete list allocates nothing (the common case).
#[inline(never)]
fn resolve_all(es: &[Init], r: &mut dyn Resolver, rk: &mut RecordKeeper) -> Option<Vec<Init>> {
    let mut out: Option<Vec<Init>> = None;
    for (i, e) in es.iter().enumerate() {
        if is_leaf(e) {
            if let Some(o) = &mut out {
                o.push(e.clone());
            }
            continue;
        }
        let n = resolve(e, r, rk);
        match &mut out {
            Some(o) => o.push(n),
            None if !ptr_same(&n, e) => {
                let mut o = Vec::with_capacity(es.len());
                o.extend_from_slice(&es[..i]);
                o.push(n);
                out = Some(o);
            }
            None => {}
        }
    }
    out
}

/// Cheap identity: same literal or same shared node.
pub fn ptr_same(a: &Init, b: &Init) -> bool {
    match (a, b) {
        (Init::Unset, Init::Unset) => true,
        (Init::Bit(x), Init::Bit(y)) => x == y,
        (Init::Int(x), Init::Int(y)) => x == y,
        (Init::Def(x), Init::Def(y)) => x == y,
        (Init::Str(x, f), Init::Str(y, g)) => f == g && (Rc::ptr_eq(x, y) || x == y),
        (Init::Bits(x), Init::Bits(y)) => Rc::ptr_eq(x, y),
        (Init::List(x, _), Init::List(y, _)) => Rc::ptr_eq(x, y),
        (Init::Dag(x), Init::Dag(y)) => Rc::ptr_eq(x, y),
        (Init::Var(x), Init::Var(y)) => Rc::ptr_eq(x, y) || (x.name == y.name && x.ty == y.ty),
        (Init::VarBit(x, i), Init::VarBit(y, j)) => i == j && ptr_same(x, y),
        (Init::Field(x), Init::Field(y)) => Rc::ptr_eq(x, y),
        (Init::Op(x), Init::Op(y)) => Rc::ptr_eq(x, y),
        (Init::AnonClass(x), Init::AnonClass(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

/// Folds a field access whose record is now known.
pub fn fold_field(v: Init, cur: Option<RecId>, rk: &mut RecordKeeper) -> Init {
    if let Init::Field(f) = &v
        && let Init::Def(id) = &f.rec
    {
        if Some(*id) == cur {
            let msg = format!(
                "attempting to access field '{}' of '{}' is a forbidden self-reference",
                rk.interner.name(f.field),
                rk.name_of(*id)
            );
            rk.error(msg);
            return v;
        }
        if let Some(val) = rk.get(*id).value(f.field)
            && val.value.is_concrete()
        {
            return val.value.clone();
        }
    }
    v
}

/// The type of a value (`None` for `?`, which has every type).
pub fn type_of(v: &Init, rk: &mut RecordKeeper) -> Option<Ty> {
    Some(match v {
        Init::Unset => return None,
        Init::Bit(_) | Init::VarBit(..) => Ty::Bit,
        Init::Bits(b) => Ty::Bits(b.len() as u32),
        Init::Int(_) => Ty::Int,
        Init::Str(..) => Ty::String,
        Init::List(_, t) => Ty::List(t.clone()),
        Init::Def(id) => rk.record_type(*id),
        Init::Dag(_) => Ty::Dag,
        Init::Var(var) => var.ty.clone(),
        Init::Field(f) => f.ty.clone(),
        Init::Op(o) => o.ty.clone(),
        Init::AnonClass(a) => rk.record_type(a.class),
    })
}

/// Bit `i` of a value (llvm-tblgen's `getBit`).
pub fn get_bit(v: &Init, i: u32) -> Init {
    match v {
        Init::Unset => Init::Unset,
        Init::Bit(_) => v.clone(),
        Init::Bits(b) => b.get(i as usize).cloned().unwrap_or(Init::Unset),
        Init::Int(x) => Init::Bit(i < 64 && (x >> i) & 1 != 0),
        Init::Var(var) if var.ty == Ty::Bit => v.clone(),
        Init::VarBit(..) => v.clone(),
        _ => {
            if let Init::Op(o) = v
                && o.ty == Ty::Bit
            {
                return v.clone();
            }
            Init::VarBit(Rc::new(v.clone()), i)
        }
    }
}

/// Whether an int fits a `bits<n>` field: as unsigned or as signed (llvm-tblgen
/// accepts -7..15 for bits<4>). For `bits<0>` llvm-tblgen's shift by -1 behaves
/// as a shift by 63 on the machines it runs on; we spell that out.
fn can_fit(v: i64, bits: u32) -> bool {
    if bits == 0 {
        return v == 0 || v >> 63 == -1;
    }
    bits >= 64 || (v >> bits) == 0 || (v >> (bits - 1)) == -1
}

/// Converts a value to a type without introducing a cast (llvm-tblgen's `convertInitializerTo`).
pub fn convert(v: &Init, ty: &Ty, rk: &mut RecordKeeper) -> Option<Init> {
    match v {
        Init::Unset => Some(Init::Unset),
        Init::Bit(b) => match ty {
            Ty::Bit => Some(v.clone()),
            Ty::Int => Some(Init::Int(*b as i64)),
            Ty::Bits(1) => Some(Init::Bits(Rc::from([v.clone()]))),
            _ => None,
        },
        Init::Bits(bs) => match ty {
            Ty::Bits(n) if *n as usize == bs.len() => Some(v.clone()),
            Ty::Bit if bs.len() == 1 => Some(bs[0].clone()),
            Ty::Int => {
                let mut r: i64 = 0;
                for (i, b) in bs.iter().enumerate() {
                    match b {
                        Init::Bit(x) => {
                            if *x && i < 64 {
                                r |= 1i64 << i;
                            }
                        }
                        _ => return None,
                    }
                }
                Some(Init::Int(r))
            }
            _ => None,
        },
        Init::Int(x) => match ty {
            Ty::Int => Some(v.clone()),
            Ty::Bit => (*x == 0 || *x == 1).then_some(Init::Bit(*x != 0)),
            Ty::Bits(n) => can_fit(*x, *n).then(|| {
                Init::Bits(
                    (0..*n)
                        .map(|i| Init::Bit(i < 64 && (x >> i) & 1 != 0))
                        .collect(),
                )
            }),
            _ => None,
        },
        Init::Str(..) => matches!(ty, Ty::String).then(|| v.clone()),
        Init::List(es, et) => match ty {
            Ty::List(target) => {
                if **et == **target {
                    return Some(v.clone());
                }
                let mut changed = false;
                let mut out = Vec::with_capacity(es.len());
                for e in es.iter() {
                    let c = convert(e, target, rk)?;
                    changed |= !ptr_same(&c, e);
                    out.push(c);
                }
                if changed {
                    Some(Init::List(out.into(), target.clone()))
                } else {
                    Some(v.clone())
                }
            }
            _ => None,
        },
        Init::Def(_) => {
            let t = type_of(v, rk)?;
            (matches!(ty, Ty::Record(_)) && type_is_a(&t, ty, rk)).then(|| v.clone())
        }
        Init::Dag(_) => matches!(ty, Ty::Dag).then(|| v.clone()),
        _ => {
            let t = type_of(v, rk)?;
            if &t == ty || type_is_a(&t, ty, rk) {
                return Some(v.clone());
            }
            if t == Ty::Bit && *ty == Ty::Bits(1) {
                return Some(Init::Bits(Rc::from([v.clone()])));
            }
            None
        }
    }
}

/// Converts a value to a type, introducing `!cast` for unresolved values
/// whose type is convertible (llvm-tblgen's `getCastTo`).
pub fn cast_to(v: &Init, ty: &Ty, rk: &mut RecordKeeper) -> Option<Init> {
    let Some(t) = type_of(v, rk) else {
        return Some(Init::Unset);
    };
    if &t == ty || type_is_a(&t, ty, rk) {
        return Some(v.clone());
    }
    if let Some(c) = convert(v, ty, rk) {
        return Some(c);
    }
    if !type_is_convertible(&t, ty, rk) {
        return None;
    }
    Some(fold(
        OpInit {
            op: Op::Cast,
            args: vec![v.clone()],
            ty: ty.clone(),
        },
        None,
        false,
        rk,
    ))
}

/// Stores `v` into a field of type `ty`: cast, and widened to a bit list for `bits` fields.
pub fn value_for_field(v: &Init, ty: &Ty, rk: &mut RecordKeeper) -> Option<Init> {
    let c = cast_to(v, ty, rk)?;
    if let Ty::Bits(n) = ty
        && !matches!(c, Init::Bits(_))
    {
        return Some(Init::Bits((0..*n).map(|i| get_bit(&c, i)).collect()));
    }
    Some(c)
}

/// Joins two strings; the result is code if either is.
pub fn concat_strings(a: &Init, b: &Init) -> Option<Init> {
    match (a, b) {
        (Init::Str(x, f), Init::Str(y, g)) => {
            let fmt = if *f == StrFormat::Code || *g == StrFormat::Code {
                StrFormat::Code
            } else {
                StrFormat::String
            };
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Some(Init::Str(Rc::from(s), fmt))
        }
        _ => None,
    }
}
