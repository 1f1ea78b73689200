//! The `tdgen fmt` command: our own target descriptions are formatted (`--check` passes on them), and `--check`, `-o`, in-place writing and errors behave as documented.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tdgen"))
        .args(args)
        .output()
        .expect("tdgen runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fmt_command_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every `.td` file of `targets/` (the four targets and the oracle's top
/// files) is as `tdgen fmt` writes it: CI fails on a description that was
/// edited and not formatted.
#[test]
fn our_targets_are_formatted() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../targets");
    let out = tdgen(&["fmt", "--check", targets.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "run `tdgen fmt targets` (cargo run --release -p tdgen -- fmt targets); \
         these files would change:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn check_lists_what_would_change_and_writes_nothing() {
    let dir = scratch("check");
    let messy = dir.join("messy.td");
    let tidy = dir.join("tidy.td");
    std::fs::write(&messy, "def A:B{let x=1;}\n").unwrap();
    std::fs::write(&tidy, "def A : B { let x = 1; }\n").unwrap();
    let out = tdgen(&["fmt", "--check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), format!("{}\n", messy.display()));
    assert_eq!(text(&out.stderr), "");
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        "def A:B{let x=1;}\n"
    );
    let out = tdgen(&["fmt", "--check", tidy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn formats_in_place_and_into_another_file() {
    let dir = scratch("write");
    let file = dir.join("a.td");
    std::fs::write(&file, "def A:B{let x=1;}\n").unwrap();
    let copy = dir.join("copy.td");
    let out = tdgen(&["fmt", file.to_str().unwrap(), "-o", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        "def A : B { let x = 1; }\n"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "def A:B{let x=1;}\n"
    );
    let out = tdgen(&["fmt", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "def A : B { let x = 1; }\n"
    );
    // No temporary file is left beside it.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.td", "copy.td"]);
}

#[test]
fn a_file_that_cannot_be_lexed_is_left_alone_with_a_located_error() {
    let dir = scratch("error");
    let bad = dir.join("bad.td");
    let good = dir.join("good.td");
    std::fs::write(&bad, "def A {\n  let s = \"open;\n}\n").unwrap();
    std::fs::write(&good, "def A:B;\n").unwrap();
    let out = tdgen(&["fmt", bad.to_str().unwrap(), good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!("{}:2:11: error: unterminated string\n", bad.display())
    );
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "def A {\n  let s = \"open;\n}\n"
    );
    // The other file is still formatted.
    assert_eq!(std::fs::read_to_string(&good).unwrap(), "def A : B;\n");
}

#[test]
fn output_takes_one_input() {
    let dir = scratch("usage");
    let (a, b) = (dir.join("a.td"), dir.join("b.td"));
    std::fs::write(&a, "def A;\n").unwrap();
    std::fs::write(&b, "def B;\n").unwrap();
    let out = tdgen(&["fmt", a.to_str().unwrap(), b.to_str().unwrap(), "-o", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: -o takes exactly one input file\n"
    );
    let out = tdgen(&["fmt", "--check", a.to_str().unwrap(), "-o", "-"]);
    assert_eq!(out.status.code(), Some(2));
}
