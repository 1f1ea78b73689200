//! The TableGen preprocessor (`#define`, `#ifdef`, `#ifndef`, `#else`, `#endif`) and include discovery.
//!
//! llvm-tblgen runs the preprocessor inside its lexer, so macro state flows
//! through `include`s in text order: a file included in the middle of another
//! sees exactly the macros defined before that point, and the rest of the
//! including file sees the macros the included file defined. We reproduce that
//! by scanning each file once, in order, and calling back into the loader at
//! every `include "..."` token, so the included file is preprocessed (and
//! parsed) right there.
//!
//! The output keeps every byte offset: directive lines and disabled regions are
//! blanked with spaces (newlines kept), so spans into the preprocessed text are
//! spans into the original file.

use crate::diag::{Diagnostic, FileId, Kind, Span};
use std::collections::HashSet;

/// Macro names currently defined (`#define` or `-D`).
pub type Defines = HashSet<String>;

/// An `include "name"` found in active text: where it is and the file name.
#[derive(Clone, Debug)]
pub struct IncludeSite {
    /// Span of the whole `include "name"` statement.
    pub span: Span,
    /// The string between the quotes.
    pub name: String,
}

/// Preprocesses `text` of `file`. `on_include` is called for each active
/// `include` in text order, with the macro set as it stands at that point.
pub fn preprocess(
    file: FileId,
    text: &str,
    defines: &mut Defines,
    on_include: &mut dyn FnMut(&IncludeSite, &mut Defines),
    diags: &mut Vec<Diagnostic>,
) -> String {
    let mut out = text.as_bytes().to_vec();
    let b = text.as_bytes();
    let n = b.len();
    // Stack of conditionals: (active before this #if, this branch active, seen #else, span).
    let mut conds: Vec<(bool, bool, bool, Span)> = Vec::new();
    let mut active = true;
    let mut i = 0usize;
    let mut line_start = true;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < n {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if line_start
            && c == b'#'
            && let Some((directive, name_start, name_end, line_end)) = directive_at(b, i)
        {
            let span = Span::new(file, i, line_end);
            let name = &text[name_start..name_end];
            match directive {
                "define" => {
                    if active {
                        if name.is_empty() {
                            diags.push(Diagnostic::error(
                                Kind::Preprocessor,
                                span,
                                "expected a macro name after #define",
                            ));
                        } else {
                            defines.insert(name.to_string());
                        }
                    }
                }
                "ifdef" | "ifndef" => {
                    if name.is_empty() {
                        diags.push(Diagnostic::error(
                            Kind::Preprocessor,
                            span,
                            format!("expected a macro name after #{directive}"),
                        ));
                    }
                    let defined = defines.contains(name);
                    let taken = if directive == "ifdef" {
                        defined
                    } else {
                        !defined
                    };
                    conds.push((active, taken, false, span));
                    active = active && taken;
                }
                "else" => match conds.last_mut() {
                    Some(top) if !top.2 => {
                        top.2 = true;
                        top.1 = !top.1;
                        active = top.0 && top.1;
                    }
                    Some(top) => {
                        let first = top.3;
                        diags.push(
                            Diagnostic::error(Kind::Preprocessor, span, "#else after #else")
                                .with_secondary(first, "the conditional starts here"),
                        );
                    }
                    None => diags.push(Diagnostic::error(
                        Kind::Preprocessor,
                        span,
                        "#else without #ifdef or #ifndef",
                    )),
                },
                "endif" => match conds.pop() {
                    Some(top) => active = top.0,
                    None => diags.push(Diagnostic::error(
                        Kind::Preprocessor,
                        span,
                        "#endif without #ifdef or #ifndef",
                    )),
                },
                _ => unreachable!("directive_at only returns known directives"),
            }
            blank(&mut out, i, line_end);
            i = line_end;
            continue;
        }
        line_start = false;
        if !active {
            // Disabled: blank the rest of the line.
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p);
            blank(&mut out, i, end);
            i = end;
            continue;
        }
        match c {
            // Comments are blanked here rather than left to the grammar: a
            // nested-comment rule in a backtracking parser goes exponential on
            // unterminated `/*` soup, and here it is one linear scan.
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (end, closed) = skip_block_comment(b, i);
                if !closed {
                    diags.push(
                        Diagnostic::error(
                            Kind::Syntax,
                            Span::new(file, i, i + 2),
                            "unterminated /* comment",
                        )
                        .with_label("this comment is never closed"),
                    );
                }
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                i = skip_string(b, i);
            }
            b'[' if b.get(i + 1) == Some(&b'{') => {
                i = find(b, i + 2, b"}]").map_or(n, |p| p + 2);
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if &b[start..i] == b"include" {
                    let mut j = skip_trivia(b, i);
                    if j < n && b[j] == b'"' {
                        let end = skip_string(b, j);
                        // An unterminated string stops at the newline: no closing quote to drop.
                        let raw_end = if end > j + 1 && b[end - 1] == b'"' {
                            end - 1
                        } else {
                            end
                        };
                        let raw = text.get(j + 1..raw_end).unwrap_or("");
                        let site = IncludeSite {
                            span: Span::new(file, start, end),
                            name: unescape_simple(raw),
                        };
                        on_include(&site, defines);
                        j = end;
                    }
                    i = j;
                }
            }
            _ => i += 1,
        }
    }
    for (_, _, _, span) in conds {
        diags.push(
            Diagnostic::error(
                Kind::Preprocessor,
                span,
                "reached the end of the file without a matching #endif",
            )
            .with_label("this conditional is not closed"),
        );
    }
    // Only ASCII spaces replaced whole characters' bytes... except inside
    // multi-byte characters of disabled text, which `blank` turned into spaces
    // byte by byte: still valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Recognizes `#define/#ifdef/#ifndef/#else/#endif NAME` at `i`; returns the
/// directive, the name range and the end of the line.
fn directive_at(b: &[u8], i: usize) -> Option<(&'static str, usize, usize, usize)> {
    let mut j = i + 1;
    let word_start = j;
    while j < b.len() && b[j].is_ascii_alphabetic() {
        j += 1;
    }
    let directive = match &b[word_start..j] {
        b"define" => "define",
        b"ifdef" => "ifdef",
        b"ifndef" => "ifndef",
        b"else" => "else",
        b"endif" => "endif",
        _ => return None,
    };
    let line_end = b[j..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| j + p);
    let mut k = j;
    while k < line_end && (b[k] == b' ' || b[k] == b'\t') {
        k += 1;
    }
    let name_start = k;
    while k < line_end && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
        k += 1;
    }
    let name_end = if directive == "else" || directive == "endif" {
        name_start
    } else {
        k
    };
    Some((directive, name_start, name_end, line_end))
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| from + p)
}

/// Skips a nested block comment starting at `i`; returns the end and whether it was closed.
fn skip_block_comment(b: &[u8], mut i: usize) -> (usize, bool) {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return (i, true);
            }
        } else {
            i += 1;
        }
    }
    (b.len(), false)
}

fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    b.len()
}

fn skip_trivia(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/') {
            i = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |p| i + p);
        } else if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'*') {
            i = skip_block_comment(b, i).0;
        } else {
            return i;
        }
    }
}

fn unescape_simple(raw: &str) -> String {
    raw.replace("\\\"", "\"").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, defs: &[&str]) -> (String, Vec<String>, usize) {
        let mut d: Defines = defs.iter().map(|s| s.to_string()).collect();
        let mut incs = Vec::new();
        let mut diags = Vec::new();
        let out = preprocess(
            FileId(0),
            text,
            &mut d,
            &mut |s, _| incs.push(s.name.clone()),
            &mut diags,
        );
        assert_eq!(out.len(), text.len());
        (out, incs, diags.len())
    }

    #[test]
    fn disabled_regions_are_blanked_and_offsets_kept() {
        let (out, _, errs) = run("#ifdef A\ndef X;\n#else\ndef Y;\n#endif\n", &[]);
        assert_eq!(errs, 0);
        assert!(!out.contains("X") && out.contains("def Y;"));
    }

    #[test]
    fn define_then_ifndef() {
        let (out, _, _) = run("#define A\n#ifndef A\ndef X;\n#endif\ndef Z;", &[]);
        assert!(!out.contains("X") && out.contains("Z"));
    }

    #[test]
    fn includes_found_in_active_text_only() {
        let (_, incs, _) = run(
            "// include \"a.td\"\ninclude \"b.td\"\n#ifdef Q\ninclude \"c.td\"\n#endif\n",
            &[],
        );
        assert_eq!(incs, vec!["b.td"]);
    }

    #[test]
    fn unbalanced_directives_are_errors() {
        assert_eq!(run("#endif\n", &[]).2, 1);
        assert_eq!(run("#ifdef A\n", &[]).2, 1);
        assert_eq!(run("#else\n", &[]).2, 1);
    }
}
