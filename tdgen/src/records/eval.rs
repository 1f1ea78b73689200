//! Evaluating statements into records: classes, defs, `let`, `foreach`, `if`, multiclasses and `defm`, `defset`.
//!
//! The structure follows llvm-tblgen's parser, because the visible results
//! (anonymous record numbering, `!locs`, when a `!cast` resolves) depend on it:
//! a loop or multiclass body is evaluated once into prototype entries whose
//! unresolved variables are substituted per iteration or per `defm`.

use super::RecId;
use super::expr::{Mode, RangeUse, expand_ranges};
use super::inherit::{add_superclass, add_value, implicit_name_mc, resolve_record, set_value};
use super::print;
use super::record::{Assertion, Record, RecordKeeper, RecordKind, RecordVal};
use super::resolve::{MapResolver, RecordResolver, cast_to, type_of, value_for_field};
use super::types::{Ty, type_is_a, type_string};
use super::value::{Init, Op, OpInit, StrFormat, Var};
use crate::diag::{Diagnostic, FileId, Kind, Span};
use crate::syntax::ast::{
    self, BodyItem, ForeachIter, Ident, LetItem, ObjectBody, ParentRef, Stmt, Sym, TemplateArg,
};
use crate::syntax::pool::Files;
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// What a variable scope belongs to (decides how names that are not local variables are looked up).
#[derive(Clone, Debug)]
pub enum ScopeKind {
    /// `let`, `if`, `defvar` blocks and bang-operator variables.
    Local,
    /// A class or def body: fields and template arguments.
    Record,
    /// A `foreach` body: the iterator and its type.
    Loop(Sym, Ty),
    /// A multiclass body: its template arguments (the multiclass name).
    MultiClass(String),
}

/// A variable scope.
pub struct Scope {
    /// What it belongs to.
    pub kind: ScopeKind,
    /// `defvar`s declared in it.
    pub vars: HashMap<Sym, Init>,
}

/// A prototype produced by a statement inside a loop or multiclass.
#[derive(Clone)]
pub enum Entry {
    /// A record.
    Rec(Box<Record>),
    /// A loop still to expand.
    Loop(Box<Loop>),
    /// An assertion.
    Assert(Assertion),
    /// A `dump`.
    Dump(Span, Init),
}

/// A `foreach` (or lowered `if`) with its body entries.
#[derive(Clone)]
pub struct Loop {
    /// The statement.
    pub loc: Span,
    /// The iterator (`None` for a lowered `if`).
    pub iter: Option<Sym>,
    /// The list iterated over.
    pub list: Init,
    /// The body.
    pub entries: Vec<Entry>,
}

/// A multiclass: its argument record and its prototype entries.
pub struct MultiClass {
    /// Holds the template arguments.
    pub rec: Record,
    /// The prototypes.
    pub entries: Vec<Entry>,
}

struct LetRecord {
    name: Sym,
    bits: Option<Vec<i64>>,
    value: Init,
    loc: Span,
}

struct Defset {
    elt_ty: Ty,
    elements: Vec<Init>,
    span: Span,
}

/// Evaluates parsed files into a [`RecordKeeper`].
pub struct Evaluator<'a> {
    /// The records built so far.
    pub rk: &'a mut RecordKeeper,
    files: &'a Files<'a>,
    /// A file failed to parse: the run reports the parse error, not this
    /// evaluation, so stop as soon as possible.
    aborted: bool,
    /// Errors collected so far.
    pub diags: Vec<Diagnostic>,
    /// Variable scopes, innermost last.
    pub scopes: Vec<Scope>,
    lets: Vec<Vec<LetRecord>>,
    loops: Vec<Loop>,
    /// The multiclass being defined.
    pub cur_multiclass: Option<MultiClass>,
    /// Multiclasses by name.
    pub multiclasses: HashMap<Sym, Rc<MultiClass>>,
    defsets: Vec<Defset>,
    /// Current expression nesting depth.
    pub depth: usize,
    include_depth: usize,
    /// Errors reported (in `diags` and the keeper's) when the current
    /// top-level statement began: an initializer that cannot be resolved
    /// after an error in the same statement follows from that error.
    stmt_errors_mark: (usize, usize),
    /// The bang operator being evaluated, where its folding errors go.
    pub(crate) fold_at: Option<Span>,
}

type R<T> = Result<T, Diagnostic>;

impl<'a> Evaluator<'a> {
    /// A new evaluator over parsed files.
    pub(crate) fn new(rk: &'a mut RecordKeeper, files: &'a Files<'a>) -> Self {
        Evaluator {
            rk,
            files,
            aborted: false,
            diags: Vec::new(),
            scopes: Vec::new(),
            lets: Vec::new(),
            loops: Vec::new(),
            cur_multiclass: None,
            multiclasses: HashMap::default(),
            defsets: Vec::new(),
            depth: 0,
            include_depth: 0,
            stmt_errors_mark: (0, 0),
            fold_at: None,
        }
    }

    /// Evaluates a file's statements in order.
    pub fn file(&mut self, id: FileId) {
        let files = self.files;
        match files.get(id, &mut self.rk.interner) {
            Some(f) => self.stmts(&f.stmts),
            None => self.aborted = true,
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if self.aborted || self.rk.budget.exceeded {
                return;
            }
            if self.scopes.is_empty() && self.loops.is_empty() && self.cur_multiclass.is_none() {
                self.stmt_errors_mark = (self.diags.len(), self.rk.diags.len());
            }
            if let Err(d) = self.stmt(s) {
                self.poison_statement(s, &mut Vec::new(), false);
                if let Some(mc) = &self.cur_multiclass {
                    let name = self
                        .rk
                        .interner
                        .intern(&print::to_unquoted(&mc.rec.name, self.rk));
                    self.rk.poison.multiclasses.insert(name);
                }
                self.report(d);
            }
            // The whole file is evaluated, so that the summary can say how
            // many errors there were (the loader shows the first
            // MAX_ERRORS); only a runaway count stops it, and says so.
            if self.diags.len() > super::limits::MAX_DIAGNOSTICS {
                if !self.aborted {
                    self.aborted = true;
                    self.diags.push(Diagnostic::error(
                        Kind::Limit,
                        self.rk.cur_loc,
                        format!(
                            "evaluation stopped near here after {} errors",
                            super::limits::MAX_DIAGNOSTICS
                        ),
                    ));
                }
                return;
            }
        }
    }

    /// Keeps an error.
    fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Whether an error was reported (by the evaluator or while folding)
    /// since the current top-level statement began.
    fn error_in_statement(&self) -> bool {
        let (ours, folds) = self.stmt_errors_mark;
        self.diags
            .get(ours..)
            .is_some_and(|d| d.iter().any(Diagnostic::is_error))
            || self
                .rk
                .diags
                .get(folds..)
                .is_some_and(|d| d.iter().any(Diagnostic::is_error))
    }

    /// Marks the names a failed statement would have defined (its own, or
    /// those of the statements in its body), so that references to them
    /// are known to follow from its error.
    /// `bound` holds the iterators and `defvar`s of the enclosing bodies.
    /// `nested`: `s` is in the body of the failed statement.
    fn poison_statement(&mut self, s: &Stmt, bound: &mut Vec<Sym>, nested: bool) {
        match s {
            Stmt::Def {
                name: Some(name), ..
            } => self.poison_name_expr(name, bound, false),
            // The records a `defm` makes are named after it.
            Stmt::Defm {
                name: Some(name), ..
            } => self.poison_name_expr(name, bound, true),
            Stmt::Class { name, .. } => {
                self.rk.poison.classes.insert(name.sym);
            }
            Stmt::MultiClass { name, .. } => {
                self.rk.poison.multiclasses.insert(name.sym);
            }
            Stmt::Defset { name, .. } | Stmt::Deftype { name, .. } => {
                let text = self.rk.interner.rc(name.sym);
                self.rk.poison.name(&text);
            }
            Stmt::Defvar(d) => {
                if !nested {
                    let text = self.rk.interner.rc(d.name.sym);
                    self.rk.poison.name(&text);
                }
                bound.push(d.name.sym);
            }
            Stmt::Foreach { var, body, .. } => {
                let depth = bound.len();
                bound.push(var.sym);
                for s in body {
                    self.poison_statement(s, bound, true);
                }
                bound.truncate(depth);
            }
            Stmt::Let { body, .. } => {
                let depth = bound.len();
                for s in body {
                    self.poison_statement(s, bound, true);
                }
                bound.truncate(depth);
            }
            Stmt::If {
                then, otherwise, ..
            } => {
                let depth = bound.len();
                for s in then.iter().chain(otherwise) {
                    self.poison_statement(s, bound, true);
                }
                bound.truncate(depth);
            }
            _ => {}
        }
    }

    /// Poisons a record name written as an expression: the name itself
    /// when it is literal, the literal text it starts with when it is a
    /// paste (`R#i`), every name when it starts with a variable (`c.name#rr`):
    /// what the failed statement would have defined is then unknown.
    fn poison_name_expr(&mut self, e: &ast::Expr, bound: &[Sym], as_prefix: bool) {
        let mut leftmost = e;
        let mut pasted = false;
        while let ast::ExprKind::Paste(lhs, _) = &leftmost.kind {
            leftmost = lhs;
            pasted = true;
        }
        let text: Rc<str> = match &leftmost.kind {
            ast::ExprKind::Id(id) if !bound.contains(&id.sym) && !self.is_variable(id.sym) => {
                self.rk.interner.rc(id.sym)
            }
            ast::ExprKind::Str(s) => Rc::from(&**s),
            _ => {
                self.rk.poison.every_name();
                return;
            }
        };
        if pasted || as_prefix {
            self.rk.poison.prefix(&text);
        } else {
            self.rk.poison.name(&text);
        }
    }

    /// Whether `sym` names a variable in scope (a loop iterator or `defvar`),
    /// whose value, not its text, a record name would use.
    fn is_variable(&self, sym: Sym) -> bool {
        self.scopes.iter().any(|s| {
            s.vars.contains_key(&sym) || matches!(s.kind, ScopeKind::Loop(v, _) if v == sym)
        }) || self.rk.globals.contains_key(&sym)
    }

    pub(crate) fn push_scope(&mut self, kind: ScopeKind) {
        self.scopes.push(Scope {
            kind,
            vars: HashMap::default(),
        });
    }

    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match s {
            Stmt::Include { file, span } => {
                if let Some(f) = file {
                    self.include_depth += 1;
                    if self.include_depth > super::limits::MAX_INCLUDE_DEPTH {
                        self.include_depth -= 1;
                        return Err(Diagnostic::error(
                            Kind::Limit,
                            *span,
                            "includes nested too deeply (an include cycle?)",
                        ));
                    }
                    self.file(*f);
                    self.include_depth -= 1;
                }
                Ok(())
            }
            Stmt::Class {
                name,
                args,
                body,
                span,
            } => self.class(*name, args, body, *span),
            Stmt::Def { name, body, span } => self.def(name.as_ref(), body, *span),
            Stmt::Defm {
                name,
                parents,
                span,
            } => self.defm(name.as_ref(), parents, *span),
            Stmt::Defset {
                ty,
                name,
                body,
                span,
            } => self.defset(ty, *name, body, *span),
            Stmt::Defvar(d) => self.defvar(d, None),
            Stmt::Deftype { name, ty, span } => {
                if self.rk.classes.contains_key(&name.sym)
                    || self.rk.type_aliases.contains_key(&name.sym)
                {
                    return Err(Diagnostic::error(
                        Kind::Redefinition,
                        name.span,
                        format!(
                            "type of this name '{}' already exists",
                            self.rk.interner.name(name.sym)
                        ),
                    ));
                }
                if !self.scopes.is_empty() || self.cur_multiclass.is_some() {
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        *span,
                        "deftype is only allowed at top level",
                    ));
                }
                let t = self.ty(ty)?;
                self.rk.type_aliases.insert(name.sym, t);
                Ok(())
            }
            Stmt::Foreach {
                var,
                iter,
                body,
                span,
            } => self.foreach(*var, iter, body, *span),
            Stmt::If {
                cond,
                then,
                otherwise,
                span,
            } => self.if_stmt(cond, then, otherwise, *span),
            Stmt::Let { items, body, span } => self.let_stmt(items, body, *span),
            Stmt::MultiClass {
                name,
                args,
                parents,
                body,
                span,
            } => self.multiclass(*name, args, parents, body, *span),
            Stmt::Assert(a) => {
                let cond = self.value(&a.cond, None, None, Mode::Value)?;
                let message = self.value(&a.message, None, None, Mode::Value)?;
                self.add_entry(Entry::Assert(Assertion {
                    loc: a.span,
                    cond,
                    message,
                }))
            }
            Stmt::Dump(d) => {
                let v = self.value(&d.message, None, None, Mode::Value)?;
                self.add_entry(Entry::Dump(d.span, v))
            }
        }
    }

    fn defvar(&mut self, d: &ast::Defvar, cur: Option<&Record>) -> R<()> {
        let name = d.name.sym;
        if let Some(s) = self.scopes.last()
            && s.vars.contains_key(&name)
        {
            return Err(Diagnostic::error(
                Kind::Redefinition,
                d.name.span,
                "local variable of this name already exists",
            ));
        }
        if let Some(rec) = cur
            && rec.value(name).is_some_and(|v| !v.is_template_arg)
        {
            return Err(Diagnostic::error(
                Kind::Redefinition,
                d.name.span,
                "field of this name already exists",
            ));
        }
        let v = self.value(&d.value, cur, None, Mode::Value)?;
        if self.scopes.is_empty() {
            let text = self.rk.interner.rc(name);
            if self.rk.def(&text).is_some() || self.rk.globals.contains_key(&name) {
                return Err(Diagnostic::error(
                    Kind::Redefinition,
                    d.name.span,
                    "def or global variable of this name already exists",
                ));
            }
            self.rk.globals.insert(name, v);
        } else {
            self.scopes.last_mut().unwrap().vars.insert(name, v);
        }
        Ok(())
    }

    // ------------------------------------------------------------ classes

    fn class(&mut self, name: Ident, args: &[TemplateArg], body: &ObjectBody, span: Span) -> R<()> {
        if self.cur_multiclass.is_some() || !self.loops.is_empty() {
            return Err(Diagnostic::error(
                Kind::Syntax,
                span,
                "a class cannot be defined inside a multiclass or loop",
            ));
        }
        let id = match self.rk.classes.get(&name.sym) {
            Some(&id) => {
                let r = self.rk.get(id);
                if !r.values.is_empty() || !r.superclasses.is_empty() || !r.template_args.is_empty()
                {
                    return Err(Diagnostic::error(
                        Kind::Redefinition,
                        name.span,
                        format!(
                            "class '{}' already defined",
                            self.rk.interner.name(name.sym)
                        ),
                    )
                    .with_secondary(r.locs[0], "previous definition here"));
                }
                id
            }
            None => {
                let rec = Record::new(
                    Init::Str(self.rk.interner.rc(name.sym), StrFormat::String),
                    name.span,
                    RecordKind::Class,
                );
                let id = self.rk.push(rec);
                self.rk.classes.insert(name.sym, id);
                self.rk.class_order.push(id);
                id
            }
        };
        let mut rec = self.rk.get(id).clone();
        rec.locs = vec![name.span];
        let cname = self.rk.interner.name(name.sym).to_string();
        self.push_scope(ScopeKind::Record);
        let r = (|| {
            self.template_args(&mut rec, &format!("{cname}:"), args)?;
            // Make the arguments visible to later statements while the body is read.
            *self.rk.get_mut(id) = rec.clone();
            self.object_body(&mut rec, body)
        })();
        self.pop_scope();
        *self.rk.get_mut(id) = rec;
        r
    }

    fn template_args(&mut self, rec: &mut Record, owner: &str, args: &[TemplateArg]) -> R<()> {
        for a in args {
            let ty = self.ty(&a.ty)?;
            let q = self
                .rk
                .interner
                .intern(&format!("{owner}{}", self.rk.interner.name(a.name.sym)));
            if rec.value(q).is_some() {
                return Err(Diagnostic::error(
                    Kind::Redefinition,
                    a.name.span,
                    format!(
                        "template argument '{}' defined twice",
                        self.rk.interner.name(a.name.sym)
                    ),
                ));
            }
            let value = match &a.default {
                Some(d) => {
                    let v = self.value(d, Some(rec), Some(&ty), Mode::Value)?;
                    match value_for_field(&v, &ty, self.rk) {
                        Some(c) => c,
                        None => {
                            let m = format!(
                                "default value for template argument '{}' of type '{}' is incompatible: '{}'",
                                self.rk.interner.name(a.name.sym),
                                type_string(&ty, self.rk),
                                print::to_string_for_message(&v, self.rk)
                            );
                            return Err(Diagnostic::error(Kind::Type, d.span, m));
                        }
                    }
                }
                None => value_for_field(&Init::Unset, &ty, self.rk).unwrap_or(Init::Unset),
            };
            rec.values.push(RecordVal {
                name: q,
                ty,
                value,
                is_field: false,
                is_template_arg: true,
                loc: a.name.span,
                let_at: super::record::NOT_SET_BY_LET,
            });
            rec.template_args.push(q);
        }
        Ok(())
    }

    /// Parents, then the `let`s in force, then the body (llvm-tblgen's `ParseObjectBody`).
    ///
    /// A record that inherits a class whose definition failed lacks what
    /// that class would have given it: its errors follow from the class's,
    /// and a class so made is itself marked as failed.
    fn object_body(&mut self, rec: &mut Record, body: &ObjectBody) -> R<()> {
        let tainted = body
            .parents
            .iter()
            .any(|p| self.rk.poison.classes.contains(&p.name.sym));
        let r = self.object_body_in_order(rec, body);
        if tainted && rec.is_class() {
            let name = print::to_unquoted(&rec.name, self.rk);
            let sym = self.rk.interner.intern(&name);
            self.rk.poison.classes.insert(sym);
        }
        r.map_err(|d| if tainted { d.following() } else { d })
    }

    fn object_body_in_order(&mut self, rec: &mut Record, body: &ObjectBody) -> R<()> {
        for p in &body.parents {
            let Some(&cid) = self.rk.classes.get(&p.name.sym) else {
                return Err(self.class_not_found(p.name, "couldn't find class"));
            };
            let vals = self.template_arg_values(cid, &p.args, Some(rec), p.span, true)?;
            add_superclass(rec, cid, &vals, p.span, self.rk)?;
        }
        self.apply_lets(rec)?;
        for item in &body.items {
            self.body_item(rec, item)?;
        }
        Ok(())
    }

    fn apply_lets(&mut self, rec: &mut Record) -> R<()> {
        for i in 0..self.lets.len() {
            for j in 0..self.lets[i].len() {
                let l = &self.lets[i][j];
                let (name, bits, value, loc) = (l.name, l.bits.clone(), l.value.clone(), l.loc);
                set_value(rec, name, bits.as_deref(), value, loc, self.rk)?;
                set_by_let(rec, name, loc);
            }
        }
        Ok(())
    }

    fn body_item(&mut self, rec: &mut Record, item: &BodyItem) -> R<()> {
        match item {
            BodyItem::Field {
                is_field,
                ty,
                name,
                value,
                span,
            } => {
                let t = self.ty(ty)?;
                if let Some(existing) = rec.value(name.sym)
                    && existing.ty != t
                {
                    let m = format!(
                        "field '{}' already defined with type '{}'",
                        self.rk.interner.name(name.sym),
                        type_string(&existing.ty, self.rk)
                    );
                    return Err(Diagnostic::error(Kind::Redefinition, name.span, m)
                        .with_secondary(existing.loc, "defined here"));
                }
                let init = value_for_field(&Init::Unset, &t, self.rk).unwrap_or(Init::Unset);
                let rv = RecordVal {
                    name: name.sym,
                    ty: t.clone(),
                    value: init,
                    is_field: *is_field,
                    is_template_arg: false,
                    loc: name.span,
                    let_at: super::record::NOT_SET_BY_LET,
                };
                add_value(rec, rv, *span, self.rk)?;
                if let Some(v) = value {
                    let iv = self.value(v, Some(rec), Some(&t), Mode::Value)?;
                    set_value(rec, name.sym, None, iv, v.span, self.rk)
                        .map_err(|d| d.with_label("in this initializer"))?;
                }
                Ok(())
            }
            BodyItem::Let(l) => {
                let Some(f) = rec.value(l.name.sym) else {
                    return Err(super::inherit::unknown_field(
                        rec,
                        l.name.sym,
                        l.name.span,
                        self.rk,
                    ));
                };
                let fty = f.ty.clone();
                let bits = self.let_bits(l.bits.as_ref())?;
                let expect = match &bits {
                    Some(b) => Ty::Bits(b.len() as u32),
                    None => fty,
                };
                let v = self.value(&l.value, Some(rec), Some(&expect), Mode::Value)?;
                set_value(rec, l.name.sym, bits.as_deref(), v, l.span, self.rk)?;
                set_by_let(rec, l.name.sym, l.span);
                Ok(())
            }
            BodyItem::Defvar(d) => self.defvar(d, Some(rec)),
            BodyItem::Assert(a) => {
                let cond = self.value(&a.cond, Some(rec), None, Mode::Value)?;
                let message = self.value(&a.message, Some(rec), None, Mode::Value)?;
                rec.assertions.push(Assertion {
                    loc: a.span,
                    cond,
                    message,
                });
                Ok(())
            }
            BodyItem::Dump(d) => {
                let v = self.value(&d.message, Some(rec), None, Mode::Value)?;
                rec.dumps.push((d.span, v));
                Ok(())
            }
        }
    }

    // ------------------------------------------------------------ defs

    fn object_name(&mut self, name: Option<&ast::Expr>) -> R<Option<Init>> {
        let Some(e) = name else { return Ok(None) };
        let mc_rec = self.cur_multiclass.as_ref().map(|m| m.rec.clone());
        let v = self.value(e, mc_rec.as_ref(), Some(&Ty::String), Mode::Name)?;
        let v = match type_of(&v, self.rk) {
            Some(Ty::String) => v,
            _ => match cast_to(&v, &Ty::String, self.rk) {
                Some(c) => c,
                None => {
                    let m = format!(
                        "record name '{}' is not a string",
                        print::to_string_for_message(&v, self.rk)
                    );
                    return Err(Diagnostic::error(Kind::Type, e.span, m));
                }
            },
        };
        if let Some(mc) = &self.cur_multiclass {
            let mcname = print::to_unquoted(&mc.rec.name, self.rk);
            let q = implicit_name_mc(self.rk, &mcname);
            if !mentions(&v, q) {
                let nv = Init::Var(Rc::new(Var {
                    name: q,
                    ty: Ty::String,
                }));
                return Ok(Some(self.fold(Op::StrConcat, vec![nv, v], Ty::String)));
            }
        }
        Ok(Some(v))
    }

    fn def(&mut self, name: Option<&ast::Expr>, body: &ObjectBody, span: Span) -> R<()> {
        let nm = self.object_name(name)?;
        let mut rec = match nm {
            Some(n) => Record::new(n, name.map_or(span, |e| e.span), RecordKind::Def),
            None => {
                let n = self.rk.new_anonymous_name();
                Record::new(
                    Init::Str(n, StrFormat::String),
                    span,
                    RecordKind::AnonymousDef,
                )
            }
        };
        self.push_scope(ScopeKind::Record);
        let r = self.object_body(&mut rec, body);
        self.pop_scope();
        r?;
        self.add_entry(Entry::Rec(Box::new(rec)))
    }

    fn add_entry(&mut self, e: Entry) -> R<()> {
        if let Some(l) = self.loops.last_mut() {
            l.entries.push(e);
            return Ok(());
        }
        if let Entry::Loop(l) = e {
            let mut subst = Vec::new();
            let fin = self.cur_multiclass.is_none();
            let mut dest = Vec::new();
            self.resolve_loop(
                &l,
                &mut subst,
                fin,
                if fin { None } else { Some(&mut dest) },
                None,
            )?;
            if let Some(mc) = &mut self.cur_multiclass {
                mc.entries.extend(dest);
            }
            return Ok(());
        }
        if let Some(mc) = &mut self.cur_multiclass {
            mc.entries.push(e);
            return Ok(());
        }
        match e {
            Entry::Assert(a) => {
                self.check_assert(&a);
                Ok(())
            }
            Entry::Dump(span, v) => {
                let s = print::to_unquoted(&v, self.rk);
                self.diags.push(Diagnostic::note(span, s));
                Ok(())
            }
            Entry::Rec(r) => self.add_def(*r),
            Entry::Loop(_) => unreachable!("handled above"),
        }
    }

    fn check_assert(&mut self, a: &Assertion) {
        self.rk.cur_loc = a.loc;
        let mut r = MapResolver::new();
        r.set_final(true);
        let c = super::resolve::resolve(&a.cond, &mut r, self.rk);
        match super::resolve::convert(&c, &Ty::Int, self.rk) {
            Some(Init::Int(0)) => {
                let m = print::to_unquoted(&a.message, self.rk);
                self.diags.push(Diagnostic::error(
                    Kind::Assert,
                    a.loc,
                    format!("assertion failed: {m}"),
                ));
            }
            Some(Init::Int(_)) => {}
            _ => {
                let m = format!(
                    "assert condition must be of type bit, bits, or int: {}",
                    print::to_string_for_message(&c, self.rk)
                );
                self.diags.push(Diagnostic::error(Kind::Assert, a.loc, m));
            }
        }
    }

    /// Completes a def: naming, final resolution, checks, registration (llvm-tblgen's `addDefOne`).
    fn add_def(&mut self, mut rec: Record) -> R<()> {
        let loc = rec.locs[0];
        self.rk.cur_loc = loc;
        self.count_record(loc)?;
        if let Init::Str(n, _) = &rec.name
            && let Some(prev) = self.rk.def(n)
        {
            if rec.kind != RecordKind::AnonymousDef {
                return Err(Diagnostic::error(
                    Kind::Redefinition,
                    loc,
                    format!("def already exists: {n}"),
                )
                .with_secondary(self.rk.get(prev).locs[0], "location of previous definition"));
            }
            let nn = self.rk.new_anonymous_name();
            rec.name = Init::Str(nn, StrFormat::String);
        }
        let id = self.rk.push(rec);
        let mut rr = RecordResolver::new(id, self.rk);
        let mut rec = self.rk.get(id).clone();
        let before = self.rk.diags.len();
        resolve_record(&mut rec, &mut rr, self.rk);
        self.mark_repeated_fold_errors(before);
        let Init::Str(name, _) = rec.name.clone() else {
            *self.rk.get_mut(id) = rec.clone();
            let m = format!(
                "record name '{}' could not be fully resolved",
                print::to_string_for_message(&rec.name, self.rk)
            );
            return Err(Diagnostic::error(Kind::Eval, loc, m));
        };
        let mut errs = Vec::new();
        // An error earlier in this statement (an operator that failed, a
        // reference to a def that failed) leaves values unresolved: saying
        // so again adds nothing.
        let mut after_error = None;
        for v in &rec.values {
            if v.is_field {
                continue;
            }
            if !value_concrete(&v.value, &rec) {
                let d = Diagnostic::error(
                    Kind::Eval,
                    loc,
                    format!(
                        "initializer of '{}' in '{}' could not be fully resolved: {}",
                        self.rk.interner.name(v.name),
                        name,
                        print::to_string_short(&v.value, self.rk, 300)
                    ),
                );
                let after_error = *after_error.get_or_insert_with(|| self.error_in_statement());
                errs.push(if after_error || self.mentions_poisoned(&v.value) {
                    d.following()
                } else {
                    d
                });
            }
        }
        if let Some(prev) = self.rk.def(&name) {
            errs.push(
                Diagnostic::error(
                    Kind::Redefinition,
                    loc,
                    format!("def already exists: {name}"),
                )
                .with_secondary(self.rk.get(prev).locs[0], "location of previous definition"),
            );
        }
        *self.rk.get_mut(id) = rec;
        if !errs.is_empty() {
            let first = errs.remove(0);
            self.diags.extend(errs);
            return Err(first);
        }
        self.rk.defs.insert(name, id);
        self.rk.def_order.push(id);
        check_assertions(id, self.rk);
        for i in 0..self.defsets.len() {
            let t = self.rk.record_type(id);
            let et = self.defsets[i].elt_ty.clone();
            if !type_is_a(&t, &et, self.rk) {
                let m = format!(
                    "can't add record '{}' of type '{}' to defset of type '{}'",
                    self.rk.name_of(id),
                    type_string(&t, self.rk),
                    type_string(&et, self.rk)
                );
                return Err(Diagnostic::error(Kind::Type, loc, m)
                    .with_secondary(self.defsets[i].span, "the defset"));
            }
            self.defsets[i].elements.push(Init::Def(id));
        }
        Ok(())
    }

    /// Marks the errors reported while resolving a def (from `before` on)
    /// that repeat one reported earlier in the statement: an operator that
    /// failed when it was written fails again when the def is resolved.
    fn mark_repeated_fold_errors(&mut self, before: usize) {
        let (ours, folds) = self.stmt_errors_mark;
        let (ours, folds) = (ours.min(self.diags.len()), folds.min(before));
        for i in before..self.rk.diags.len() {
            let message = &self.rk.diags[i].message;
            let repeated = self.rk.diags[folds..before]
                .iter()
                .chain(&self.diags[ours..])
                .any(|d| d.is_error() && d.message == *message);
            if repeated {
                self.rk.diags[i].follows = true;
            }
        }
    }

    /// Counts a record made against [`super::limits::MAX_RECORDS`].
    fn count_record(&mut self, loc: Span) -> R<()> {
        self.rk.budget.records += 1;
        if self.rk.budget.records > super::limits::MAX_RECORDS {
            return Err(self.rk.limit_error(
                loc,
                format!(
                    "more than {} records made (records::limits::MAX_RECORDS)",
                    super::limits::MAX_RECORDS
                ),
            ));
        }
        Ok(())
    }

    /// Whether a value casts the name of a record whose definition failed
    /// (`!cast<Instruction>("MOV8rr")` after `MOV8rr`'s error).
    fn mentions_poisoned(&self, v: &Init) -> bool {
        if self.rk.poison.is_empty() {
            return false;
        }
        let mut budget = 10_000usize;
        mentions_poisoned(v, self.rk, &mut budget)
    }

    // ------------------------------------------------------------ loops

    fn resolve_loop(
        &mut self,
        l: &Loop,
        subst: &mut Vec<(Sym, Init)>,
        fin: bool,
        dest: Option<&mut Vec<Entry>>,
        loc: Option<Span>,
    ) -> R<()> {
        let mut r = MapResolver::new();
        for (k, v) in subst.iter() {
            r.set(*k, v.clone());
        }
        self.rk.cur_loc = l.loc;
        let mut list = super::resolve::resolve(&l.list, &mut r, self.rk);
        if fin
            && let Init::Op(o) = &list
            && o.op == Op::If
        {
            let mut rf = MapResolver::new();
            for (k, v) in subst.iter() {
                rf.set(*k, v.clone());
            }
            rf.set_final(true);
            let c = super::resolve::resolve(&o.args[0], &mut rf, self.rk);
            let folded = self.fold(
                Op::If,
                vec![c.clone(), o.args[1].clone(), o.args[2].clone()],
                o.ty.clone(),
            );
            if matches!(folded, Init::Op(_)) {
                let m = format!(
                    "unable to resolve if condition '{}' at end of containing scope",
                    print::to_string_for_message(&c, self.rk)
                );
                return Err(Diagnostic::error(Kind::Eval, l.loc, m));
            }
            list = folded;
        }
        let Init::List(items, _) = &list else {
            if !fin && let Some(dest) = dest {
                let mut inner = Vec::new();
                self.resolve_entries(&l.entries, subst, fin, Some(&mut inner), loc)?;
                dest.push(Entry::Loop(Box::new(Loop {
                    loc: l.loc,
                    iter: l.iter,
                    list,
                    entries: inner,
                })));
                return Ok(());
            }
            let m = format!(
                "attempting to loop over '{}', expected a list",
                print::to_string_for_message(&list, self.rk)
            );
            return Err(Diagnostic::error(Kind::Type, l.loc, m));
        };
        let items = items.clone();
        let mut dest = dest;
        for it in items.iter() {
            if self.rk.budget.exceeded {
                // Reported where it happened; the statement stops here.
                return Ok(());
            }
            self.rk.budget.iterations += 1;
            if self.rk.budget.iterations > super::limits::MAX_ITERATIONS {
                return Err(self.rk.limit_error(
                    l.loc,
                    format!(
                        "more than {} loop iterations (records::limits::MAX_ITERATIONS)",
                        super::limits::MAX_ITERATIONS
                    ),
                ));
            }
            if let Some(v) = l.iter {
                subst.push((v, it.clone()));
            }
            let r = self.resolve_entries(&l.entries, subst, fin, dest.as_deref_mut(), loc);
            if l.iter.is_some() {
                subst.pop();
            }
            r?;
        }
        Ok(())
    }

    fn resolve_entries(
        &mut self,
        src: &[Entry],
        subst: &mut Vec<(Sym, Init)>,
        fin: bool,
        mut dest: Option<&mut Vec<Entry>>,
        loc: Option<Span>,
    ) -> R<()> {
        for e in src {
            match e {
                // llvm-tblgen does not add the defm location to records made inside loops.
                Entry::Loop(l) => self.resolve_loop(l, subst, fin, dest.as_deref_mut(), None)?,
                Entry::Assert(a) => {
                    let mut r = MapResolver::new();
                    for (k, v) in subst.iter() {
                        r.set(*k, v.clone());
                    }
                    let cond = super::resolve::resolve(&a.cond, &mut r, self.rk);
                    let message = super::resolve::resolve(&a.message, &mut r, self.rk);
                    let na = Assertion {
                        loc: a.loc,
                        cond,
                        message,
                    };
                    match dest.as_deref_mut() {
                        Some(d) => d.push(Entry::Assert(na)),
                        None => self.check_assert(&na),
                    }
                }
                Entry::Dump(span, v) => {
                    let mut r = MapResolver::new();
                    for (k, x) in subst.iter() {
                        r.set(*k, x.clone());
                    }
                    let nv = super::resolve::resolve(v, &mut r, self.rk);
                    match dest.as_deref_mut() {
                        Some(d) => d.push(Entry::Dump(*span, nv)),
                        None => {
                            let s = print::to_unquoted(&nv, self.rk);
                            self.diags.push(Diagnostic::note(*span, s));
                        }
                    }
                }
                Entry::Rec(rec) => {
                    if dest.is_some() {
                        // A copy kept for later: counted here, as the def it
                        // becomes is counted when added.
                        self.count_record(rec.locs[0])?;
                    }
                    let mut rec = (**rec).clone();
                    if let Some(l) = loc {
                        rec.locs.push(l);
                    }
                    self.rk.cur_loc = rec.locs[0];
                    let mut r = MapResolver::with_current(Some((RecId::PENDING, rec.name.clone())));
                    for (k, v) in subst.iter() {
                        r.set(*k, v.clone());
                    }
                    resolve_record(&mut rec, &mut r, self.rk);
                    match dest.as_deref_mut() {
                        Some(d) => d.push(Entry::Rec(Box::new(rec))),
                        None => self.add_def(rec)?,
                    }
                }
            }
        }
        Ok(())
    }

    fn foreach(&mut self, var: Ident, iter: &ForeachIter, body: &[Stmt], span: Span) -> R<()> {
        let (list, ity) = match iter {
            ForeachIter::Ranges(r) => {
                let xs = expand_ranges(r, RangeUse::Unsigned, self.rk)?;
                (
                    Init::List(xs.into_iter().map(Init::Int).collect(), Rc::new(Ty::Int)),
                    Ty::Int,
                )
            }
            ForeachIter::Value(e) => {
                let v = self.value(e, None, None, Mode::Value)?;
                match type_of(&v, self.rk) {
                    Some(Ty::List(t)) => (v, (*t).clone()),
                    Some(Ty::Int) => {
                        // `foreach i = 5 in` iterates once over the integer.
                        (Init::List(Rc::from([v]), Rc::new(Ty::Int)), Ty::Int)
                    }
                    _ => {
                        let m = format!(
                            "foreach over '{}': expected a list",
                            print::to_string_for_message(&v, self.rk)
                        );
                        return Err(Diagnostic::error(Kind::Type, e.span, m));
                    }
                }
            }
        };
        self.loops.push(Loop {
            loc: span,
            iter: Some(var.sym),
            list,
            entries: Vec::new(),
        });
        self.push_scope(ScopeKind::Loop(var.sym, ity));
        self.stmts(body);
        self.pop_scope();
        let l = self.loops.pop().unwrap();
        self.add_entry(Entry::Loop(Box::new(l)))
    }

    fn if_stmt(
        &mut self,
        cond: &ast::Expr,
        then: &[Stmt],
        otherwise: &[Stmt],
        span: Span,
    ) -> R<()> {
        let c = self.value(cond, None, None, Mode::Value)?;
        match type_of(&c, self.rk) {
            None | Some(Ty::Bit | Ty::Bits(_) | Ty::Int) => {}
            Some(t) => {
                let m = format!(
                    "if condition must be bit, bits or int, got '{}'",
                    type_string(&t, self.rk)
                );
                return Err(Diagnostic::error(Kind::Type, cond.span, m));
            }
        }
        let one = Init::List(Rc::from([Init::Int(1)]), Rc::new(Ty::Int));
        let none = Init::List(Rc::from([]), Rc::new(Ty::Bit));
        let lt = Ty::Bit.list_of();
        let then_list = self.fold(
            Op::If,
            vec![c.clone(), one.clone(), none.clone()],
            lt.clone(),
        );
        self.loops.push(Loop {
            loc: span,
            iter: None,
            list: then_list,
            entries: Vec::new(),
        });
        self.push_scope(ScopeKind::Local);
        self.stmts(then);
        self.pop_scope();
        let l = self.loops.pop().unwrap();
        self.add_entry(Entry::Loop(Box::new(l)))?;
        if !otherwise.is_empty() {
            let else_list = self.fold(Op::If, vec![c, none, one], lt);
            self.loops.push(Loop {
                loc: span,
                iter: None,
                list: else_list,
                entries: Vec::new(),
            });
            self.push_scope(ScopeKind::Local);
            self.stmts(otherwise);
            self.pop_scope();
            let l = self.loops.pop().unwrap();
            self.add_entry(Entry::Loop(Box::new(l)))?;
        }
        Ok(())
    }

    fn let_stmt(&mut self, items: &[LetItem], body: &[Stmt], _span: Span) -> R<()> {
        let mut group = Vec::new();
        for it in items {
            let bits = self.let_bits(it.bits.as_ref())?;
            let v = self.value(&it.value, None, None, Mode::Value)?;
            group.push(LetRecord {
                name: it.name.sym,
                bits,
                value: v,
                loc: it.span,
            });
        }
        self.lets.push(group);
        self.push_scope(ScopeKind::Local);
        self.stmts(body);
        self.pop_scope();
        self.lets.pop();
        Ok(())
    }

    fn defset(&mut self, ty: &ast::TypeExpr, name: Ident, body: &[Stmt], span: Span) -> R<()> {
        if self.cur_multiclass.is_some() {
            return Err(Diagnostic::error(
                Kind::Syntax,
                span,
                "defset is not allowed inside a multiclass",
            ));
        }
        let t = self.ty(ty)?;
        let Ty::List(elt) = &t else {
            return Err(Diagnostic::error(
                Kind::Type,
                ty.span,
                "defset type must be a list of records",
            ));
        };
        if !matches!(**elt, Ty::Record(_)) {
            return Err(Diagnostic::error(
                Kind::Type,
                ty.span,
                "defset type must be a list of records",
            ));
        }
        let text = self.rk.interner.rc(name.sym);
        if self.rk.def(&text).is_some() || self.rk.globals.contains_key(&name.sym) {
            return Err(Diagnostic::error(
                Kind::Redefinition,
                name.span,
                "def or global variable of this name already exists",
            ));
        }
        self.defsets.push(Defset {
            elt_ty: (**elt).clone(),
            elements: Vec::new(),
            span,
        });
        self.stmts(body);
        let d = self.defsets.pop().unwrap();
        self.rk
            .globals
            .insert(name.sym, Init::List(d.elements.into(), elt.clone()));
        Ok(())
    }

    // ------------------------------------------------------------ multiclasses

    fn multiclass(
        &mut self,
        name: Ident,
        args: &[TemplateArg],
        parents: &[ParentRef],
        body: &[Stmt],
        span: Span,
    ) -> R<()> {
        if self.cur_multiclass.is_some() {
            return Err(Diagnostic::error(
                Kind::Syntax,
                span,
                "multiclass definitions cannot be nested",
            ));
        }
        if !self.loops.is_empty() {
            return Err(Diagnostic::error(
                Kind::Syntax,
                span,
                "a multiclass cannot be defined inside a loop",
            ));
        }
        if self.multiclasses.contains_key(&name.sym) {
            return Err(Diagnostic::error(
                Kind::Redefinition,
                name.span,
                format!(
                    "multiclass '{}' already defined",
                    self.rk.interner.name(name.sym)
                ),
            ));
        }
        let mcname = self.rk.interner.name(name.sym).to_string();
        let rec = Record::new(
            Init::Str(Rc::from(mcname.as_str()), StrFormat::String),
            name.span,
            RecordKind::MultiClass,
        );
        self.cur_multiclass = Some(MultiClass {
            rec,
            entries: Vec::new(),
        });
        self.push_scope(ScopeKind::MultiClass(mcname.clone()));
        let r = (|| {
            let mut rec = self.cur_multiclass.as_ref().unwrap().rec.clone();
            self.template_args(&mut rec, &format!("{mcname}::"), args)?;
            self.cur_multiclass.as_mut().unwrap().rec = rec;
            for p in parents {
                self.inherit_multiclass(p, &mcname)?;
            }
            self.stmts(body);
            Ok(())
        })();
        self.pop_scope();
        let mc = self.cur_multiclass.take().unwrap();
        self.multiclasses.insert(name.sym, Rc::new(mc));
        r
    }

    fn inherit_multiclass(&mut self, p: &ParentRef, mcname: &str) -> R<()> {
        let Some(sub) = self.multiclasses.get(&p.name.sym).cloned() else {
            return Err(self.multiclass_not_found(p.name));
        };
        let mut subst = self.multiclass_args(&sub, &p.args, p.span, false)?;
        let me = implicit_name_mc(self.rk, mcname);
        let sub_name = print::to_unquoted(&sub.rec.name, self.rk);
        let q = implicit_name_mc(self.rk, &sub_name);
        subst.push((
            q,
            Init::Var(Rc::new(Var {
                name: me,
                ty: Ty::String,
            })),
        ));
        let mut dest = Vec::new();
        self.resolve_entries(&sub.entries, &mut subst, false, Some(&mut dest), None)?;
        self.cur_multiclass.as_mut().unwrap().entries.extend(dest);
        Ok(())
    }

    /// `couldn't find multiclass`: an error that follows from an earlier
    /// one when the multiclass's definition failed.
    fn multiclass_not_found(&mut self, name: Ident) -> Diagnostic {
        let text = self.rk.interner.name(name.sym);
        let d = Diagnostic::error(
            Kind::Undefined,
            name.span,
            format!("couldn't find multiclass '{text}'"),
        );
        // Reported once: later uses of the same name follow from this error.
        if !self.rk.poison.multiclasses.insert(name.sym) {
            return d.following();
        }
        let known = self.multiclasses.keys().map(|&m| self.rk.interner.name(m));
        match crate::suggest::closest(text, known) {
            Some(c) => d.with_help(format!("did you mean '{c}'?")),
            None => d,
        }
    }

    /// The substitutions of a multiclass's template arguments: the values
    /// given (cast to the declared types when `typed`, for a `defm`), then
    /// the defaults.
    fn multiclass_args(
        &mut self,
        mc: &MultiClass,
        args: &[ast::Arg],
        span: Span,
        typed: bool,
    ) -> R<Vec<(Sym, Init)>> {
        // Template-argument values are read in the current scope, as for classes.
        let id = self.rk.push(mc.rec.clone());
        let vals = self.template_arg_values(id, args, None, span, typed);
        let vals = vals?;
        self.check_all_args(id, &vals, span)?;
        let mut out = Vec::new();
        for &ta in &mc.rec.template_args {
            match vals.iter().find(|(n, _)| *n == ta) {
                Some((_, v)) => out.push((ta, v.clone())),
                None => out.push((ta, mc.rec.value(ta).unwrap().value.clone())),
            }
        }
        Ok(out)
    }

    /// A `defm` of a multiclass whose body had an error makes fewer records
    /// than written: its errors follow from that one, and its name (the
    /// prefix of what it makes) is marked as failed.
    fn defm(&mut self, name: Option<&ast::Expr>, parents: &[ParentRef], span: Span) -> R<()> {
        let tainted = parents
            .iter()
            .any(|p| self.rk.poison.multiclasses.contains(&p.name.sym));
        let r = self.defm_in_order(name, parents, span);
        if tainted {
            if let Some(name) = name {
                self.poison_name_expr(name, &[], true);
            }
            if let Some(mc) = &self.cur_multiclass {
                let mcname = print::to_unquoted(&mc.rec.name, self.rk);
                let sym = self.rk.interner.intern(&mcname);
                self.rk.poison.multiclasses.insert(sym);
            }
        }
        r.map_err(|d| if tainted { d.following() } else { d })
    }

    fn defm_in_order(
        &mut self,
        name: Option<&ast::Expr>,
        parents: &[ParentRef],
        span: Span,
    ) -> R<()> {
        let defm_name = match self.object_name(name)? {
            Some(n) => n,
            None => {
                let n = Init::Str(self.rk.new_anonymous_name(), StrFormat::String);
                match &self.cur_multiclass {
                    Some(mc) => {
                        let mcname = print::to_unquoted(&mc.rec.name, self.rk);
                        let q = implicit_name_mc(self.rk, &mcname);
                        let v = Init::Var(Rc::new(Var {
                            name: q,
                            ty: Ty::String,
                        }));
                        self.fold(Op::StrConcat, vec![v, n], Ty::String)
                    }
                    None => n,
                }
            }
        };
        let mut new_entries: Vec<Entry> = Vec::new();
        let mut k = 0;
        while k < parents.len() {
            let p = &parents[k];
            if self.rk.classes.contains_key(&p.name.sym) && k > 0 {
                break;
            }
            let Some(mc) = self.multiclasses.get(&p.name.sym).cloned() else {
                return Err(self.multiclass_not_found(p.name));
            };
            let mut subst = self.multiclass_args(&mc, &p.args, p.span, true)?;
            let mcname = print::to_unquoted(&mc.rec.name, self.rk);
            let q = implicit_name_mc(self.rk, &mcname);
            subst.push((q, defm_name.clone()));
            let fin = self.cur_multiclass.is_none() && self.loops.is_empty();
            self.resolve_entries(
                &mc.entries,
                &mut subst,
                fin,
                Some(&mut new_entries),
                Some(p.span),
            )?;
            k += 1;
        }
        for p in &parents[k..] {
            let Some(&cid) = self.rk.classes.get(&p.name.sym) else {
                return Err(self.class_not_found(p.name, "couldn't find class"));
            };
            let vals = self.template_arg_values(cid, &p.args, None, p.span, true)?;
            for e in new_entries.iter_mut() {
                add_superclass_entry(e, cid, &vals, p.span, self.rk)?;
            }
        }
        let _ = span;
        for mut e in new_entries {
            self.apply_lets_entry(&mut e)?;
            self.add_entry(e)?;
        }
        Ok(())
    }

    fn apply_lets_entry(&mut self, e: &mut Entry) -> R<()> {
        match e {
            Entry::Rec(r) => self.apply_lets(r),
            Entry::Loop(l) => {
                for x in l.entries.iter_mut() {
                    self.apply_lets_entry(x)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn add_superclass_entry(
    e: &mut Entry,
    cid: RecId,
    vals: &[(Sym, Init)],
    span: Span,
    rk: &mut RecordKeeper,
) -> R<()> {
    match e {
        Entry::Rec(r) => add_superclass(r, cid, vals, span, rk),
        Entry::Loop(l) => {
            for x in l.entries.iter_mut() {
                add_superclass_entry(x, cid, vals, span, rk)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// [`Evaluator::mentions_poisoned`], walking at most `budget` nodes.
fn mentions_poisoned(v: &Init, rk: &RecordKeeper, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let any = |xs: &mut dyn Iterator<Item = &Init>, budget: &mut usize| {
        for x in xs {
            if mentions_poisoned(x, rk, budget) {
                return true;
            }
        }
        false
    };
    match v {
        Init::Op(o) if o.op == Op::Cast => match &o.args[0] {
            Init::Str(name, _) => rk.poison.covers(name),
            other => mentions_poisoned(other, rk, budget),
        },
        Init::Op(o) => any(&mut o.args.iter(), budget),
        Init::List(es, _) => any(&mut es.iter(), budget),
        Init::Bits(bs) => any(&mut bs.iter(), budget),
        Init::Dag(d) => {
            mentions_poisoned(&d.op, rk, budget) || any(&mut d.args.iter().map(|(a, _)| a), budget)
        }
        Init::VarBit(x, _) => mentions_poisoned(x, rk, budget),
        Init::Field(f) => mentions_poisoned(&f.rec, rk, budget),
        Init::AnonClass(a) => any(&mut a.args.iter().map(|(_, x)| x), budget),
        _ => false,
    }
}

/// Records that a `let` at `at` set field `name` of `rec`.
fn set_by_let(rec: &mut Record, name: Sym, at: Span) {
    if let Some(v) = rec.value_mut(name) {
        v.let_at = at;
    }
}

/// Whether a value refers to the variable `q`.
fn mentions(v: &Init, q: Sym) -> bool {
    match v {
        Init::Var(x) => x.name == q,
        Init::Bits(b) => b.iter().any(|x| mentions(x, q)),
        Init::List(es, _) => es.iter().any(|x| mentions(x, q)),
        Init::Dag(d) => mentions(&d.op, q) || d.args.iter().any(|(a, _)| mentions(a, q)),
        Init::VarBit(x, _) => mentions(x, q),
        Init::Field(f) => mentions(&f.rec, q),
        Init::Op(o) => o.args.iter().any(|x| mentions(x, q)),
        Init::AnonClass(a) => a.args.iter().any(|(_, x)| mentions(x, q)),
        _ => false,
    }
}

/// Checks a completed def's assertions and runs its dumps.
pub fn check_assertions(id: RecId, rk: &mut RecordKeeper) {
    let rec = rk.get(id);
    if rec.assertions.is_empty() && rec.dumps.is_empty() {
        return;
    }
    let (assertions, dumps) = (rec.assertions.clone(), rec.dumps.clone());
    for a in &assertions {
        rk.cur_loc = a.loc;
        let mut r = RecordResolver::new(id, rk);
        let c = super::resolve::resolve(&a.cond, &mut r, rk);
        match super::resolve::convert(&c, &Ty::Int, rk) {
            Some(Init::Int(0)) => {
                let mut r = RecordResolver::new(id, rk);
                let m = super::resolve::resolve(&a.message, &mut r, rk);
                let m = print::to_unquoted(&m, rk);
                rk.diags.push(Diagnostic::error(
                    Kind::Assert,
                    a.loc,
                    format!("assertion failed: {m}"),
                ));
            }
            Some(Init::Int(_)) => {}
            _ => {
                let m = format!(
                    "assert condition must be of type bit, bits, or int: {}",
                    print::to_string_for_message(&c, rk)
                );
                rk.diags.push(Diagnostic::error(Kind::Assert, a.loc, m));
            }
        }
    }
    for (span, v) in &dumps {
        let mut r = RecordResolver::new(id, rk);
        let x = super::resolve::resolve(v, &mut r, rk);
        let s = print::to_unquoted(&x, rk);
        rk.diags.push(Diagnostic::note(*span, s));
    }
    let _ = OpInit {
        op: Op::Not,
        args: vec![],
        ty: Ty::Int,
    };
}

/// Whether a def's field value counts as resolved (llvm-tblgen's
/// `checkConcrete`): concrete, or a `bits` value whose unresolved bits are
/// references to the def's own fields (`let P = src{17}` with `src` left
/// `?`), which llvm-tblgen keeps as var-bits for the code emitter to fill in.
fn value_concrete(value: &Init, rec: &Record) -> bool {
    match value {
        Init::Bits(bits) => bits
            .iter()
            .all(|bit| bit.is_concrete() || refers_to_own_field(bit, rec)),
        _ => value.is_concrete(),
    }
}

/// A bit that is `field{i}` or `field` for a field of `rec` (llvm-tblgen's
/// `checkBitsConcrete`).
fn refers_to_own_field(bit: &Init, rec: &Record) -> bool {
    match bit {
        Init::VarBit(inner, _) => match &**inner {
            Init::Var(var) => rec.values.iter().any(|v| v.name == var.name),
            _ => false,
        },
        Init::Var(_) => true,
        _ => false,
    }
}
