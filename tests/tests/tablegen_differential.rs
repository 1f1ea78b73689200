//! Differential conformance: tdgen's records against `llvm-tblgen-19 -dump-json`,
//! through expectations checked in beside the cases.
//!
//! Every `tablegen/ok/NAME.td` file (one language feature or corner each; files
//! in `tablegen/ok/inc/` are include targets, not cases) has its expected JSON
//! in `tablegen/ok/NAME.json`: the output of
//! `llvm-tblgen-19 -dump-json -I tablegen/ok/inc tablegen/ok/NAME.td`, written
//! pretty-printed (two-space indent, llvm-tblgen's key order, a final newline).
//! `ok_corpus_matches_expectations` then
//! 1. always (LLVM or not) runs `tdgen::Loader` with the same include directory
//!    on each case and compares its JSON with the expectation;
//! 2. where `llvm-tblgen-19` is found, also runs it and compares its live JSON
//!    with the expectation, so that an expectation gone stale (a changed case,
//!    a hand edit, another LLVM 19 build) fails, naming the file;
//! 3. fails on a case without an expectation, an expectation without a case,
//!    and an expectation not in the exact form step 4 writes.
//! 4. With `TDGEN_BLESS=1` it writes every expectation from llvm-tblgen-19
//!    instead of step 2 (the oracle writes them, never tdgen; blessing without
//!    llvm-tblgen-19 is an error) and removes expectations whose case is gone;
//!    step 1 still runs against what was written.
//!
//! A second test runs `tablegen/target/stub.td` (LLVM's own
//! `llvm/Target/Target.td` plus a one-line target) with `-I` set to LLVM 19's
//! include directory: about 24,000 records, 27 MB of JSON. It has no checked-in
//! expectation (its input is LLVM's installed text) and needs LLVM 19.
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
//! Output: `N/N expectations match llvm-tblgen-19` (or `written`, or a note that
//! llvm-tblgen-19 was not run), `N/N files match their expectation`, then for
//! each failing file the first 3 differing JSON paths (RFC 6901 pointers).
//!
//! LLVM's absence, real or simulated with `TDGEN_NO_LLVM=1` (which hides
//! llvm-tblgen-19 from these tests as if it were not installed): step 1 and 3
//! still run and must pass; step 2 and the stub test print
//! `skipped: LLVM 19 not found` and pass, unless `CI` is set, in which case they
//! fail (after step 1 has run and reported).

use std::path::{Path, PathBuf};

use regalloc_tests::{
    catch_quietly, enter_tests_dir, first_lines, json_diffs, llvm_tblgen_json, llvm_tool,
    require_llvm_include_dir, shorten, skip_or_fail, td_files,
};
use serde_json::Value;

const OK_DIR: &str = "tablegen/ok";
const INC_DIR: &str = "tablegen/ok/inc";
const STUB: &str = "tablegen/target/stub.td";
const EXPECTATION_EXTENSION: &str = "json";
const DIFFS_PER_FILE: usize = 3;
const VALUE_WIDTH: usize = 160;

/// `TDGEN_BLESS` set to anything but empty or `0`.
fn blessing() -> bool {
    std::env::var_os("TDGEN_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// llvm-tblgen-19, unless absent or hidden by `TDGEN_NO_LLVM` (set to anything
/// but empty or `0`), which simulates a machine without LLVM.
fn llvm_tblgen() -> Option<PathBuf> {
    let hidden = std::env::var_os("TDGEN_NO_LLVM").is_some_and(|v| !v.is_empty() && v != "0");
    if hidden {
        None
    } else {
        llvm_tool("llvm-tblgen")
    }
}

/// Where the expected JSON of an ok case lives: beside it, `NAME.json`.
fn expectation_path(file: &str) -> PathBuf {
    Path::new(file).with_extension(EXPECTATION_EXTENSION)
}

/// The exact text an expectation file holds for `value`: pretty JSON (two-space
/// indent, keys in the order llvm-tblgen printed them) and a final newline, so
/// that blessing twice writes the same bytes and a changed record is a
/// readable line diff.
fn expectation_text(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// The checked-in expectation of `file`, or why there is none usable.
fn read_expectation(file: &str) -> Result<Value, String> {
    let path = expectation_path(file);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: no expectation ({e}); run with TDGEN_BLESS=1 and llvm-tblgen-19 installed to write it",
            path.display()
        )
    })?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON ({e})", path.display()))?;
    if text != expectation_text(&value) {
        return Err(format!(
            "{}: not in the form TDGEN_BLESS=1 writes (hand-edited?); rerun with TDGEN_BLESS=1",
            path.display()
        ));
    }
    Ok(value)
}

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

/// `None` if `actual` equals `expected`, else `what` and the first differences,
/// each naming the two sides.
fn difference_report(
    what: &str,
    expected: &Value,
    expected_name: &str,
    actual: &Value,
    actual_name: &str,
) -> Option<String> {
    let diffs = json_diffs(expected, actual, DIFFS_PER_FILE);
    if diffs.is_empty() {
        return None;
    }
    let mut report = format!("{what} (first {} differences)", diffs.len());
    for d in &diffs {
        report.push_str("\n    ");
        report.push_str(&d.describe(expected_name, actual_name, VALUE_WIDTH));
    }
    Some(report)
}

/// tdgen's JSON for `file` against `expected`; `None` if equal, else the failure report.
fn compare_tdgen(
    file: &str,
    include_dirs: &[&str],
    expected: &Value,
    expected_name: &str,
) -> Option<String> {
    match tdgen_json(file, include_dirs) {
        Ok(actual) => difference_report(
            &format!("{file}: JSON differs"),
            expected,
            expected_name,
            &actual,
            "tdgen",
        ),
        Err(e) => Some(format!("{file}: {}", indent(&e))),
    }
}

fn indent(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("\n    ")
}

/// Step 2: the expectation of `file` against llvm-tblgen-19's live output;
/// `None` if equal, else the failure report.
fn recheck_expectation(tblgen: &Path, file: &str) -> Option<String> {
    let live = match llvm_tblgen_json(tblgen, file, &[INC_DIR]) {
        Ok(v) => v,
        Err(e) => return Some(format!("{file}: corpus error, {e}")),
    };
    let path = expectation_path(file);
    match read_expectation(file) {
        Ok(expected) => difference_report(
            &format!(
                "{}: stale, llvm-tblgen-19 prints something else for {file}; rerun with TDGEN_BLESS=1",
                path.display()
            ),
            &expected,
            "expectation",
            &live,
            "llvm-tblgen",
        ),
        // Reported by step 1 as well; said once.
        Err(_) => None,
    }
}

/// Step 4: writes the expectation of `file` from llvm-tblgen-19.
fn bless_expectation(tblgen: &Path, file: &str) -> Option<String> {
    match llvm_tblgen_json(tblgen, file, &[INC_DIR]) {
        Ok(value) => {
            let path = expectation_path(file);
            std::fs::write(&path, expectation_text(&value))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            None
        }
        Err(e) => Some(format!("{file}: corpus error, {e}")),
    }
}

/// Expectation files in `dir` whose `.td` case is gone.
fn orphan_expectations(dir: &str) -> Vec<PathBuf> {
    let mut orphans: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == EXPECTATION_EXTENSION)
                && !p.with_extension("td").exists()
        })
        .collect();
    orphans.sort();
    orphans
}

#[test]
fn ok_corpus_matches_expectations() {
    enter_tests_dir();
    let files = td_files(OK_DIR);
    assert!(!files.is_empty(), "no .td files in {OK_DIR}");
    let tblgen = llvm_tblgen();
    let bless = blessing();
    let mut failures: Vec<String> = Vec::new();

    // Steps 2 and 4: the oracle first, so that tdgen meets what was just written.
    match (&tblgen, bless) {
        (None, true) => panic!(
            "TDGEN_BLESS=1 writes the expectations from llvm-tblgen-19, which was not found \
             (or TDGEN_NO_LLVM is set); they are never written from tdgen"
        ),
        (Some(tblgen), true) => {
            failures.extend(files.iter().filter_map(|f| bless_expectation(tblgen, f)));
            for orphan in orphan_expectations(OK_DIR) {
                std::fs::remove_file(&orphan)
                    .unwrap_or_else(|e| panic!("{}: {e}", orphan.display()));
            }
            println!(
                "{}/{} expectations written from llvm-tblgen-19",
                files.len() - failures.len(),
                files.len()
            );
        }
        (Some(tblgen), false) => {
            let before = failures.len();
            failures.extend(files.iter().filter_map(|f| recheck_expectation(tblgen, f)));
            println!(
                "{}/{} expectations match llvm-tblgen-19",
                files.len() - (failures.len() - before),
                files.len()
            );
        }
        (None, false) => println!("llvm-tblgen-19 not run: expectations not re-checked against it"),
    }

    // Step 3: every expectation has its case.
    for orphan in orphan_expectations(OK_DIR) {
        failures.push(format!(
            "{}: expectation without a .td case",
            orphan.display()
        ));
    }

    // Step 1: tdgen against the expectations.
    let before = failures.len();
    failures.extend(files.iter().filter_map(|f| match read_expectation(f) {
        Ok(expected) => compare_tdgen(f, &[INC_DIR], &expected, "expectation"),
        Err(e) => Some(e),
    }));
    println!(
        "{}/{} files match their expectation",
        files.len() - (failures.len() - before),
        files.len()
    );

    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} failures among {} ok cases (see above)",
        failures.len(),
        files.len()
    );
    if tblgen.is_none() {
        skip_or_fail("llvm-tblgen-19: expectations not re-checked against it");
    }
}

#[test]
fn stub_target_matches_llvm_tblgen() {
    enter_tests_dir();
    let Some(tblgen) = llvm_tblgen() else {
        skip_or_fail("llvm-tblgen-19");
        return;
    };
    let Some(include) = require_llvm_include_dir() else {
        return;
    };
    let include = include
        .to_str()
        .expect("LLVM include directory is not UTF-8")
        .to_string();

    let failure = match llvm_tblgen_json(&tblgen, STUB, &[&include]) {
        Ok(expected) => compare_tdgen(STUB, &[&include], &expected, "llvm-tblgen"),
        Err(e) => Some(format!("{STUB}: corpus error, {e}")),
    };
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
