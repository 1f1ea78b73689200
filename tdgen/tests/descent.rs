//! The recursive-descent parser against the pest grammar it mirrors: same verdicts, trees, spans and symbols on every `.td` file at hand, damaged copies, and random and generated text; the grammar pinned.
//!
//! `syntax::parse::parse_file` tries the hand-written parser first and falls
//! back to pest (the reference, and the author of every syntax error) when it
//! gives up. So the two must agree: where pest accepts a text, the
//! hand-written parser gives the same tree (compared through `Debug`, spans
//! and symbol numbers included) and interns the same names in the same order;
//! where pest rejects it, the hand-written parser gives up too.
//!
//! - `same_trees_on_every_file`, `same_verdicts_on_damaged_files`: the text
//!   people wrote (the repository's `.td` files and every installed LLVM's),
//!   whole, cut short, and with a byte deleted or doubled.
//! - The properties (proptest, bounded case counts, `PROPTEST_CASES=N` for
//!   more): token soup, programs generated from the grammar, those programs
//!   and small real files with tokens mutated, and every one-token deletion
//!   and doubling of generated programs.
//! - `grammar_is_pinned`: `td.pest`'s rules listed beside the functions that
//!   mirror them, and a fingerprint of the grammar, so that editing it fails
//!   until the fast path has been brought along.
//! - `parse_times` (ignored): the measurement quoted in `syntax/mod.rs`.

use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use tdgen::FileId;
use tdgen::syntax::ast::Interner;
use tdgen::syntax::parse::{parse_file, parse_file_descent, parse_file_pest};
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
///
/// `parse_file` checks bracket nesting and unterminated `[{` before either
/// parser runs, so text that check rejects reaches neither, and pest alone
/// would also spend quadratic time on an unterminated `[{`. Where the
/// hand-written parser gives up, `parse_file` (the check, then pest) is
/// therefore the verdict to hold it to: it accepts exactly when the check
/// passes and pest accepts.
fn agree(text: &str) -> Result<bool, String> {
    let includes = HashMap::default();
    let mut ia = Interner::default();
    let Some(a) = parse_file_descent(FileId(0), text, &includes, &mut ia) else {
        return match parse_file(FileId(0), text, &includes, &mut Interner::default()) {
            Ok(_) => Err("descent gives up on what pest accepts".into()),
            Err(_) => Ok(false),
        };
    };
    let mut ib = Interner::default();
    let b = parse_file_pest(FileId(0), text, &includes, &mut ib)
        .map_err(|e| format!("pest rejects what descent accepts: {}", e.message))?;
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

/// Every `.td` file at hand: the repository's (tests, targets, prelude,
/// examples, docs, fuzz) and those of every installed LLVM
/// (`/usr/lib/llvm-N/include/llvm`, `/usr/include/llvm-N/llvm`), each once.
fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in [
        "tests",
        "targets",
        "tdgen/prelude",
        "examples",
        "docs",
        "fuzz",
    ] {
        td_files(&root.join(dir), &mut files);
    }
    for dir in installed_llvm_dirs() {
        td_files(&dir, &mut files);
    }
    let mut files: Vec<PathBuf> = files
        .into_iter()
        .map(|f| f.canonicalize().unwrap_or(f))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The `llvm` include directories of the installed LLVM versions.
fn installed_llvm_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for (parent, below) in [("/usr/lib", "include/llvm"), ("/usr/include", "llvm")] {
        let Ok(entries) = std::fs::read_dir(parent) else {
            continue;
        };
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("llvm-") {
                dirs.push(e.path().join(below));
            }
        }
    }
    dirs.sort();
    dirs
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
    // The repository alone holds several hundred files both parsers accept.
    assert!(
        accepted >= 300,
        "only {accepted} files accepted: corpus not found?"
    );
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

/// The whole front end (read, preprocess, parse, evaluate) on one tree.
fn load(root: &Path, include_dirs: &[PathBuf]) -> tdgen::Loader {
    let mut loader = tdgen::Loader::new();
    for dir in include_dirs {
        loader.include_dir(dir);
    }
    if let Err(d) = loader.records(root) {
        panic!("{}", loader.render(&d));
    }
    loader
}

/// The files of one `.td` tree: its root and every file it includes, as the
/// loader reads them, each preprocessed on its own.
fn tree_texts(root: &Path, include_dirs: &[PathBuf]) -> Vec<(PathBuf, String)> {
    load(root, include_dirs)
        .files_read()
        .into_iter()
        .filter_map(|p| Some((p.clone(), preprocessed(&p)?)))
        .collect()
}

/// Median wall time of `runs` parses of every text with `parse`.
fn median_time(
    texts: &[(PathBuf, String)],
    runs: usize,
    parse: impl Fn(&str) -> bool,
) -> std::time::Duration {
    let mut times: Vec<std::time::Duration> = (0..runs)
        .map(|_| {
            let start = std::time::Instant::now();
            for (path, text) in texts {
                assert!(parse(text), "{} did not parse", path.display());
            }
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// Measurement, not a check: parse time of the four targets' trees, the
/// recursive-descent parser against pest (the figures in `syntax/mod.rs`).
/// `cargo test --release -p tdgen --test descent -- --ignored --nocapture parse_times`;
/// instruction counts: the test binary under `valgrind --tool=callgrind
/// --toggle-collect='*parse_file_pest*' --toggle-collect='*parse_file_descent*'`
/// with `PARSE_TIMES_RUNS=1`, then `callgrind_annotate --inclusive=yes`.
#[test]
#[ignore = "a measurement; run it by name"]
fn parse_times() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let llvm = PathBuf::from("/usr/lib/llvm-19/include");
    // `PARSE_TIMES_RUNS=1` for a run under callgrind.
    let runs = std::env::var("PARSE_TIMES_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let includes = HashMap::default();
    let descent = |text: &str| {
        parse_file_descent(FileId(0), text, &includes, &mut Interner::default()).is_some()
    };
    let pest =
        |text: &str| parse_file_pest(FileId(0), text, &includes, &mut Interner::default()).is_ok();
    println!(
        "{:<26} {:>6} {:>6} {:>11} {:>8} {:>6} {:>8}",
        "tree", "files", "KB", "descent ms", "pest ms", "ratio", "load ms"
    );
    for t in ["bpf", "aarch64", "x86", "hexagon"] {
        let trees = [
            (
                format!("{t} (LLVM Target.td)"),
                root.join(format!("targets/oracle/{t}-top.td")),
                vec![llvm.clone(), root.join(format!("targets/{t}"))],
            ),
            (
                format!("{t} (regalloc)"),
                root.join(format!("targets/{t}/{t}.td")),
                vec![tdgen::emit::prelude_dir()],
            ),
        ];
        for (name, top, dirs) in trees {
            let texts = tree_texts(&top, &dirs);
            let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
            let d = median_time(&texts, runs, descent);
            let p = median_time(&texts, runs, pest);
            let load = median_time(&[(top.clone(), String::new())], runs, |_| {
                load(&top, &dirs);
                true
            });
            println!(
                "{name:<26} {:>6} {:>6.0} {:>11.1} {:>8.1} {:>6.1} {:>8.1}",
                texts.len(),
                bytes as f64 / 1024.0,
                d.as_secs_f64() * 1e3,
                p.as_secs_f64() * 1e3,
                p.as_secs_f64() / d.as_secs_f64(),
                load.as_secs_f64() * 1e3
            );
        }
    }
}

// ------------------------------------------------------------ properties
//
// The corpus tests above see the text people write. The properties below
// see what nobody wrote yet: random token sequences, programs generated from
// the grammar (so that long accepted parses are compared tree against tree),
// and both those programs and the real files with tokens deleted, doubled,
// swapped, replaced or inserted (so that the near misses, where a fast path
// is most tempted to accept a little more than the grammar, are compared
// verdict against verdict). Every case asks `agree`. The case counts are
// bounded so that the suite stays quick; `PROPTEST_CASES=N` scales every
// property to N cases for a longer hunt. A failure prints the shrunk text.

use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::sync::OnceLock;

/// The grammar's vocabulary, with near misses: every keyword and a few
/// words that only start like one, punctuation, literals of every form
/// (valid, overflowing, badly escaped, unterminated), bang operators,
/// `$` names, and characters the grammar never accepts.
const TOKENS: &[&str] = &[
    // keywords and near misses
    "assert",
    "bit",
    "bits",
    "class",
    "code",
    "dag",
    "def",
    "defm",
    "defset",
    "deftype",
    "defvar",
    "dump",
    "else",
    "false",
    "field",
    "foreach",
    "if",
    "in",
    "include",
    "int",
    "let",
    "list",
    "multiclass",
    "string",
    "then",
    "true",
    "define",
    "classes",
    "in2",
    "letter",
    "true_",
    "bit_0",
    "int8",
    "then1",
    "else_",
    "lists",
    // punctuation
    "<",
    ">",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    ";",
    ":",
    "=",
    ".",
    "#",
    "?",
    "!",
    "-",
    "+",
    "...",
    "..",
    "$",
    // names
    "A",
    "B",
    "x",
    "Foo_1",
    "_u",
    "3DNow",
    "R0",
    "0x1G",
    // integers
    "0",
    "1",
    "42",
    "-3",
    "+7",
    "0x1F",
    "0b101",
    "0b2",
    "0-12",
    "1...4",
    "99999999999999999999",
    "0b11111111111111111111111111111111111111111111111111111111111111111",
    // strings and code
    "\"a\"",
    "\"\"",
    "\"a\\\"b\"",
    "\"t\\n\"",
    "\"bad\\q\"",
    "\"\u{e9}\"",
    "\"\\\u{e9}\"",
    "\"open",
    "[{ x }]",
    "[{}]",
    "[{",
    "}]",
    // bang operators and `$` names
    "!add",
    "!if",
    "!cast",
    "!foreach",
    "!con",
    "!listconcat",
    "!empty",
    "!x",
    "$a",
    "$1",
    // never accepted
    "\u{e9}",
    "\\",
    "'",
    "@",
    "%",
    "/",
    "*",
    "^",
];

/// What may stand between two tokens: nothing (gluing them), or blanks of
/// every kind the grammar skips (and one it does not, a non-breaking space).
const SEPARATORS: &[&str] = &[
    "", " ", " ", " ", "\n", "\t", "\r\n", "\u{b}", "\u{c}", "\u{a0}",
];

fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        // Failures print the shrunk text; nothing is written into the source tree.
        failure_persistence: None,
        ..Config::default()
    }
}

/// Runs `agree` on every case of `strategy`; panics with the shrunk text on a disagreement.
fn check_agreement(cases: u32, strategy: impl Strategy<Value = String>) {
    let mut runner = TestRunner::new(config(cases));
    let result = runner.run(&strategy, |text| {
        agree(&text).map(|_| ()).map_err(|e| {
            TestCaseError::fail(format!(
                "{e}\n--- text ({} bytes) ---\n{text:?}",
                text.len()
            ))
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A random sequence of vocabulary tokens with random separators.
fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec((select(TOKENS), select(SEPARATORS)), 0..40).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(token, sep)| [token, sep])
            .collect()
    })
}

// A program from the grammar: one string per rule, pieces joined by one
// space (the mutations below glue or split them).

/// Names, some starting with a keyword (which a name may, if more name
/// characters follow: `int8`, `true_`).
fn name() -> impl Strategy<Value = String> {
    select(
        &[
            "A", "B", "x", "Foo", "_t", "3DNow", "R1", "Sub", "int8", "true_", "in_", "bit0",
        ][..],
    )
    .prop_map(String::from)
}

fn int() -> impl Strategy<Value = String> {
    select(&["0", "1", "7", "-2", "+3", "0x1f", "12"][..]).prop_map(String::from)
}

fn ty() -> impl Strategy<Value = String> {
    let leaf = select(
        &[
            "bit",
            "int",
            "string",
            "code",
            "dag",
            "bits<4>",
            "bits < 8 >",
            "A",
            "Foo",
            "int8",
            "bits_t",
        ][..],
    )
    .prop_map(String::from);
    leaf.prop_recursive(3, 6, 1, |inner| inner.prop_map(|t| format!("list<{t}>")))
}

fn range_piece() -> impl Strategy<Value = String> {
    (
        int(),
        select(&["", "-5", " - 5", "...9", " ... 9", "-15"][..]),
    )
        .prop_map(|(a, b)| format!("{a}{b}"))
}

fn range_list() -> impl Strategy<Value = String> {
    prop::collection::vec(range_piece(), 1..3).prop_map(|r| r.join(", "))
}

/// The bits of a `let` item: integer ranges, or values that fold to ints
/// (`let cpol{CPolBit.GLC} = ...`), each with an optional end.
fn let_bits() -> impl Strategy<Value = String> {
    let index = (value(), prop::option::of(value())).prop_map(|(a, b)| match b {
        Some(b) => format!("{a}...{b}"),
        None => a,
    });
    prop_oneof![
        range_list(),
        prop::collection::vec(index, 1..3).prop_map(|v| v.join(", ")),
    ]
}

fn comma_list(items: Vec<String>, trailing: bool) -> String {
    let mut s = items.join(", ");
    if trailing && !items.is_empty() {
        s.push(',');
    }
    s
}

fn value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        int(),
        name(),
        select(
            &[
                "\"s\"",
                "\"a\" \"b\"",
                "\"e\\t\\n\"",
                "[{ code }]",
                "?",
                "true",
                "false",
                "0b10",
                "[]",
                "{}",
                "[]<int>",
                "!empty([])",
            ][..]
        )
        .prop_map(String::from),
    ];
    leaf.prop_recursive(4, 48, 3, |v| {
        let items = prop::collection::vec(v.clone(), 0..3);
        let some_items = prop::collection::vec(v.clone(), 1..3);
        prop_oneof![
            (items.clone(), any::<bool>()).prop_map(|(i, t)| format!("{{{}}}", comma_list(i, t))),
            (items.clone(), any::<bool>(), prop::option::of(ty())).prop_map(|(i, t, ty)| format!(
                "[ {}]{}",
                comma_list(i, t),
                ty.map_or(String::new(), |t| format!("<{t}>"))
            )),
            (
                v.clone(),
                prop::option::of(name()),
                prop::collection::vec((v.clone(), prop::option::of(name())), 0..3)
            )
                .prop_map(|(op, op_name, args)| {
                    let op_name = op_name.map_or(String::new(), |n| format!(":${n}"));
                    let mut args: Vec<String> = args
                        .into_iter()
                        .map(|(a, n)| n.map_or(a.clone(), |n| format!("{a}:${n}")))
                        .collect();
                    // After the operator, `[` or `{` would continue it as a
                    // slice, and a string would join a string operator;
                    // such a first argument goes in parentheses.
                    if op_name.is_empty()
                        && let Some(first) = args.first_mut()
                        && first.starts_with(['[', '{', '"'])
                    {
                        *first = format!("({first})");
                    }
                    format!("({op}{op_name} {})", args.join(", "))
                }),
            (
                select(
                    &[
                        "!add",
                        "!if",
                        "!foreach",
                        "!cast",
                        "!con",
                        "!strconcat",
                        "!foldl"
                    ][..]
                ),
                prop::option::of(ty()),
                prop::collection::vec((v.clone(), prop::option::of(v.clone())), 0..3),
                any::<bool>()
            )
                .prop_map(|(op, t, args, trailing)| {
                    let args: Vec<String> = args
                        .into_iter()
                        .map(|(a, b)| b.map_or(a.clone(), |b| format!("{a}:{b}")))
                        .collect();
                    format!(
                        "{op}{}({})",
                        t.map_or(String::new(), |t| format!("<{t}>")),
                        comma_list(args, trailing)
                    )
                }),
            (
                name(),
                prop::collection::vec((prop::option::of(name()), v.clone()), 0..3)
            )
                .prop_map(|(c, args)| {
                    let args: Vec<String> = args
                        .into_iter()
                        .map(|(n, a)| n.map_or(a.clone(), |n| format!("{n} = {a}")))
                        .collect();
                    format!("{c}<{}>", args.join(", "))
                }),
            // A `{` after `#` ends the paste (`def A # { ... }`), so such a
            // right-hand side goes in parentheses (a dag).
            (v.clone(), v.clone()).prop_map(|(a, b)| {
                if b.starts_with('{') {
                    format!("{a} # ({b})")
                } else {
                    format!("{a} # {b}")
                }
            }),
            (v.clone(), range_list()).prop_map(|(a, r)| format!("{a}{{{r}}}")),
            (v.clone(), some_items, any::<bool>())
                // `[{` opens a code fragment wherever it stands.
                .prop_map(|(a, i, t)| format!("{a}[ {}]", comma_list(i, t))),
            (v.clone(), range_piece()).prop_map(|(a, r)| format!("{a}[{r}]")),
            (v, name()).prop_map(|(a, f)| format!("{a}.{f}")),
        ]
    })
}

fn template_args() -> impl Strategy<Value = String> {
    prop::option::of(prop::collection::vec(
        (ty(), name(), prop::option::of(value())),
        1..3,
    ))
    .prop_map(|args| {
        args.map_or(String::new(), |args| {
            let args: Vec<String> = args
                .into_iter()
                .map(|(t, n, d)| d.map_or(format!("{t} {n}"), |d| format!("{t} {n} = {d}")))
                .collect();
            format!("<{}>", args.join(", "))
        })
    })
}

/// `: Parent, Parent<args>`.
fn parents() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            name(),
            prop::option::of(prop::collection::vec(value(), 0..3)),
        ),
        1..3,
    )
    .prop_map(|parents| {
        let parents: Vec<String> = parents
            .into_iter()
            .map(|(n, a)| a.map_or(n.clone(), |a| format!("{n}<{}>", a.join(", "))))
            .collect();
        format!(": {}", parents.join(", "))
    })
}

/// [`parents`] or nothing.
fn parent_list() -> impl Strategy<Value = String> {
    prop::option::of(parents()).prop_map(Option::unwrap_or_default)
}

/// A record name or nothing: a value, in parentheses (a dag) when it starts
/// with a character that would end the name (`def {` opens the body).
fn record_name() -> impl Strategy<Value = String> {
    (prop::option::of(value()), any::<bool>()).prop_map(|(n, trailing_paste)| match n {
        Some(n) if n.starts_with(['{', ':', ';']) => format!("({n})"),
        // `def X# : P;` pastes nothing: the paste may end before `:`, `;`, `{`.
        Some(n) if trailing_paste => format!("{n}#"),
        n => n.unwrap_or_default(),
    })
}

fn body_item() -> impl Strategy<Value = String> {
    prop_oneof![
        (any::<bool>(), ty(), name(), prop::option::of(value())).prop_map(|(field, t, n, v)| {
            let field = if field { "field " } else { "" };
            v.map_or(format!("{field}{t} {n};"), |v| {
                format!("{field}{t} {n} = {v};")
            })
        }),
        (name(), prop::option::of(let_bits()), value()).prop_map(|(n, r, v)| format!(
            "let {n}{} = {v};",
            r.map_or(String::new(), |r| format!("{{{r}}}"))
        )),
        (name(), value()).prop_map(|(n, v)| format!("defvar {n} = {v};")),
        (value(), value()).prop_map(|(c, m)| format!("assert {c}, {m};")),
        value().prop_map(|v| format!("dump {v};")),
    ]
}

fn object_body() -> impl Strategy<Value = String> {
    (
        parent_list(),
        prop::option::of(prop::collection::vec(body_item(), 0..4)),
    )
        .prop_map(|(p, items)| {
            let body = items.map_or(";".to_string(), |i| format!("{{ {} }}", i.join(" ")));
            format!("{p} {body}")
        })
}

fn statement() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (name(), template_args(), object_body()).prop_map(|(n, a, b)| format!("class {n}{a} {b}")),
        (record_name(), object_body()).prop_map(|(n, b)| format!("def {n} {b}")),
        (record_name(), parents()).prop_map(|(n, p)| format!("defm {n} {p};")),
        (name(), value()).prop_map(|(n, v)| format!("defvar {n} = {v};")),
        (name(), ty()).prop_map(|(n, t)| format!("deftype {n} = {t};")),
        (value(), value()).prop_map(|(c, m)| format!("assert {c}, {m};")),
        value().prop_map(|v| format!("dump {v};")),
        Just("include \"inc.td\"".to_string()),
    ];
    simple.prop_recursive(3, 24, 3, |s| {
        let block = prop_oneof![
            s.clone(),
            prop::collection::vec(s.clone(), 0..3).prop_map(|b| format!("{{ {} }}", b.join(" "))),
        ];
        let stmts = prop::collection::vec(s.clone(), 0..3).prop_map(|b| b.join(" "));
        prop_oneof![
            (
                name(),
                prop_oneof![
                    range_list().prop_map(|r| format!("{{{r}}}")),
                    range_piece(),
                    // `{` would be taken for a range list.
                    value().prop_map(|v| if v.starts_with('{') {
                        format!("({v})")
                    } else {
                        v
                    })
                ],
                block.clone()
            )
                .prop_map(|(n, i, b)| format!("foreach {n} = {i} in {b}")),
            (value(), block.clone(), prop::option::of(block.clone())).prop_map(
                |(c, t, e)| format!(
                    "if {c} then {t}{}",
                    e.map_or(String::new(), |e| format!(" else {e}"))
                )
            ),
            (
                prop::collection::vec((name(), prop::option::of(let_bits()), value()), 1..3),
                block
            )
                .prop_map(|(items, b)| {
                    let items: Vec<String> = items
                        .into_iter()
                        .map(|(n, r, v)| {
                            format!("{n}{} = {v}", r.map_or(String::new(), |r| format!("<{r}>")))
                        })
                        .collect();
                    format!("let {} in {b}", items.join(", "))
                }),
            (name(), template_args(), parent_list(), stmts.clone())
                .prop_map(|(n, a, p, b)| format!("multiclass {n}{a} {p} {{ {b} }}")),
            (ty(), name(), stmts).prop_map(|(t, n, b)| format!("defset {t} {n} = {{ {b} }}")),
        ]
    })
}

fn program() -> impl Strategy<Value = String> {
    prop::collection::vec(statement(), 1..5).prop_map(|s| s.join("\n"))
}

/// The text's tokens, roughly as the grammar sees them: runs of name
/// characters, runs of blanks, string literals, and single other characters.
/// Joined again they give the text back.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c == '"' {
            rest[1..].find(['"', '\n']).map_or(rest.len(), |i| i + 2)
        } else if c.is_ascii_alphanumeric() || c == '_' {
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else if c.is_ascii_whitespace() {
            rest.find(|c: char| !c.is_ascii_whitespace())
                .unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// One change to a token sequence, at an index taken modulo its length.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index),
    Double(Index),
    SwapWithNext(Index),
    Replace(Index, &'static str),
    Insert(Index, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        any::<Index>().prop_map(Mutation::Double),
        any::<Index>().prop_map(Mutation::SwapWithNext),
        (any::<Index>(), select(TOKENS)).prop_map(|(i, t)| Mutation::Replace(i, t)),
        (
            any::<Index>(),
            prop_oneof![select(TOKENS), select(SEPARATORS)]
        )
            .prop_map(|(i, t)| Mutation::Insert(i, t)),
    ]
}

/// `text` with `mutations` applied to its tokens, one after the other.
fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut toks: Vec<&str> = tokens(text);
    for m in mutations {
        if toks.is_empty() {
            break;
        }
        let n = toks.len();
        match *m {
            Mutation::Delete(i) => {
                toks.remove(i.index(n));
            }
            Mutation::Double(i) => {
                let i = i.index(n);
                toks.insert(i, toks[i]);
            }
            Mutation::SwapWithNext(i) => {
                let i = i.index(n);
                if i + 1 < n {
                    toks.swap(i, i + 1);
                }
            }
            Mutation::Replace(i, t) => toks[i.index(n)] = t,
            Mutation::Insert(i, t) => toks.insert(i.index(n + 1), t),
        }
    }
    toks.concat()
}

/// The corpus files small enough to parse hundreds of times over, preprocessed.
fn small_corpus() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        corpus()
            .iter()
            .filter_map(|p| preprocessed(p))
            .filter(|t| !t.trim().is_empty() && t.len() <= 16_384)
            .collect()
    })
}

/// Cases per property in the normal test suite (a few seconds in all on a
/// loaded two-core machine); `PROPTEST_CASES=N` sets every property to N.
const TOKEN_SOUP_CASES: u32 = 100_000;
const PROGRAM_CASES: u32 = 2_000;
const MUTATED_PROGRAM_CASES: u32 = 2_000;
const MUTATED_FILE_CASES: u32 = 2_000;
const NEIGHBOURHOOD_CASES: u32 = 100;

/// Disagreements the properties found, kept as fixed cases.
const FOUND_DRIFTS: &[&str] = &[
    // An `include` name with an unknown escape: pest's grammar accepts any
    // character after `\` and the tree builder never reads an include name,
    // but the fast path unescaped it and gave up.
    "include\"bad\\q\"",
];

#[test]
fn found_drifts_stay_fixed() {
    for text in FOUND_DRIFTS {
        agree(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    }
}

#[test]
fn same_verdicts_on_token_soup() {
    check_agreement(TOKEN_SOUP_CASES, token_soup());
}

#[test]
fn same_trees_on_generated_programs() {
    check_agreement(PROGRAM_CASES, program());
}

#[test]
fn same_verdicts_on_mutated_programs() {
    let strategy =
        (program(), prop::collection::vec(mutation(), 1..4)).prop_map(|(p, m)| mutate(&p, &m));
    check_agreement(MUTATED_PROGRAM_CASES, strategy);
}

/// Every text one token away from `text`: each token deleted, and each doubled.
fn neighbours(text: &str) -> impl Iterator<Item = String> + '_ {
    let toks = tokens(text);
    let n = toks.len();
    (0..n).flat_map(move |i| {
        let deleted: String = toks[..i].iter().chain(&toks[i + 1..]).copied().collect();
        let doubled: String = toks[..=i].iter().chain(&toks[i..]).copied().collect();
        [deleted, doubled]
    })
}

/// Near misses searched exhaustively rather than sampled: for each
/// generated program, every single-token deletion and doubling.
#[test]
fn same_verdicts_next_to_generated_programs() {
    let mut runner = TestRunner::new(config(NEIGHBOURHOOD_CASES));
    let result = runner.run(&program(), |text| {
        for near in neighbours(&text) {
            agree(&near).map_err(|e| {
                TestCaseError::fail(format!(
                    "{e}\n--- text ({} bytes) ---\n{near:?}",
                    near.len()
                ))
            })?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn same_verdicts_on_mutated_files() {
    let files = small_corpus();
    assert!(
        files.len() >= 300,
        "only {} small corpus files",
        files.len()
    );
    let strategy = (any::<Index>(), prop::collection::vec(mutation(), 1..4))
        .prop_map(move |(file, m)| mutate(&files[file.index(files.len())], &m));
    check_agreement(MUTATED_FILE_CASES, strategy);
}

/// The generators are not vacuous: most generated programs are accepted (so
/// `same_trees_on_generated_programs` compares trees, not two rejections),
/// and the mutations turn a good share into rejections (so the mutated
/// properties compare error verdicts near accepted text). Deterministic seed.
#[test]
fn generators_reach_both_verdicts() {
    let mut runner = TestRunner::deterministic();
    let share = |runner: &mut TestRunner, strategy: &dyn Fn(&mut TestRunner) -> String| {
        let accepted = (0..200)
            .filter(|_| agree(&strategy(runner)) == Ok(true))
            .count();
        accepted as f64 / 200.0
    };
    let programs = program();
    let generated = share(&mut runner, &|r| programs.new_tree(r).unwrap().current());
    let mutated_programs =
        (program(), prop::collection::vec(mutation(), 1..4)).prop_map(|(p, m)| mutate(&p, &m));
    let mutated = share(&mut runner, &|r| {
        mutated_programs.new_tree(r).unwrap().current()
    });
    let soup = token_soup();
    let souped = share(&mut runner, &|r| soup.new_tree(r).unwrap().current());
    eprintln!(
        "accepted by both: {:.0}% of generated programs, {:.0}% of mutated ones, {:.0}% of token soup",
        generated * 100.0,
        mutated * 100.0,
        souped * 100.0
    );
    assert!(
        generated >= 0.95,
        "generated programs accepted: {generated}"
    );
    assert!(
        (0.1..=0.9).contains(&mutated),
        "mutated programs accepted: {mutated}"
    );
}

// ------------------------------------------------------------ the grammar pinned

/// The rules of `td.pest`, each with the part of `syntax/descent*` that reads
/// it (and, for values and statements, the generator above that writes it).
/// A rule added to or removed from the grammar fails `grammar_is_pinned`
/// until it is mirrored there and listed here.
const MIRRORED_RULES: &[(&str, &str)] = &[
    ("WHITESPACE", "Descent::ws"),
    ("file", "Descent::file_stmts"),
    ("ident_char", "is_ident_char"),
    ("keyword", "is_keyword"),
    ("ident", "Descent::ident"),
    ("varname", "Descent::varname"),
    ("int_lit", "Descent::int_lit"),
    ("string_lit", "Descent::string_lit"),
    ("code_lit", "Descent::code_lit"),
    ("kw_true", "Descent::simple_value"),
    ("kw_false", "Descent::simple_value"),
    ("kw_field", "Descent::body_item"),
    ("kw_else", "Descent::stmt_inner (if)"),
    ("unset", "Descent::simple_value"),
    ("ty", "Descent::ty"),
    ("bit_ty", "Descent::ty"),
    ("bits_ty", "Descent::ty"),
    ("int_ty", "Descent::ty"),
    ("string_ty", "Descent::ty"),
    ("code_ty", "Descent::ty"),
    ("dag_ty", "Descent::ty"),
    ("list_ty", "Descent::ty"),
    ("class_ty", "Descent::ty"),
    ("value", "Descent::value_inner"),
    ("paste", "Descent::value_inner"),
    ("trailing_paste", "Descent::value_inner"),
    ("suffix", "Descent::suffix"),
    ("bit_suffix", "Descent::suffix"),
    ("bit_index_list", "Descent::bracketed_bit_indices"),
    ("bit_index", "Descent::bit_index"),
    ("list_suffix", "Descent::suffix"),
    ("field_suffix", "Descent::suffix"),
    ("slice_list", "Descent::slice_list"),
    ("trailing_comma", "Descent::slice_list"),
    ("slice_item", "Descent::slice_list"),
    ("bin_lit", "Descent::bin_lit"),
    ("simple_value", "Descent::simple_value"),
    ("strings", "Descent::strings"),
    ("bits_init", "Descent::simple_value"),
    ("list_init", "Descent::simple_value"),
    ("dag_init", "Descent::dag"),
    ("dag_op", "Descent::dag"),
    ("dag_arg", "Descent::dag"),
    ("class_inst", "Descent::class_inst"),
    ("inst_args", "Descent::angle_args"),
    ("args", "Descent::angle_args"),
    ("arg", "Descent::arg"),
    ("named_arg", "Descent::arg"),
    ("bang_op", "Descent::bang"),
    ("bang_name", "Descent::bang"),
    ("bang_arg", "Descent::bang"),
    ("range_list", "Descent::range_list"),
    ("range_piece", "Descent::range_piece"),
    ("range_to", "Descent::range_to"),
    ("range_piece_strict", "Descent::range_piece_strict"),
    ("statement", "Descent::stmt_inner"),
    ("block", "Descent::block"),
    ("include_stmt", "Descent::stmt_inner"),
    ("class_def", "Descent::stmt_inner"),
    ("template_args", "Descent::opt_template_args"),
    ("template_arg", "Descent::opt_template_args"),
    ("object_body", "Descent::object_body"),
    ("parent_list", "Descent::parent_list"),
    ("parent", "Descent::parent_list"),
    ("body", "Descent::object_body"),
    ("body_item", "Descent::body_item"),
    ("field_decl", "Descent::body_item"),
    ("let_item_stmt", "Descent::body_item"),
    ("let_item", "Descent::let_item"),
    ("def_stmt", "Descent::stmt_inner"),
    ("defm_stmt", "Descent::stmt_inner"),
    ("defset_stmt", "Descent::stmt_inner"),
    ("deftype_stmt", "Descent::stmt_inner"),
    ("defvar_stmt", "Descent::defvar_rest"),
    ("foreach_stmt", "Descent::stmt_inner"),
    ("foreach_iter", "Descent::foreach_iter"),
    ("if_stmt", "Descent::stmt_inner"),
    ("let_stmt", "Descent::stmt_inner"),
    ("top_let_item", "Descent::let_item"),
    ("multiclass_def", "Descent::stmt_inner"),
    ("assert_stmt", "Descent::assert_rest"),
    ("dump_stmt", "Descent::dump_rest"),
    (
        "value_only",
        "(pest only: parse_value, for tests and the fuzzer)",
    ),
    ("kw_assert", "Descent::stmt_inner"),
    ("kw_class", "Descent::stmt_inner"),
    ("kw_def", "Descent::stmt_inner"),
    ("kw_defm", "Descent::stmt_inner"),
    ("kw_defset", "Descent::stmt_inner"),
    ("kw_deftype", "Descent::stmt_inner"),
    ("kw_defvar", "Descent::stmt_inner"),
    ("kw_dump", "Descent::stmt_inner"),
    ("kw_foreach", "Descent::stmt_inner"),
    ("kw_if", "Descent::stmt_inner"),
    ("kw_in", "Descent::kw"),
    ("kw_include", "Descent::stmt_inner"),
    ("kw_let", "Descent::stmt_inner"),
    ("kw_multiclass", "Descent::stmt_inner"),
    ("kw_then", "Descent::kw"),
];

/// The fingerprint of `td.pest`'s rules (comments and blanks dropped) that
/// `syntax/descent*` was last checked against by hand.
const PINNED_GRAMMAR: u64 = 0x92ac_18d1_23b1_51cd;

/// `td.pest` without comments and blanks: its rules only, one per line.
fn grammar_rules_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/syntax/td.pest");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code).trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// FNV-1a, 64 bits: stable across Rust versions, unlike `DefaultHasher`.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The grammar cannot change unseen: a rule added or removed names itself,
/// and any other edit changes the fingerprint. Either way the fix is to
/// mirror the change in `syntax/descent*`, extend the generators above if a
/// construct is new, see the properties pass, and only then update
/// `MIRRORED_RULES` and `PINNED_GRAMMAR`.
#[test]
fn grammar_is_pinned() {
    let rules = grammar_rules_text();
    let defined: Vec<&str> = rules
        .lines()
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim()))
        .filter(|name| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .collect();
    let mirrored: Vec<&str> = MIRRORED_RULES.iter().map(|(rule, _)| *rule).collect();
    let added: Vec<&&str> = defined.iter().filter(|r| !mirrored.contains(r)).collect();
    let removed: Vec<&&str> = mirrored.iter().filter(|r| !defined.contains(r)).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "td.pest's rules changed: new {added:?}, gone {removed:?}; mirror them in syntax/descent*, \
         then list them in MIRRORED_RULES"
    );
    let fingerprint = fnv1a(&rules);
    assert_eq!(
        fingerprint, PINNED_GRAMMAR,
        "td.pest changed (fingerprint {fingerprint:#018x}, pinned {PINNED_GRAMMAR:#018x}): mirror the change \
         in syntax/descent*, extend this file's generators if a construct is new, and pin the new fingerprint"
    );
}
