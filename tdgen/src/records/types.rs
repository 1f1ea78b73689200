//! TableGen's types and the rules for when one converts to another (llvm-tblgen's `RecTy`).

use super::RecId;
use std::fmt::Write as _;
use std::rc::Rc;

/// A TableGen type. `code` is `string` (as in LLVM since 12); record types
/// are sets of classes, kept sorted by class id, with no class in the set a
/// superclass of another.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `bit`
    Bit,
    /// `bits<n>`
    Bits(u32),
    /// `int`
    Int,
    /// `string` and `code`
    String,
    /// `dag`
    Dag,
    /// `list<T>`
    List(Rc<Ty>),
    /// A record type: the intersection of these classes (empty: any record).
    Record(Rc<[RecId]>),
}

impl Ty {
    /// `list<self>`
    pub fn list_of(self) -> Ty {
        Ty::List(Rc::new(self))
    }

    /// The element type of a list type.
    pub fn element(&self) -> Option<&Ty> {
        match self {
            Ty::List(t) => Some(t),
            _ => None,
        }
    }
}

/// What the type rules need to know about classes.
pub trait ClassInfo {
    /// Whether `class` is `sup` or has `sup` among its (transitive) superclasses.
    fn is_subclass_of(&self, class: RecId, sup: RecId) -> bool;
    /// The name of a class or record.
    fn record_name(&self, id: RecId) -> String;
    /// The direct superclasses of a class, in order.
    fn direct_superclasses(&self, class: RecId) -> Vec<RecId>;
}

/// Whether a value of type `a` is also of type `b` (LLVM's `typeIsA`).
pub fn type_is_a(a: &Ty, b: &Ty, ci: &dyn ClassInfo) -> bool {
    match (a, b) {
        (Ty::List(x), Ty::List(y)) => type_is_a(x, y, ci),
        (Ty::Record(x), Ty::Record(y)) => y
            .iter()
            .all(|&c| x.iter().any(|&s| ci.is_subclass_of(s, c))),
        _ => a == b,
    }
}

/// Whether a value of type `a` can be converted to `b` (LLVM's `typeIsConvertibleTo`).
pub fn type_is_convertible(a: &Ty, b: &Ty, ci: &dyn ClassInfo) -> bool {
    match (b, a) {
        (Ty::Bit, Ty::Bit | Ty::Int) => true,
        (Ty::Bit, Ty::Bits(1)) => true,
        (Ty::Bits(n), Ty::Bits(m)) => n == m,
        (Ty::Bits(_), Ty::Int) => true,
        (Ty::Bits(1), Ty::Bit) => true,
        (Ty::Int, Ty::Bit | Ty::Bits(_) | Ty::Int) => true,
        (Ty::String, Ty::String) => true,
        (Ty::Dag, Ty::Dag) => true,
        (Ty::List(x), Ty::List(y)) => type_is_convertible(y, x, ci),
        (Ty::Record(_), Ty::Record(_)) => type_is_a(a, b, ci),
        _ => false,
    }
}

/// The most specific type both `a` and `b` convert to (LLVM's `resolveTypes`).
pub fn resolve_types(a: &Ty, b: &Ty, ci: &dyn ClassInfo) -> Option<Ty> {
    if type_is_convertible(a, b, ci) {
        return Some(b.clone());
    }
    if type_is_convertible(b, a, ci) {
        return Some(a.clone());
    }
    match (a, b) {
        (Ty::Record(x), Ty::Record(y)) => {
            // The common superclasses, minimal set.
            let mut common = Vec::new();
            collect_common(x, y, ci, &mut common);
            Some(record_ty(common, ci))
        }
        (Ty::List(x), Ty::List(y)) => resolve_types(x, y, ci).map(Ty::list_of),
        _ => None,
    }
}

fn collect_common(x: &[RecId], y: &[RecId], ci: &dyn ClassInfo, out: &mut Vec<RecId>) {
    // Walk x's classes and their superclasses; keep those every class set of y reaches.
    let mut stack: Vec<RecId> = x.to_vec();
    let mut seen = Vec::new();
    while let Some(c) = stack.pop() {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        if y.iter().any(|&d| ci.is_subclass_of(d, c)) {
            out.push(c);
        } else {
            stack.extend(ci.direct_superclasses(c));
        }
    }
}

/// Builds a record type from a class set: drops classes that are superclasses
/// of others in the set and sorts.
pub fn record_ty(mut classes: Vec<RecId>, ci: &dyn ClassInfo) -> Ty {
    classes.sort();
    classes.dedup();
    let keep: Vec<RecId> = classes
        .iter()
        .copied()
        .filter(|&c| !classes.iter().any(|&d| d != c && ci.is_subclass_of(d, c)))
        .collect();
    Ty::Record(keep.into())
}

/// Prints a type as llvm-tblgen does.
pub fn type_string(t: &Ty, ci: &dyn ClassInfo) -> String {
    let mut s = String::new();
    write_type(&mut s, t, ci);
    s
}

/// Appends the type as [`type_string`] writes it.
pub(crate) fn write_type(s: &mut String, t: &Ty, ci: &dyn ClassInfo) {
    match t {
        Ty::Bit => s.push_str("bit"),
        Ty::Bits(n) => {
            let _ = write!(s, "bits<{n}>");
        }
        Ty::Int => s.push_str("int"),
        Ty::String => s.push_str("string"),
        Ty::Dag => s.push_str("dag"),
        Ty::List(e) => {
            s.push_str("list<");
            write_type(s, e, ci);
            s.push('>');
        }
        Ty::Record(cs) => {
            if cs.len() == 1 {
                s.push_str(&ci.record_name(cs[0]));
            } else {
                s.push('{');
                for (i, c) in cs.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    s.push_str(&ci.record_name(*c));
                }
                s.push('}');
            }
        }
    }
}
