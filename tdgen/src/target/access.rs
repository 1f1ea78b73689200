//! Typed reads of record fields for the semantic layer, each failure a diagnostic at the record.

use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId, RecordKeeper};
use std::rc::Rc;

/// Reads fields of records, reporting missing or mistyped fields at the record's location.
pub struct Fields<'a> {
    /// The records.
    pub rk: &'a RecordKeeper,
}

impl<'a> Fields<'a> {
    /// The location of a record (its first `!locs` entry).
    pub fn loc(&self, id: RecId) -> Span {
        self.rk.get(id).locs.first().copied().unwrap_or_default()
    }

    /// The `let` that set a field of the record (in it or in a class it
    /// inherits), if a `let` did.
    pub fn let_span(&self, id: RecId, field: &str) -> Option<Span> {
        let sym = self.rk.interner.get(field)?;
        let at = self.rk.get(id).value(sym)?.let_at;
        (at.file != crate::diag::FileId::NONE).then_some(at)
    }

    /// An error about the value of one of `fields` of a record: at the
    /// `let` that set the first of them a `let` set, with the record as a
    /// second place; at the record when no `let` set any.
    pub fn error_at_let(&self, id: RecId, fields: &[&str], msg: String) -> Diagnostic {
        match fields.iter().find_map(|f| self.let_span(id, f)) {
            Some(at) => Diagnostic::error(Kind::Semantic, at, msg)
                .with_label("set here")
                .with_secondary(self.loc(id), format!("in '{}'", self.name(id))),
            None => Diagnostic::error(Kind::Semantic, self.loc(id), msg),
        }
    }

    /// The record's name.
    pub fn name(&self, id: RecId) -> String {
        self.rk.name_of(id)
    }

    /// A field's value, if the record has the field.
    pub fn value(&self, id: RecId, field: &str) -> Option<&'a Init> {
        let sym = self.rk.interner.get(field)?;
        self.rk.get(id).value(sym).map(|v| &v.value)
    }

    fn missing(&self, id: RecId, field: &str, what: &str) -> Diagnostic {
        Diagnostic::error(
            Kind::Semantic,
            self.loc(id),
            format!(
                "record '{}' needs field '{field}' to be {what}",
                self.name(id)
            ),
        )
    }

    /// An `int` (or `bits`/`bit` convertible) field.
    pub fn int(&self, id: RecId, field: &str) -> Result<i64, Diagnostic> {
        match self.value(id, field) {
            Some(Init::Int(i)) => Ok(*i),
            Some(Init::Bit(b)) => Ok(*b as i64),
            Some(Init::Bits(bs)) => {
                let mut v = 0i64;
                for (i, b) in bs.iter().enumerate() {
                    match b {
                        Init::Bit(true) if i < 64 => v |= 1 << i,
                        Init::Bit(_) => {}
                        _ => return Err(self.missing(id, field, "a fully set bits value")),
                    }
                }
                Ok(v)
            }
            _ => Err(self.missing(id, field, "an int")),
        }
    }

    /// An `int` field, or `None` when unset or absent.
    pub fn opt_int(&self, id: RecId, field: &str) -> Option<i64> {
        match self.value(id, field) {
            None | Some(Init::Unset) => None,
            _ => self.int(id, field).ok(),
        }
    }

    /// A `bit` field (absent or unset reads as false).
    pub fn bit(&self, id: RecId, field: &str) -> bool {
        matches!(
            self.value(id, field),
            Some(Init::Bit(true)) | Some(Init::Int(1))
        ) || matches!(self.value(id, field), Some(Init::Bits(b)) if matches!(b.first(), Some(Init::Bit(true))))
    }

    /// A `string` or `code` field (absent or unset reads as empty).
    pub fn string(&self, id: RecId, field: &str) -> String {
        match self.value(id, field) {
            Some(Init::Str(s, _)) => s.to_string(),
            _ => String::new(),
        }
    }

    /// A list field's elements (absent or unset reads as empty).
    pub fn list(&self, id: RecId, field: &str) -> Rc<[Init]> {
        match self.value(id, field) {
            Some(Init::List(es, _)) => es.clone(),
            _ => Rc::from([]),
        }
    }

    /// A `list<SomeClass>` field as record ids.
    pub fn list_defs(&self, id: RecId, field: &str) -> Result<Vec<RecId>, Diagnostic> {
        self.list(id, field)
            .iter()
            .map(|e| match e {
                Init::Def(d) => Ok(*d),
                _ => Err(self.missing(id, field, "a list of records")),
            })
            .collect()
    }

    /// A `list<int>` field.
    pub fn list_ints(&self, id: RecId, field: &str) -> Result<Vec<i64>, Diagnostic> {
        self.list(id, field)
            .iter()
            .map(|e| match e {
                Init::Int(i) => Ok(*i),
                _ => Err(self.missing(id, field, "a list of ints")),
            })
            .collect()
    }

    /// A record-valued field (`None` when unset or absent).
    pub fn opt_def(&self, id: RecId, field: &str) -> Option<RecId> {
        match self.value(id, field) {
            Some(Init::Def(d)) => Some(*d),
            _ => None,
        }
    }

    /// Whether the record derives from the class with this name.
    pub fn is_a(&self, id: RecId, class: &str) -> bool {
        self.rk
            .class(class)
            .is_some_and(|c| self.rk.get(id).is_subclass_of(c))
    }
}

/// llvm-tblgen's numeric-aware name order (`StringRef::compare_numeric`):
/// runs of digits compare as numbers, everything else byte by byte.
pub fn compare_numeric(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        if x[i].is_ascii_digit() && y[j].is_ascii_digit() {
            let si = i;
            while i < x.len() && x[i].is_ascii_digit() {
                i += 1;
            }
            let sj = j;
            while j < y.len() && y[j].is_ascii_digit() {
                j += 1;
            }
            // Longer digit runs are larger numbers (leading zeros aside, as in LLVM).
            let (lx, ly) = (i - si, j - sj);
            if lx != ly {
                return lx.cmp(&ly);
            }
            match x[si..i].cmp(&y[sj..j]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        if x[i] != y[j] {
            return x[i].cmp(&y[j]);
        }
        i += 1;
        j += 1;
    }
    (x.len() - i).cmp(&(y.len() - j))
}

/// llvm-tblgen's register order (`LessRecordRegister`): position order, then the
/// number of alternating alpha/digit parts, then the alpha parts as strings, then
/// the digit parts as numbers (shorter first).
pub fn compare_register_names(a: (i64, &str), b: (i64, &str)) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    if a.0 != b.0 {
        return a.0.cmp(&b.0);
    }
    let pa = parts(a.1);
    let pb = parts(b.1);
    if pa.len() != pb.len() {
        return pa.len().cmp(&pb.len());
    }
    for k in (0..pa.len()).step_by(2) {
        match pa[k].cmp(pb[k]) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    for k in (1..pa.len()).step_by(2) {
        if pa[k].len() != pb[k].len() {
            return pa[k].len().cmp(&pb[k].len());
        }
        let (x, y) = (
            pa[k].parse::<u64>().unwrap_or(0),
            pb[k].parse::<u64>().unwrap_or(0),
        );
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

fn parts(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=b.len() {
        if i == b.len() || b[i].is_ascii_digit() != b[start].is_ascii_digit() {
            out.push(&s[start..i]);
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering::*;

    #[test]
    fn register_order_is_llvms() {
        let mut v = vec!["R8B", "AX", "R8", "AL", "AH", "R10", "R9"];
        v.sort_by(|a, b| compare_register_names((0, a), (0, b)));
        assert_eq!(v, ["AH", "AL", "AX", "R8", "R9", "R10", "R8B"]);
    }

    #[test]
    fn numeric_order_compares_digit_runs_as_numbers() {
        assert_eq!(compare_numeric("sub_2", "sub_10"), Less);
        assert_eq!(compare_numeric("Hvx64", "Hvx128"), Less);
        assert_eq!(compare_numeric("a", "a"), Equal);
    }
}
