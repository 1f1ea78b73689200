//! The recursive-descent parser against the pest grammar it mirrors: same trees, spans and symbols on every `.td` file at hand, and on damaged copies of them.
//!
//! `syntax::parse::parse_file` tries the hand-written parser first and falls
//! back to pest (the reference, and the author of every syntax error) when it
//! gives up. So the two must agree: where pest accepts a file, the
//! hand-written parser gives the same tree (compared through `Debug`, spans
//! and symbol numbers included) and interns the same names in the same order;
//! where pest rejects it, the hand-written parser gives up too.

use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use tdgen::FileId;
use tdgen::syntax::ast::Interner;
use tdgen::syntax::parse::{parse_file_descent, parse_file_pest};
use tdgen::syntax::preprocess::{Defines, preprocess};

fn td_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            td_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "td") {
            out.push(p);
        }
    }
}

/// Both parsers on one preprocessed text; `Err` describes a disagreement.
/// Returns whether pest accepted the text.
fn agree(text: &str) -> Result<bool, String> {
    let includes = HashMap::default();
    let mut ia = Interner::default();
    let a = parse_file_descent(FileId(0), text, &includes, &mut ia);
    let mut ib = Interner::default();
    let b = parse_file_pest(FileId(0), text, &includes, &mut ib);
    match (a, b) {
        (Some(a), Ok(b)) => {
            let (a, b) = (format!("{a:?}"), format!("{b:?}"));
            if a != b {
                let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                let from = at.saturating_sub(150);
                return Err(format!(
                    "different trees:\n  descent ...{}\n  pest    ...{}",
                    &a[from..(at + 80).min(a.len())],
                    &b[from..(at + 80).min(b.len())]
                ));
            }
            if ia.into_names() != ib.into_names() {
                return Err("different symbols".into());
            }
            Ok(true)
        }
        (None, Err(_)) => Ok(false),
        (Some(_), Err(e)) => Err(format!("pest rejects what descent accepts: {}", e.message)),
        (None, Ok(_)) => Err("descent gives up on what pest accepts".into()),
    }
}

fn preprocessed(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut defines = Defines::new();
    let mut diags = Vec::new();
    Some(preprocess(
        FileId(0),
        &text,
        &mut defines,
        &mut |_, _| {},
        &mut diags,
    ))
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["tests", "targets", "tdgen/prelude", "examples", "docs"] {
        td_files(&root.join(dir), &mut files);
    }
    td_files(Path::new("/usr/lib/llvm-19/include/llvm"), &mut files);
    files.sort();
    files
}

#[test]
fn same_trees_on_every_file() {
    let mut failures = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for path in corpus() {
        let Some(text) = preprocessed(&path) else {
            continue;
        };
        match agree(&text) {
            Ok(true) => accepted += 1,
            Ok(false) => rejected += 1,
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    eprintln!("{accepted} files parsed alike, {rejected} rejected by both");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cheap deterministic damage: every file cut short, and with one byte
/// deleted or doubled, at spread-out places.
#[test]
fn same_verdicts_on_damaged_files() {
    let mut failures = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for path in corpus() {
        let Some(text) = preprocessed(&path) else {
            continue;
        };
        if text.is_empty() || text.len() > 200_000 {
            continue;
        }
        for round in 0..6 {
            let mut at = next(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut after = at + 1;
            while after < text.len() && !text.is_char_boundary(after) {
                after += 1;
            }
            let damaged = match round % 3 {
                0 => text[..at].to_string(),
                1 => format!("{}{}", &text[..at], &text[after.min(text.len())..]),
                _ => format!("{}{}", &text[..after.min(text.len())], &text[at..]),
            };
            if let Err(e) = agree(&damaged) {
                failures.push(format!(
                    "{} (round {round}, byte {at}): {e}",
                    path.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Nesting without brackets (`let ... in` chains, pastes) is bounded: past
/// its depth limit the hand-written parser leaves the file to pest instead
/// of running out of stack.
#[test]
fn deep_nesting_is_left_to_pest() {
    // The loader parses on threads with large stacks; so does this test.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(deep_nesting)
        .expect("a test thread")
        .join()
        .expect("no panic");
}

fn deep_nesting() {
    let includes = HashMap::default();
    let lets = format!("{}def X;\n", "let a = 1 in\n".repeat(2000));
    let pastes = format!("defvar s = {}\"a\";\n", "\"a\" # ".repeat(2000));
    for text in [lets, pastes] {
        let mut interner = Interner::default();
        assert!(parse_file_descent(FileId(0), &text, &includes, &mut interner).is_none());
        assert_eq!(
            interner.mark(),
            0,
            "names interned by an abandoned parse are rolled back"
        );
    }
    let shallow = format!("{}def X;\n", "let a = 1 in\n".repeat(100));
    assert!(agree(&shallow).unwrap());
}
