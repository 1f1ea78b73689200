//! Differential conformance: tdgen's records against `llvm-tblgen-19 -dump-json`.
//!
//! Every `tablegen/ok/*.td` file (one language feature or corner each; files in
//! `tablegen/ok/inc/` are include targets, not cases) is run through
//! `llvm-tblgen-19 -dump-json -I tablegen/ok/inc FILE` and through
//! `tdgen::Loader` with the same include directory, and the two JSON documents
//! must be equal. A second case runs `tablegen/target/stub.td` (LLVM's own
//! `llvm/Target/Target.td` plus a one-line target) with `-I` set to LLVM 19's
//! include directory: about 24,000 records, 27 MB of JSON.
//!
//! Both tools run with the tests crate as working directory (`cargo test` runs
//! integration tests there) and get the same relative paths, so diagnostics
//! read `tablegen/ok/foo.td:3:5`. (llvm-tblgen's JSON `!locs` entries carry
//! only the file's base name and line, e.g. `"foo.td:3"`; tdgen must match that.)
//!
//! Normalization: the documents are compared as JSON values, so the order of
//! keys inside an object is irrelevant. Nothing else is normalized: record names
//! (including `anonymous_N` numbering), `!name`, `!anonymous`, `!locs`,
//! `!fields`, `!superclasses`, `!instanceof` (and the order of its lists),
//! `!tablegen_json_version`, array order, and the `kind`/`printable` shapes of
//! def, dag, var and varbit values must all be equal.
//!
//! Output: `N/N files match`, then for each failing file the first 3 differing
//! JSON paths (RFC 6901 pointers) with the llvm-tblgen and tdgen values.
//!
//! Without LLVM 19 the tests print `skipped: LLVM 19 not found` and pass,
//! unless `CI` is set, in which case they fail.

use std::path::Path;

use regalloc_tests::{
    catch_quietly, enter_tests_dir, first_lines, json_diffs, llvm_tblgen_json,
    require_llvm_include_dir, require_llvm_tool, shorten, td_files,
};
use serde_json::Value;

const OK_DIR: &str = "tablegen/ok";
const INC_DIR: &str = "tablegen/ok/inc";
const STUB: &str = "tablegen/target/stub.td";
const DIFFS_PER_FILE: usize = 3;
const VALUE_WIDTH: usize = 160;

/// Runs tdgen on `file` with `include_dirs` and returns its JSON, or a short
/// description of why there is none (diagnostics, or a panic).
fn tdgen_json(file: &str, include_dirs: &[&str]) -> Result<Value, String> {
    let outcome = catch_quietly(|| {
        let mut loader = tdgen::Loader::new();
        for dir in include_dirs {
            loader.include_dir(*dir);
        }
        match loader.records(file) {
            Ok(rk) => Ok(tdgen::records::to_json(&rk)),
            Err(diags) => Err(format!(
                "tdgen rejected it:\n{}",
                first_lines(&loader.render(&diags), 12)
            )),
        }
    });
    outcome.unwrap_or_else(|msg| Err(format!("tdgen panicked: {msg}")))
}

/// Compares one file; `None` if it matches, else the failure report.
fn compare_file(tblgen: &Path, file: &str, include_dirs: &[&str]) -> Option<String> {
    let expected = match llvm_tblgen_json(tblgen, file, include_dirs) {
        Ok(v) => v,
        Err(e) => return Some(format!("{file}: corpus error, {e}")),
    };
    let actual = match tdgen_json(file, include_dirs) {
        Ok(v) => v,
        Err(e) => return Some(format!("{file}: {}", indent(&e))),
    };
    let diffs = json_diffs(&expected, &actual, DIFFS_PER_FILE);
    if diffs.is_empty() {
        return None;
    }
    let mut report = format!("{file}: JSON differs (first {} differences)", diffs.len());
    for d in &diffs {
        report.push_str("\n    ");
        report.push_str(&d.describe("llvm-tblgen", "tdgen", VALUE_WIDTH));
    }
    Some(report)
}

fn indent(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("\n    ")
}

#[test]
fn ok_corpus_matches_llvm_tblgen() {
    enter_tests_dir();
    let Some(tblgen) = require_llvm_tool("llvm-tblgen") else {
        return;
    };
    let files = td_files(OK_DIR);
    assert!(!files.is_empty(), "no .td files in {OK_DIR}");

    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| compare_file(&tblgen, f, &[INC_DIR]))
        .collect();

    println!(
        "{}/{} files match",
        files.len() - failures.len(),
        files.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} files differ from llvm-tblgen (see above)",
        failures.len(),
        files.len()
    );
}

#[test]
fn stub_target_matches_llvm_tblgen() {
    enter_tests_dir();
    let Some(tblgen) = require_llvm_tool("llvm-tblgen") else {
        return;
    };
    let Some(include) = require_llvm_include_dir() else {
        return;
    };
    let include = include
        .to_str()
        .expect("LLVM include directory is not UTF-8")
        .to_string();

    let failure = compare_file(&tblgen, STUB, &[&include]);
    println!("{}/1 files match", usize::from(failure.is_none()));
    if let Some(f) = &failure {
        println!("  {}", shorten(f, 4000));
    }
    assert!(
        failure.is_none(),
        "{STUB} differs from llvm-tblgen (see above)"
    );
}

/// The corpus itself is well formed: enough cases, each opening with a `//`
/// comment saying what it tests. Runs without LLVM.
#[test]
fn ok_corpus_is_well_formed() {
    enter_tests_dir();
    let files = td_files(OK_DIR);
    assert!(
        files.len() >= 95,
        "expected at least 95 ok cases, found {}",
        files.len()
    );
    let includes = td_files(INC_DIR);
    for file in files
        .iter()
        .chain(&includes)
        .map(String::as_str)
        .chain([STUB])
    {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            text.starts_with("//"),
            "{file}: the first line must be a // comment saying what it tests"
        );
    }
}
