//! Renumbers the symbols of a syntax tree parsed with its own interner into the shared one.
//!
//! A file parsed on a worker thread names its identifiers in a private
//! interner (the shared one lives on the evaluating thread). When the
//! evaluator takes the file, each private symbol is interned in the shared
//! table, in private-symbol order, and the tree is rewritten in place.

use super::ast::*;

/// Rewrites every symbol `s` in `file` to `map[s]`.
pub fn remap_file(file: &mut File, map: &[Sym]) {
    let m = Map(map);
    for s in &mut file.stmts {
        m.stmt(s);
    }
}

struct Map<'a>(&'a [Sym]);

impl Map<'_> {
    fn ident(&self, i: &mut Ident) {
        i.sym = self.0[i.sym.0 as usize];
    }

    fn stmts(&self, ss: &mut [Stmt]) {
        for s in ss {
            self.stmt(s);
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        match s {
            Stmt::Include { .. } => {}
            Stmt::Class {
                name, args, body, ..
            } => {
                self.ident(name);
                self.template_args(args);
                self.body(body);
            }
            Stmt::Def { name, body, .. } => {
                if let Some(n) = name {
                    self.expr(n);
                }
                self.body(body);
            }
            Stmt::Defm { name, parents, .. } => {
                if let Some(n) = name {
                    self.expr(n);
                }
                self.parents(parents);
            }
            Stmt::Defset { ty, name, body, .. } => {
                self.ty(ty);
                self.ident(name);
                self.stmts(body);
            }
            Stmt::Defvar(d) => self.defvar(d),
            Stmt::Deftype { name, ty, .. } => {
                self.ident(name);
                self.ty(ty);
            }
            Stmt::Foreach {
                var, iter, body, ..
            } => {
                self.ident(var);
                if let ForeachIter::Value(v) = iter {
                    self.expr(v);
                }
                self.stmts(body);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                self.expr(cond);
                self.stmts(then);
                self.stmts(otherwise);
            }
            Stmt::Let { items, body, .. } => {
                for i in items {
                    self.let_item(i);
                }
                self.stmts(body);
            }
            Stmt::MultiClass {
                name,
                args,
                parents,
                body,
                ..
            } => {
                self.ident(name);
                self.template_args(args);
                self.parents(parents);
                self.stmts(body);
            }
            Stmt::Assert(a) => self.assert(a),
            Stmt::Dump(d) => self.expr(&mut d.message),
        }
    }

    fn template_args(&self, args: &mut [TemplateArg]) {
        for a in args {
            self.ty(&mut a.ty);
            self.ident(&mut a.name);
            if let Some(d) = &mut a.default {
                self.expr(d);
            }
        }
    }

    fn parents(&self, ps: &mut [ParentRef]) {
        for p in ps {
            self.ident(&mut p.name);
            self.args(&mut p.args);
        }
    }

    fn body(&self, b: &mut ObjectBody) {
        self.parents(&mut b.parents);
        for item in &mut b.items {
            match item {
                BodyItem::Field {
                    ty, name, value, ..
                } => {
                    self.ty(ty);
                    self.ident(name);
                    if let Some(v) = value {
                        self.expr(v);
                    }
                }
                BodyItem::Let(l) => self.let_item(l),
                BodyItem::Defvar(d) => self.defvar(d),
                BodyItem::Assert(a) => self.assert(a),
                BodyItem::Dump(d) => self.expr(&mut d.message),
            }
        }
    }

    fn let_item(&self, l: &mut LetItem) {
        self.ident(&mut l.name);
        if let Some(LetBits::Values(indices)) = &mut l.bits {
            for i in indices {
                self.expr(&mut i.start);
                if let Some(e) = &mut i.end {
                    self.expr(e);
                }
            }
        }
        self.expr(&mut l.value);
    }

    fn defvar(&self, d: &mut Defvar) {
        self.ident(&mut d.name);
        self.expr(&mut d.value);
    }

    fn assert(&self, a: &mut Assert) {
        self.expr(&mut a.cond);
        self.expr(&mut a.message);
    }

    fn ty(&self, t: &mut TypeExpr) {
        match &mut t.kind {
            TypeKind::List(inner) => self.ty(inner),
            TypeKind::Class(c) => self.ident(c),
            TypeKind::Bit
            | TypeKind::Bits(_)
            | TypeKind::Int
            | TypeKind::String
            | TypeKind::Code
            | TypeKind::Dag => {}
        }
    }

    fn args(&self, args: &mut [Arg]) {
        for a in args {
            match a {
                Arg::Positional(e) => self.expr(e),
                Arg::Named(n, e) => {
                    self.ident(n);
                    self.expr(e);
                }
            }
        }
    }

    fn expr(&self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Int(_)
            | ExprKind::Binary(..)
            | ExprKind::Str(_)
            | ExprKind::Code(_)
            | ExprKind::Bool(_)
            | ExprKind::Unset => {}
            ExprKind::Id(i) => self.ident(i),
            ExprKind::Bits(es) => {
                for x in es {
                    self.expr(x);
                }
            }
            ExprKind::List(es, ty) => {
                for x in es {
                    self.expr(x);
                }
                if let Some(t) = ty {
                    self.ty(t);
                }
            }
            ExprKind::Dag { op, op_name, args } => {
                self.expr(op);
                if let Some(n) = op_name {
                    self.ident(n);
                }
                for (v, n) in args {
                    if let Some(v) = v {
                        self.expr(v);
                    }
                    if let Some(n) = n {
                        self.ident(n);
                    }
                }
            }
            ExprKind::ClassInst { class, args } => {
                self.ident(class);
                self.args(args);
            }
            ExprKind::Bang { op, ty, args } => {
                self.ident(op);
                if let Some(t) = ty {
                    self.ty(t);
                }
                for (a, b) in args {
                    self.expr(a);
                    if let Some(b) = b {
                        self.expr(b);
                    }
                }
            }
            ExprKind::BitSlice(x, _) => self.expr(x),
            ExprKind::BitIndexSlice(x, indices) => {
                self.expr(x);
                for i in indices {
                    self.expr(&mut i.start);
                    if let Some(e) = &mut i.end {
                        self.expr(e);
                    }
                }
            }
            ExprKind::ListSlice(x, items, _) => {
                self.expr(x);
                for i in items {
                    if let SliceItem::Value(v) = i {
                        self.expr(v);
                    }
                }
            }
            ExprKind::Field(x, f) => {
                self.expr(x);
                self.ident(f);
            }
            ExprKind::Paste(a, b) => {
                self.expr(a);
                if let Some(b) = b {
                    self.expr(b);
                }
            }
        }
    }
}
