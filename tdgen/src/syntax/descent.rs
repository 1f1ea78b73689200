//! A hand-written recursive-descent reading of the grammar in `td.pest`: the same trees, spans and symbol order, at a fraction of pest's cost.
//!
//! pest interprets the grammar through generic combinators (a closure and a
//! call-depth check per rule, a token queue built and walked again by the
//! tree builder), which made parsing cost as much as evaluating. This module
//! mirrors the grammar rule by rule instead, as a PEG: ordered choices tried
//! in the grammar's order, optional parts and repetitions that restore the
//! position (and the interner) when they fail, and blanks skipped exactly
//! where pest's implicit `WHITESPACE` goes (between the items of a sequence,
//! never at a rule's start or end). Span ends therefore match pest's pairs,
//! including the blanks a rule keeps when it ends in an absent optional part
//! (a parent reference without arguments, a range without an end, a value).
//!
//! It reports no errors. On anything it does not accept, or on a literal the
//! tree builder would reject (an integer out of range, an unknown escape),
//! [`parse`] gives up and the caller runs the pest parser, which is the
//! reference and words every syntax error; the differential test
//! `tests/descent.rs` holds the two to the same verdicts and trees (on every
//! `.td` file at hand, damaged copies, and random and generated text) and
//! pins `td.pest`, so that a grammar edit fails until it is mirrored here.
//! Why there are two parsers: the `syntax` module's docs.

use super::ast::*;
use crate::diag::{FileId, Span};
use rustc_hash::FxHashMap as HashMap;

/// Why [`parse`] gave a file up.
pub(super) enum GaveUp {
    /// The pest parser must decide (a syntax error, or a literal the tree builder rejects).
    ToPest,
    /// Statements and values nest deeper than [`MAX_DEPTH`] at this offset.
    TooDeep(usize),
}

/// Parses one preprocessed file (already checked by `check_nesting`), or
/// says why not. On failure the interner is as it was on entry.
pub(super) fn parse(
    file: FileId,
    text: &str,
    includes: &HashMap<u32, Option<FileId>>,
    interner: &mut Interner,
) -> Result<File, GaveUp> {
    let mark = interner.mark();
    let mut p = Descent {
        file,
        s: text.as_bytes(),
        text,
        pos: 0,
        interner,
        includes,
        abort: false,
        depth: 0,
        too_deep: None,
    };
    let stmts = p.file_stmts();
    match stmts {
        Some(stmts) if !p.abort => Ok(File { id: file, stmts }),
        _ => {
            p.interner.rollback(mark);
            Err(p.too_deep.map_or(GaveUp::ToPest, GaveUp::TooDeep))
        }
    }
}

/// `ident_char` in the grammar.
#[inline]
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `w` (a whole run of identifier characters) is one of the grammar's keywords.
fn is_keyword(w: &[u8]) -> bool {
    matches!(
        w,
        b"assert"
            | b"bit"
            | b"bits"
            | b"class"
            | b"code"
            | b"dag"
            | b"def"
            | b"defm"
            | b"defset"
            | b"deftype"
            | b"defvar"
            | b"dump"
            | b"else"
            | b"false"
            | b"field"
            | b"foreach"
            | b"if"
            | b"in"
            | b"include"
            | b"int"
            | b"let"
            | b"list"
            | b"multiclass"
            | b"string"
            | b"then"
            | b"true"
    )
}

/// A position to return to: the byte offset and the interner's size.
#[derive(Copy, Clone)]
struct Mark(usize, usize);

/// The parser's state over one file.
struct Descent<'a> {
    file: FileId,
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    interner: &'a mut Interner,
    includes: &'a HashMap<u32, Option<FileId>>,
    /// Set when a literal parsed but the tree builder would reject it: the
    /// parse as a whole is then given up, even if a surrounding optional part
    /// would have backtracked over it.
    abort: bool,
    /// Values and statements being parsed, one inside the other.
    depth: u32,
    /// Where nesting first went past [`MAX_DEPTH`].
    too_deep: Option<usize>,
}

/// How deep values and statements may nest (pastes and `let ... in`
/// chains nest without brackets): deeper is an error (pest, recursing
/// without a bound, would run out of stack). Real files stay far below it;
/// a few kilobytes of stack per level keep the deepest parse, and the
/// evaluation of what it parsed, within the loader's stacks by a wide margin.
pub(super) const MAX_DEPTH: u32 = 1024;

/// What follows a value: `{bits}`, `[slice]` or `.field`.
enum Suffix {
    Bits(Vec<RangePiece>),
    BitIndices(Vec<BitIndex>),
    Slice(Vec<SliceItem>, bool),
    Field(Ident),
}

type R<T> = Option<T>;

impl Descent<'_> {
    // ------------------------------------------------------------ plumbing

    fn save(&self) -> Mark {
        Mark(self.pos, self.interner.mark())
    }

    fn restore(&mut self, m: Mark) {
        self.pos = m.0;
        self.interner.rollback(m.1);
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    #[inline]
    fn peek(&self) -> u8 {
        self.s.get(self.pos).copied().unwrap_or(0)
    }

    /// `WHITESPACE*`: blanks are space and tab through carriage return.
    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.s.get(self.pos) {
            if c == b' ' || (b'\t'..=b'\r').contains(&c) {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// A literal token.
    #[inline]
    fn lit(&mut self, t: &[u8]) -> bool {
        if self.s[self.pos..].starts_with(t) {
            self.pos += t.len();
            true
        } else {
            false
        }
    }

    /// A literal byte.
    #[inline]
    fn byte(&mut self, c: u8) -> bool {
        if self.peek() == c {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// The end of the run of identifier characters at `at`.
    fn word_end(&self, at: usize) -> usize {
        let mut e = at;
        while e < self.s.len() && is_ident_char(self.s[e]) {
            e += 1;
        }
        e
    }

    /// A keyword token (`kw_X`, or the literal after an `&kw_X` lookahead).
    fn kw(&mut self, k: &[u8]) -> bool {
        if self.s[self.pos..].starts_with(k)
            && !self
                .s
                .get(self.pos + k.len())
                .is_some_and(|&c| is_ident_char(c))
        {
            self.pos += k.len();
            true
        } else {
            false
        }
    }

    /// `item ~ ("," ~ item)*`, the repetition restoring a failed `, item`.
    fn comma_list<T>(&mut self, mut item: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let mut out = vec![item(self)?];
        // The blanks after the first item belong to the enclosing sequence;
        // later ones go with the `, item` they precede.
        self.ws();
        loop {
            let m = self.save();
            if out.len() > 1 {
                self.ws();
            }
            if !self.byte(b',') {
                self.restore(m);
                break;
            }
            self.ws();
            match item(self) {
                Some(x) => out.push(x),
                None => {
                    self.restore(m);
                    break;
                }
            }
        }
        Some(out)
    }

    // ------------------------------------------------------------ tokens

    fn ident(&mut self) -> R<Ident> {
        let start = self.pos;
        let end = self.word_end(start);
        let w = &self.s[start..end];
        if w.is_empty() || w.iter().all(u8::is_ascii_digit) || is_keyword(w) {
            return None;
        }
        self.pos = end;
        Some(Ident {
            sym: self.interner.intern(&self.text[start..end]),
            span: self.span(start, end),
        })
    }

    fn varname(&mut self) -> R<Ident> {
        let start = self.pos;
        if self.peek() != b'$' {
            return None;
        }
        let end = self.word_end(start + 1);
        if end == start + 1 {
            return None;
        }
        self.pos = end;
        Some(Ident {
            sym: self.interner.intern(&self.text[start + 1..end]),
            span: self.span(start, end),
        })
    }

    /// `int_lit`, with its value as the tree builder reads it.
    fn int_lit(&mut self) -> R<i64> {
        let s = self.s;
        let start = self.pos;
        if s[start..].starts_with(b"0x") && s.get(start + 2).is_some_and(u8::is_ascii_hexdigit) {
            let mut e = start + 2;
            while e < s.len() && s[e].is_ascii_hexdigit() {
                e += 1;
            }
            self.pos = e;
            return self.int_value(start, e);
        }
        let mut e = start;
        if matches!(s.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        let digits = e;
        while e < s.len() && s[e].is_ascii_digit() {
            e += 1;
        }
        if e == digits
            || s.get(e)
                .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        {
            return None;
        }
        self.pos = e;
        self.int_value(start, e)
    }

    fn int_value(&mut self, start: usize, end: usize) -> R<i64> {
        let t = &self.text[start..end];
        let v = match t.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).map(|v| v as i64).ok(),
            None => t.parse::<i64>().ok(),
        };
        if v.is_none() {
            self.abort = true;
        }
        v
    }

    /// `strings`: adjacent string literals, joined and unescaped.
    fn strings(&mut self) -> R<ExprKind> {
        // `string_lit+` is `string_lit ~ string_lit*` to pest: the blanks
        // after the first literal stay in the pair even when no second follows.
        let mut out = String::new();
        self.string_lit(&mut out)?;
        self.ws();
        let mut first = true;
        loop {
            let m = self.save();
            if !first {
                self.ws();
            }
            if self.string_lit(&mut out).is_none() {
                self.restore(m);
                break;
            }
            first = false;
        }
        Some(ExprKind::Str(out.into_boxed_str()))
    }

    /// One `string_lit`, its text appended to `out`.
    fn string_lit(&mut self, out: &mut String) -> R<()> {
        let start = self.pos;
        self.skip_string_lit()?;
        if super::parse::unescape(&self.text[start..self.pos], out).is_err() {
            self.abort = true;
            return None;
        }
        Some(())
    }

    /// One `string_lit`, passed over without reading its escapes: the
    /// grammar accepts any character after `\`, and only the tree builder
    /// of a string value rejects unknown escapes (an `include` name is not
    /// one).
    fn skip_string_lit(&mut self) -> R<()> {
        let s = self.s;
        let start = self.pos;
        if s.get(start) != Some(&b'"') {
            return None;
        }
        let mut i = start + 1;
        loop {
            match s.get(i) {
                None | Some(b'\n') => return None,
                Some(b'"') => break,
                Some(b'\\') => {
                    // `\` then any one character.
                    let c = self.text[i + 1..].chars().next()?;
                    i += 1 + c.len_utf8();
                }
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        Some(())
    }

    // ------------------------------------------------------------ types

    fn ty(&mut self) -> R<TypeExpr> {
        let start = self.pos;
        if self.kw(b"bit") {
            return Some(self.type_at(start, TypeKind::Bit));
        }
        if self.lit(b"bits") {
            let m = self.save();
            self.ws();
            if self.byte(b'<') {
                self.ws();
                if let Some(n) = self.int_lit() {
                    self.ws();
                    if self.byte(b'>') {
                        return Some(self.type_at(start, TypeKind::Bits(n)));
                    }
                }
            }
            self.restore(m);
            self.pos = start;
        }
        let simple = [
            (&b"int"[..], TypeKind::Int),
            (b"string", TypeKind::String),
            (b"code", TypeKind::Code),
            (b"dag", TypeKind::Dag),
        ];
        for (k, kind) in simple {
            if self.kw(k) {
                return Some(self.type_at(start, kind));
            }
        }
        if self.lit(b"list") {
            let m = self.save();
            self.ws();
            if self.byte(b'<') {
                self.ws();
                if let Some(t) = self.ty() {
                    self.ws();
                    if self.byte(b'>') {
                        return Some(self.type_at(start, TypeKind::List(Box::new(t))));
                    }
                }
            }
            self.restore(m);
            self.pos = start;
        }
        let id = self.ident()?;
        Some(TypeExpr {
            span: id.span,
            kind: TypeKind::Class(id),
        })
    }

    fn type_at(&self, start: usize, kind: TypeKind) -> TypeExpr {
        TypeExpr {
            kind,
            span: self.span(start, self.pos),
        }
    }

    // ------------------------------------------------------------ ranges

    /// `range_to`, giving the range's end as the tree builder does (the
    /// magnitude: `0-12` lexes as `0` and `-12`).
    fn range_to(&mut self) -> R<i64> {
        let m = self.save();
        if self.lit(b"...") || self.byte(b'-') {
            self.ws();
            if let Some(v) = self.int_lit() {
                return Some(v.abs());
            }
        }
        self.restore(m);
        if self.peek() == b'-' {
            return self.int_lit().map(i64::abs);
        }
        None
    }

    /// `range_piece`: an integer and an optional end.
    fn range_piece(&mut self) -> R<RangePiece> {
        let start = self.pos;
        let first = self.int_lit()?;
        self.ws();
        let m = self.save();
        let end = self.range_to();
        if end.is_none() {
            self.restore(m);
        }
        Some(RangePiece {
            start: first,
            end,
            span: self.span(start, self.pos),
        })
    }

    /// `range_piece_strict`: an integer and a required end.
    fn range_piece_strict(&mut self) -> R<RangePiece> {
        let start = self.pos;
        let first = self.int_lit()?;
        self.ws();
        let end = self.range_to()?;
        Some(RangePiece {
            start: first,
            end: Some(end),
            span: self.span(start, self.pos),
        })
    }

    fn range_list(&mut self) -> R<Vec<RangePiece>> {
        self.comma_list(Self::range_piece)
    }

    /// `open ~ range_list ~ close`, restoring on failure.
    fn bracketed_ranges(&mut self, open: u8, close: u8) -> R<Vec<RangePiece>> {
        let m = self.save();
        let r = (|| {
            if !self.byte(open) {
                return None;
            }
            self.ws();
            let r = self.range_list()?;
            self.ws();
            self.byte(close).then_some(r)
        })();
        if r.is_none() {
            self.restore(m);
        }
        r
    }

    /// `open ~ bit_index_list ~ close`, restoring on failure.
    fn bracketed_bit_indices(&mut self, open: u8, close: u8) -> R<Vec<BitIndex>> {
        let m = self.save();
        let r = (|| {
            if !self.byte(open) {
                return None;
            }
            self.ws();
            let r = self.comma_list(Self::bit_index)?;
            self.ws();
            self.byte(close).then_some(r)
        })();
        if r.is_none() {
            self.restore(m);
        }
        r
    }

    /// `bit_index`: a value and an optional `-`/`...` value.
    fn bit_index(&mut self) -> R<BitIndex> {
        let start = self.pos;
        let first = self.value()?;
        self.ws();
        let m = self.save();
        let end = (|| {
            if !(self.lit(b"...") || self.byte(b'-')) {
                return None;
            }
            self.ws();
            self.value()
        })();
        if end.is_none() {
            self.restore(m);
        }
        Some(BitIndex {
            start: first,
            end,
            span: self.span(start, self.pos),
        })
    }

    // ------------------------------------------------------------ values

    /// `value`: a simple value, suffixes and an optional paste.
    fn value(&mut self) -> R<Expr> {
        if !self.enter() {
            return None;
        }
        let v = self.value_inner();
        self.depth -= 1;
        v
    }

    /// Counts one more level of nesting; false (and the parse given up) past [`MAX_DEPTH`].
    fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.abort = true;
            self.too_deep.get_or_insert(self.pos);
            return false;
        }
        self.depth += 1;
        true
    }

    fn value_inner(&mut self) -> R<Expr> {
        let start = self.pos;
        let mut e = self.simple_value()?;
        self.ws();
        let mut first = true;
        loop {
            let m = self.save();
            if !first {
                self.ws();
            }
            let Some(sfx) = self.suffix() else {
                self.restore(m);
                break;
            };
            first = false;
            let kind = match sfx {
                Suffix::Bits(r) => ExprKind::BitSlice(Box::new(e), r),
                Suffix::BitIndices(r) => ExprKind::BitIndexSlice(Box::new(e), r),
                Suffix::Slice(items, trailing) => ExprKind::ListSlice(Box::new(e), items, trailing),
                Suffix::Field(f) => ExprKind::Field(Box::new(e), f),
            };
            e = Expr {
                kind,
                span: self.span(start, self.pos),
            };
        }
        self.ws();
        let m = self.save();
        if self.byte(b'#') {
            self.ws();
            let rhs = if matches!(self.peek(), b':' | b';' | b'{') {
                Some(None)
            } else {
                self.value().map(|v| Some(Box::new(v)))
            };
            if let Some(rhs) = rhs {
                return Some(Expr {
                    kind: ExprKind::Paste(Box::new(e), rhs),
                    span: self.span(start, self.pos),
                });
            }
        }
        self.restore(m);
        Some(e)
    }

    fn suffix(&mut self) -> R<Suffix> {
        match self.peek() {
            b'{' => self
                .bracketed_ranges(b'{', b'}')
                .map(Suffix::Bits)
                .or_else(|| {
                    self.bracketed_bit_indices(b'{', b'}')
                        .map(Suffix::BitIndices)
                }),
            b'[' => {
                self.pos += 1;
                self.ws();
                let (items, trailing) = self.slice_list()?;
                self.ws();
                self.byte(b']').then_some(Suffix::Slice(items, trailing))
            }
            b'.' => {
                self.pos += 1;
                self.ws();
                self.ident().map(Suffix::Field)
            }
            _ => None,
        }
    }

    fn slice_list(&mut self) -> R<(Vec<SliceItem>, bool)> {
        let items = self.comma_list(|p| {
            let m = p.save();
            if let Some(r) = p.range_piece_strict() {
                return Some(SliceItem::Range(r));
            }
            p.restore(m);
            p.value().map(SliceItem::Value)
        })?;
        self.ws();
        let trailing = self.byte(b',');
        Some((items, trailing))
    }

    /// `(value ~ ("," ~ value)* ~ ","?)?` and the closing bracket.
    fn values_until(&mut self, close: u8) -> R<Vec<Expr>> {
        let mut items = Vec::new();
        let m = self.save();
        match self.comma_list(Self::value) {
            Some(v) => {
                items = v;
                self.ws();
                self.byte(b',');
            }
            None => self.restore(m),
        }
        self.ws();
        self.byte(close).then_some(items)
    }

    fn simple_value(&mut self) -> R<Expr> {
        let start = self.pos;
        let c = self.peek();
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            let m = self.save();
            if let Some(e) = self.class_inst(start) {
                return Some(e);
            }
            self.restore(m);
            if self.kw(b"true") {
                ExprKind::Bool(true)
            } else if self.kw(b"false") {
                ExprKind::Bool(false)
            } else {
                return None;
            }
        } else {
            match c {
                b'0'..=b'9' | b'+' | b'-' => {
                    if let Some(k) = self.bin_lit() {
                        k
                    } else if let Some(v) = self.int_lit() {
                        ExprKind::Int(v)
                    } else if c.is_ascii_digit() && !self.abort {
                        return self.class_inst(start);
                    } else {
                        return None;
                    }
                }
                b'"' => self.strings()?,
                b'[' => match self.code_lit() {
                    Some(k) => k,
                    None => {
                        self.pos += 1;
                        self.ws();
                        let items = self.values_until(b']')?;
                        self.ws();
                        let m = self.save();
                        let ty = (|| {
                            self.byte(b'<').then_some(())?;
                            self.ws();
                            let t = self.ty()?;
                            self.ws();
                            self.byte(b'>').then_some(t)
                        })();
                        if ty.is_none() {
                            self.restore(m);
                        }
                        ExprKind::List(items, ty)
                    }
                },
                b'?' => {
                    self.pos += 1;
                    ExprKind::Unset
                }
                b'{' => {
                    self.pos += 1;
                    self.ws();
                    ExprKind::Bits(self.values_until(b'}')?)
                }
                b'(' => self.dag()?,
                b'!' => self.bang()?,
                _ => return None,
            }
        };
        Some(Expr {
            kind,
            span: self.span(start, self.pos),
        })
    }

    fn bin_lit(&mut self) -> R<ExprKind> {
        let s = self.s;
        if !s[self.pos..].starts_with(b"0b") {
            return None;
        }
        let from = self.pos + 2;
        let mut e = from;
        while e < s.len() && (s[e] == b'0' || s[e] == b'1') {
            e += 1;
        }
        if e == from {
            return None;
        }
        self.pos = e;
        let digits = &self.text[from..e];
        if digits.len() > 64 {
            self.abort = true;
            return None;
        }
        Some(ExprKind::Binary(
            u64::from_str_radix(digits, 2).unwrap_or(0),
            digits.len() as u32,
        ))
    }

    fn code_lit(&mut self) -> R<ExprKind> {
        if !self.s[self.pos..].starts_with(b"[{") {
            return None;
        }
        let from = self.pos + 2;
        let len = self.s[from..].windows(2).position(|w| w == b"}]")?;
        self.pos = from + len + 2;
        Some(ExprKind::Code(Box::from(&self.text[from..from + len])))
    }

    /// `class_inst`: a name, or a name with `<args>` (an anonymous instance).
    fn class_inst(&mut self, start: usize) -> R<Expr> {
        let name = self.ident()?;
        self.ws();
        let m = self.save();
        match self.angle_args() {
            Some(args) => Some(Expr {
                kind: ExprKind::ClassInst { class: name, args },
                span: self.span(start, self.pos),
            }),
            None => {
                self.restore(m);
                // A bare name spans just the name.
                Some(Expr {
                    span: name.span,
                    kind: ExprKind::Id(name),
                })
            }
        }
    }

    /// `"<" ~ args? ~ ">"`; the caller restores on failure.
    fn angle_args(&mut self) -> R<Vec<Arg>> {
        if !self.byte(b'<') {
            return None;
        }
        self.ws();
        let m = self.save();
        let args = match self.comma_list(Self::arg) {
            Some(a) => a,
            None => {
                self.restore(m);
                Vec::new()
            }
        };
        self.ws();
        self.byte(b'>').then_some(args)
    }

    fn arg(&mut self) -> R<Arg> {
        let m = self.save();
        if let Some(name) = self.ident() {
            self.ws();
            if self.byte(b'=') {
                self.ws();
                if let Some(v) = self.value() {
                    return Some(Arg::Named(name, v));
                }
            }
        }
        self.restore(m);
        self.value().map(Arg::Positional)
    }

    /// `(":" ~ varname)?`
    fn opt_varname(&mut self) -> Option<Ident> {
        let m = self.save();
        if self.byte(b':') {
            self.ws();
            if let Some(n) = self.varname() {
                return Some(n);
            }
        }
        self.restore(m);
        None
    }

    fn dag(&mut self) -> R<ExprKind> {
        self.pos += 1; // `(`
        self.ws();
        let op = Box::new(self.value()?);
        self.ws();
        let op_name = self.opt_varname();
        self.ws();
        let m = self.save();
        let args = match self.comma_list(|p| {
            if let Some(n) = p.varname() {
                return Some((None, Some(n)));
            }
            let v = p.value()?;
            p.ws();
            let n = p.opt_varname();
            Some((Some(v), n))
        }) {
            Some(a) => a,
            None => {
                self.restore(m);
                Vec::new()
            }
        };
        self.ws();
        self.byte(b')')
            .then_some(ExprKind::Dag { op, op_name, args })
    }

    fn bang(&mut self) -> R<ExprKind> {
        let start = self.pos;
        let mut e = start + 1;
        while e < self.s.len() && self.s[e].is_ascii_alphabetic() {
            e += 1;
        }
        if e == start + 1 {
            return None;
        }
        self.pos = e;
        let op = Ident {
            sym: self.interner.intern(&self.text[start + 1..e]),
            span: self.span(start, e),
        };
        self.ws();
        let m = self.save();
        let ty = (|| {
            self.byte(b'<').then_some(())?;
            self.ws();
            let t = self.ty()?;
            self.ws();
            self.byte(b'>').then_some(t)
        })();
        if ty.is_none() {
            self.restore(m);
        }
        self.ws();
        if !self.byte(b'(') {
            return None;
        }
        self.ws();
        let m = self.save();
        let args = match self.comma_list(|p| {
            let v = p.value()?;
            p.ws();
            let m = p.save();
            if p.byte(b':') {
                p.ws();
                if let Some(w) = p.value() {
                    return Some((v, Some(w)));
                }
            }
            p.restore(m);
            Some((v, None))
        }) {
            Some(a) => {
                self.ws();
                self.byte(b',');
                a
            }
            None => {
                self.restore(m);
                Vec::new()
            }
        };
        self.ws();
        self.byte(b')').then_some(ExprKind::Bang { op, ty, args })
    }
}

mod stmt;
