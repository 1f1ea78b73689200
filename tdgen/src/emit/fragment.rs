//! `[{ }]` code fragments (`AltOrderSelect`): found in the `.td` text, checked as Rust with `syn`, and evaluated when constant.
//!
//! A fragment is the body of `fn(func: &FunctionInfo) -> usize`. Records keep
//! only its text, not where it was written (a class body may set it for many
//! defs), so its place is found by searching the sources for the literal
//! `[{...}]`, preferring the file of the def that uses it.

use crate::diag::{Diagnostic, FileId, Kind, Span};
use crate::records::{RecId, RecordKeeper};

/// The name the fragment's code sees for the function being allocated.
pub const PARAM: &str = "func";

/// A checked fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct Fragment {
    /// The Rust code between `[{` and `}]`.
    pub code: String,
    /// Its value when it is a constant (`return 1;` or `1`), for the run-time path.
    pub constant: Option<usize>,
    /// Where it is written (the whole `[{...}]`).
    pub span: Span,
    /// `file:line:col` of that place, for messages.
    pub position: String,
}

/// Where `[{code}]` is written: in the def's own file if it occurs there, else anywhere.
fn locate(rk: &RecordKeeper, def_file: Option<FileId>, code: &str) -> Option<Span> {
    let needle = format!("[{{{code}}}]");
    let find = |id: FileId| {
        rk.sources
            .file(id)
            .text
            .find(&needle)
            .map(|at| Span::new(id, at, at + needle.len()))
    };
    def_file
        .filter(|f| (f.0 as usize) < rk.sources.len())
        .and_then(find)
        .or_else(|| (0..rk.sources.len()).find_map(|i| find(FileId(i as u32))))
}

/// Byte offset of a (1-based line, 0-based char column) position in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for (k, l) in text.split_inclusive('\n').enumerate() {
        if k + 1 == line {
            return start + l.char_indices().nth(column).map_or(l.len(), |(i, _)| i);
        }
        start += l.len();
    }
    text.len()
}

/// Parses `code` as a block. In a proc-macro, proc-macro2's fallback is
/// forced so that the error's span carries a real line and column.
fn parse_block(code: &str) -> Result<syn::Block, syn::Error> {
    proc_macro2::fallback::force();
    let r = syn::parse_str::<syn::Block>(&format!("{{{code}}}"));
    proc_macro2::fallback::unforce();
    r
}

/// The value of a constant block: `{ return N; }`, `{ return N }` or `{ N }`.
fn constant(b: &syn::Block) -> Option<usize> {
    let lit = |e: &syn::Expr| match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<usize>().ok(),
        _ => None,
    };
    match b.stmts.as_slice() {
        [syn::Stmt::Expr(syn::Expr::Return(r), _)] => r.expr.as_deref().and_then(lit),
        [syn::Stmt::Expr(e, None)] => lit(e),
        _ => None,
    }
}

/// Checks the `AltOrderSelect` fragment of a class: a syntax error becomes a
/// diagnostic at its place in the `.td` file.
pub fn check(
    rk: &RecordKeeper,
    def: Option<RecId>,
    class_loc: Span,
    code: &str,
) -> Result<Fragment, Diagnostic> {
    let def_file = def
        .and_then(|d| rk.get(d).locs.first().copied())
        .map(|s| s.file);
    let span = locate(rk, def_file, code).unwrap_or(class_loc);
    match parse_block(code) {
        Ok(b) => Ok(Fragment {
            code: code.to_string(),
            constant: constant(&b),
            span,
            position: rk.sources.position(span),
        }),
        Err(e) => {
            let wrapped = format!("{{{code}}}");
            let start = e.span().start();
            // The wrapper adds one byte (`{`) before the code; `[{` is two bytes before it in the file.
            let in_code = offset_of(&wrapped, start.line, start.column).saturating_sub(1);
            let located = span != class_loc;
            let at = if located {
                let s = (span.start as usize + 2 + in_code).min(span.end as usize - 2);
                Span::new(span.file, s, (s + 1).min(span.end as usize - 2).max(s))
            } else {
                class_loc
            };
            let name = def.map(|d| rk.name_of(d)).unwrap_or_default();
            // proc-macro2's lexer says only this when braces or quotes do not match.
            let e = match e.to_string().as_str() {
                "cannot parse string into token stream" => {
                    "unbalanced delimiters or an unterminated literal".to_string()
                }
                other => other.to_string(),
            };
            Err(Diagnostic::error(
                Kind::Syntax,
                at,
                format!("the AltOrderSelect code of class '{name}' is not valid Rust: {e}"),
            )
            .with_label(e.to_string())
            .with_secondary(span, "in this code fragment")
            .with_help(format!(
                "[{{ }}] fragments hold Rust: the body of `fn({PARAM}: &FunctionInfo) -> usize`, e.g. [{{ return 1; }}]"
            )))
        }
    }
}
