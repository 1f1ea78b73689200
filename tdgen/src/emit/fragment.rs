//! `[{ }]` code fragments (`AltOrderSelect`): found in the `.td` text, parsed with `syn`, and held to the AltOrderSelect language ([`super::select`]).
//!
//! A fragment is the body of `fn(func: &FunctionInfo) -> usize` in that
//! language; its syntax tree is what both the compiled and the run-time
//! paths run. Records keep
//! only its text, not where it was written (a class body may set it for many
//! defs), so its place is found by searching the sources for the literal
//! `[{...}]`, preferring the file of the def that uses it.

use super::select::{self, Block};
use crate::diag::{Diagnostic, FileId, Kind, Span};
use crate::records::{RecId, RecordKeeper};
use crate::target::features::{FeatureBits, Features};

/// The name the fragment's code sees for the function being allocated.
pub const PARAM: &str = "func";

/// A checked fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct Fragment {
    /// The Rust code between `[{` and `}]`.
    pub code: String,
    /// Its syntax tree.
    pub tree: Block,
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
    let name = def.map(|d| rk.name_of(d)).unwrap_or_default();
    let position = rk.sources.position(span);
    match parse_block(code) {
        Ok(b) => match select::from_syn(&b) {
            Ok(tree) => Ok(Fragment {
                code: code.to_string(),
                tree,
                span,
                position,
            }),
            Err(e) => {
                let at = place(span, class_loc, code, e.span.start());
                Err(Diagnostic::error(
                    Kind::Semantic,
                    at,
                    format!(
                        "the AltOrderSelect code of class '{name}' is outside the language: {}",
                        e.message
                    ),
                )
                .with_label(e.message.clone())
                .with_secondary(span, "in this code fragment")
                .with_help(LANGUAGE_HELP))
            }
        },
        Err(e) => {
            let at = place(span, class_loc, code, e.span().start());
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
            .with_help(LANGUAGE_HELP))
        }
    }
}

/// What every fragment diagnostic reminds of.
const LANGUAGE_HELP: &str = "[{ }] fragments are the body of `fn(func: &FunctionInfo) -> usize` in the AltOrderSelect language: integers, `func.has_feature(\"c\")`, `func.has_calls()`, `func.has_frame_pointer()`, `func.has_base_pointer()`, `!`, `&&`, `||`, comparisons, `if`/`else`, `return`; e.g. [{ return 1; }]";

/// The one-character place in the file of a (line, column) position of
/// the code as parsed, wrapped in `{ }`; the class's place when the
/// fragment's own place is unknown.
fn place(span: Span, class_loc: Span, code: &str, start: proc_macro2::LineColumn) -> Span {
    if span == class_loc {
        return class_loc;
    }
    let wrapped = format!("{{{code}}}");
    // The wrapper adds one byte (`{`) before the code; `[{` is two bytes before it in the file.
    let in_code = offset_of(&wrapped, start.line, start.column).saturating_sub(1);
    let s = (span.start as usize + 2 + in_code).min(span.end as usize - 2);
    Span::new(span.file, s, (s + 1).min(span.end as usize - 2).max(s))
}

/// How many features one fragment may mention: its checks evaluate it for
/// every combination of them.
const MAX_MENTIONED: usize = 12;

/// One function a fragment is evaluated for at description time.
struct Combination<'a> {
    features: &'a Features,
    set: FeatureBits,
    facts: [bool; 3],
}

impl select::Function for Combination<'_> {
    fn has_feature(&self, name: &str) -> bool {
        self.features
            .list
            .iter()
            .position(|f| f.name == name)
            .is_some_and(|b| self.set.has(b))
    }

    fn fact(&self, fact: select::Fact) -> bool {
        let k = select::Fact::ALL.iter().position(|&x| x == fact);
        k.is_some_and(|k| self.facts[k])
    }
}

/// Checks what the fragment of class `class`, which has `orders` orders,
/// can pick: every feature it names is the target's, and for every
/// combination of the facts and of the features it names (each turned on
/// with what it implies), the order it picks exists.
pub fn check_orders(
    fragment: &Fragment,
    class: &str,
    orders: usize,
    features: &Features,
) -> Result<(), Diagnostic> {
    let named = fragment.tree.features();
    let error = |message: String| {
        Diagnostic::error(Kind::Semantic, fragment.span, message.clone()).with_label(message)
    };
    let mut bits = Vec::with_capacity(named.len());
    for name in &named {
        match features.list.iter().position(|f| f.name == *name) {
            Some(b) => bits.push(b),
            None => {
                return Err(error(format!(
                    "the AltOrderSelect code of class '{class}' asks for feature '{name}', which no SubtargetFeature declares"
                ))
                .with_help("declare it: def FeatureC : SubtargetFeature<\"c\", \"HasC\", \"true\", \"...\">;"));
            }
        }
    }
    if bits.len() > MAX_MENTIONED {
        return Err(error(format!(
            "the AltOrderSelect code of class '{class}' names {} features; at most {MAX_MENTIONED} can be checked",
            bits.len()
        )));
    }
    for chosen in 0u32..1 << bits.len() {
        let set = features.closure(
            bits.iter()
                .enumerate()
                .filter(|(k, _)| chosen >> k & 1 == 1)
                .map(|(_, &b)| b),
        );
        for facts in 0u32..1 << select::Fact::ALL.len() {
            let f = Combination {
                features,
                set: set.clone(),
                facts: [facts & 1 != 0, facts & 2 != 0, facts & 4 != 0],
            };
            let picked = fragment.tree.select(&f);
            if picked >= orders as u64 {
                let mut when: Vec<String> = features
                    .names(&f.set)
                    .into_iter()
                    .filter(|n| named.contains(n))
                    .map(|n| format!("+{n}"))
                    .collect();
                for (k, x) in select::Fact::ALL.iter().enumerate() {
                    if f.facts[k] {
                        when.push(format!("{}()", x.method()));
                    }
                }
                let when = if when.is_empty() {
                    "for a function without features, calls, frame pointer or base pointer"
                        .to_string()
                } else {
                    format!("for a function with {}", when.join(", "))
                };
                return Err(error(format!(
                    "the AltOrderSelect code of class '{class}' picks order {picked} {when}, but the class has orders 0 to {}",
                    orders - 1
                ))
                .with_help("order 0 is MemberList, order i is AltOrders[i-1]"));
            }
        }
    }
    Ok(())
}
