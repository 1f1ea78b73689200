//! Register set expressions (llvm-tblgen's SetTheory): `add sub and shl trunc rotl rotr decimate interleave sequence`.
//!
//! A set is ordered and duplicate-free (first occurrence wins); that order is a
//! class's allocation order 0. A def that is a register class, callee-saved set
//! or register tuple set stands for its expansion.

use super::access::Fields;
use crate::diag::{Diagnostic, Kind, Span};
use crate::records::{Init, RecId};
use rustc_hash::FxHashMap as HashMap;

/// An element of a set: a def, or a register synthesized by a `RegisterTuples` def.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elem {
    /// A register (or other) def.
    Def(RecId),
    /// The n-th synthesized tuple register.
    Tuple(u32),
}

/// A register synthesized from a `RegisterTuples` def.
#[derive(Clone, Debug)]
pub struct TupleReg {
    /// `R0_R1`-style name.
    pub name: String,
    /// The tuple def.
    pub def: RecId,
    /// The first register of the tuple (its fields are copied).
    pub proto: RecId,
    /// The sub-registers (the zipped elements).
    pub subregs: Vec<Elem>,
    /// The tuple's assembler name.
    pub asm_name: String,
}

/// An ordered, duplicate-free set of elements.
#[derive(Default, Clone, Debug)]
pub struct OrderedSet {
    /// Elements in first-occurrence order.
    pub items: Vec<Elem>,
    seen: rustc_hash::FxHashSet<Elem>,
}

impl OrderedSet {
    /// Adds an element unless present.
    pub fn insert(&mut self, e: Elem) {
        if self.seen.insert(e) {
            self.items.push(e);
        }
    }

    /// Whether an element is present.
    pub fn contains(&self, e: &Elem) -> bool {
        self.seen.contains(e)
    }
}

/// Evaluates set expressions, caching the expansion of each class, callee-saved set and tuple def.
pub struct Sets<'a> {
    f: &'a Fields<'a>,
    expansions: HashMap<RecId, Vec<Elem>>,
    expanding: rustc_hash::FxHashSet<RecId>,
    /// Every register synthesized from tuples, in creation order.
    pub tuples: Vec<TupleReg>,
    tuple_names: HashMap<String, u32>,
    /// Errors found.
    pub diags: Vec<Diagnostic>,
}

impl<'a> Sets<'a> {
    /// A set evaluator over the records.
    pub fn new(f: &'a Fields<'a>) -> Self {
        Sets {
            f,
            expansions: HashMap::default(),
            expanding: Default::default(),
            tuples: Vec::new(),
            tuple_names: HashMap::default(),
            diags: Vec::new(),
        }
    }

    fn error(&mut self, loc: Span, msg: String) {
        self.diags.push(Diagnostic::error(Kind::Semantic, loc, msg));
    }

    /// The expansion of a set-valued def, or `None` if the def is a plain element.
    pub fn expand(&mut self, id: RecId) -> Option<Vec<Elem>> {
        if self.expanding.contains(&id) {
            let m = format!(
                "the set expression of '{}' refers to '{}' itself",
                self.f.name(id),
                self.f.name(id)
            );
            self.diags.push(
                Diagnostic::error(Kind::Semantic, self.f.loc(id), m)
                    .with_help("a class, tuple set or callee-saved set cannot contain itself"),
            );
            return Some(Vec::new());
        }
        if let Some(v) = self.expansions.get(&id) {
            return Some(v.clone());
        }
        let kind = if self.f.is_a(id, "RegisterClass") {
            "MemberList"
        } else if self.f.is_a(id, "CalleeSavedRegs") {
            "SaveList"
        } else if self.f.is_a(id, "RegisterTuples") {
            "tuples"
        } else {
            return None;
        };
        self.expanding.insert(id);
        let mut out = OrderedSet::default();
        if kind == "tuples" {
            self.expand_tuples(id, &mut out);
        } else if let Some(v) = self.f.value(id, kind) {
            let v = v.clone();
            self.evaluate(&v, &mut out, self.f.loc(id));
        }
        self.expanding.remove(&id);
        self.expansions.insert(id, out.items.clone());
        Some(out.items)
    }

    /// Evaluates a value (def, list or set-operator dag) into `out`.
    pub fn evaluate(&mut self, v: &Init, out: &mut OrderedSet, loc: Span) {
        match v {
            Init::Def(d) => match self.expand(*d) {
                Some(items) => items.into_iter().for_each(|e| out.insert(e)),
                None => out.insert(Elem::Def(*d)),
            },
            Init::List(es, _) => {
                for e in es.iter() {
                    self.evaluate(e, out, loc);
                }
            }
            Init::Dag(d) => {
                let Init::Def(op) = &d.op else {
                    let m = format!(
                        "bad set expression: {}",
                        crate::records::print::to_string(v, self.f.rk)
                    );
                    return self.error(loc, m);
                };
                let args: Vec<Init> = d.args.iter().map(|(a, _)| a.clone()).collect();
                let name = self.f.name(*op);
                self.apply(&name, &args, v, out, loc);
            }
            other => {
                let m = format!(
                    "invalid set element: {}",
                    crate::records::print::to_string(other, self.f.rk)
                );
                self.error(loc, m)
            }
        }
    }

    fn eval_one(&mut self, v: &Init, loc: Span) -> Vec<Elem> {
        let mut s = OrderedSet::default();
        self.evaluate(v, &mut s, loc);
        s.items
    }

    fn int_arg(
        &mut self,
        args: &[Init],
        k: usize,
        whole: &Init,
        loc: Span,
        what: &str,
    ) -> Option<i64> {
        match args.get(k) {
            Some(Init::Int(i)) => Some(*i),
            _ => {
                let m = format!(
                    "{what} must be an integer: {}",
                    crate::records::print::to_string(whole, self.f.rk)
                );
                self.error(loc, m);
                None
            }
        }
    }

    fn apply(&mut self, op: &str, args: &[Init], whole: &Init, out: &mut OrderedSet, loc: Span) {
        let show = |s: &Self| crate::records::print::to_string(whole, s.f.rk);
        match op {
            "add" => {
                for a in args {
                    self.evaluate(a, out, loc);
                }
            }
            "sub" => {
                if args.len() < 2 {
                    let m = format!(
                        "set difference needs at least two arguments: {}",
                        show(self)
                    );
                    return self.error(loc, m);
                }
                let add = self.eval_one(&args[0], loc);
                let mut sub = OrderedSet::default();
                for a in &args[1..] {
                    self.evaluate(a, &mut sub, loc);
                }
                add.into_iter()
                    .filter(|e| !sub.contains(e))
                    .for_each(|e| out.insert(e));
            }
            "and" => {
                if args.len() != 2 {
                    let m = format!("set intersection requires two arguments: {}", show(self));
                    return self.error(loc, m);
                }
                let a = self.eval_one(&args[0], loc);
                let mut b = OrderedSet::default();
                self.evaluate(&args[1], &mut b, loc);
                a.into_iter()
                    .filter(|e| b.contains(e))
                    .for_each(|e| out.insert(e));
            }
            "shl" | "trunc" | "rotl" | "rotr" | "decimate" => {
                if args.len() != 2 {
                    let m = format!("operator requires (op S, N) arguments: {}", show(self));
                    return self.error(loc, m);
                }
                let set = self.eval_one(&args[0], loc);
                let Some(n) = self.int_arg(args, 1, whole, loc, "second argument") else {
                    return;
                };
                match op {
                    "shl" => {
                        if n < 0 {
                            let m = format!("positive shift required: {}", show(self));
                            return self.error(loc, m);
                        }
                        set.into_iter().skip(n as usize).for_each(|e| out.insert(e));
                    }
                    "trunc" => {
                        if n < 0 {
                            let m = format!("positive length required: {}", show(self));
                            return self.error(loc, m);
                        }
                        set.into_iter().take(n as usize).for_each(|e| out.insert(e));
                    }
                    "decimate" => {
                        if n <= 0 {
                            let m = format!("positive stride required: {}", show(self));
                            return self.error(loc, m);
                        }
                        set.into_iter()
                            .step_by(n as usize)
                            .for_each(|e| out.insert(e));
                    }
                    _ => {
                        if set.is_empty() {
                            return;
                        }
                        let len = set.len() as i64;
                        let n = if op == "rotr" { -n } else { n };
                        let k = if n < 0 { len - ((-n) % len) } else { n % len } as usize;
                        let k = k % set.len();
                        set[k..]
                            .iter()
                            .chain(set[..k].iter())
                            .for_each(|e| out.insert(*e));
                    }
                }
            }
            "interleave" => {
                let lists: Vec<Vec<Elem>> = args.iter().map(|a| self.eval_one(a, loc)).collect();
                let max = lists.iter().map(Vec::len).max().unwrap_or(0);
                for n in 0..max {
                    for l in &lists {
                        if let Some(e) = l.get(n) {
                            out.insert(*e);
                        }
                    }
                }
            }
            "sequence" => {
                if args.len() < 3 || args.len() > 4 {
                    let m = format!(
                        "bad args to (sequence \"Format\", From, To): {}",
                        show(self)
                    );
                    return self.error(loc, m);
                }
                let Init::Str(fmt, _) = &args[0] else {
                    let m = format!("format must be a string: {}", show(self));
                    return self.error(loc, m);
                };
                let fmt = fmt.to_string();
                let Some(from) = self.int_arg(args, 1, whole, loc, "from") else {
                    return;
                };
                let Some(to) = self.int_arg(args, 2, whole, loc, "to") else {
                    return;
                };
                let mut step = if args.len() == 4 {
                    match self.int_arg(args, 3, whole, loc, "stride") {
                        Some(s) => s,
                        None => return,
                    }
                } else {
                    1
                };
                for (v, what) in [(from, "from"), (to, "to")] {
                    if !(0..1 << 30).contains(&v) {
                        return self.error(loc, format!("{what} out of range"));
                    }
                }
                if step == 0 {
                    return self.error(loc, "stride must not be zero".into());
                }
                step *= if from <= to { 1 } else { -1 };
                let mut i = from;
                while !((step > 0 && i > to) || (step < 0 && i < to)) {
                    let name = format_index(&fmt, i as u64);
                    match self.f.rk.def(&name) {
                        Some(d) => match self.expand(d) {
                            Some(items) => items.into_iter().for_each(|e| out.insert(e)),
                            None => out.insert(Elem::Def(d)),
                        },
                        None => {
                            let m = format!("no def named '{name}': {}", show(self));
                            self.diags
                                .push(Diagnostic::error(Kind::Undefined, loc, m).with_help(
                                    "check the format string and the range of the sequence",
                                ));
                            return;
                        }
                    }
                    i += step;
                }
            }
            other => {
                let m = format!("unknown set operator '{other}': {}", show(self));
                self.error(loc, m)
            }
        }
    }

    fn expand_tuples(&mut self, id: RecId, out: &mut OrderedSet) {
        let loc = self.f.loc(id);
        let indices = self.f.list(id, "SubRegIndices");
        let lists = self.f.list(id, "SubRegs");
        if indices.len() != lists.len() {
            return self.error(loc, "SubRegIndices and SubRegs size mismatch".into());
        }
        if indices.len() < 2 {
            return self.error(loc, "tuples must have at least 2 sub-registers".into());
        }
        let evaluated: Vec<Vec<Elem>> = lists.iter().map(|l| self.eval_one(l, loc)).collect();
        // Lists of different lengths are zipped as far as the shortest, as
        // llvm-tblgen does (ARM's `Tuples2DSpc` zips 32 registers with 30).
        let length = evaluated.iter().map(Vec::len).min().unwrap_or(0);
        let names: Vec<String> = self
            .f
            .list(id, "RegAsmNames")
            .iter()
            .map(|v| match v {
                Init::Str(s, _) => s.to_string(),
                _ => String::new(),
            })
            .collect();
        for n in 0..length {
            let subregs: Vec<Elem> = evaluated.iter().map(|l| l[n]).collect();
            let name = subregs
                .iter()
                .map(|e| self.elem_name(*e))
                .collect::<Vec<_>>()
                .join("_");
            // A tuple of tuples takes its fields from the first tuple's own prototype.
            let proto = match subregs[0] {
                Elem::Def(d) => d,
                Elem::Tuple(t) => self.tuples[t as usize].proto,
            };
            let asm_name = if names.is_empty() {
                String::new()
            } else if let Some(a) = names.get(n) {
                a.clone()
            } else {
                return self.error(
                    loc,
                    format!("register tuple definition missing name for '{name}'"),
                );
            };
            if self.tuple_names.contains_key(&name) {
                return self.error(loc, format!("register tuple redefines register '{name}'"));
            }
            let t = self.tuples.len() as u32;
            self.tuple_names.insert(name.clone(), t);
            self.tuples.push(TupleReg {
                name,
                def: id,
                proto,
                subregs,
                asm_name,
            });
            out.insert(Elem::Tuple(t));
        }
    }

    /// The name of an element.
    pub fn elem_name(&self, e: Elem) -> String {
        match e {
            Elem::Def(d) => self.f.name(d),
            Elem::Tuple(t) => self.tuples[t as usize].name.clone(),
        }
    }
}

/// `printf`-style formatting of one unsigned number, as `sequence` uses it
/// (`%u`, `%d`, `%x`, `%X`, `%o`, with flags and width, and `%%`).
pub fn format_index(fmt: &str, v: u64) -> String {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut zero = false;
        let mut left = false;
        while let Some(&f) = chars.peek() {
            match f {
                '0' => zero = true,
                '-' => left = true,
                '+' | ' ' | '#' => {}
                _ => break,
            }
            chars.next();
        }
        let mut width = 0usize;
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width = width * 10 + d.to_digit(10).unwrap_or(0) as usize;
            chars.next();
        }
        while matches!(chars.peek(), Some('l' | 'h' | 'z')) {
            chars.next();
        }
        let body = match chars.next() {
            Some('u' | 'd' | 'i') => v.to_string(),
            Some('x') => format!("{v:x}"),
            Some('X') => format!("{v:X}"),
            Some('o') => format!("{v:o}"),
            Some('%') => "%".to_string(),
            Some(other) => format!("%{other}"),
            None => "%".to_string(),
        };
        if body.len() >= width {
            out.push_str(&body);
        } else if left {
            out.push_str(&body);
            out.push_str(&" ".repeat(width - body.len()));
        } else {
            let pad = if zero { "0" } else { " " };
            out.push_str(&pad.repeat(width - body.len()));
            out.push_str(&body);
        }
    }
    out
}
