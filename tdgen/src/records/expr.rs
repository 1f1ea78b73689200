//! Turning value expressions into values in their scope (llvm-tblgen's `ParseValue`): lookup, typing, folding.

use super::eval::{Evaluator, ScopeKind};
use super::fold::fold;
use super::print;
use super::record::Record;
use super::resolve::{cast_to, concat_strings, convert, fold_field, get_bit, resolve, type_of};
use super::types::{Ty, record_ty, resolve_types, type_is_a, type_is_convertible, type_string};
use super::value::{Dag, Field, Init, Op, OpInit, StrFormat, Var};
use crate::diag::{Diagnostic, Kind, Span};
use crate::syntax::ast::{
    Arg, BitIndex, Expr, ExprKind, Ident, LetBits, RangePiece, SliceItem, Sym, TypeExpr, TypeKind,
};
use std::rc::Rc;

/// How identifiers that name nothing are treated.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Normal values: an unknown name is an error.
    Value,
    /// Record names: an unknown name is its own text.
    Name,
}

type R<T> = Result<T, Diagnostic>;

impl Evaluator<'_> {
    /// Resolves a type expression.
    pub fn ty(&mut self, t: &TypeExpr) -> R<Ty> {
        Ok(match &t.kind {
            TypeKind::Bit => Ty::Bit,
            TypeKind::Bits(n) => {
                if *n < 0 || *n > 1 << 16 {
                    return Err(Diagnostic::error(
                        Kind::Type,
                        t.span,
                        format!("invalid bits width {n}"),
                    ));
                }
                Ty::Bits(*n as u32)
            }
            TypeKind::Int => Ty::Int,
            TypeKind::String | TypeKind::Code => Ty::String,
            TypeKind::Dag => Ty::Dag,
            TypeKind::List(e) => self.ty(e)?.list_of(),
            TypeKind::Class(c) => match self.rk.classes.get(&c.sym) {
                Some(&id) => Ty::Record(Rc::from([id])),
                None if self.rk.type_aliases.contains_key(&c.sym) => {
                    self.rk.type_aliases[&c.sym].clone()
                }
                None => {
                    return Err(self.class_not_found(*c, "couldn't find class"));
                }
            },
        })
    }

    /// `{what} '{name}'` for a class name that names no class: an error
    /// that follows from an earlier one when the class's definition failed.
    pub(crate) fn class_not_found(&mut self, name: Ident, what: &str) -> Diagnostic {
        let text = self.rk.interner.name(name.sym);
        let d = Diagnostic::error(Kind::Undefined, name.span, format!("{what} '{text}'"));
        // Reported once: later uses of the same name follow from this error.
        if !self.rk.poison.classes.insert(name.sym) {
            return d.following();
        }
        let classes = self.rk.classes.keys().map(|&c| self.rk.interner.name(c));
        match crate::suggest::closest(text, classes) {
            Some(c) => d.with_help(format!("did you mean '{c}'?")),
            None => d,
        }
    }

    fn err_type(&mut self, span: Span, msg: String) -> Diagnostic {
        Diagnostic::error(Kind::Type, span, msg)
    }

    fn ts(&self, t: &Ty) -> String {
        type_string(t, self.rk)
    }

    fn vs(&self, v: &Init) -> String {
        print::to_string_for_message(v, self.rk)
    }

    /// Looks up an identifier (llvm-tblgen's `ParseIDValue`).
    pub fn lookup(&mut self, id: Ident, cur: Option<&Record>, mode: Mode) -> R<Init> {
        let name = id.sym;
        for i in (0..self.scopes.len()).rev() {
            if let Some(v) = self.scopes[i].vars.get(&name) {
                return Ok(v.clone());
            }
            match &self.scopes[i].kind {
                ScopeKind::Local => {}
                ScopeKind::Record => {
                    if let Some(rec) = cur {
                        if let Some(f) = rec.value(name) {
                            return Ok(Init::Var(Rc::new(Var {
                                name,
                                ty: f.ty.clone(),
                            })));
                        }
                        if rec.is_class() {
                            let rn = print::to_unquoted(&rec.name, self.rk);
                            let text = self.rk.interner.name(name).to_string();
                            let q = self.rk.interner.intern(&format!("{rn}:{text}"));
                            if let Some(f) = rec.value(q)
                                && f.is_template_arg
                            {
                                return Ok(Init::Var(Rc::new(Var {
                                    name: q,
                                    ty: f.ty.clone(),
                                })));
                            }
                            if text == "NAME" {
                                return Ok(Init::Var(Rc::new(Var {
                                    name: q,
                                    ty: Ty::String,
                                })));
                            }
                        }
                    }
                }
                ScopeKind::Loop(var, ty) => {
                    if *var == name {
                        return Ok(Init::Var(Rc::new(Var {
                            name,
                            ty: ty.clone(),
                        })));
                    }
                }
                ScopeKind::MultiClass(mc) => {
                    let mc = mc.clone();
                    let text = self.rk.interner.name(name).to_string();
                    let q = self.rk.interner.intern(&format!("{mc}::{text}"));
                    if text == "NAME" {
                        return Ok(Init::Var(Rc::new(Var {
                            name: q,
                            ty: Ty::String,
                        })));
                    }
                    if let Some(m) = self.multiclasses.get(&self.rk.interner.intern(&mc))
                        && let Some(f) = m.rec.value(q)
                    {
                        return Ok(Init::Var(Rc::new(Var {
                            name: q,
                            ty: f.ty.clone(),
                        })));
                    }
                    // While its template arguments are read, the multiclass
                    // is `cur`: a default may use an earlier argument
                    // (`multiclass M<int a, list<int> b = [a]>`).
                    let declaring = cur.filter(|r| r.kind == super::RecordKind::MultiClass);
                    if let Some(f) = declaring
                        .and_then(|r| r.value(q))
                        .or_else(|| self.cur_multiclass.as_ref().and_then(|m| m.rec.value(q)))
                    {
                        return Ok(Init::Var(Rc::new(Var {
                            name: q,
                            ty: f.ty.clone(),
                        })));
                    }
                }
            }
        }
        let text = self.rk.interner.rc(name);
        if mode == Mode::Name {
            return Ok(Init::Str(text, StrFormat::String));
        }
        if let Some(d) = self.rk.def(&text) {
            return Ok(Init::Def(d));
        }
        if let Some(v) = self.rk.globals.get(&name) {
            return Ok(v.clone());
        }
        if let Some(rec) = cur
            && !rec.is_class()
            && self.cur_multiclass.is_none()
            && let Init::Str(n, _) = &rec.name
            && **n == *text
        {
            let classes: Vec<_> = rec.superclasses.iter().map(|&(c, _)| c).collect();
            let ty = record_ty(classes, self.rk);
            return Ok(Init::Op(Rc::new(OpInit {
                op: Op::Cast,
                args: vec![Init::Str(text, StrFormat::String)],
                ty,
            })));
        }
        let d = Diagnostic::error(
            Kind::Undefined,
            id.span,
            format!("variable not defined: '{text}'"),
        );
        // Reported once: later uses of the same name follow from this error.
        if self.rk.poison.covers(&text) {
            return Err(d.following());
        }
        self.rk.poison.name(&text);
        let locals = self.names_in_scope(cur);
        let help = crate::suggest::for_record_name(&text, self.rk, locals.iter().map(|s| &**s));
        Err(match help {
            Some(h) => d.with_help(h),
            None => d,
        })
    }

    /// The variables, fields and template arguments a name could mean here.
    fn names_in_scope(&self, cur: Option<&Record>) -> Vec<Rc<str>> {
        let mut names: Vec<Rc<str>> = Vec::new();
        for s in &self.scopes {
            names.extend(s.vars.keys().map(|&v| self.rk.interner.rc(v)));
            if let ScopeKind::Loop(v, _) = &s.kind {
                names.push(self.rk.interner.rc(*v));
            }
        }
        if let Some(rec) = cur {
            for v in &rec.values {
                let n = self.rk.interner.name(v.name);
                // Template arguments are stored as `Class:arg`; written as `arg`.
                let n = n.rsplit([':']).next().unwrap_or(n);
                names.push(Rc::from(n));
            }
        }
        names
    }

    /// Evaluates an expression; `expected` guides untyped literals (`[]`, `?`).
    pub fn value(
        &mut self,
        e: &Expr,
        cur: Option<&Record>,
        expected: Option<&Ty>,
        mode: Mode,
    ) -> R<Init> {
        self.depth += 1;
        if self.depth > super::limits::MAX_DEPTH {
            self.depth -= 1;
            return Err(Diagnostic::error(
                Kind::Limit,
                e.span,
                "expression nested too deeply",
            ));
        }
        // A bang operator's own folding errors are placed at the operator.
        let outer = self.fold_at.replace(e.span);
        if !matches!(e.kind, ExprKind::Bang { .. }) {
            self.fold_at = None;
        }
        let r = self.value_inner(e, cur, expected, mode);
        self.fold_at = outer;
        self.depth -= 1;
        r
    }

    fn value_inner(
        &mut self,
        e: &Expr,
        cur: Option<&Record>,
        expected: Option<&Ty>,
        mode: Mode,
    ) -> R<Init> {
        self.rk.cur_loc = e.span;
        Ok(match &e.kind {
            ExprKind::Int(i) => Init::Int(*i),
            ExprKind::Binary(v, n) => {
                Init::Bits((0..*n).map(|i| Init::Bit((v >> i) & 1 != 0)).collect())
            }
            ExprKind::Str(s) => Init::Str(Rc::from(&**s), StrFormat::String),
            ExprKind::Code(s) => Init::Str(Rc::from(&**s), StrFormat::Code),
            ExprKind::Bool(b) => Init::Int(*b as i64),
            ExprKind::Unset => Init::Unset,
            ExprKind::Id(id) => self.lookup(*id, cur, mode)?,
            ExprKind::Bits(items) => {
                let mut bits: Vec<Init> = Vec::new();
                for (k, item) in items.iter().enumerate() {
                    let v = self.value(item, cur, None, Mode::Value)?;
                    if let Init::Bits(b) = &v {
                        for x in b.iter().rev() {
                            bits.push(x.clone());
                        }
                        continue;
                    }
                    if let Some(Ty::Bits(n)) = type_of(&v, self.rk) {
                        for i in (0..n).rev() {
                            bits.push(get_bit(&v, i));
                        }
                        continue;
                    }
                    match cast_to(&v, &Ty::Bit, self.rk) {
                        Some(b) => bits.push(b),
                        None => {
                            let m = format!(
                                "element #{k} ({}) is not convertible to a bit",
                                self.vs(&v)
                            );
                            return Err(self.err_type(item.span, m));
                        }
                    }
                }
                bits.reverse();
                Init::Bits(bits.into())
            }
            ExprKind::List(items, given) => {
                let v = self.list(e.span, items, given.as_ref(), cur, expected)?;
                self.within_value_depth(v, e.span)?
            }
            ExprKind::Dag { op, op_name, args } => {
                let opv = self.value(op, cur, None, Mode::Value)?;
                let op_name = op_name.map(|n| self.rk.interner.rc(n.sym));
                let mut out = Vec::with_capacity(args.len());
                for (v, n) in args {
                    let val = match v {
                        Some(v) => self.value(v, cur, None, Mode::Value)?,
                        None => Init::Unset,
                    };
                    out.push((val, n.map(|n| self.rk.interner.rc(n.sym))));
                }
                let v = Init::Dag(Rc::new(Dag {
                    op: opv,
                    op_name,
                    args: out,
                }));
                self.within_value_depth(v, e.span)?
            }
            ExprKind::ClassInst { class, args } => {
                let Some(&cid) = self.rk.classes.get(&class.sym) else {
                    return Err(self.class_not_found(*class, "expected a class name, got"));
                };
                let vals = self.template_arg_values(cid, args, cur, class.span, true)?;
                self.check_all_args(cid, &vals, class.span)?;
                let positional = args
                    .iter()
                    .take_while(|a| matches!(a, Arg::Positional(_)))
                    .count();
                super::inherit::fold_anon_class(cid, vals, positional, self.rk)
            }
            ExprKind::Bang { op, ty, args } => {
                self.bang(e.span, *op, ty.as_ref(), args, cur, expected)?
            }
            ExprKind::BitSlice(base, ranges) => {
                let v = self.value(base, cur, None, Mode::Value)?;
                let mut idx = expand_ranges(ranges, RangeUse::Unsigned, self.rk)?;
                idx.reverse();
                self.bit_range(&v, &idx).ok_or_else(|| {
                    Diagnostic::error(Kind::Type, e.span, "invalid bit range for value")
                        .with_label("this value has no such bits")
                })?
            }
            ExprKind::BitIndexSlice(base, indices) => {
                let ranges = self.bit_index_ranges(indices)?;
                let v = self.value(base, cur, None, Mode::Value)?;
                let mut idx = expand_ranges(&ranges, RangeUse::Unsigned, self.rk)?;
                idx.reverse();
                self.bit_range(&v, &idx).ok_or_else(|| {
                    Diagnostic::error(Kind::Type, e.span, "invalid bit range for value")
                        .with_label("this value has no such bits")
                })?
            }
            ExprKind::ListSlice(base, items, trailing) => {
                self.list_slice(e.span, base, items, *trailing, cur)?
            }
            ExprKind::Field(base, field) => {
                let v = self.value(base, cur, None, Mode::Value)?;
                let Some(ft) = self.field_type(&v, field.sym, cur) else {
                    let m = format!(
                        "cannot access field '{}' of value '{}'",
                        self.rk.interner.name(field.sym),
                        self.vs(&v)
                    );
                    return Err(Diagnostic::error(Kind::Undefined, field.span, m));
                };
                let f = Init::Field(Rc::new(Field {
                    rec: v,
                    field: field.sym,
                    ty: ft,
                }));
                fold_field(f, None, self.rk)
            }
            ExprKind::Paste(lhs, rhs) => {
                let l = self.value(lhs, cur, None, mode)?;
                let lt = type_of(&l, self.rk);
                if let Some(Ty::List(_)) = lt {
                    return match rhs {
                        None => Ok(l),
                        Some(r) => {
                            let rv = self.value(r, cur, expected, Mode::Value)?;
                            Ok(self.fold(Op::ListConcat, vec![l, rv], lt.unwrap()))
                        }
                    };
                }
                let l = self.string_value_of(l, e.span)?;
                let r = match rhs {
                    None => Init::str(""),
                    Some(r) => {
                        let rv = self.value(r, cur, None, Mode::Name)?;
                        self.string_value_of(rv, r.span)?
                    }
                };
                if let (Init::Str(x, _), Init::Str(y, _)) = (&l, &r)
                    && let Some(msg) = self.rk.string_over_limit("`#`", x.len() + y.len())
                {
                    return Err(self.rk.limit_error(e.span, msg));
                }
                match concat_strings(&l, &r) {
                    Some(s) => s,
                    None => Init::Op(Rc::new(OpInit {
                        op: Op::StrConcat,
                        args: vec![l, r],
                        ty: Ty::String,
                    })),
                }
            }
        })
    }

    /// A list or dag literal, unless it nests deeper than
    /// [`super::limits::MAX_VALUE_DEPTH`] (a chain of `defvar`s each
    /// wrapping the last): printing, comparing and dropping it recurse once
    /// per level.
    fn within_value_depth(&mut self, v: Init, span: Span) -> R<Init> {
        if super::fold::spine_depth(&v) > super::limits::MAX_VALUE_DEPTH {
            return Err(self.rk.limit_error(
                span,
                format!(
                    "this value nests more than {} lists or dags deep (records::limits::MAX_VALUE_DEPTH)",
                    super::limits::MAX_VALUE_DEPTH
                ),
            ));
        }
        Ok(v)
    }

    fn string_value_of(&mut self, v: Init, span: Span) -> R<Init> {
        match type_of(&v, self.rk) {
            Some(Ty::String) => Ok(v),
            None => Err(Diagnostic::error(
                Kind::Type,
                span,
                "LHS of paste is not typed",
            )),
            Some(_) => {
                let c = self.fold(Op::Cast, vec![v.clone()], Ty::String);
                if let Init::Op(o) = &c
                    && o.op == Op::Cast
                    && !type_is_convertible_for_cast(&o.args[0], self)
                {
                    return Err(Diagnostic::error(
                        Kind::Type,
                        span,
                        format!("can't cast '{}' to string", self.vs(&v)),
                    ));
                }
                Ok(c)
            }
        }
    }

    /// Folds an operator with the current record unknown (parse-time folding).
    pub fn fold(&mut self, op: Op, args: Vec<Init>, ty: Ty) -> Init {
        if let Some(at) = self.fold_at {
            self.rk.cur_loc = at;
        }
        fold(OpInit { op, args, ty }, None, false, self.rk)
    }

    fn bit_range(&mut self, v: &Init, idx: &[i64]) -> Option<Init> {
        let n = match v {
            Init::Bits(b) => b.len() as i64,
            Init::Int(_) => 64,
            _ => match type_of(v, self.rk) {
                Some(Ty::Bits(n)) => n as i64,
                _ => return None,
            },
        };
        let mut out = Vec::with_capacity(idx.len());
        for &i in idx {
            if i < 0 || i >= n {
                return None;
            }
            out.push(get_bit(v, i as u32));
        }
        Some(Init::Bits(out.into()))
    }

    /// The type of field `f` of a record-typed value.
    pub fn field_type(&mut self, v: &Init, f: Sym, cur: Option<&Record>) -> Option<Ty> {
        match v {
            Init::Def(id) => self.rk.get(*id).value(f).map(|x| x.ty.clone()),
            _ => match type_of(v, self.rk)? {
                Ty::Record(cs) => cs.iter().find_map(|&c| {
                    // The class being defined is not in the keeper yet: look in it directly.
                    if let Some(r) = cur.filter(|r| {
                        r.is_class() && self.rk.class_of_record_name(&r.name) == Some(c)
                    }) {
                        return r.value(f).map(|x| x.ty.clone());
                    }
                    self.rk.get(c).value(f).map(|x| x.ty.clone())
                }),
                _ => None,
            },
        }
    }

    fn list(
        &mut self,
        span: Span,
        items: &[Expr],
        given: Option<&TypeExpr>,
        cur: Option<&Record>,
        expected: Option<&Ty>,
    ) -> R<Init> {
        let given_list = match expected {
            Some(Ty::List(t)) => Some((**t).clone()),
            Some(other) => {
                let m = format!("encountered a list when expecting a {}", self.ts(other));
                return Err(self.err_type(span, m));
            }
            None => None,
        };
        let mut vals = Vec::with_capacity(items.len());
        for it in items {
            vals.push(self.value(it, cur, given_list.as_ref(), Mode::Value)?);
        }
        let mut elt: Option<Ty> = None;
        for v in &vals {
            if let Some(t) = type_of(v, self.rk) {
                elt = Some(match elt {
                    None => t,
                    Some(e) => match resolve_types(&e, &t, self.rk) {
                        Some(x) => x,
                        None => {
                            return Err(
                                self.err_type(span, "incompatible types in list elements".into())
                            );
                        }
                    },
                });
            }
        }
        if let Some(g) = given {
            let gt = self.ty(g)?;
            if let Some(e) = &elt
                && !type_is_convertible(e, &gt, self.rk)
            {
                return Err(self.err_type(span, "incompatible types in list elements".into()));
            }
            elt = Some(gt);
        }
        let t = match elt {
            None => match given_list {
                Some(t) => t,
                None => return Err(self.err_type(span, "no type for list".into())),
            },
            Some(e) => {
                if let Some(g) = &given_list
                    && !type_is_convertible(&e, g, self.rk)
                {
                    let m = format!(
                        "element type mismatch for list: element type '{}' not convertible to '{}'",
                        self.ts(&e),
                        self.ts(g)
                    );
                    return Err(self.err_type(span, m));
                }
                e
            }
        };
        Ok(Init::List(vals.into(), Rc::new(t)))
    }

    fn list_slice(
        &mut self,
        span: Span,
        base: &Expr,
        items: &[SliceItem],
        trailing: bool,
        cur: Option<&Record>,
    ) -> R<Init> {
        let l = self.value(base, cur, None, Mode::Value)?;
        let lt = match type_of(&l, self.rk) {
            Some(Ty::List(t)) => t,
            Some(t) => {
                return Err(self.err_type(
                    base.span,
                    format!("type '{}' is invalid, list expected", self.ts(&t)),
                ));
            }
            None => return Err(self.err_type(base.span, "invalid value, list expected".into())),
        };
        // One index without a trailing comma selects an element; anything else a list.
        if items.len() == 1
            && !trailing
            && let SliceItem::Value(v) = &items[0]
        {
            let i = self.value(v, cur, None, Mode::Value)?;
            match type_of(&i, self.rk) {
                Some(Ty::Int) => return Ok(self.fold(Op::ListElem, vec![l, i], (*lt).clone())),
                Some(Ty::List(t)) if *t == Ty::Int => {
                    return Ok(self.fold(Op::ListSlice, vec![l, i], Ty::List(lt)));
                }
                _ => {
                    return Err(self.err_type(
                        v.span,
                        "list element index must be an int or a list of ints".into(),
                    ));
                }
            }
        }
        let mut parts: Vec<Init> = Vec::new();
        for it in items {
            match it {
                SliceItem::Range(r) => {
                    let xs: Vec<Init> =
                        expand_ranges(std::slice::from_ref(r), RangeUse::Slice, self.rk)?
                            .into_iter()
                            .map(Init::Int)
                            .collect();
                    parts.push(Init::List(xs.into(), Rc::new(Ty::Int)));
                }
                SliceItem::Value(v) => {
                    let i = self.value(v, cur, None, Mode::Value)?;
                    match type_of(&i, self.rk) {
                        Some(Ty::Int) => parts.push(Init::List(Rc::from([i]), Rc::new(Ty::Int))),
                        Some(Ty::List(t)) if *t == Ty::Int => parts.push(i),
                        _ => {
                            return Err(self.err_type(
                                v.span,
                                "list slice element must be an int or a list of ints".into(),
                            ));
                        }
                    }
                }
            }
        }
        let mut idx = parts.remove(0);
        for p in parts {
            idx = self.fold(Op::ListConcat, vec![idx, p], Ty::Int.list_of());
        }
        let _ = span;
        Ok(self.fold(Op::ListSlice, vec![l, idx], Ty::List(lt)))
    }

    /// The integer ranges of bit indices written as values (`x{C.F}`):
    /// each value is read without the current record, as llvm-tblgen's
    /// `ParseRangePiece` reads it, and must fold to an int.
    /// The bits a `let` item sets, highest first (as `set_value` takes
    /// them); `None` for a whole field.
    pub(crate) fn let_bits(&mut self, bits: Option<&LetBits>) -> R<Option<Vec<i64>>> {
        let ranges = match bits {
            None => return Ok(None),
            Some(LetBits::Ranges(r)) => std::borrow::Cow::Borrowed(r),
            Some(LetBits::Values(v)) => std::borrow::Cow::Owned(self.bit_index_ranges(v)?),
        };
        let mut v = expand_ranges(&ranges, RangeUse::Unsigned, self.rk)?;
        v.reverse();
        Ok(Some(v))
    }

    fn bit_index_ranges(&mut self, indices: &[BitIndex]) -> R<Vec<RangePiece>> {
        let mut ranges = Vec::with_capacity(indices.len());
        for i in indices {
            let start = self.bit_index_int(&i.start, "expected integer or bitrange")?;
            let end = match &i.end {
                Some(e) => Some(self.bit_index_int(e, "expected integer value as end of range")?),
                None => None,
            };
            ranges.push(RangePiece {
                start,
                end,
                span: i.span,
            });
        }
        Ok(ranges)
    }

    fn bit_index_int(&mut self, e: &Expr, message: &str) -> R<i64> {
        match self.value(e, None, Some(&Ty::Int), Mode::Value)? {
            Init::Int(v) => Ok(v),
            other => Err(Diagnostic::error(
                Kind::Type,
                e.span,
                format!("{message}: {}", self.vs(&other)),
            )),
        }
    }

    /// Evaluates `Class<args>` arguments: positional then named, each cast to
    /// the argument's type when `typed`. A multiclass's parent multiclass
    /// takes its arguments untyped, as llvm-tblgen 19 does
    /// (`ParseSubMultiClassReference` has no `CheckTemplateArgValues`):
    /// ARM passes `null_frag` where `SDNode` is declared.
    pub fn template_arg_values(
        &mut self,
        class: super::RecId,
        args: &[Arg],
        cur: Option<&Record>,
        span: Span,
        typed: bool,
    ) -> R<Vec<(Sym, Init)>> {
        let targs = self.rk.get(class).template_args.clone();
        let cname = self.rk.name_of(class);
        let mut out: Vec<(Sym, Init)> = Vec::new();
        let mut seen_named = false;
        for (k, a) in args.iter().enumerate() {
            let (name, expr) = match a {
                Arg::Positional(x) => {
                    if seen_named {
                        return Err(Diagnostic::error(
                            Kind::Syntax,
                            x.span,
                            "positional argument should be put before named argument",
                        ));
                    }
                    if k >= targs.len() {
                        return Err(Diagnostic::error(
                            Kind::Type,
                            x.span,
                            format!(
                                "too many template arguments: '{cname}' takes {}",
                                targs.len()
                            ),
                        ));
                    }
                    (targs[k], x)
                }
                Arg::Named(n, x) => {
                    seen_named = true;
                    let sep = if self.rk.get(class).kind == super::RecordKind::MultiClass {
                        "::"
                    } else {
                        ":"
                    };
                    let q = self
                        .rk
                        .interner
                        .intern(&format!("{cname}{sep}{}", self.rk.interner.name(n.sym)));
                    if !targs.contains(&q) {
                        return Err(Diagnostic::error(
                            Kind::Undefined,
                            n.span,
                            format!("argument '{}' doesn't exist", self.rk.interner.name(n.sym)),
                        ));
                    }
                    (q, x)
                }
            };
            if out.iter().any(|(n, _)| *n == name) {
                return Err(Diagnostic::error(
                    Kind::Redefinition,
                    expr.span,
                    format!(
                        "we can only specify the template argument '{}' once",
                        self.rk.interner.name(name)
                    ),
                ));
            }
            let aty = self
                .rk
                .get(class)
                .value(name)
                .map(|v| v.ty.clone())
                .unwrap_or(Ty::Int);
            let v = self.value(expr, cur, Some(&aty), Mode::Value)?;
            let v = match cast_to(&v, &aty, self.rk) {
                _ if !typed => v,
                Some(c) => c,
                None => {
                    let vt = type_of(&v, self.rk)
                        .map(|t| self.ts(&t))
                        .unwrap_or_default();
                    let m = format!(
                        "value specified for template argument '{}' is of type {vt}; expected type {}: {}",
                        self.rk.interner.name(name),
                        self.ts(&aty),
                        self.vs(&v)
                    );
                    return Err(self.err_type(expr.span, m));
                }
            };
            out.push((name, v));
        }
        let _ = span;
        Ok(out)
    }

    /// Checks that every template argument without a value has a default.
    pub fn check_all_args(
        &mut self,
        class: super::RecId,
        vals: &[(Sym, Init)],
        span: Span,
    ) -> R<()> {
        let rec = self.rk.get(class);
        for &ta in &rec.template_args {
            if vals.iter().any(|(n, _)| *n == ta) {
                continue;
            }
            let decl = rec.value(ta).expect("template arguments are fields");
            if !decl.value.is_complete() {
                return Err(Diagnostic::error(
                    Kind::Type,
                    span,
                    format!(
                        "value not specified for template argument '{}'",
                        self.rk.interner.name(ta)
                    ),
                )
                .with_secondary(
                    decl.loc,
                    format!("declared in '{}'", self.rk.name_of(class)),
                ));
            }
        }
        Ok(())
    }

    fn bang(
        &mut self,
        span: Span,
        opid: Ident,
        ty: Option<&TypeExpr>,
        args: &[(Expr, Option<Expr>)],
        cur: Option<&Record>,
        expected: Option<&Ty>,
    ) -> R<Init> {
        let name = self.rk.interner.name(opid.sym).to_string();
        let tparam = match ty {
            Some(t) => Some(self.ty(t)?),
            None => None,
        };
        let nargs = args.len();
        let arity = |lo: usize, hi: usize| -> R<()> {
            if nargs < lo || nargs > hi {
                let want = if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo} to {hi}")
                };
                return Err(Diagnostic::error(
                    Kind::Syntax,
                    span,
                    format!("!{name} takes {want} operands, got {nargs}"),
                ));
            }
            Ok(())
        };
        if name != "cond"
            && let Some((_, Some(x))) = args.iter().find(|(_, b)| b.is_some())
        {
            return Err(Diagnostic::error(
                Kind::Syntax,
                x.span,
                format!("unexpected ':' in !{name}"),
            ));
        }
        let ex = |s: &Expr| s.span;
        match name.as_str() {
            "foreach" | "filter" => {
                arity(3, 3)?;
                let var = self.bound_name(&args[0].0)?;
                let list = self.value(&args[1].0, cur, None, Mode::Value)?;
                let (vty, is_dag) = match type_of(&list, self.rk) {
                    Some(Ty::List(t)) => ((*t).clone(), false),
                    Some(Ty::Dag) if name == "foreach" => (Ty::Dag, true),
                    _ => {
                        return Err(self.err_type(
                            ex(&args[1].0),
                            format!("!{name} must have a list or dag argument"),
                        ));
                    }
                };
                let body = self.with_local_var(var, vty.clone(), |ev| {
                    ev.value(&args[2].0, cur, None, Mode::Value)
                })?;
                let bt = type_of(&body, self.rk);
                let rty = if name == "filter" {
                    if !matches!(bt, Some(Ty::Bit | Ty::Bits(_) | Ty::Int) | None) {
                        return Err(self.err_type(
                            ex(&args[2].0),
                            "!filter must have a boolean predicate".into(),
                        ));
                    }
                    Ty::List(Rc::new(vty))
                } else if is_dag {
                    Ty::Dag
                } else {
                    match (bt, expected) {
                        (Some(t), _) => t.list_of(),
                        (None, Some(e)) => e.clone(),
                        (None, None) => {
                            return Err(self.err_type(
                                ex(&args[2].0),
                                "could not get type of !foreach result".into(),
                            ));
                        }
                    }
                };
                let op = if name == "filter" {
                    Op::Filter
                } else {
                    Op::Foreach
                };
                let vname = Init::str(self.rk.interner.name(var));
                return Ok(self.fold(op, vec![vname, list, body], rty));
            }
            "foldl" => {
                arity(5, 5)?;
                let init = self.value(&args[0].0, cur, None, Mode::Value)?;
                let list = self.value(&args[1].0, cur, None, Mode::Value)?;
                let elt = match type_of(&list, self.rk) {
                    Some(Ty::List(t)) => (*t).clone(),
                    _ => {
                        return Err(
                            self.err_type(ex(&args[1].0), "!foldl list must be a list".into())
                        );
                    }
                };
                let a = self.bound_name(&args[2].0)?;
                let b = self.bound_name(&args[3].0)?;
                if a == b {
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        ex(&args[3].0),
                        "!foldl variables must have different names",
                    ));
                }
                let ity = match type_of(&init, self.rk) {
                    Some(t) => t,
                    None => expected.cloned().unwrap_or(Ty::Int),
                };
                let body = self.with_local_var(a, ity.clone(), |ev| {
                    ev.with_local_var(b, elt.clone(), |ev| {
                        ev.value(&args[4].0, cur, Some(&ity), Mode::Value)
                    })
                })?;
                if let Some(bt) = type_of(&body, self.rk)
                    && !type_is_convertible(&bt, &ity, self.rk)
                {
                    let m = format!(
                        "!foldl expression type '{}' does not match accumulator type '{}'",
                        self.ts(&bt),
                        self.ts(&ity)
                    );
                    return Err(self.err_type(ex(&args[4].0), m));
                }
                let an = Init::str(self.rk.interner.name(a));
                let bn = Init::str(self.rk.interner.name(b));
                return Ok(self.fold(Op::Foldl, vec![init, list, an, bn, body], ity));
            }
            "cond" => {
                if nargs == 0 {
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        span,
                        "!cond needs at least one condition",
                    ));
                }
                let mut flat = Vec::new();
                let mut vty: Option<Ty> = None;
                for (c, v) in args {
                    let Some(v) = v else {
                        return Err(Diagnostic::error(
                            Kind::Syntax,
                            c.span,
                            "expected ':' after a !cond condition",
                        ));
                    };
                    let cv = self.value(c, cur, None, Mode::Value)?;
                    let vv = self.value(v, cur, expected, Mode::Value)?;
                    if let Some(t) = type_of(&vv, self.rk) {
                        vty = Some(match vty {
                            None => t,
                            Some(p) => resolve_types(&p, &t, self.rk).ok_or_else(|| {
                                Diagnostic::error(
                                    Kind::Type,
                                    v.span,
                                    "inconsistent types in !cond values",
                                )
                            })?,
                        });
                    }
                    flat.push(cv);
                    flat.push(vv);
                }
                let t = vty.or_else(|| expected.cloned()).unwrap_or(Ty::Int);
                return Ok(self.fold(Op::Cond, flat, t));
            }
            _ => {}
        }
        // Untyped literals (`[]`, `?`) in list operands and `!if` branches take
        // the type the context expects, as llvm-tblgen parses them with it.
        let hinted = |k: usize| match name.as_str() {
            "listconcat" | "listremove" => true,
            "if" => k > 0,
            _ => false,
        };
        let mut vals: Vec<Init> = Vec::with_capacity(nargs);
        for (k, (a, _)) in args.iter().enumerate() {
            let h = if hinted(k) { expected } else { None };
            vals.push(self.value(a, cur, h, Mode::Value)?);
        }
        let tys: Vec<Option<Ty>> = vals.iter().map(|v| type_of(v, self.rk)).collect();
        let int_like = |t: &Option<Ty>, rk: &crate::records::RecordKeeper| match t {
            None => true,
            Some(t) => type_is_convertible(t, &Ty::Int, rk),
        };
        macro_rules! need_int {
            ($i:expr) => {
                if !int_like(&tys[$i], self.rk) {
                    let t = tys[$i].clone().unwrap();
                    let m = format!("expected value of type 'int', got '{}'", self.ts(&t));
                    return Err(self.err_type(args[$i].0.span, m));
                }
            };
        }
        let unary = |op: Op, ty: Ty, ev: &mut Self, v: Vec<Init>| Ok(ev.fold(op, v, ty));
        match name.as_str() {
            "add" | "mul" | "and" | "or" | "xor" | "sub" | "div" | "shl" | "srl" | "sra" => {
                let variadic = matches!(name.as_str(), "add" | "mul" | "and" | "or" | "xor");
                if variadic {
                    arity(2, usize::MAX)?
                } else {
                    arity(2, 2)?
                }
                for i in 0..nargs {
                    need_int!(i);
                }
                let op = match name.as_str() {
                    "add" => Op::Add,
                    "mul" => Op::Mul,
                    "and" => Op::And,
                    "or" => Op::Or,
                    "xor" => Op::Xor,
                    "sub" => Op::Sub,
                    "div" => Op::Div,
                    "shl" => Op::Shl,
                    "srl" => Op::Srl,
                    _ => Op::Sra,
                };
                let mut it = vals.into_iter();
                let mut acc = it.next().unwrap();
                for v in it {
                    acc = self.fold(op.clone(), vec![acc, v], Ty::Int);
                }
                Ok(acc)
            }
            "eq" | "ne" | "lt" | "le" | "gt" | "ge" => {
                arity(2, 2)?;
                let op = match name.as_str() {
                    "eq" => Op::Eq,
                    "ne" => Op::Ne,
                    "lt" => Op::Lt,
                    "le" => Op::Le,
                    "gt" => Op::Gt,
                    _ => Op::Ge,
                };
                let ok = |t: &Option<Ty>, rk: &crate::records::RecordKeeper| match t {
                    None => true,
                    Some(Ty::String) => true,
                    Some(Ty::Record(_)) => matches!(op, Op::Eq | Op::Ne),
                    Some(t) => type_is_convertible(t, &Ty::Int, rk),
                };
                for i in 0..2 {
                    if !ok(&tys[i], self.rk) {
                        let m = format!(
                            "!{name} operand has an incompatible type '{}'",
                            self.ts(tys[i].as_ref().unwrap())
                        );
                        return Err(self.err_type(args[i].0.span, m));
                    }
                }
                Ok(self.fold(op, vals, Ty::Bit))
            }
            "strconcat" => {
                arity(1, usize::MAX)?;
                for (i, t) in tys.iter().enumerate() {
                    if !matches!(t, Some(Ty::String) | None) {
                        let m = format!(
                            "expected value of type 'string', got '{}'",
                            self.ts(t.as_ref().unwrap())
                        );
                        return Err(self.err_type(args[i].0.span, m));
                    }
                }
                let mut it = vals.into_iter();
                let mut acc = it.next().unwrap();
                for v in it {
                    acc = self.fold(Op::StrConcat, vec![acc, v], Ty::String);
                }
                Ok(acc)
            }
            "listconcat" => {
                arity(1, usize::MAX)?;
                let mut lt: Option<Ty> = None;
                for (i, t) in tys.iter().enumerate() {
                    match t {
                        Some(t @ Ty::List(_)) => {
                            lt = Some(match lt {
                                None => t.clone(),
                                Some(p) => resolve_types(&p, t, self.rk).ok_or_else(|| {
                                    Diagnostic::error(
                                        Kind::Type,
                                        args[i].0.span,
                                        "incompatible list types in !listconcat",
                                    )
                                })?,
                            })
                        }
                        None => {}
                        Some(t) => {
                            let m = format!("expected a list, got value of type '{}'", self.ts(t));
                            return Err(self.err_type(args[i].0.span, m));
                        }
                    }
                }
                let lt = lt
                    .or_else(|| expected.cloned())
                    .unwrap_or(Ty::Int.list_of());
                let mut it = vals.into_iter();
                let mut acc = it.next().unwrap();
                for v in it {
                    acc = self.fold(Op::ListConcat, vec![acc, v], lt.clone());
                }
                Ok(acc)
            }
            "listsplat" => {
                arity(2, 2)?;
                need_int!(1);
                let t = tys[0].clone().unwrap_or(Ty::Int);
                Ok(self.fold(Op::ListSplat, vals, t.list_of()))
            }
            "listremove" => {
                arity(2, 2)?;
                let t = match &tys[0] {
                    Some(t @ Ty::List(_)) => t.clone(),
                    _ => {
                        return Err(
                            self.err_type(args[0].0.span, "!listremove needs a list".into())
                        );
                    }
                };
                Ok(self.fold(Op::ListRemove, vals, t))
            }
            "interleave" => {
                arity(2, 2)?;
                match &tys[0] {
                    Some(Ty::List(e))
                        if matches!(**e, Ty::String | Ty::Int | Ty::Bit | Ty::Bits(_)) => {}
                    _ => {
                        return Err(self.err_type(
                            args[0].0.span,
                            "!interleave needs a list of strings or ints".into(),
                        ));
                    }
                }
                if !matches!(tys[1], Some(Ty::String) | None) {
                    return Err(self.err_type(
                        args[1].0.span,
                        "!interleave delimiter must be a string".into(),
                    ));
                }
                Ok(self.fold(Op::Interleave, vals, Ty::String))
            }
            "con" => {
                arity(1, usize::MAX)?;
                for (i, t) in tys.iter().enumerate() {
                    if !matches!(t, Some(Ty::Dag) | None) {
                        return Err(self.err_type(args[i].0.span, "!con needs dag operands".into()));
                    }
                }
                let mut it = vals.into_iter();
                let mut acc = it.next().unwrap();
                for v in it {
                    acc = self.fold(Op::Con, vec![acc, v], Ty::Dag);
                }
                Ok(acc)
            }
            "getdagarg" => {
                arity(2, 2)?;
                let Some(t) = tparam else {
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        span,
                        "!getdagarg needs a type: !getdagarg<type>(dag, key)",
                    ));
                };
                Ok(self.fold(Op::GetDagArg, vals, t))
            }
            "getdagname" => {
                arity(2, 2)?;
                Ok(self.fold(Op::GetDagName, vals, Ty::String))
            }
            "setdagop" | "setop" => {
                arity(2, 2)?;
                Ok(self.fold(Op::SetDagOp, vals, Ty::Dag))
            }
            "getdagop" | "getop" => {
                arity(1, 1)?;
                let t = tparam.unwrap_or(Ty::Record(Rc::from([])));
                Ok(self.fold(Op::GetDagOp, vals, t))
            }
            "setdagarg" | "setdagname" => {
                arity(3, 3)?;
                let op = if name == "setdagarg" {
                    Op::SetDagArg
                } else {
                    Op::SetDagName
                };
                Ok(self.fold(op, vals, Ty::Dag))
            }
            "range" => {
                arity(1, 3)?;
                let mut v = vals;
                if v.len() == 1 {
                    let x = v.pop().unwrap();
                    let n = match type_of(&x, self.rk) {
                        Some(Ty::List(_)) => self.fold(Op::Size, vec![x], Ty::Int),
                        _ => x,
                    };
                    v = vec![Init::Int(0), n, Init::Int(1)];
                } else if v.len() == 2 {
                    v.push(Init::Int(1));
                }
                Ok(self.fold(Op::Range, v, Ty::Int.list_of()))
            }
            "if" => {
                arity(3, 3)?;
                let t = match (&tys[1], &tys[2]) {
                    (None, None) => expected.cloned().unwrap_or(Ty::Int),
                    (Some(a), None) | (None, Some(a)) => a.clone(),
                    (Some(a), Some(b)) => match resolve_types(a, b, self.rk) {
                        Some(t) => t,
                        None => {
                            let m = format!(
                                "inconsistent types '{}' and '{}' for !if",
                                self.ts(a),
                                self.ts(b)
                            );
                            return Err(self.err_type(span, m));
                        }
                    },
                };
                Ok(self.fold(Op::If, vals, t))
            }
            "dag" => {
                arity(3, 3)?;
                Ok(self.fold(Op::DagOp, vals, Ty::Dag))
            }
            "subst" => {
                arity(3, 3)?;
                let t = tys[2].clone().unwrap_or(Ty::String);
                Ok(self.fold(Op::Subst, vals, t))
            }
            "substr" => {
                arity(2, 3)?;
                let mut v = vals;
                if v.len() == 2 {
                    v.push(Init::Int(i64::MAX));
                }
                Ok(self.fold(Op::Substr, v, Ty::String))
            }
            "find" => {
                arity(2, 3)?;
                let mut v = vals;
                if v.len() == 2 {
                    v.push(Init::Int(0));
                }
                Ok(self.fold(Op::Find, v, Ty::Int))
            }
            "cast" | "isa" | "exists" => {
                arity(1, 1)?;
                let Some(t) = tparam else {
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        span,
                        format!("!{name} needs a type: !{name}<type>(value)"),
                    ));
                };
                match name.as_str() {
                    "cast" => {
                        if let Some(vt) = &tys[0] {
                            let ok = type_is_convertible(vt, &t, self.rk)
                                || (matches!(t, Ty::Record(_)) && *vt == Ty::String)
                                || (t == Ty::String
                                    && matches!(
                                        vt,
                                        Ty::Record(_) | Ty::Int | Ty::Bits(_) | Ty::Bit
                                    ));
                            if !(ok || matches!(t, Ty::Record(_)) && matches!(vt, Ty::Record(_))) {
                                let m = format!(
                                    "unable to cast type '{}' to type '{}'",
                                    self.ts(vt),
                                    self.ts(&t)
                                );
                                return Err(self.err_type(args[0].0.span, m));
                            }
                        }
                        unary(Op::Cast, t, self, vals)
                    }
                    "isa" => unary(Op::IsA(t), Ty::Int, self, vals),
                    _ => {
                        if !matches!(t, Ty::Record(_)) {
                            return Err(self.err_type(span, "!exists needs a record type".into()));
                        }
                        if !matches!(tys[0], Some(Ty::String)) {
                            return Err(self.err_type(
                                args[0].0.span,
                                "!exists needs a string operand".into(),
                            ));
                        }
                        unary(Op::Exists(t), Ty::Int, self, vals)
                    }
                }
            }
            "not" => {
                arity(1, 1)?;
                need_int!(0);
                unary(Op::Not, Ty::Int, self, vals)
            }
            "head" | "tail" => {
                arity(1, 1)?;
                let Some(Ty::List(e)) = tys[0].clone() else {
                    return Err(self.err_type(args[0].0.span, format!("!{name} needs a list")));
                };
                if let Init::List(xs, _) = &vals[0]
                    && xs.is_empty()
                {
                    return Err(Diagnostic::error(
                        Kind::Eval,
                        args[0].0.span,
                        format!("empty list argument in !{name}"),
                    ));
                }
                if name == "head" {
                    unary(Op::Head, (*e).clone(), self, vals)
                } else {
                    unary(Op::Tail, Ty::List(e), self, vals)
                }
            }
            "size" | "empty" => {
                arity(1, 1)?;
                if !matches!(tys[0], Some(Ty::List(_) | Ty::Dag | Ty::String) | None) {
                    return Err(self.err_type(
                        args[0].0.span,
                        format!("!{name} needs a list, dag or string"),
                    ));
                }
                if name == "size" {
                    unary(Op::Size, Ty::Int, self, vals)
                } else {
                    unary(Op::Empty, Ty::Bit, self, vals)
                }
            }
            "logtwo" => {
                arity(1, 1)?;
                need_int!(0);
                unary(Op::LogTwo, Ty::Int, self, vals)
            }
            "tolower" | "toupper" => {
                arity(1, 1)?;
                if !matches!(tys[0], Some(Ty::String) | None) {
                    return Err(self.err_type(args[0].0.span, format!("!{name} needs a string")));
                }
                let op = if name == "tolower" {
                    Op::ToLower
                } else {
                    Op::ToUpper
                };
                unary(op, Ty::String, self, vals)
            }
            "repr" => {
                arity(1, 1)?;
                unary(Op::Repr, Ty::String, self, vals)
            }
            _ => Err(Diagnostic::error(
                Kind::Syntax,
                opid.span,
                format!("unknown operator '!{name}'"),
            )),
        }
    }

    fn bound_name(&mut self, e: &Expr) -> R<Sym> {
        match &e.kind {
            ExprKind::Id(id) => Ok(id.sym),
            _ => Err(Diagnostic::error(
                Kind::Syntax,
                e.span,
                "expected a variable name",
            )),
        }
    }

    fn with_local_var<T>(&mut self, name: Sym, ty: Ty, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.push_scope(ScopeKind::Local);
        let v = Init::Var(Rc::new(Var { name, ty }));
        self.scopes.last_mut().unwrap().vars.insert(name, v);
        let r = f(self);
        self.pop_scope();
        r
    }

    /// Evaluates a value that must convert to `ty` (a field initializer or `let`).
    pub fn typed_value(&mut self, e: &Expr, cur: Option<&Record>, ty: &Ty) -> R<Init> {
        let v = self.value(e, cur, Some(ty), Mode::Value)?;
        let _ = (convert, resolve, type_is_a);
        Ok(v)
    }
}

fn type_is_convertible_for_cast(v: &Init, ev: &mut Evaluator<'_>) -> bool {
    match type_of(v, ev.rk) {
        Some(Ty::String | Ty::Int | Ty::Bit | Ty::Bits(_) | Ty::Record(_)) => true,
        Some(_) => false,
        None => true,
    }
}

/// How a range list is read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RangeUse {
    /// `foreach i = 0-7` and bit ranges `x{7-0}`: llvm-tblgen reads these
    /// into C++ `unsigned`, so a negative bound is an error and every value
    /// is taken modulo 2^32.
    Unsigned,
    /// List slices `l[0...3]`: 64-bit ints, as written.
    Slice,
}

/// Expands range pieces to the integers they denote, in order; a range
/// longer than [`super::limits::MAX_LIST`] is an error at the range, found
/// before anything is allocated.
pub fn expand_ranges(
    ranges: &[RangePiece],
    range_use: RangeUse,
    rk: &mut super::record::RecordKeeper,
) -> Result<Vec<i64>, Diagnostic> {
    let mut total: i128 = 0;
    for r in ranges {
        let end = r.end.unwrap_or(r.start);
        if range_use == RangeUse::Unsigned && (r.start < 0 || end < 0) {
            return Err(Diagnostic::error(
                Kind::Syntax,
                r.span,
                "invalid range, cannot be negative",
            ));
        }
        let count = (end as i128 - r.start as i128).abs() + 1;
        total += count;
        if total > super::limits::MAX_LIST as i128 {
            let what = match r.end {
                Some(e) => format!("range {}-{e} has {count} elements", r.start),
                None => format!(
                    "the ranges have more than {} elements",
                    super::limits::MAX_LIST
                ),
            };
            return Err(rk.limit_error(
                r.span,
                format!(
                    "{what}; the limit is {} (records::limits::MAX_LIST)",
                    super::limits::MAX_LIST
                ),
            ));
        }
    }
    if let Some(msg) = rk.spend_built_or_say("a range", (total as usize).saturating_mul(16))
        && let Some(first) = ranges.first()
    {
        return Err(rk.limit_error(first.span, msg));
    }
    let wrap = |v: i64| match range_use {
        RangeUse::Unsigned => v as u32 as i64,
        RangeUse::Slice => v,
    };
    let mut out = Vec::with_capacity(total as usize);
    for r in ranges {
        match r.end {
            None => out.push(wrap(r.start)),
            Some(e) if r.start <= e => out.extend((r.start..=e).map(wrap)),
            Some(e) => out.extend((e..=r.start).rev().map(wrap)),
        }
    }
    Ok(out)
}
