//! Records (classes and defs), their fields, and the keeper that owns them all.

use super::RecId;
use super::types::{ClassInfo, Ty, record_ty};
use super::value::Init;
use crate::diag::{Diagnostic, Span};
use crate::syntax::ast::{Interner, Sym};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// One field of a record.
#[derive(Clone, Debug)]
pub struct RecordVal {
    /// The field name (template arguments use the qualified `Class:arg`).
    pub name: Sym,
    /// The declared type.
    pub ty: Ty,
    /// The current value.
    pub value: Init,
    /// Declared with `field` (may stay non-concrete in a def).
    pub is_field: bool,
    /// A template argument rather than a field.
    pub is_template_arg: bool,
    /// Where it was declared.
    pub loc: Span,
    /// The `let` that set the current value, in the record or in a class
    /// it inherits (file [`crate::FileId::NONE`] when no `let` did): errors
    /// about the value point there.
    pub let_at: Span,
}

/// The `let_at` of a value no `let` set.
pub(crate) const NOT_SET_BY_LET: Span = Span {
    file: crate::diag::FileId::NONE,
    start: 0,
    end: 0,
};

/// What a record is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// A `class` (or the argument record of a multiclass).
    Class,
    /// A named `def`.
    Def,
    /// An anonymous def (`def : ...`, or an anonymous class instantiation).
    AnonymousDef,
    /// The argument record of a multiclass.
    MultiClass,
}

/// An assertion attached to a record, checked when the def is complete.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// The `assert` statement.
    pub loc: Span,
    /// The condition.
    pub cond: Init,
    /// The message.
    pub message: Init,
}

/// A class or a def.
#[derive(Clone, Debug)]
pub struct Record {
    /// The name; a string once concrete (an expression in multiclass prototypes).
    pub name: Init,
    /// Where it was defined (more than one for defs made by `defm`).
    pub locs: Vec<Span>,
    /// Fields and template arguments, in declaration order.
    pub values: Vec<RecordVal>,
    /// Template argument names (qualified), in order.
    pub template_args: Vec<Sym>,
    /// All superclasses, transitive, each after its own superclasses.
    pub superclasses: Vec<(RecId, Span)>,
    /// Class, def or anonymous def.
    pub kind: RecordKind,
    /// Assertions to check when complete.
    pub assertions: Vec<Assertion>,
    /// `dump` statements to run when complete.
    pub dumps: Vec<(Span, Init)>,
}

impl Record {
    /// A new empty record.
    pub fn new(name: Init, loc: Span, kind: RecordKind) -> Record {
        Record {
            name,
            locs: vec![loc],
            values: Vec::new(),
            template_args: Vec::new(),
            superclasses: Vec::new(),
            kind,
            assertions: Vec::new(),
            dumps: Vec::new(),
        }
    }

    /// Whether this is a class.
    pub fn is_class(&self) -> bool {
        self.kind == RecordKind::Class
    }

    /// The field with this name.
    pub fn value(&self, name: Sym) -> Option<&RecordVal> {
        self.values.iter().find(|v| v.name == name)
    }

    /// The field with this name, mutably.
    pub fn value_mut(&mut self, name: Sym) -> Option<&mut RecordVal> {
        self.values.iter_mut().find(|v| v.name == name)
    }

    /// Whether `name` is one of this record's template arguments.
    pub fn is_template_arg(&self, name: Sym) -> bool {
        self.template_args.contains(&name)
    }

    /// The name as a string, when concrete.
    pub fn name_str(&self) -> Option<&Rc<str>> {
        match &self.name {
            Init::Str(s, _) => Some(s),
            _ => None,
        }
    }

    /// Whether `class` is among the superclasses.
    pub fn is_subclass_of(&self, class: RecId) -> bool {
        self.superclasses.iter().any(|&(c, _)| c == class)
    }
}

/// Every record of a run: classes, defs, global variables, and bookkeeping
/// shared by the evaluator (anonymous numbering, instantiation cache).
#[derive(Default)]
pub struct RecordKeeper {
    /// Interned names.
    pub interner: Interner,
    /// All records by id (classes, defs, and records made while evaluating).
    pub records: Vec<Record>,
    /// Classes by name.
    pub classes: HashMap<Sym, RecId>,
    /// Classes in definition order.
    pub class_order: Vec<RecId>,
    /// Concrete defs by name.
    pub defs: HashMap<Rc<str>, RecId>,
    /// Defs in definition order.
    pub def_order: Vec<RecId>,
    /// `deftype` aliases.
    pub type_aliases: HashMap<Sym, Ty>,
    /// Top-level `defvar`s.
    pub globals: HashMap<Sym, Init>,
    pub(crate) anon_counter: u64,
    pub(crate) anon_cache: HashMap<String, RecId>,
    pub(crate) anon_depth: usize,
    /// Scratch buffer for anonymous-instance cache keys (see `fold_anon_class`).
    pub(crate) anon_key: String,
    pub(crate) type_cache: Vec<Option<Ty>>,
    /// Diagnostics found while folding and resolving.
    pub diags: Vec<Diagnostic>,
    /// The source files the records were read from.
    pub sources: crate::diag::SourceMap,
    /// The location errors found while folding are reported at.
    pub(crate) cur_loc: Span,
    /// What this run has spent of [`super::limits`]' budgets.
    pub(crate) budget: Budget,
    /// Names whose definition failed (see [`Poison`]).
    pub(crate) poison: Poison,
}

/// Work and memory spent, counted against [`super::limits`].
#[derive(Default)]
pub(crate) struct Budget {
    /// Records made (defs, anonymous records, loop and multiclass copies).
    pub(crate) records: usize,
    /// Loop iterations expanded.
    pub(crate) iterations: usize,
    /// String bytes and list elements (16 bytes each) built by operators.
    pub(crate) built_bytes: usize,
    /// A limit was exceeded: evaluation stops.
    pub(crate) exceeded: bool,
}

/// What the help of every limit error says.
const LIMIT_HELP: &str = "tdgen's limits (tdgen::records::limits) are far above what real targets \
    use: a value or loop this large is almost always a mistake (a wrong range bound, a value \
    doubled in a loop)";

/// Records, classes, multiclasses and variables whose definition failed.
///
/// A later reference to one of them is an error that follows from the
/// first: it is marked so ([`Diagnostic::follows_from_earlier`]) and the
/// loader shows the first error alone. A def whose name is computed
/// (`R#i` in a loop) poisons the literal prefix of the name.
#[derive(Default)]
pub(crate) struct Poison {
    names: rustc_hash::FxHashSet<Rc<str>>,
    prefixes: Vec<Rc<str>>,
    /// Classes whose definition failed (registered, but missing what
    /// followed the error): errors in records that inherit them follow.
    pub(crate) classes: rustc_hash::FxHashSet<Sym>,
    /// Multiclasses whose body had an error: a `defm` of one makes fewer
    /// records than written, so the `defm`'s name prefix is poisoned.
    pub(crate) multiclasses: rustc_hash::FxHashSet<Sym>,
}

impl Poison {
    /// Marks a name whose definition failed.
    pub(crate) fn name(&mut self, name: &str) {
        if !self.names.contains(name) {
            self.names.insert(Rc::from(name));
        }
    }

    /// Marks every name: a failed statement defined records whose names are unknown.
    pub(crate) fn every_name(&mut self) {
        self.prefixes.clear();
        self.prefixes.push(Rc::from(""));
    }

    /// Marks every name starting with `prefix` (a def named by an expression that starts with it).
    pub(crate) fn prefix(&mut self, prefix: &str) {
        if !self.prefixes.iter().any(|p| prefix.starts_with(&**p)) {
            self.prefixes.push(Rc::from(prefix));
        }
    }

    /// Whether a reference to `name` follows from a failed definition.
    pub(crate) fn covers(&self, name: &str) -> bool {
        self.names.contains(name) || self.prefixes.iter().any(|p| name.starts_with(&**p))
    }

    /// Whether no record or variable name is poisoned.
    pub(crate) fn is_empty(&self) -> bool {
        self.names.is_empty() && self.prefixes.is_empty()
    }
}

impl RecordKeeper {
    /// The record with this id.
    pub fn get(&self, id: RecId) -> &Record {
        &self.records[id.0 as usize]
    }

    /// The record with this id, mutably.
    pub fn get_mut(&mut self, id: RecId) -> &mut Record {
        self.type_cache[id.0 as usize] = None;
        &mut self.records[id.0 as usize]
    }

    /// Stores a record and returns its id.
    pub fn push(&mut self, r: Record) -> RecId {
        self.records.push(r);
        self.type_cache.push(None);
        RecId(self.records.len() as u32 - 1)
    }

    /// The class with this name.
    pub fn class(&self, name: &str) -> Option<RecId> {
        self.interner
            .get(name)
            .and_then(|s| self.classes.get(&s).copied())
    }

    /// The class whose name a record-name value spells.
    pub fn class_of_record_name(&self, name: &Init) -> Option<RecId> {
        match name {
            Init::Str(s, _) => self.class(s),
            _ => None,
        }
    }

    /// The def with this name.
    pub fn def(&self, name: &str) -> Option<RecId> {
        self.defs.get(name).copied()
    }

    /// All defs that derive from the class, in definition order.
    pub fn derived_defs(&self, class: &str) -> Vec<RecId> {
        match self.class(class) {
            Some(c) => self
                .def_order
                .iter()
                .copied()
                .filter(|&d| self.get(d).is_subclass_of(c))
                .collect(),
            None => Vec::new(),
        }
    }

    /// Reports an evaluation error at the current location.
    pub fn error(&mut self, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(
            crate::diag::Kind::Eval,
            self.cur_loc,
            msg,
        ));
    }

    /// Reports a reference to `name` that failed: an error that follows
    /// from an earlier one when `name`'s own definition failed.
    pub(crate) fn error_about(&mut self, name: &str, msg: impl Into<String>) {
        let d = Diagnostic::error(crate::diag::Kind::Undefined, self.cur_loc, msg);
        // Reported once: later uses of the same name follow from this error.
        let d = if self.poison.covers(name) {
            d.following()
        } else {
            self.poison.name(name);
            match crate::suggest::for_record_name(name, self, []) {
                Some(h) => d.with_help(h),
                None => d,
            }
        };
        self.diags.push(d);
    }

    /// An error for an exceeded limit at `span`; evaluation stops after it
    /// (and a limit exceeded again before it has stopped follows from the first).
    pub(crate) fn limit_error(&mut self, span: Span, msg: impl Into<String>) -> Diagnostic {
        let d = Diagnostic::error(crate::diag::Kind::Limit, span, msg).with_help(LIMIT_HELP);
        if std::mem::replace(&mut self.budget.exceeded, true) {
            d.following()
        } else {
            d
        }
    }

    /// Reports an exceeded limit at the current location; evaluation stops after it.
    pub(crate) fn over_limit(&mut self, msg: impl Into<String>) {
        let d = self.limit_error(self.cur_loc, msg);
        self.diags.push(d);
    }

    /// Counts `bytes` built by an operator (a string's length, or 16 per
    /// list element) against [`super::limits::MAX_BUILT_BYTES`]; false, with
    /// the error reported, once the budget is spent.
    pub(crate) fn spend_built(&mut self, what: &str, bytes: usize) -> bool {
        match self.spend_built_or_say(what, bytes) {
            None => true,
            Some(msg) => {
                self.over_limit(msg);
                false
            }
        }
    }

    /// Counts `bytes` as [`RecordKeeper::spend_built`] does; the error
    /// message, for the caller to place, once the budget is spent.
    pub(crate) fn spend_built_or_say(&mut self, what: &str, bytes: usize) -> Option<String> {
        self.budget.built_bytes = self.budget.built_bytes.saturating_add(bytes);
        (self.budget.built_bytes > super::limits::MAX_BUILT_BYTES).then(|| {
            format!(
                "{what}: the strings and lists built so far pass {} MiB (records::limits::MAX_BUILT_BYTES)",
                super::limits::MAX_BUILT_BYTES >> 20
            )
        })
    }

    /// Whether a string of `len` bytes may be built by `what`; reports the
    /// error when not (longer than [`super::limits::MAX_STRING`], or past the
    /// budget of [`super::limits::MAX_BUILT_BYTES`]).
    pub(crate) fn may_build_string(&mut self, what: &str, len: usize) -> bool {
        match self.string_over_limit(what, len) {
            None => true,
            Some(msg) => {
                self.over_limit(msg);
                false
            }
        }
    }

    /// The check of [`RecordKeeper::may_build_string`]: the error message,
    /// for the caller to place, when the string may not be built.
    pub(crate) fn string_over_limit(&mut self, what: &str, len: usize) -> Option<String> {
        if len > super::limits::MAX_STRING {
            return Some(format!(
                "{what} builds a string of {len} bytes; the limit is {} MiB (records::limits::MAX_STRING)",
                super::limits::MAX_STRING >> 20
            ));
        }
        self.spend_built_or_say(what, len)
    }

    /// Whether a list of `len` elements may be built by `what` (see [`RecordKeeper::may_build_string`]).
    pub(crate) fn may_build_list(&mut self, what: &str, len: usize) -> bool {
        if len > super::limits::MAX_LIST {
            self.over_limit(format!(
                "{what} builds a list of {len} elements; the limit is {} (records::limits::MAX_LIST)",
                super::limits::MAX_LIST
            ));
            return false;
        }
        self.spend_built(what, len.saturating_mul(16))
    }

    /// The next `anonymous_N` name.
    pub fn new_anonymous_name(&mut self) -> Rc<str> {
        let n = self.anon_counter;
        self.anon_counter += 1;
        Rc::from(format!("anonymous_{n}"))
    }

    /// The type of a reference to a record: the set of its direct superclasses
    /// (for a class, the class itself).
    pub fn record_type(&mut self, id: RecId) -> Ty {
        if let Some(t) = &self.type_cache[id.0 as usize] {
            return t.clone();
        }
        let r = self.get(id);
        let t = if r.is_class() {
            Ty::Record(Rc::from([id]))
        } else {
            let classes: Vec<RecId> = r.superclasses.iter().map(|&(c, _)| c).collect();
            record_ty(classes, self)
        };
        self.type_cache[id.0 as usize] = Some(t.clone());
        t
    }

    /// The display name of a record.
    pub fn name_of(&self, id: RecId) -> String {
        match &self.get(id).name {
            Init::Str(s, _) => s.to_string(),
            other => super::print::to_string(other, self),
        }
    }
}

impl ClassInfo for RecordKeeper {
    fn is_subclass_of(&self, class: RecId, sup: RecId) -> bool {
        class == sup || self.get(class).is_subclass_of(sup)
    }

    fn record_name(&self, id: RecId) -> String {
        self.name_of(id)
    }

    fn direct_superclasses(&self, class: RecId) -> Vec<RecId> {
        let sc: Vec<RecId> = self
            .get(class)
            .superclasses
            .iter()
            .map(|&(c, _)| c)
            .collect();
        sc.iter()
            .copied()
            .filter(|&c| !sc.iter().any(|&d| d != c && self.get(d).is_subclass_of(c)))
            .collect()
    }
}
