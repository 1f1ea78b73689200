//! Statements, record bodies and their parts, for the recursive-descent parser (the statement rules of `td.pest`).

use super::{Descent, R};
use crate::syntax::ast::*;

impl Descent<'_> {
    /// `file`: statements up to the end of the text.
    pub(super) fn file_stmts(&mut self) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.pos == self.s.len() {
                return Some(out);
            }
            out.push(self.stmt()?);
        }
    }

    /// `statement*` and the closing `}`.
    fn stmts_until_brace(&mut self) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.byte(b'}') {
                return Some(out);
            }
            out.push(self.stmt()?);
        }
    }

    /// `block`: `{ statements }` or one statement.
    fn block(&mut self) -> R<Vec<Stmt>> {
        if self.byte(b'{') {
            self.stmts_until_brace()
        } else {
            Some(vec![self.stmt()?])
        }
    }

    /// `statement`: picked by its keyword (no two statements share one).
    fn stmt(&mut self) -> R<Stmt> {
        if !self.enter() {
            return None;
        }
        let s = self.stmt_inner();
        self.depth -= 1;
        s
    }

    fn stmt_inner(&mut self) -> R<Stmt> {
        let start = self.pos;
        let end = self.word_end(start);
        let word = &self.s[start..end];
        self.pos = end;
        self.ws();
        let stmt = match word {
            b"include" => {
                self.skip_string_lit()?;
                Stmt::Include {
                    file: self.includes.get(&(start as u32)).copied().flatten(),
                    span: self.span(start, self.pos),
                }
            }
            b"class" => {
                let name = self.ident()?;
                self.ws();
                let args = self.opt_template_args();
                self.ws();
                let body = self.object_body()?;
                Stmt::Class {
                    name,
                    args,
                    body,
                    span: self.span(start, self.pos),
                }
            }
            b"def" => {
                let name = self.opt_name(b":;{");
                self.ws();
                let body = self.object_body()?;
                Stmt::Def {
                    name,
                    body,
                    span: self.span(start, self.pos),
                }
            }
            b"defm" => {
                let name = self.opt_name(b":;");
                self.ws();
                let parents = self.parent_list()?;
                self.ws();
                self.byte(b';').then_some(())?;
                Stmt::Defm {
                    name,
                    parents,
                    span: self.span(start, self.pos),
                }
            }
            b"defset" => {
                let ty = self.ty()?;
                self.ws();
                let name = self.ident()?;
                self.ws();
                self.byte(b'=').then_some(())?;
                self.ws();
                self.byte(b'{').then_some(())?;
                let body = self.stmts_until_brace()?;
                Stmt::Defset {
                    ty,
                    name,
                    body,
                    span: self.span(start, self.pos),
                }
            }
            b"deftype" => {
                let name = self.ident()?;
                self.ws();
                self.byte(b'=').then_some(())?;
                self.ws();
                let ty = self.ty()?;
                self.ws();
                self.byte(b';').then_some(())?;
                Stmt::Deftype {
                    name,
                    ty,
                    span: self.span(start, self.pos),
                }
            }
            b"defvar" => Stmt::Defvar(self.defvar_rest(start)?),
            b"dump" => Stmt::Dump(self.dump_rest(start)?),
            b"assert" => Stmt::Assert(self.assert_rest(start)?),
            b"let" => {
                let items = self.comma_list(|p| p.let_item(b'<', b'>'))?;
                self.ws();
                self.kw(b"in").then_some(())?;
                self.ws();
                let body = self.block()?;
                Stmt::Let {
                    items,
                    body,
                    span: self.span(start, self.pos),
                }
            }
            b"foreach" => {
                let var = self.ident()?;
                self.ws();
                self.byte(b'=').then_some(())?;
                self.ws();
                let iter = self.foreach_iter()?;
                self.ws();
                self.kw(b"in").then_some(())?;
                self.ws();
                let body = self.block()?;
                Stmt::Foreach {
                    var,
                    iter,
                    body,
                    span: self.span(start, self.pos),
                }
            }
            b"if" => {
                let cond = self.value()?;
                self.ws();
                self.kw(b"then").then_some(())?;
                self.ws();
                let then = self.block()?;
                self.ws();
                let m = self.save();
                let mut otherwise = Vec::new();
                let els = (|| {
                    self.kw(b"else").then_some(())?;
                    self.ws();
                    self.block()
                })();
                match els {
                    Some(b) => otherwise = b,
                    None => self.restore(m),
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    span: self.span(start, self.pos),
                }
            }
            b"multiclass" => {
                let name = self.ident()?;
                self.ws();
                let args = self.opt_template_args();
                self.ws();
                let m = self.save();
                let parents = match self.parent_list() {
                    Some(p) => p,
                    None => {
                        self.restore(m);
                        Vec::new()
                    }
                };
                self.ws();
                let body = if self.byte(b'{') {
                    self.stmts_until_brace()?
                } else {
                    self.byte(b';').then_some(())?;
                    Vec::new()
                };
                Stmt::MultiClass {
                    name,
                    args,
                    parents,
                    body,
                    span: self.span(start, self.pos),
                }
            }
            _ => return None,
        };
        Some(stmt)
    }

    /// `(!(one of stops) ~ value)?`: a def's or defm's name.
    fn opt_name(&mut self, stops: &[u8]) -> Option<Expr> {
        if stops.contains(&self.peek()) {
            return None;
        }
        let m = self.save();
        let v = self.value();
        if v.is_none() {
            self.restore(m);
        }
        v
    }

    /// `defvar` after its keyword: `name = value;`.
    fn defvar_rest(&mut self, start: usize) -> R<Defvar> {
        let name = self.ident()?;
        self.ws();
        self.byte(b'=').then_some(())?;
        self.ws();
        let value = self.value()?;
        self.ws();
        self.byte(b';').then_some(())?;
        Some(Defvar {
            name,
            value,
            span: self.span(start, self.pos),
        })
    }

    /// `dump` after its keyword: `message;`.
    fn dump_rest(&mut self, start: usize) -> R<Dump> {
        let message = self.value()?;
        self.ws();
        self.byte(b';').then_some(())?;
        Some(Dump {
            message,
            span: self.span(start, self.pos),
        })
    }

    /// `assert` after its keyword: `cond, message;`.
    fn assert_rest(&mut self, start: usize) -> R<Assert> {
        let cond = self.value()?;
        self.ws();
        self.byte(b',').then_some(())?;
        self.ws();
        let message = self.value()?;
        self.ws();
        self.byte(b';').then_some(())?;
        Some(Assert {
            cond,
            message,
            span: self.span(start, self.pos),
        })
    }

    /// `foreach_iter`: `{ranges}`, a range, or a value.
    fn foreach_iter(&mut self) -> R<ForeachIter> {
        if let Some(r) = self.bracketed_ranges(b'{', b'}') {
            return Some(ForeachIter::Ranges(r));
        }
        let m = self.save();
        if let Some(r) = self.range_piece_strict() {
            return Some(ForeachIter::Ranges(vec![r]));
        }
        self.restore(m);
        self.value().map(ForeachIter::Value)
    }

    /// `template_args?`
    fn opt_template_args(&mut self) -> Vec<TemplateArg> {
        let m = self.save();
        let r = (|| {
            self.byte(b'<').then_some(())?;
            self.ws();
            let args = self.comma_list(|p| {
                let ty = p.ty()?;
                p.ws();
                let name = p.ident()?;
                p.ws();
                let m = p.save();
                let mut default = None;
                if p.byte(b'=') {
                    p.ws();
                    default = p.value();
                }
                if default.is_none() {
                    p.restore(m);
                }
                Some(TemplateArg { ty, name, default })
            })?;
            self.ws();
            self.byte(b'>').then_some(args)
        })();
        r.unwrap_or_else(|| {
            self.restore(m);
            Vec::new()
        })
    }

    /// `parent_list`: `: Parent<args>, ...`.
    fn parent_list(&mut self) -> R<Vec<ParentRef>> {
        self.byte(b':').then_some(())?;
        self.ws();
        self.comma_list(|p| {
            let start = p.pos;
            let name = p.ident()?;
            p.ws();
            let m = p.save();
            let args = match p.angle_args() {
                Some(a) => a,
                None => {
                    p.restore(m);
                    Vec::new()
                }
            };
            Some(ParentRef {
                name,
                args,
                span: p.span(start, p.pos),
            })
        })
    }

    /// `object_body`: optional parents, then `;` or `{ items }`.
    fn object_body(&mut self) -> R<ObjectBody> {
        let mut parents = Vec::new();
        if self.peek() == b':' {
            let m = self.save();
            match self.parent_list() {
                Some(p) => parents = p,
                None => self.restore(m),
            }
        }
        self.ws();
        let mut items = Vec::new();
        if self.byte(b';') {
            return Some(ObjectBody { parents, items });
        }
        self.byte(b'{').then_some(())?;
        loop {
            self.ws();
            if self.byte(b'}') {
                return Some(ObjectBody { parents, items });
            }
            items.push(self.body_item()?);
        }
    }

    /// One `body_item`, picked by its first word.
    fn body_item(&mut self) -> R<BodyItem> {
        let start = self.pos;
        let end = self.word_end(start);
        let word = &self.s[start..end];
        let keyword = |k: &[u8]| word == k;
        if keyword(b"let") {
            self.pos = end;
            self.ws();
            let item = self.let_item(b'{', b'}')?;
            self.ws();
            self.byte(b';').then_some(())?;
            return Some(BodyItem::Let(item));
        }
        if keyword(b"defvar") || keyword(b"assert") || keyword(b"dump") {
            self.pos = end;
            self.ws();
            return Some(match word {
                b"defvar" => BodyItem::Defvar(self.defvar_rest(start)?),
                b"assert" => BodyItem::Assert(self.assert_rest(start)?),
                _ => BodyItem::Dump(self.dump_rest(start)?),
            });
        }
        let is_field = self.kw(b"field");
        if is_field {
            self.ws();
        }
        let ty = self.ty()?;
        self.ws();
        let name = self.ident()?;
        self.ws();
        let m = self.save();
        let mut value = None;
        if self.byte(b'=') {
            self.ws();
            value = self.value();
        }
        if value.is_none() {
            self.restore(m);
        }
        self.ws();
        self.byte(b';').then_some(())?;
        Some(BodyItem::Field {
            is_field,
            ty,
            name,
            value,
            span: self.span(start, self.pos),
        })
    }

    /// `let_item` (bits in `{}`) or `top_let_item` (bits in `<>`).
    fn let_item(&mut self, open: u8, close: u8) -> R<LetItem> {
        let start = self.pos;
        let name = self.ident()?;
        self.ws();
        let bits = match self.bracketed_ranges(open, close) {
            Some(r) => Some(LetBits::Ranges(r)),
            None => self.bracketed_bit_indices(open, close).map(LetBits::Values),
        };
        self.ws();
        self.byte(b'=').then_some(())?;
        self.ws();
        let value = self.value()?;
        Some(LetItem {
            name,
            bits,
            value,
            span: self.span(start, self.pos),
        })
    }
}
