//! Turns preprocessed `.td` text into the typed syntax tree: the recursive-descent parser first, the pest grammar in `td.pest` when it gives up (and for every syntax error).

use super::ast::*;
use crate::diag::{Diagnostic, FileId, Kind, Span};
use pest::Parser as _;
use pest::iterators::Pair;
use rustc_hash::FxHashMap as HashMap;

mod grammar {
    //! The pest-generated parser; private so nothing else sees pest.
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "syntax/td.pest"]
    pub struct TdParser;
}
use grammar::{Rule, TdParser};

/// Parses one preprocessed file. `includes` maps the byte offset of each
/// `include` statement to the file it resolved to.
pub fn parse_file(
    file: FileId,
    text: &str,
    includes: &HashMap<u32, Option<FileId>>,
    interner: &mut Interner,
) -> Result<File, Diagnostic> {
    check_nesting(file, text)?;
    match super::descent::parse(file, text, includes, interner) {
        Ok(f) => Ok(f),
        Err(super::descent::GaveUp::ToPest) => parse_file_pest(file, text, includes, interner),
        Err(super::descent::GaveUp::TooDeep(at)) => {
            let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            Err(Diagnostic::error(
                Kind::Limit,
                Span::new(file, at, end),
                format!(
                    "statements and values nest deeper than {} levels",
                    super::descent::MAX_DEPTH
                ),
            )
            .with_label("the parser stops here")
            .with_help(
                "real descriptions nest a few levels deep; build a long `let ... in`, \
                 `foreach ... in` or `#` chain from `defvar`s or a loop instead",
            ))
        }
    }
}

/// Parses one preprocessed file with the recursive-descent parser alone
/// (`None`: the pest parser must decide), for the differential test.
#[doc(hidden)]
pub fn parse_file_descent(
    file: FileId,
    text: &str,
    includes: &HashMap<u32, Option<FileId>>,
    interner: &mut Interner,
) -> Option<File> {
    check_nesting(file, text).ok()?;
    super::descent::parse(file, text, includes, interner).ok()
}

/// Parses one preprocessed file (already checked by `check_nesting`) with
/// the pest grammar alone: the reference the recursive-descent parser is
/// held to, and the source of every syntax error's wording.
#[doc(hidden)]
pub fn parse_file_pest(
    file: FileId,
    text: &str,
    includes: &HashMap<u32, Option<FileId>>,
    interner: &mut Interner,
) -> Result<File, Diagnostic> {
    let pairs = TdParser::parse(Rule::file, text)
        .map_err(|e| at_unclosed_brace(text, syntax_error(file, text, e)))?;
    let mut b = Builder {
        file,
        interner,
        includes,
    };
    let top = pairs
        .into_iter()
        .next()
        .expect("the file rule always produces one pair");
    let mut stmts = Vec::new();
    for p in top.into_inner() {
        if p.as_rule() != Rule::EOI {
            stmts.push(b.stmt(p)?);
        }
    }
    Ok(File { id: file, stmts })
}

/// Deepest bracket nesting the parser accepts; deeper input would exhaust the
/// stack of a recursive-descent parser, so it is an error instead.
pub const MAX_NESTING: usize = 64;

/// Rejects text whose brackets nest deeper than [`MAX_NESTING`] (strings and
/// code fragments aside), before the recursive parser sees it.
fn check_nesting(file: FileId, text: &str) -> Result<(), Diagnostic> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' if b.get(i + 1) == Some(&b'{') => {
                let start = i;
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'}' && b[i + 1] == b']') {
                    i += 1;
                }
                if i + 1 >= b.len() {
                    // Unterminated: say so here; the backtracking parser would
                    // rescan to the end of the file at every attempt.
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        Span::new(file, start, start + 2),
                        "unterminated code fragment: `[{` without `}]`",
                    )
                    .with_label("this fragment is never closed"));
                }
                i += 1;
            }
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diagnostic::error(
                        Kind::Limit,
                        Span::new(file, i, i + 1),
                        format!("brackets nest deeper than {MAX_NESTING} levels"),
                    ));
                }
            }
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Parses a single value (used by tests and the fuzzer).
pub fn parse_value(file: FileId, text: &str, interner: &mut Interner) -> Result<Expr, Diagnostic> {
    check_nesting(file, text)?;
    let pairs = TdParser::parse(Rule::value_only, text).map_err(|e| syntax_error(file, text, e))?;
    let includes = HashMap::default();
    let mut b = Builder {
        file,
        interner,
        includes: &includes,
    };
    let p = pairs
        .into_iter()
        .next()
        .unwrap()
        .into_inner()
        .next()
        .unwrap();
    b.value(p)
}

fn rule_name(r: &Rule) -> Option<&'static str> {
    Some(match r {
        Rule::ident => "an identifier",
        Rule::int_lit => "an integer",
        Rule::string_lit | Rule::strings => "a string",
        Rule::value | Rule::simple_value => "a value",
        Rule::ty => "a type",
        Rule::statement | Rule::class_def | Rule::def_stmt | Rule::defm_stmt => "a statement",
        Rule::body => "`;` or `{`",
        Rule::varname => "a `$name`",
        Rule::range_piece | Rule::range_list => "a range",
        Rule::EOI => "end of file",
        Rule::field_decl => "a field declaration",
        Rule::let_item => "a `let` item",
        _ => return None,
    })
}

fn syntax_error(file: FileId, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let end = text[pos..]
        .chars()
        .next()
        .map_or(pos, |c| pos + c.len_utf8());
    let found = match text[pos..].chars().next() {
        None => "end of file".to_string(),
        Some(_) => {
            let tok: String = text[pos..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .take(30)
                .collect();
            if tok.is_empty() {
                format!("`{}`", &text[pos..end])
            } else {
                format!("`{tok}`")
            }
        }
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(rule_name).collect();
            names.sort();
            names.dedup();
            names
        }
        _ => Vec::new(),
    };
    let msg = if expected.is_empty() {
        format!("syntax error: unexpected {found}")
    } else {
        format!(
            "syntax error: expected {}, found {found}",
            join_or(&expected)
        )
    };
    Diagnostic::error(Kind::Syntax, Span::new(file, pos, end), msg).with_label("unexpected here")
}

/// A syntax error the parser found after a `{` that is never closed is
/// that brace's fault: the error becomes "unclosed `{`" at the brace, with
/// the parser's complaint as a second label where it gave up. Otherwise the
/// error is returned as it is.
fn at_unclosed_brace(text: &str, error: Diagnostic) -> Diagnostic {
    let Some(open) = unclosed_brace(text) else {
        return error;
    };
    if open >= error.primary.start as usize {
        return error;
    }
    let file = error.primary.file;
    let complaint = error
        .message
        .strip_prefix("syntax error: ")
        .unwrap_or(&error.message);
    Diagnostic::error(
        Kind::Syntax,
        Span::new(file, open, open + 1),
        "syntax error: unclosed `{`",
    )
    .with_label("this `{` is never closed")
    .with_secondary(
        error.primary,
        format!("the parser gave up here: {complaint}"),
    )
    .with_help("add the `}` that ends this body or block")
}

/// The offset of the `{` most likely left unclosed, if the braces of the
/// text (strings and `[{ }]` fragments aside) do not balance.
///
/// Braces pair up innermost first, except where indentation says better:
/// a `}` that starts its line at the indentation of an outer open brace's
/// line, and left of the innermost one's, closes the outer brace, and the
/// inner one is the culprit (an unclosed class body inside a `let` block).
/// Without such a hint, the innermost brace still open at the end is.
fn unclosed_brace(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    // Open braces: offset and the indentation of their line.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut culprit = None;
    // Opens minus closes: the hint applies only when the text is short of `}`.
    let mut balance = 0i64;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if b.get(i) != Some(&b'"') {
                    // An unterminated string: the braces after it are not
                    // what went wrong.
                    return None;
                }
            }
            b'[' if b.get(i + 1) == Some(&b'{') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'}' && b[i + 1] == b']') {
                    i += 1;
                }
                i += 1;
            }
            b'{' => {
                balance += 1;
                open.push((i, indentation(b, i).0));
            }
            b'}' => {
                balance -= 1;
                let (indent, first_on_line) = indentation(b, i);
                let inner = open.last().map(|&(_, ind)| ind);
                let outer = open.iter().rposition(|&(_, ind)| ind == indent);
                match (inner, outer) {
                    (Some(inner), Some(k)) if first_on_line && indent < inner => {
                        culprit = culprit.or(Some(open[k + 1].0));
                        open.truncate(k);
                    }
                    _ => {
                        open.pop();
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if balance <= 0 {
        return None;
    }
    culprit.or(open.last().map(|&(at, _)| at))
}

/// The indentation (in bytes) of the line holding offset `at`, and whether
/// only blanks precede `at` on it.
fn indentation(b: &[u8], at: usize) -> (usize, bool) {
    let start = b[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let indent = b[start..at]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    (indent, start + indent == at)
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [a] => a.to_string(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

struct Builder<'a> {
    file: FileId,
    interner: &'a mut Interner,
    includes: &'a HashMap<u32, Option<FileId>>,
}

type PResult<T> = Result<T, Diagnostic>;

impl Builder<'_> {
    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn ident(&mut self, p: Pair<Rule>) -> Ident {
        let span = self.span(&p);
        Ident {
            sym: self.interner.intern(p.as_str()),
            span,
        }
    }

    fn varname(&mut self, p: Pair<Rule>) -> Ident {
        let span = self.span(&p);
        Ident {
            sym: self.interner.intern(&p.as_str()[1..]),
            span,
        }
    }

    fn int(&self, p: &Pair<Rule>) -> PResult<i64> {
        let s = p.as_str();
        let r = if let Some(h) = s.strip_prefix("0x") {
            u64::from_str_radix(h, 16).map(|v| v as i64).map_err(|_| ())
        } else if let Some(b) = s.strip_prefix("0b") {
            u64::from_str_radix(b, 2).map(|v| v as i64).map_err(|_| ())
        } else {
            s.parse::<i64>().map_err(|_| ())
        };
        r.map_err(|_| {
            Diagnostic::error(
                Kind::Syntax,
                self.span(p),
                format!("integer `{s}` does not fit in 64 bits"),
            )
        })
    }

    fn stmt(&mut self, p: Pair<Rule>) -> PResult<Stmt> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        Ok(match rule {
            Rule::include_stmt => Stmt::Include {
                file: self.includes.get(&span.start).copied().flatten(),
                span,
            },
            Rule::class_def => {
                let name = self.ident(it.next().unwrap());
                let mut args = Vec::new();
                let mut next = it.next().unwrap();
                if next.as_rule() == Rule::template_args {
                    args = self.template_args(next)?;
                    next = it.next().unwrap();
                }
                Stmt::Class {
                    name,
                    args,
                    body: self.object_body(next)?,
                    span,
                }
            }
            Rule::def_stmt => {
                let mut next = it.next().unwrap();
                let mut name = None;
                if next.as_rule() == Rule::value {
                    name = Some(self.value(next)?);
                    next = it.next().unwrap();
                }
                Stmt::Def {
                    name,
                    body: self.object_body(next)?,
                    span,
                }
            }
            Rule::defm_stmt => {
                let mut next = it.next().unwrap();
                let mut name = None;
                if next.as_rule() == Rule::value {
                    name = Some(self.value(next)?);
                    next = it.next().unwrap();
                }
                Stmt::Defm {
                    name,
                    parents: self.parent_list(next)?,
                    span,
                }
            }
            Rule::defset_stmt => {
                let ty = self.ty(it.next().unwrap())?;
                let name = self.ident(it.next().unwrap());
                let body = it.map(|s| self.stmt(s)).collect::<PResult<_>>()?;
                Stmt::Defset {
                    ty,
                    name,
                    body,
                    span,
                }
            }
            Rule::defvar_stmt => Stmt::Defvar(self.defvar(span, it)?),
            Rule::deftype_stmt => {
                let name = self.ident(it.next().unwrap());
                Stmt::Deftype {
                    name,
                    ty: self.ty(it.next().unwrap())?,
                    span,
                }
            }
            Rule::foreach_stmt => {
                let var = self.ident(it.next().unwrap());
                let iter_p = it.next().unwrap();
                let inner = iter_p.into_inner().next().unwrap();
                let iter = match inner.as_rule() {
                    Rule::range_list => ForeachIter::Ranges(self.range_list(inner)?),
                    Rule::range_piece_strict => ForeachIter::Ranges(vec![self.range_piece(inner)?]),
                    _ => ForeachIter::Value(self.value(inner)?),
                };
                let body = self.block(it.next().unwrap())?;
                Stmt::Foreach {
                    var,
                    iter,
                    body,
                    span,
                }
            }
            Rule::if_stmt => {
                let cond = self.value(it.next().unwrap())?;
                let then = self.block(it.next().unwrap())?;
                let mut otherwise = Vec::new();
                if it.next().is_some() {
                    otherwise = self.block(it.next().unwrap())?;
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    span,
                }
            }
            Rule::let_stmt => {
                let mut items = Vec::new();
                let mut body = Vec::new();
                for q in it {
                    match q.as_rule() {
                        Rule::top_let_item => items.push(self.let_item(q)?),
                        _ => body = self.block(q)?,
                    }
                }
                Stmt::Let { items, body, span }
            }
            Rule::multiclass_def => {
                let name = self.ident(it.next().unwrap());
                let mut args = Vec::new();
                let mut parents = Vec::new();
                let mut body = Vec::new();
                for q in it {
                    match q.as_rule() {
                        Rule::template_args => args = self.template_args(q)?,
                        Rule::parent_list => parents = self.parent_list(q)?,
                        _ => body.push(self.stmt(q)?),
                    }
                }
                Stmt::MultiClass {
                    name,
                    args,
                    parents,
                    body,
                    span,
                }
            }
            Rule::assert_stmt => Stmt::Assert(self.assert(span, it)?),
            Rule::dump_stmt => Stmt::Dump(Dump {
                message: self.value(it.next().unwrap())?,
                span,
            }),
            r => unreachable!("not a statement rule: {r:?}"),
        })
    }

    fn defvar(&mut self, span: Span, mut it: pest::iterators::Pairs<Rule>) -> PResult<Defvar> {
        let name = self.ident(it.next().unwrap());
        Ok(Defvar {
            name,
            value: self.value(it.next().unwrap())?,
            span,
        })
    }

    fn assert(&mut self, span: Span, mut it: pest::iterators::Pairs<Rule>) -> PResult<Assert> {
        let cond = self.value(it.next().unwrap())?;
        let message = self.value(it.next().unwrap())?;
        Ok(Assert {
            cond,
            message,
            span,
        })
    }

    fn block(&mut self, p: Pair<Rule>) -> PResult<Vec<Stmt>> {
        p.into_inner().map(|s| self.stmt(s)).collect()
    }

    fn template_args(&mut self, p: Pair<Rule>) -> PResult<Vec<TemplateArg>> {
        let mut out = Vec::new();
        for a in p.into_inner() {
            let mut it = a.into_inner();
            let ty = self.ty(it.next().unwrap())?;
            let name = self.ident(it.next().unwrap());
            let default = it.next().map(|v| self.value(v)).transpose()?;
            out.push(TemplateArg { ty, name, default });
        }
        Ok(out)
    }

    fn parent_list(&mut self, p: Pair<Rule>) -> PResult<Vec<ParentRef>> {
        let mut out = Vec::new();
        for q in p.into_inner() {
            let span = self.span(&q);
            let mut it = q.into_inner();
            let name = self.ident(it.next().unwrap());
            let args = match it.next() {
                Some(a) => self.args(a)?,
                None => Vec::new(),
            };
            out.push(ParentRef { name, args, span });
        }
        Ok(out)
    }

    fn object_body(&mut self, p: Pair<Rule>) -> PResult<ObjectBody> {
        let mut parents = Vec::new();
        let mut items = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::parent_list => parents = self.parent_list(q)?,
                Rule::body => {
                    for item in q.into_inner() {
                        items.push(self.body_item(item)?);
                    }
                }
                r => unreachable!("object body: {r:?}"),
            }
        }
        Ok(ObjectBody { parents, items })
    }

    fn body_item(&mut self, p: Pair<Rule>) -> PResult<BodyItem> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        Ok(match rule {
            Rule::field_decl => {
                let mut next = it.next().unwrap();
                let is_field = next.as_rule() == Rule::kw_field;
                if is_field {
                    next = it.next().unwrap();
                }
                let ty = self.ty(next)?;
                let name = self.ident(it.next().unwrap());
                let value = it.next().map(|v| self.value(v)).transpose()?;
                BodyItem::Field {
                    is_field,
                    ty,
                    name,
                    value,
                    span,
                }
            }
            Rule::let_item_stmt => BodyItem::Let(self.let_item(it.next().unwrap())?),
            Rule::defvar_stmt => BodyItem::Defvar(self.defvar(span, it)?),
            Rule::assert_stmt => BodyItem::Assert(self.assert(span, it)?),
            Rule::dump_stmt => BodyItem::Dump(Dump {
                message: self.value(it.next().unwrap())?,
                span,
            }),
            r => unreachable!("body item: {r:?}"),
        })
    }

    fn let_item(&mut self, p: Pair<Rule>) -> PResult<LetItem> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.ident(it.next().unwrap());
        let mut next = it.next().unwrap();
        let mut bits = None;
        if next.as_rule() == Rule::range_list {
            bits = Some(LetBits::Ranges(self.range_list(next)?));
            next = it.next().unwrap();
        } else if next.as_rule() == Rule::bit_index_list {
            bits = Some(LetBits::Values(self.bit_indices(next)?));
            next = it.next().unwrap();
        }
        Ok(LetItem {
            name,
            bits,
            value: self.value(next)?,
            span,
        })
    }

    fn range_list(&mut self, p: Pair<Rule>) -> PResult<Vec<RangePiece>> {
        p.into_inner().map(|q| self.range_piece(q)).collect()
    }

    fn bit_indices(&mut self, p: Pair<Rule>) -> PResult<Vec<BitIndex>> {
        p.into_inner()
            .map(|q| {
                let span = self.span(&q);
                let mut it = q.into_inner();
                let start = self.value(it.next().unwrap())?;
                let end = it.next().map(|v| self.value(v)).transpose()?;
                Ok(BitIndex { start, end, span })
            })
            .collect()
    }

    fn range_piece(&mut self, p: Pair<Rule>) -> PResult<RangePiece> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let start = self.int(&it.next().unwrap())?;
        let end = match it.next() {
            Some(to) => {
                let q = to.into_inner().next().unwrap();
                // `0-12` lexes as `0` and `-12`: the end is the magnitude.
                Some(self.int(&q)?.abs())
            }
            None => None,
        };
        Ok(RangePiece { start, end, span })
    }

    fn ty(&mut self, p: Pair<Rule>) -> PResult<TypeExpr> {
        let span = self.span(&p);
        let inner = p.into_inner().next().unwrap();
        let kind = match inner.as_rule() {
            Rule::bit_ty => TypeKind::Bit,
            Rule::bits_ty => TypeKind::Bits(self.int(&inner.into_inner().next().unwrap())?),
            Rule::int_ty => TypeKind::Int,
            Rule::string_ty => TypeKind::String,
            Rule::code_ty => TypeKind::Code,
            Rule::dag_ty => TypeKind::Dag,
            Rule::list_ty => TypeKind::List(Box::new(self.ty(inner.into_inner().next().unwrap())?)),
            Rule::class_ty => TypeKind::Class(self.ident(inner.into_inner().next().unwrap())),
            r => unreachable!("type: {r:?}"),
        };
        Ok(TypeExpr { kind, span })
    }

    fn args(&mut self, p: Pair<Rule>) -> PResult<Vec<Arg>> {
        let mut out = Vec::new();
        for a in p.into_inner() {
            let q = a.into_inner().next().unwrap();
            out.push(match q.as_rule() {
                Rule::named_arg => {
                    let mut it = q.into_inner();
                    let name = self.ident(it.next().unwrap());
                    Arg::Named(name, self.value(it.next().unwrap())?)
                }
                _ => Arg::Positional(self.value(q)?),
            });
        }
        Ok(out)
    }

    fn value(&mut self, p: Pair<Rule>) -> PResult<Expr> {
        let start = p.as_span().start();
        let mut it = p.into_inner();
        let mut e = self.simple_value(it.next().unwrap())?;
        for q in it {
            let span = Span::new(self.file, start, q.as_span().end());
            match q.as_rule() {
                Rule::suffix => {
                    let s = q.into_inner().next().unwrap();
                    let kind = match s.as_rule() {
                        Rule::bit_suffix => {
                            let list = s.into_inner().next().unwrap();
                            if list.as_rule() == Rule::range_list {
                                ExprKind::BitSlice(Box::new(e), self.range_list(list)?)
                            } else {
                                ExprKind::BitIndexSlice(Box::new(e), self.bit_indices(list)?)
                            }
                        }
                        Rule::list_suffix => {
                            let list = s.into_inner().next().unwrap();
                            let mut items = Vec::new();
                            let mut trailing = false;
                            for item in list.into_inner() {
                                if item.as_rule() == Rule::trailing_comma {
                                    trailing = true;
                                    continue;
                                }
                                let x = item.into_inner().next().unwrap();
                                items.push(match x.as_rule() {
                                    Rule::range_piece_strict => {
                                        SliceItem::Range(self.range_piece(x)?)
                                    }
                                    _ => SliceItem::Value(self.value(x)?),
                                });
                            }
                            ExprKind::ListSlice(Box::new(e), items, trailing)
                        }
                        Rule::field_suffix => {
                            ExprKind::Field(Box::new(e), self.ident(s.into_inner().next().unwrap()))
                        }
                        r => unreachable!("suffix: {r:?}"),
                    };
                    e = Expr { kind, span };
                }
                Rule::paste => {
                    let rhs = q.into_inner().next().unwrap();
                    let rhs = match rhs.as_rule() {
                        Rule::trailing_paste => None,
                        _ => Some(Box::new(self.value(rhs)?)),
                    };
                    e = Expr {
                        kind: ExprKind::Paste(Box::new(e), rhs),
                        span,
                    };
                }
                r => unreachable!("value part: {r:?}"),
            }
        }
        Ok(e)
    }

    fn simple_value(&mut self, p: Pair<Rule>) -> PResult<Expr> {
        let span = self.span(&p);
        let q = p.into_inner().next().unwrap();
        let kind = match q.as_rule() {
            Rule::int_lit => ExprKind::Int(self.int(&q)?),
            Rule::bin_lit => {
                let digits = &q.as_str()[2..];
                if digits.len() > 64 {
                    return Err(Diagnostic::error(
                        Kind::Syntax,
                        span,
                        "binary literal longer than 64 bits",
                    ));
                }
                ExprKind::Binary(
                    u64::from_str_radix(digits, 2).unwrap_or(0),
                    digits.len() as u32,
                )
            }
            Rule::strings => {
                let mut s = String::new();
                for lit in q.into_inner() {
                    if let Err(at) = unescape(lit.as_str(), &mut s) {
                        let start = lit.as_span().start() + at;
                        return Err(Diagnostic::error(
                            Kind::Syntax,
                            Span::new(self.file, start, start + 2),
                            "invalid escape in string literal",
                        )
                        .with_label("unknown escape")
                        .with_help("the escapes are \\\\, \\', \\\", \\t and \\n"));
                    }
                }
                ExprKind::Str(s.into_boxed_str())
            }
            Rule::code_lit => {
                let s = q.as_str();
                ExprKind::Code(Box::from(&s[2..s.len() - 2]))
            }
            Rule::kw_true => ExprKind::Bool(true),
            Rule::kw_false => ExprKind::Bool(false),
            Rule::unset => ExprKind::Unset,
            Rule::bits_init => ExprKind::Bits(
                q.into_inner()
                    .map(|v| self.value(v))
                    .collect::<PResult<_>>()?,
            ),
            Rule::list_init => {
                let mut items = Vec::new();
                let mut ty = None;
                for v in q.into_inner() {
                    match v.as_rule() {
                        Rule::ty => ty = Some(self.ty(v)?),
                        _ => items.push(self.value(v)?),
                    }
                }
                ExprKind::List(items, ty)
            }
            Rule::dag_init => {
                let mut it = q.into_inner();
                let mut op_it = it.next().unwrap().into_inner();
                let op = Box::new(self.value(op_it.next().unwrap())?);
                let op_name = op_it.next().map(|n| self.varname(n));
                let mut args = Vec::new();
                for a in it {
                    let mut ai = a.into_inner();
                    let first = ai.next().unwrap();
                    if first.as_rule() == Rule::varname {
                        args.push((None, Some(self.varname(first))));
                    } else {
                        let v = self.value(first)?;
                        let n = ai.next().map(|n| self.varname(n));
                        args.push((Some(v), n));
                    }
                }
                ExprKind::Dag { op, op_name, args }
            }
            Rule::bang_op => {
                let mut it = q.into_inner();
                let name = it.next().unwrap();
                let nspan = self.span(&name);
                let op = Ident {
                    sym: self.interner.intern(&name.as_str()[1..]),
                    span: nspan,
                };
                let mut ty = None;
                let mut args = Vec::new();
                for a in it {
                    match a.as_rule() {
                        Rule::ty => ty = Some(self.ty(a)?),
                        _ => {
                            let mut ai = a.into_inner();
                            let v = self.value(ai.next().unwrap())?;
                            let w = ai.next().map(|w| self.value(w)).transpose()?;
                            args.push((v, w));
                        }
                    }
                }
                ExprKind::Bang { op, ty, args }
            }
            Rule::class_inst => {
                let mut it = q.into_inner();
                let name = self.ident(it.next().unwrap());
                match it.next() {
                    // A bare name spans just the name: the class_inst pair also
                    // holds the blanks skipped while looking for a `<`.
                    None => {
                        return Ok(Expr {
                            span: name.span,
                            kind: ExprKind::Id(name),
                        });
                    }
                    Some(a) => ExprKind::ClassInst {
                        class: name,
                        args: match a.into_inner().next() {
                            Some(a) => self.args(a)?,
                            None => Vec::new(),
                        },
                    },
                }
            }
            r => unreachable!("simple value: {r:?}"),
        };
        Ok(Expr { kind, span })
    }
}

/// Appends the text of a string literal (with quotes) to `out`, resolving
/// TableGen's escapes (`\\ \' \" \t \n`); an unknown escape is an error at
/// its byte offset in the literal.
pub(super) fn unescape(lit: &str, out: &mut String) -> Result<(), usize> {
    let body = &lit[1..lit.len() - 1];
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, 'n')) => out.push('\n'),
            Some((_, 't')) => out.push('\t'),
            Some((_, c @ ('\\' | '\'' | '"'))) => out.push(c),
            _ => return Err(i + 1),
        }
    }
    Ok(())
}
