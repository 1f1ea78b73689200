//! The `regalloc!` proc-macro: a thin shell over `tdgen` that turns a `.td` file into static tables.
//!
//! `regalloc!("bpf/bpf.td")` (path relative to the calling crate's
//! `CARGO_MANIFEST_DIR`) expands to the items `tdgen emit` prints: `TARGET`
//! (a `regalloc::target::TargetInfo<'static>`) and the modules `regs`,
//! `classes`, `sub_regs`, `callee_saved` of typed constants. Include
//! directories: `regalloc!("x.td", include = ["dir", ...])`, searched after
//! the including file's own directory and before tdgen's prelude
//! (`regalloc.td`). Every file read is tracked with `include_bytes!` so that
//! cargo rebuilds when one changes. Errors in the description become
//! `compile_error!`s, spanned on the path, whose text shows the `.td` file,
//! line, column, the source line and the hint.
#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote;
use std::path::{Path, PathBuf};
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token, bracketed, punctuated::Punctuated};

/// More than this many errors in one file would bury the first, which is the one to fix.
const MAX_ERRORS: usize = 10;

/// The macro's arguments: a path and optional `include = [...]`.
struct Args {
    path: LitStr,
    include: Vec<LitStr>,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Args> {
        let path: LitStr = input.parse()?;
        let mut include = Vec::new();
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key != "include" {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown option `{key}`; the only option is `include = [\"dir\", ...]`"
                    ),
                ));
            }
            input.parse::<Token![=]>()?;
            let content;
            bracketed!(content in input);
            let dirs: Punctuated<LitStr, Token![,]> = Punctuated::parse_terminated(&content)?;
            include.extend(dirs);
        }
        Ok(Args { path, include })
    }
}

/// Resolves a path argument against the manifest directory.
///
/// `REGALLOC_TD_DIR`, when set, is a second base tried when the first has
/// no such file: trybuild compiles the ui cases in a crate of its own
/// under the target directory, far from their `.td` files.
fn resolve(manifest: &Path, rel: &str) -> PathBuf {
    let first = manifest.join(rel);
    if !first.exists()
        && let Some(alt) = std::env::var_os("REGALLOC_TD_DIR").map(|d| Path::new(&d).join(rel))
        && alt.exists()
    {
        return alt;
    }
    first
}

/// `const _: &[u8] = include_bytes!(...)` for each file, so that cargo rebuilds when one changes.
fn track(files: &[PathBuf]) -> proc_macro2::TokenStream {
    let items = files.iter().filter_map(|f| {
        let abs = f.canonicalize().ok()?;
        let s = abs.to_str()?.to_string();
        Some(quote!(
            const _: &[u8] = include_bytes!(#s);
        ))
    });
    quote!(#(#items)*)
}

/// Strips rendering's leading `error: ` (rustc prints its own) from one diagnostic.
fn message(rendered: &str) -> String {
    let text = rendered.trim_end();
    text.strip_prefix("error: ").unwrap_or(text).to_string()
}

/// The last error's text when some were left out: those past [`MAX_ERRORS`]
/// and those that only follow from the errors shown (references to a def
/// whose definition failed), with where to see them all.
fn more_errors(past_cap: usize, following: usize, path: &str) -> Option<String> {
    let plural = |n: usize| if n == 1 { "error" } else { "errors" };
    match (past_cap, following) {
        (0, 0) => None,
        (0, 1) => Some(format!(
            "1 more error in '{path}' follows from the errors above and is not shown"
        )),
        (0, f) => Some(format!(
            "{f} more errors in '{path}' follow from the errors above and are not shown"
        )),
        (n, 0) => Some(format!(
            "and {n} more {} in '{path}' (`tdgen check` lists them all)",
            plural(n)
        )),
        (n, f) => Some(format!(
            "and {n} more {} in '{path}' (`tdgen check` lists them all); {f} more {} from these and {} not shown",
            plural(n),
            if f == 1 { "follows" } else { "follow" },
            if f == 1 { "is" } else { "are" },
        )),
    }
}

/// Compiles a `.td` target description into static tables and typed constants.
///
/// ```text
/// regalloc::regalloc!("PATH.td");
/// regalloc::regalloc!("PATH.td", include = ["DIR", ...]);
/// ```
///
/// # Paths
///
/// `PATH` and every `include` directory are relative to the directory of
/// the crate that calls the macro: its `Cargo.toml`'s directory, which
/// cargo passes as `CARGO_MANIFEST_DIR` (not the source file's directory,
/// as `include_str!` would use). A path that names no file is a compile
/// error saying so.
///
/// `include = ["dir", ...]` adds directories for `include "x.td"` lines,
/// searched after the including file's own directory and before tdgen's
/// prelude (`regalloc.td`, which every description can include without
/// naming a directory). LLVM's own `.td` files are reached this way, as
/// `include = ["/usr/lib/llvm-19/include"]`.
///
/// # What it generates
///
/// The items `tdgen emit FILE.td` prints, in the module where the macro is
/// called (so give it a module of its own):
///
/// - `TARGET`: a `regalloc::target::TargetInfo<'static>`, the tables every
///   entry point of `regalloc` takes (registers, units, sub-register
///   indices, classes and their allocation orders, callee-saved sets,
///   reserved registers, instructions, spill templates, memory folds);
/// - `regs`: a `Reg` constant per register (`regs::W0`);
/// - `classes`: a `RegClass` per register class, including those tdgen
///   infers (`classes::GPR`);
/// - `sub_regs`: a `SubRegIndex` per sub-register index (`sub_regs::lo`);
/// - `callee_saved`: a `CalleeSavedSet` per callee-saved set
///   (`callee_saved::CSR_Toy`);
/// - `opcodes`: an `Opcode` per instruction (`opcodes::ADDrr`);
/// - `tables`: the raw static rows behind `TARGET`.
///
/// The generated code names the table types through `::regalloc`, so the
/// calling crate depends on `regalloc` (which re-exports this macro as
/// `regalloc::regalloc!`). Every file read is tracked with
/// `include_bytes!`, so cargo rebuilds when the description or one of its
/// includes changes.
///
/// # Errors
///
/// A description with errors does not compile: each error (up to 10, then
/// a count of the rest) is a `compile_error!` on the path literal whose
/// text is tdgen's diagnostic, with the `.td` file, line, column, source
/// line and hint (`tdgen check FILE.td` lists them all).
///
/// # Example
///
/// The toy machine of `docs/new-target.md`, from this crate's directory
/// (`regalloc/macros`, hence the `../../`), used to allocate the
/// tutorial's function:
///
/// ```
/// mod toy {
///     regalloc::regalloc!("../../docs/toy/toy.td");
/// }
///
/// // The typed constants name what the description defines.
/// let t = &toy::TARGET;
/// assert_eq!(t.name, "toy");
/// assert!(t.class_contains(toy::classes::GPR, toy::regs::W0));
/// assert!(!t.class_contains(toy::classes::GPR, toy::regs::L0));
/// assert!(t.is_callee_saved(toy::callee_saved::CSR_Toy, toy::regs::W3));
///
/// // The tables allocate MIR written for that machine.
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/toy/sum.mir");
/// let text = std::fs::read_to_string(path).expect("the tutorial's function");
/// let mut file = regalloc::mir::read(t, "sum.mir", &text);
/// assert_eq!(file.errors().count(), 0);
/// let options = regalloc::Options {
///     allocator: regalloc::Allocator::Basic,
///     check: true,
/// };
/// for doc in &mut file.functions {
///     if let regalloc::mir::FunctionDoc::Read(f) = doc {
///         let stats = regalloc::allocate(t, f, &options).expect("allocated and checked");
///         assert_eq!(stats.spills, 1);
///     }
/// }
/// let allocated = regalloc::mir::write(t, &file);
/// assert!(allocated.contains("STW $w1, %stack.0, 0"));
/// ```
///
/// A build script can generate the same items into `OUT_DIR` instead
/// (`tdgen::Builder`, see `docs/new-target.md`), and `regalloc_td::load`
/// builds a `TargetInfo` from a `.td` file at run time.
#[proc_macro]
pub fn regalloc(input: TokenStream) -> TokenStream {
    let args: Args = match syn::parse(input) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error().into(),
    };
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| ".".into()));
    let path = resolve(&manifest, &args.path.value());
    let dirs: Vec<PathBuf> = args
        .include
        .iter()
        .map(|d| resolve(&manifest, &d.value()))
        .collect();
    let span: Span = args.path.span();
    if !path.is_file() {
        let msg = format!(
            "cannot find the target description '{}': paths are relative to the crate's directory (CARGO_MANIFEST_DIR)",
            args.path.value()
        );
        return syn::Error::new(span, msg).to_compile_error().into();
    }
    match tdgen::emit::compile(&path, &dirs, Some(&manifest)) {
        Ok(c) => {
            let tracked = track(&c.files_read);
            let opts = tdgen::emit::Options {
                base_dir: Some(manifest),
                ..Default::default()
            };
            match tdgen::emit::to_tokens(&c.tables, &opts) {
                Ok(items) => quote!(#tracked #items).into(),
                Err(e) => syn::Error::new(span, e).to_compile_error().into(),
            }
        }
        Err(f) => {
            let tracked = track(&f.files_read);
            let errors = f
                .rendered_each
                .iter()
                .take(MAX_ERRORS)
                .map(|r| syn::Error::new(span, message(r)).to_compile_error());
            let more = more_errors(
                f.rendered_each.len().saturating_sub(MAX_ERRORS),
                f.not_shown,
                &args.path.value(),
            )
            .map(|m| syn::Error::new(span, m).to_compile_error());
            quote!(#tracked #(#errors)* #more).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::more_errors;

    #[test]
    fn nothing_is_added_when_every_error_was_shown() {
        assert_eq!(more_errors(0, 0, "t.td"), None);
    }

    #[test]
    fn errors_past_the_cap_are_counted() {
        assert_eq!(
            more_errors(13, 0, "t.td").as_deref(),
            Some("and 13 more errors in 't.td' (`tdgen check` lists them all)")
        );
        assert_eq!(
            more_errors(1, 0, "t.td").as_deref(),
            Some("and 1 more error in 't.td' (`tdgen check` lists them all)")
        );
    }

    #[test]
    fn errors_that_follow_from_those_shown_are_counted() {
        assert_eq!(
            more_errors(0, 1, "t.td").as_deref(),
            Some("1 more error in 't.td' follows from the errors above and is not shown")
        );
        assert_eq!(
            more_errors(0, 23, "x86/x86.td").as_deref(),
            Some("23 more errors in 'x86/x86.td' follow from the errors above and are not shown")
        );
        assert_eq!(
            more_errors(2, 5, "t.td").as_deref(),
            Some(
                "and 2 more errors in 't.td' (`tdgen check` lists them all); 5 more follow from these and are not shown"
            )
        );
    }
}
